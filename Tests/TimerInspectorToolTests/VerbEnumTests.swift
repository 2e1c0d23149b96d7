import DebugShellCore
import Testing

@testable import TimerInspectorTool

/// Issue 30: the inspector declares its commands and verbs as enums (``ToolCommands``,
/// ``ToolVerbs``) and `run` switches over them: no string switch, no fallback.
@Suite struct TimerVerbEnumTests {
    @Test func theCommandsAndVerbsAreTheEnumsAndRoundTrip() throws {
        let commands = TimerInspector.descriptor.commands
        #expect(commands.map(\.name) == TimerInspector.Command.allCases.map(\.rawValue))
        #expect(commands.map(\.name) == ["timer", "object"])
        #expect(commands[0].verbs.map(\.name) == TimerInspector.TimerVerb.allCases.map(\.rawValue))
        #expect(
            commands[0].verbs.map(\.name) == [
                "nstimer", "gcd", "displaylink", "after", "countdown", "pause", "resume", "invalidate", "list", "show",
                "plot", "watch", "leaks",
            ])
        #expect(commands[0].defaultVerb == "list")
        #expect(commands[1].verbs.map(\.name) == TimerInspector.ObjectVerb.allCases.map(\.rawValue))
        #expect(commands[1].verbs.map(\.name) == ["new", "release", "list"])
        #expect(commands[1].defaultVerb == "list")
        for command in TimerInspector.Command.allCases { #expect(command.declaration.name == command.rawValue) }
        for verb in TimerInspector.TimerVerb.allCases {
            #expect(verb.declaration.name == verb.rawValue)
            let invocation = Invocation(command: "timer", verb: verb.rawValue, text: "", values: [:], flags: [])
            #expect(try invocation.verb(TimerInspector.TimerVerb.self) == verb)
        }
        for verb in TimerInspector.ObjectVerb.allCases { #expect(verb.declaration.name == verb.rawValue) }
    }

    /// What a listing says made a timer is the name of the verb that made it.
    @Test func aTimersMakerIsAVerb() {
        let makers: [TimerMaker] = [.nstimer, .gcd, .displaylink, .after, .countdown]
        #expect(makers.map(\.name) == ["nstimer", "gcd", "displaylink", "after", "countdown"])
        #expect(makers.map(\.verb) == [.nstimer, .gcd, .displaylink, .after, .countdown])
    }

    /// A verb of the other command, or a command of another tool, is refused (the old string
    /// switch's fallback said it was not a timer inspector command).
    @Test func anUndeclaredVerbOrCommandIsRefused() throws {
        let driver = try Driver()
        let inspector = try #require(driver.inspector)
        for (command, verb, message) in [
            ("object", "nstimer", "'object' has no verb 'nstimer'"), ("timer", "new", "'timer' has no verb 'new'"),
            ("fps", "show", "'fps' is not a command of this tool"),
        ] {
            do {
                _ = try inspector.run(Invocation(command: command, verb: verb, text: "", values: [:], flags: []))
                Issue.record("'\(command) \(verb)' ran")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    /// `--range` is a typed range: the link requests what was given, and a bad one is the
    /// parser's error, before the inspector runs (no timer is made).
    @Test func theRangeArrivesParsed() throws {
        let driver = try Driver()
        #expect(
            driver.run("timer displaylink g --range 10Hz,abc")
                == "error: '10Hz,abc' is not a frame rate range: 'abc' is not a whole number of hertz (min,max[,preferred], e.g. 80,120,120)"
        )
        #expect(driver.get("timer.count") == "0")
        #expect(driver.run("timer displaylink g --range 80,120,120") == "")
        #expect(driver.get("timer.count") == "1")
    }
}
