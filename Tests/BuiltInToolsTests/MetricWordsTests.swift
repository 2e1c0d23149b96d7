import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellInterpreter

/// Issue 24: assertions that cannot be mistyped. A word metric declares its words; a condition
/// comparing it with another word is an error naming them, before time moves
/// (docs/Decisions.md, "Words a metric can take").
@Suite struct MetricWordsTests {
    /// Runs a script in a fresh session of the built-in tools; returns stderr, the outcome and
    /// the clock after it.
    func run(_ script: String) throws -> (stdout: String, stderr: String, outcome: ScriptOutcome, now: SimTime) {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        let outcome = session.runScript(script, origin: ScriptOrigin(name: "words.dsh"))
        return (sink.standardOutput, sink.standardError, outcome, session.engine.now)
    }

    /// `expect layout.state != setled` held on main: a misspelt word was a condition that could
    /// never fail. Now it is an error naming the words, and nothing after it runs.
    @Test func aMisspeltWordInExpectIsAnErrorNamingTheWords() throws {
        let r = try run("layout watch window\nexpect layout.state != setled\nrun 1s\necho after")
        #expect(
            r.stderr
                == "words.dsh:2: error: 'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)\n"
        )
        #expect(r.outcome == .failed)
        #expect(r.stdout == "")
        #expect(r.now == .zero)
    }

    /// `run until` with a misspelt word fails at once: the clock does not move to the timeout.
    @Test(arguments: [
        (
            "run until fps.tier == goood",
            "'goood' is not a value of fps.tier; it is one of good, warning, critical, severe (did you mean 'good'?)"
        ),
        (
            "run until clock.mode == trackng --timeout 5s",
            "'trackng' is not a value of clock.mode; it is one of default, tracking (did you mean 'tracking'?)"
        ),
        (
            "break when layout.state == settld",
            "'settld' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)"
        ),
        (
            "break when clock.mode != common",
            "'common' is not a value of clock.mode; it is one of default, tracking"
        ),
        (
            "expect timer.poll.state == scheduld",
            "'scheduld' is not a value of timer.poll.state; it is one of scheduled, paused, invalidated, done (did you mean 'scheduled'?)"
        ),
        (
            "run until timer.poll.state == stopped",
            "'stopped' is not a value of timer.poll.state; it is one of scheduled, paused, invalidated, done"
        ),
        (
            "expect layout.state == 3",
            "'3' is not a value of layout.state; it is one of idle, settling, settled, timeout"
        ),
        (
            "expect layout.state < settled",
            "'layout.state < settled': only == and != apply here (layout.state is a word: idle, settling, settled, timeout)"
        ),
        ("expect fps.value == good", "fps.value is an integer: 'good' is not an integer"),
    ])
    func aMisspeltWordStopsTheScriptBeforeTimeMoves(line: String, message: String) throws {
        let r = try run("timer nstimer poll --interval 100ms --repeats\n\(line)\nrun 1s")
        #expect(r.stderr == "words.dsh:2: error: \(message)\n")
        #expect(r.outcome == .failed)
        #expect(r.now == .zero)
    }

    /// A scheduled condition's words are checked when it is scheduled: the `after` line fails,
    /// nothing is scheduled, no time moves.
    @Test(arguments: [
        "after 1s expect layout.state == setled",
        "every 100ms { echo a; expect layout.state == setled }",
        "at 2s break when layout.state == setled",
    ])
    func aScheduledConditionIsCheckedWhenScheduled(line: String) throws {
        let r = try run("\(line)\nrun 3s")
        #expect(
            r.stderr
                == "words.dsh:1: error: 'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)\n"
        )
        #expect(r.stdout == "")
        #expect(r.now == .zero)
    }

    /// The declared words still compare, both ways.
    @Test func theRightWordsCompareAsBefore() throws {
        let r = try run(
            """
            timer nstimer poll --interval 100ms --repeats
            expect layout.state == idle and layout.state != settled
            expect clock.mode == default and fps.tier == none
            expect timer.poll.state == scheduled
            timer invalidate poll
            expect timer.poll.state == invalidated
            layout watch window --timeout 1s
            run until layout.state == settled
            expect clock.mode == tracking
            """)
        #expect(r.stderr == "words.dsh:9: error: expectation failed: clock.mode == tracking (clock.mode = default)\n")
        #expect(r.outcome == .failed)
    }

    /// Every word metric of the shell and the built-in tools declares its words (none is
    /// `.anyWord`), each word reads back through a condition, and a misspelt one is refused
    /// with the list: a new word metric without its words fails here.
    @Test func everyBuiltInWordMetricRefusesAMisspeltWord() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        let registry = session.registry
        let metrics = registry.shellMetrics + registry.toolDescriptors.flatMap(\.metrics)
        let wordMetrics = metrics.filter { $0.type == .word }
        #expect(
            Set(wordMetrics.map(\.name)) == ["clock.mode", "layout.state", "timer.*.state", "fps.tier"],
            "a new word metric: add it here once it declares its words")
        for spec in wordMetrics {
            guard let words = spec.words else {
                Issue.record("\(spec.name) takes any word: declare its words")
                continue
            }
            #expect(!words.isEmpty)
            let name = spec.name.replacingOccurrences(of: "*", with: "t")
            for word in words {
                var checker = ScriptChecker(session: session)
                checker.check("expect \(name) == \(word)", origin: ScriptOrigin(name: "w.dsh"))
                #expect(checker.problems.isEmpty, "\(name) == \(word): \(checker.problems.map(\.message))")
            }
            let misspelt = words[0] + "x"
            var checker = ScriptChecker(session: session)
            checker.check(
                "expect \(name) == \(misspelt)\nrun until \(name) != \(misspelt)\nbreak when \(name) == \(misspelt)",
                origin: ScriptOrigin(name: "w.dsh"))
            let message =
                "'\(misspelt)' is not a value of \(name); it is one of \(words.joined(separator: ", ")) (did you mean '\(words[0])'?)"
            #expect(checker.problems.map(\.place) == ["w.dsh:1", "w.dsh:2", "w.dsh:3"])
            #expect(checker.problems.map(\.message) == [message, message, message])
        }
    }

    /// The words are the enums' cases, so they cannot drift from what the tools answer.
    @Test func theWordsComeFromTheEnums() throws {
        let registry = try Session(tools: BuiltInTools.all, sink: MemorySink()).registry
        #expect(registry.metricSpec("layout.state")?.words == ["idle", "settling", "settled", "timeout"])
        #expect(registry.metricSpec("clock.mode")?.words == ["default", "tracking"])
        #expect(registry.metricSpec("timer.poll.state")?.words == TimerState.allCases.map(\.rawValue))
        #expect(registry.metricSpec("fps.tier")?.words == ["good", "warning", "critical", "severe"])
    }

    /// `help <metric>` shows the words, and so does its JSON.
    @Test func helpShowsTheWords() throws {
        let r = try run("help clock.mode")
        #expect(r.stdout == "clock.mode (metric, word: default|tracking) — The run loop's mode: default or tracking.\n")
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(json: true), sink: sink)
        _ = session.runScript("help fps.tier", origin: ScriptOrigin(name: "j.dsh"))
        #expect(sink.standardOutput.contains(#""type": "word", "words": ["good", "warning", "critical", "severe"]"#))
    }
}
