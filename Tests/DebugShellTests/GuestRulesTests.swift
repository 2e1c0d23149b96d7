import DebugShellCore
import DebugShellInterpreter
import DebugShellTesting
import Testing

@testable import DebugShell

/// A tool that tries what a guest may not (issue 34, points 2, 3 and 7): another tool's timer and
/// observer, work scheduled from a read, a 1 ns repeating timer, a negative cost.
final class MeddlerTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "meddle", abstract: "Tries what a guest may not, to test the host's rules.",
        commands: [
            CommandSpec(
                "meddle", abstract: "Meddle.",
                verbs: [
                    VerbSpec("kill", abstract: "Invalidate a timer by id.", arguments: [target]),
                    VerbSpec("pause", abstract: "Pause a timer by id.", arguments: [target]),
                    VerbSpec("unobserve", abstract: "Remove an observer by token.", arguments: [target]),
                    VerbSpec("spin", abstract: "Add a run-loop timer repeating every nanosecond."),
                    VerbSpec("block", abstract: "Enqueue a block of a negative cost."),
                    VerbSpec("own", abstract: "Add a link of its own, then pause and invalidate it."),
                    VerbSpec("json", abstract: "Answer with JSON that schedules work when it is made."),
                    VerbSpec("stream", abstract: "Answer with streamed text that schedules work as it is written."),
                ])
        ],
        metrics: [
            MetricSpec("meddle.sneaky", .integer, abstract: "A read that schedules work."),
            MetricSpec("meddle.refused", .integer, abstract: "Timers the host refused it."),
        ],
        events: [EventSpec("meddle.said", abstract: "Never emitted; isSaying schedules work.")])

    static let target = ArgumentSpec.integer("id", in: 0...1_000_000, abstract: "The id.")

    let host: any ToolHost
    var refused: Int64 = 0

    init(host: any ToolHost) { self.host = host }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let device = host.device
        switch invocation.verb {
        case "kill": device.invalidate(TimerID(rawValue: Int(invocation[Self.target])))
        case "pause": device.pause(TimerID(rawValue: Int(invocation[Self.target])))
        case "unobserve": device.removeObserver(ObserverToken(rawValue: Int(invocation[Self.target])))
        case "spin":
            let id = device.addRunLoopTimer(
                RunLoopTimerConfig(
                    interval: SimDuration(nanoseconds: 1), repeats: true, owner: .tool("meddle"), label: "spin"),
                callback: nil)
            if id.rawValue < 0 { refused += 1 }
        case "block":
            device.enqueueMainBlock(
                cost: SimDuration(nanoseconds: -5_000_000), dirtiesUI: false, label: "negative", action: nil)
        case "own":
            let id = device.addDisplayLink(DisplayLinkConfig(owner: .tool("meddle"), label: "mine"), callback: nil)
            device.pause(id)
            device.invalidate(id)
            return CommandOutput(text: "\(device.timerInfo(id)?.state.rawValue ?? "none")")
        case "json":
            return CommandOutput(
                text: "text",
                json: {
                    device.enqueueMainBlock(cost: .milliseconds(100), dirtiesUI: false, label: "json", action: nil)
                    return .fields(["ok": .int(1)])
                }())
        case "stream":
            return CommandOutput(
                streamed: StreamedOutput(
                    text: { line in
                        device.enqueueMainBlock(cost: .milliseconds(100), dirtiesUI: false, label: "text", action: nil)
                        _ = line("streamed")
                    },
                    json: { .fields([:]) }))
        default: break
        }
        return .silent
    }

    func metric(_ name: String) -> MetricValue? {
        switch name {
        case "meddle.sneaky":
            host.device.enqueueMainBlock(cost: .milliseconds(100), dirtiesUI: false, label: "sneaky", action: nil)
            return .integer(1)
        case "meddle.refused": return .integer(refused)
        default: return nil
        }
    }

    func isSaying(_ event: String) -> Bool {
        host.device.enqueueMainBlock(cost: .milliseconds(100), dirtiesUI: false, label: "saying", action: nil)
        return true
    }
}

