import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellInterpreter

/// A tool that hands the host bad answers on demand, in process: the unit-level twin of the
/// careless plugin (Tests/Fixtures/CarelessPlugin), beside the counter tool whose event and
/// setting it tries to use.
final class UnrulyTool: DebugTool {
    static let limit = SettingSpec.integer("unruly.limit", in: 1...10, abstract: "A number.", default: 5)
    static let mode = SettingSpec.choice("unruly.mode", abstract: "A choice.", default: Mode.quiet)

    enum Mode: String, CommandLineChoice {
        case quiet, loud
    }

    static let verbs = [
        "show", "emit", "emit-foreign", "emit-future", "emit-past", "emit-undeclared", "emit-controls", "spam",
        "set-foreign", "set-shell", "set-unknown", "set-wrong-type", "set-out-of-range", "set-bad-choice",
        "set-good", "print-controls", "stream-controls", "fail-controls",
    ]

    static let descriptor = ToolDescriptor(
        name: "unruly", abstract: "Hands the host bad answers.",
        commands: [
            CommandSpec(
                "unruly", abstract: "Misbehave.", verbs: verbs.map { VerbSpec($0, abstract: "Do it.") },
                defaultVerb: "show")
        ],
        metrics: [
            MetricSpec("unruly.count", .integer, abstract: "A good metric."),
            MetricSpec("unruly.nil", .integer, abstract: "Answered nil."),
            MetricSpec("unruly.kind", .integer, abstract: "Answered with a duration."),
            MetricSpec("unruly.word", .anyWord, abstract: "A word with controls."),
            MetricSpec("unruly.*.hits", .integer, abstract: "A family, answered nil."),
        ],
        settings: [limit, mode],
        events: [EventSpec("unruly.said", abstract: "Said something.")])

    let host: any ToolHost
    var count: Int64 = 0

    init(host: any ToolHost) { self.host = host }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let now = host.device.now
        func emit(_ name: String, at time: SimTime, _ message: String) {
            host.emit(ToolEvent(name: name, time: time, message: message))
        }
        switch invocation.verb {
        case "emit": emit("unruly.said", at: now, "hello")
        case "emit-foreign": emit("counter.reached", at: now, "reached 3 ticks")
        case "emit-future": emit("unruly.said", at: now + .seconds(1), "from the future")
        case "emit-past": emit("unruly.said", at: SimTime.zero, "from the past")
        case "emit-undeclared": emit("unruly.secret", at: now, "never declared")
        case "emit-controls": emit("unruly.said", at: now, "a\rb\n[0.000s] counter: forged\u{1B}[2J\u{07}")
        case "spam":
            _ = host.device.addDisplayLink(DisplayLinkConfig(owner: .tool("unruly"), label: "spam")) {
                [unowned self] callback in
                count += 1
                host.emit(ToolEvent(name: "counter.reached", time: callback.start, message: "spam"))
                host.emit(ToolEvent(name: "unruly.said", time: callback.start + .milliseconds(1), message: "late"))
                host.setSetting("unruly.limit", to: .word("lots"))
                return .zero
            }
        case "set-foreign": host.setSetting("counter.step", to: .integer(9))
        case "set-shell": host.setSetting("shell.echo", to: .boolean(true))
        case "set-unknown": host.setSetting("unruly.nothing", to: .integer(1))
        case "set-wrong-type": host.setSetting("unruly.limit", to: .word("lots"))
        case "set-out-of-range": host.setSetting("unruly.limit", to: .integer(20))
        case "set-bad-choice": host.setSetting("unruly.mode", to: .word("shouty"))
        case "set-good":
            host.setSetting(Self.limit, to: 7)
            host.setSetting(Self.mode, to: .loud)
        case "print-controls":
            return CommandOutput(
                text: "before\rafter \u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07} nul\u{0}\ttab\nline two",
                json: .fields(["text": .string("bell\u{07}")]))
        case "stream-controls":
            return CommandOutput(
                streamed: StreamedOutput(
                    text: { line in _ = line("one\r") && line("two\u{07}") }, json: { .string("x") }))
        case "fail-controls":
            throw CommandError("failed\r\u{1B}[2J\u{07}")
        default:
            let raw = host.setting(Self.mode.name)
            let arrives: String
            if case .word(let w)? = raw { arrives = "the word '\(w)'" } else { arrives = "\(String(describing: raw))" }
            return CommandOutput(
                text:
                    "limit \(host.setting(Self.limit)), mode \(host.setting(Self.mode).rawValue) (arrives as \(arrives))"
            )
        }
        return .silent
    }

    func metric(_ name: String) -> MetricValue? {
        switch name {
        case "unruly.count": return .integer(count)
        case "unruly.kind": return .duration(.milliseconds(5))
        case "unruly.word": return .word("esc\u{1B}[2Jbell\u{07}")
        default: return nil
        }
    }

    func metricNames() -> [String] {
        [
            "unruly.count", "unruly.nil", "unruly.kind", "unruly.word", "unruly.red.hits", "unruly.ghost",
            "counter.total",
        ]
    }

    func statusLine() -> StyledText? { StyledText(plain: "unruly \(count)\u{07}\rbell") }
}

