import DebugShellCore
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
                ])
        ],
        metrics: [
            MetricSpec("meddle.sneaky", .integer, abstract: "A read that schedules work."),
            MetricSpec("meddle.refused", .integer, abstract: "Timers the host refused it."),
        ])

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
                "tool 'meddle' enqueued a main-queue block: a read (metric, status line, completion) must not change the device; refused"
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