/// A plugin's tool that meddles from its observer's callback, through the device it is called
/// with: it invalidates timer #1 at every vsync.
final class ObserverMeddlerTool: DebugTool, DeviceObserver {
    static let descriptor = ToolDescriptor(
        name: "watcher", abstract: "Meddles from an observer, to test the host's rules.", commands: [])

    init(host: any ToolHost) { _ = host.device.addObserver(self, kinds: .vsync) }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }
    func metric(_ name: String) -> MetricValue? { nil }

    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        device.invalidate(TimerID(rawValue: 1))
    }
}

/// The host's rules for what a tool asks of the device (docs/Plugins.md, "A plugin is a guest"):
/// each test fails when the tool gets the engine itself.
@Suite struct GuestRulesTests {
    static func session() throws -> (Session, MemorySink) {
        let sink = MemorySink()
        let session = try Session(tools: [CounterTool.self, MeddlerTool.self], sink: sink)
        return (session, sink)
    }

    /// Point 2: the counter's link (timer #1; #0 is the app's UI link) stays alive when another
    /// tool invalidates or pauses it, and the counter still reaches its target.
    @Test func aToolCannotStopAnothersTimer() throws {
        let (session, sink) = try Self.session()
        _ = session.runScript("counter tick --until 3\nmeddle kill 1\nmeddle pause 1\nrun 100ms", origin: .typed)
        #expect(sink.standardOutput.contains("counter: reached 3 ticks"), "\(sink.combined)")
        #expect(
            sink.standardError.contains(
                "warning: tool 'meddle' invalidated timer #1, which tool 'counter' made: a tool changes only its own; refused"
            ), "\(sink.standardError)")
        #expect(sink.standardError.contains("tool 'meddle' paused timer #1, which tool 'counter' made"))
        // Its own it may pause and invalidate.
        sink.clear()
        _ = session.runLine("meddle own")
        #expect(sink.standardOutput == "invalidated\n", "\(sink.combined)")
    }

    /// Point 3: `isSaying` (asked when `break on` is armed), a command's JSON (made only with
    /// `--json`) and its streamed output are reads too: the work they try to queue is refused, so
    /// arming a breakpoint or asking for JSON leaves the device as it was.
    @Test(arguments: [(true, "break on meddle.said"), (true, "meddle json"), (false, "meddle stream")])
    func outputAndIsSayingScheduleNothing(json: Bool, line: String) throws {
        let sink = MemorySink()
        let session = try Session(
            tools: [CounterTool.self, MeddlerTool.self], options: SessionOptions(json: json), sink: sink)
        _ = session.runScript("\(line)\nrun 10ms", origin: .typed)
        #expect(session.metricValueOrNone("main.busy_until") == .time(.zero), "\(sink.combined)")
        #expect(sink.standardError.contains("tool 'meddle' enqueued a main-queue block"), "\(sink.standardError)")
    }

    /// Point 2: a plugin's observer is called with its own device, not the engine, so the rules
    /// hold from its callback too: the counter's link, which it invalidates at every vsync, lives.
    @Test func anObserverCannotStopAnothersTimer() throws {
        let (session, sink) = try Self.session()
        try session.addTools([ObserverMeddlerTool.self], plugin: "watchers")
        _ = session.runScript("counter tick --until 3\nrun 100ms", origin: .typed)
        #expect(sink.standardOutput.contains("counter: reached 3 ticks"), "\(sink.combined)")
        #expect(
            sink.standardError.contains("warning: tool 'watcher' invalidated timer #1, which tool 'counter' made"),
            "\(sink.standardError)")
    }

    /// Point 2: an observer another added (the trace's, a tool's) stays.
    @Test func aToolCannotRemoveAnothersObserver() throws {
        let (session, sink) = try Self.session()
        _ = session.runScript("trace start\nmeddle unobserve 0\nmeddle unobserve 1\nrun 50ms", origin: .typed)
        #expect(sink.standardError.contains("tool 'meddle' removed observer 0, which it did not add"))
        let recorder = try #require(session.tracing.recorder)
        // The trace went on recording the vsyncs' work after the attempt.
        #expect(recorder.json(generator: "t").count > 1_000)
    }

    /// Point 3: a read that schedules work is refused; the device is as it was.
    @Test func aReadSchedulesNothing() throws {
        let (session, sink) = try Self.session()
        _ = session.runScript("get meddle.sneaky\nget main.busy_until", origin: .typed)
        #expect(sink.standardOutput == "meddle.sneaky = 1\nmain.busy_until = 0s\n", "\(sink.combined)")
        #expect(
            sink.standardError.contains(
                "tool 'meddle' enqueued a main-queue block: a read (metric, status line, completion, output) must not change the device; refused"
            ), "\(sink.standardError)")
    }

    /// Point 7: the shell's limits hold for the API: a 1 ns repeating timer and a negative cost.
    @Test func theShellsLimitsHoldForTheAPI() throws {
        let (session, sink) = try Self.session()
        _ = session.runScript("meddle spin\nmeddle block\nget meddle.refused main.busy_until", origin: .typed)
        #expect(sink.standardOutput == "meddle.refused = 1\nmain.busy_until = 0s\n", "\(sink.combined)")
        #expect(sink.standardError.contains("a repeating interval is at least 1us; refused"))
        #expect(sink.standardError.contains("a cost is in [0, the 2^62 ns horizon); refused"))
    }
}