/// What the host does with a tool's bad answers (docs/Plugins.md, "What the host checks"),
/// in process; CarelessPluginTests checks the same through a real plugin on the binary.
@Suite struct HostCheckTests {
    static var tools: [any DebugTool.Type] { [CounterTool.self, UnrulyTool.self] }

    func expect(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: Self.tools)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: Events

    /// Only the tool's own declared events, stamped now, are printed; the rest are dropped with
    /// a warning that names the tool, once per tool, problem and event.
    @Test func eventsAreTheToolsOwnAndNow() throws {
        try expect(
            """
            > unruly emit
            [0.000s] unruly: hello
            > unruly emit-foreign
            warning: tool 'unruly' emitted an event 'counter.reached' outside its namespace; dropped
            > unruly emit-foreign
            > unruly emit-undeclared
            warning: tool 'unruly' emitted an event 'unruly.secret' it does not declare; dropped
            > run 10ms
            > unruly emit-future
            warning: tool 'unruly' emitted the event 'unruly.said' stamped 1.01s at 10ms (events are stamped now); dropped
            > unruly emit-past
            > unruly emit
            [0.010s] unruly: hello
            """)
    }

    /// A tool that misbehaves every frame is named once, not sixty times a second.
    @Test func aWarningComesOncePerSession() throws {
        let r = try Transcript.run(
            "unruly spam\nrun 500ms\nreset\nunruly spam\nrun 500ms\nget unruly.count", tools: Self.tools)
        #expect(r.stdout == "unruly.count = 30\n")
        #expect(
            r.stderr == """
                warning: tool 'unruly' emitted an event 'counter.reached' outside its namespace; dropped
                warning: tool 'unruly' emitted the event 'unruly.said' stamped 1ms at 0s (events are stamped now); dropped
                warning: tool 'unruly' set its setting 'unruly.limit' to the word 'lots', but it declares an integer in 1…10; dropped

                """)
    }

    // MARK: Settings

    /// `setSetting` changes only the tool's own settings, with a value of the declared kind.
    @Test func settingsAreTheToolsOwnAndTyped() throws {
        try expect(
            """
            > unruly set-foreign
            warning: tool 'unruly' set the setting 'counter.step', which is not its own; dropped
            > settings show counter.step
            counter.step = 1
            > unruly set-shell
            warning: tool 'unruly' set the setting 'shell.echo', which is not its own; dropped
            > settings show shell.echo
            shell.echo = off
            > unruly set-unknown
            warning: tool 'unruly' set the setting 'unruly.nothing', which it does not declare; dropped
            > unruly set-wrong-type
            warning: tool 'unruly' set its setting 'unruly.limit' to the word 'lots', but it declares an integer in 1…10; dropped
            > unruly set-out-of-range
            warning: tool 'unruly' set its setting 'unruly.limit' to the integer 20, but it declares an integer in 1…10; dropped
            > unruly set-bad-choice
            warning: tool 'unruly' set its setting 'unruly.mode' to the word 'shouty', but it declares one of quiet, loud; dropped
            > unruly
            limit 5, mode quiet (arrives as the word 'quiet')
            > unruly set-good
            > unruly
            limit 7, mode loud (arrives as the word 'loud')
            > set unruly.mode quiet
            > unruly
            limit 7, mode quiet (arrives as the word 'quiet')
            """)
    }

    // MARK: Metrics

    /// A declared metric the tool answers nil for has no value: `none`, which `expect` compares
    /// as it compares any metric without a value.
    @Test func aDeclaredMetricWithoutAValueIsNone() throws {
        try expect(
            """
            > get unruly.nil
            unruly.nil = none
            > expect unruly.nil == none
            > expect unruly.nil > 1
            error: expectation failed: unruly.nil has no value yet
            > get unruly.red.hits
            unruly.red.hits = none
            > get unruly.blue.hits
            error: unknown metric 'unruly.blue.hits'; did you mean 'unruly.red.hits'?
            """)
        let sink = MemorySink()
        let session = try Session(tools: Self.tools, options: SessionOptions(json: true), sink: sink)
        _ = session.runLine("get unruly.nil")
        #expect(
            sink.standardOutput
                == #"{"command": "get unruly.nil", "ok": true, "result": {"metric": "unruly.nil", "type": "integer", "value": null}}"#
                + "\n")
    }

    /// A value of another type than declared is refused with an error that names the tool and
    /// the metric; `expect` does not compare it.
    @Test func aValueOfTheWrongTypeIsRefused() throws {
        let refused = "tool 'unruly' answered metric 'unruly.kind' with a duration, but it declares an integer"
        try expect(
            """
            > get unruly.kind
            error: \(refused)
            > expect unruly.kind == 5000000
            error: \(refused)
            > expect unruly.kind != 1
            error: \(refused)
            > run until unruly.kind == 1 --timeout 50ms
            error: \(refused)
            """)
        let r = try Transcript.run("metrics unruly", tools: Self.tools)
        #expect(
            r.stdout == """
                unruly.count = 0
                unruly.nil = none
                unruly.kind = none
                unruly.word = esc\\x1b[2Jbell\\x07
                unruly.red.hits = none

                """)
        #expect(
            r.stderr == """
                test.dsh:1: warning: tool 'unruly' lists the metric 'unruly.ghost' but does not declare it; not shown
                test.dsh:1: warning: \(refused)

                """)
    }

    /// `run until` reads a metric after each instant: a value of the wrong type there reads as
    /// none, with a warning the first time.
    @Test func runUntilReadsAWrongTypeAsNone() throws {
        let sink = MemorySink()
        let session = try Session(tools: Self.tools, sink: sink)
        let reader = session.metrics.reader("unruly.kind")
        #expect(reader() == .none && reader() == .none)
        #expect(
            sink.standardError
                == "warning: tool 'unruly' answered metric 'unruly.kind' with a duration, but it declares an integer; read as none\n"
        )
    }

    /// Names a tool lists but does not declare are not shown, not completed, not suggested;
    /// `get` says why it does not know one.
    @Test func undeclaredNamesAreLeftOut() throws {
        let sink = MemorySink()
        let session = try Session(tools: Self.tools, sink: sink)
        #expect(!session.allMetricNames().contains("unruly.ghost"))
        #expect(session.allMetricNames().filter { $0 == "counter.total" }.count == 1)
        #expect(session.complete("get unruly.g").candidates == [])
        try expect(
            """
            > get unruly.ghost
            error: unknown metric 'unruly.ghost': tool 'unruly' lists it but does not declare it
            > metrics counter.t
            warning: tool 'unruly' lists the metric 'counter.total' but does not declare it; not shown
            counter.total = 0
            """)
    }

    // MARK: Text

    /// A tool's text never reaches the terminal raw: control characters are escaped in its
    /// command output (streamed or not), its events and its metric words, newlines and tabs kept
    /// in output only; errors were escaped already. JSON carries the text as it is.
    @Test func aToolsTextIsMadeSafe() throws {
        try expect(
            """
            > unruly print-controls
            before\\x0dafter \\x1b[31mred\\x1b[0m \\x1b]0;title\\x07 nul\\x00\ttab
            line two
            > unruly stream-controls
            one\\x0d
            two\\x07
            > unruly emit-controls
            [0.000s] unruly: a\\x0db\\n[0.000s] counter: forged\\x1b[2J\\x07
            > get unruly.word
            unruly.word = esc\\x1b[2Jbell\\x07
            > unruly fail-controls
            error: failed\\x0d\\x1b[2J\\x07
            > status
            counter 0
            unruly 0  bell
            > echo --raw "a\\tb"
            a\tb
            """)
        let sink = MemorySink()
        let session = try Session(tools: Self.tools, options: SessionOptions(json: true), sink: sink)
        _ = session.runLine("unruly print-controls")
        #expect(sink.standardOutput.contains(#""result": {"text": "bell\u0007"}"#), "\(sink.standardOutput)")
    }

    /// Where the display shows colour, a chart's colour codes (SGR) stay; nothing else does.
    @Test func colourCodesStayWhereColourShows() throws {
        let sink = MemorySink()
        let session = try Session(tools: Self.tools, options: SessionOptions(color: true), sink: sink)
        _ = session.runLine("unruly print-controls")
        #expect(
            sink.standardOutput
                == "before\\x0dafter \u{1B}[31mred\u{1B}[0m \\x1b]0;title\\x07 nul\\x00\ttab\nline two\n")
        #expect(
            VisibleText.terminalSafe("\u{1B}[38;2;1;2;3m█\u{1B}[0m", keepingLayout: true, keepingColor: true)
                == "\u{1B}[38;2;1;2;3m█\u{1B}[0m")
        #expect(
            VisibleText.terminalSafe("\u{1B}[2J\u{1B}[", keepingLayout: true, keepingColor: true) == "\\x1b[2J\\x1b[")
        #expect(VisibleText.terminalSafe("plain ✓", keepingLayout: false) == "plain ✓")
        #expect(VisibleText.blanked("a\tb\u{07}c\u{85}") == "a b c ")
    }
}
