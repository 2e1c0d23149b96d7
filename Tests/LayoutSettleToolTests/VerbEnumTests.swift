import DebugShellCore
import Testing

@testable import LayoutSettleTool

/// Issue 30: the checker declares its commands and verbs as enums (``ToolCommands``,
/// ``ToolVerbs``) and `run` switches over them: no string switch, no fallback.
@Suite struct LayoutVerbEnumTests {
    typealias Checker = LayoutSettleChecker

    @Test func theCommandsAndVerbsAreTheEnumsAndRoundTrip() throws {
        let commands = Checker.descriptor.commands
        #expect(commands.map(\.name) == Checker.Command.allCases.map(\.rawValue))
        #expect(commands.map(\.name) == ["view", "layout"])
        #expect(commands[0].verbs.map(\.name) == Checker.ViewVerb.allCases.map(\.rawValue))
        #expect(commands[0].verbs.map(\.name) == ["add", "set", "remove", "animate", "spin", "grow", "tree", "count"])
        #expect(commands[0].defaultVerb == nil)
        #expect(commands[1].verbs.map(\.name) == Checker.LayoutVerb.allCases.map(\.rawValue))
        #expect(commands[1].verbs.map(\.name) == ["watch", "stop", "show", "diff"])
        #expect(commands[1].defaultVerb == "show")
        for command in Checker.Command.allCases {
            #expect(command.declaration.name == command.rawValue)
            let invocation = Invocation(command: command.rawValue, verb: "", text: "", values: [:], flags: [])
            #expect(try invocation.command(Checker.Command.self) == command)
        }
        for verb in Checker.ViewVerb.allCases { #expect(verb.declaration.name == verb.rawValue) }
        for verb in Checker.LayoutVerb.allCases { #expect(verb.declaration.name == verb.rawValue) }
    }

    /// A verb of the other command, or a command of another tool, is refused, not run as
    /// `layout show` (the old fallback).
    @Test func anUndeclaredVerbOrCommandIsRefused() throws {
        let session = try LayoutSession()
        let tool = try session.tool
        for (command, verb, message) in [
            ("view", "watch", "'view' has no verb 'watch'"), ("layout", "add", "'layout' has no verb 'add'"),
            ("fps", "show", "'fps' is not a command of this tool"),
        ] {
            do {
                _ = try tool.run(Invocation(command: command, verb: verb, text: "", values: [:], flags: []))
                Issue.record("'\(command) \(verb)' ran")
            } catch {
                #expect(error.message == message)
            }
        }
    }
}