/// A tool whose text has no end (issue 34, point 7): a 10,000,000-character status line, in
/// two runs, and an abstract and a discussion of a million characters.
final class BabblerTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "babble", abstract: "Says too much, to test the caps on a tool's text.",
        commands: [
            CommandSpec(
                "babble", abstract: String(repeating: "a", count: 1_000_000),
                discussion: String(repeating: "d", count: 1_000_000),
                verbs: [VerbSpec("", abstract: "Babble.")])
        ])

    static let statusLength = 10_000_000

    init(host: any ToolHost) {}

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }

    func metric(_ name: String) -> MetricValue? { nil }

    func statusLine() -> StyledText? {
        StyledText([("babble ", .bold), (String(repeating: "x", count: Self.statusLength), .plain)])
    }
}

@Suite struct GuestTextCapTests {
    /// Point 7: a 10 MB status line is kept and printed as its first 200 characters and `…`,
    /// wherever the shell shows it (the live block, `status`).
    @Test func aStatusLineIsCapped() throws {
        let sink = MemorySink()
        let session = try Session(tools: [CounterTool.self, BabblerTool.self], sink: sink)
        let line = try #require(session.tools.statusLine(of: 1))
        #expect(line.plain.count == TextCap.statusLine + 1)
        #expect(line.plain.hasSuffix("x…"))
        #expect(line.runs.first?.text == "babble ")
        let live = session.liveStatusLines()
        #expect(live.count == 2)
        #expect(live.last?.plain == line.plain)
        #expect(live[0].plain == "counter 0")
        _ = session.runLine("status")
        let printed = sink.standardOutput.split(separator: "\n")
        #expect(printed.count == 2)
        #expect(printed.last?.count == TextCap.statusLine + 1)
        #expect(printed.last?.hasSuffix("…") == true)
    }

    /// Point 7: help text past the caps is cut at registration, with a visible `…`.
    @Test func helpTextIsCapped() throws {
        let session = try Session(tools: [BabblerTool.self], sink: MemorySink())
        let registry = session.vocabulary.registry
        let command = try #require(registry.toolDescriptors.first?.commands.first)
        #expect(command.abstract.count == TextCap.abstract + 1)
        #expect(command.abstract.hasSuffix("a…"))
        #expect(command.discussion?.count == TextCap.discussion + 1)
        #expect(command.discussion?.hasSuffix("d…") == true)
    }

    /// A short line, and a line of exactly the cap, are left as they are; a cut keeps the
    /// style of the run it cuts.
    @Test func shortTextIsLeftAlone() {
        let exact = String(repeating: "é", count: TextCap.statusLine)
        #expect(TextCap.cut(exact, to: TextCap.statusLine) == exact)
        #expect(TextCap.cut(StyledText(plain: exact)).plain == exact)
        let split = StyledText([
            (String(repeating: "a", count: 150), .bold), (String(repeating: "b", count: 100), .dim),
        ])
        let cut = TextCap.cut(split)
        #expect(cut.runs.count == 2)
        #expect(cut.runs[1].text == String(repeating: "b", count: 50) + "…")
        #expect(cut.runs[1].style == .dim)
        let exactRuns = StyledText([(String(repeating: "a", count: 200), .bold), ("", .plain)])
        #expect(TextCap.cut(exactRuns).plain == String(repeating: "a", count: 200))
        let more = StyledText([(String(repeating: "a", count: 200), .bold), ("z", .plain)])
        #expect(TextCap.cut(more).plain == String(repeating: "a", count: 200) + "…")
    }
}

/// A tool whose argument and option have literal defaults (issue 34, point 8), written as the
/// docs show: they read as the integers typed, `Int64`s, not as a `Double` default.
final class LiteralDefaultsTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "literal", abstract: "Declares literal defaults, to test how they read.",
        commands: [
            CommandSpec("literal", abstract: "Say how the count and times read.", arguments: [count], options: [times])
        ])

    static let count = ArgumentSpec.optional("count", .integer(1...10), abstract: "How many.", default: 1)
    static let times = OptionSpec.typed("times", .integer(1...10), abstract: "How often.", default: 2)

    init(host: any ToolHost) {}

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let count = invocation[Self.count]
        let times = invocation[Self.times]
        return CommandOutput(text: "count \(count) (\(type(of: count))), times \(times) (\(type(of: times)))")
    }

    func metric(_ name: String) -> MetricValue? { nil }
}

/// A tool whose integer argument's default is a `Double`: refused at registration.
final class DecimalDefaultTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "decimal", abstract: "Declares a default of the wrong kind.",
        commands: [
            CommandSpec(
                "decimal", abstract: "Never runs.",
                verbs: [VerbSpec("", abstract: "Never runs.", arguments: [count])])
        ])

    static let count = ArgumentSpec.optional("count", .integer(1...10), abstract: "How many.", default: 1.5)

    init(host: any ToolHost) {}
    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }
    func metric(_ name: String) -> MetricValue? { nil }
}

/// A tool with a command named like the built-in alias `r` (for `run`).
final class AliasShadowTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "shadow", abstract: "Names a command like a built-in alias.",
        commands: [
            CommandSpec("shadow", abstract: "Its own command.", verbs: [VerbSpec("", abstract: "Shadow.")]),
            CommandSpec("r", abstract: "Would replace 'r'.", verbs: [VerbSpec("", abstract: "Replace.")]),
        ])

    init(host: any ToolHost) {}
    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }
    func metric(_ name: String) -> MetricValue? { nil }
}

@Suite struct GuestDeclarationTests {
    /// Point 8: a literal default is typed as declared, and what is typed is read.
    @Test func aLiteralDefaultReadsAsDeclared() throws {
        let sink = MemorySink()
        let session = try Session(tools: [LiteralDefaultsTool.self], sink: sink)
        _ = session.runScript("literal\nliteral 5 --times 7", origin: .typed)
        #expect(
            sink.standardOutput == "count 1 (Int64), times 2 (Int64)\ncount 5 (Int64), times 7 (Int64)\n",
            "\(sink.combined)")
    }

    /// Point 8: a default of another kind than declared is refused when the tool registers,
    /// naming the argument, the value and the kind.
    @Test func aDefaultOfAnotherKindIsRefused() {
        #expect {
            _ = try Session(tools: [DecimalDefaultTool.self], sink: MemorySink())
        } throws: { error in
            "\(error)".hasPrefix(
                "tool 'decimal': argument 'count' of 'decimal' has a default '1.5' that is not valid: the number 1.5, but it declares an integer in 1…10"
            )
        }
    }

    /// Point 8: a command named like a built-in alias is refused, at start and at load, with the
    /// alias and what it stands for; `r` still runs.
    @Test func aCommandCannotTakeABuiltInAlias() throws {
        let expected = "tool 'shadow': command 'r' is taken by the built-in alias 'r' (for 'run'), which is kept"
        #expect {
            _ = try Session(tools: [AliasShadowTool.self], sink: MemorySink())
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
        let sink = MemorySink()
        let session = try Session(tools: [], sink: sink)
        #expect {
            try session.addTools([AliasShadowTool.self], plugin: "shadow")
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
        _ = session.runScript("r 10ms\nget clock.now", origin: .typed)
        #expect(sink.standardOutput.hasSuffix("clock.now = 10ms\n"), "\(sink.combined)")
    }
}
