import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// What a trace costs grows with what happened, not with its square (issue 32): thirty thousand
/// NSTimers firing at the same instants took 190 s of CPU traced against 0.44 s untraced, because
/// each zero-cost callback joined to the slice of those before it at its instant copied their
/// list. The recorder and the writer count their steps (``TraceTimeline/work``,
/// ``TraceWriter/work``): twice the timers must take about twice the steps. Counted, never timed.
@Suite struct TraceCostTests {
    /// Runs `timers` timers made by `make` for one second, traced; returns the steps the recorder
    /// took, those a save takes, and the callbacks and handlers that ran.
    func cost(_ timers: Int, _ make: (Int) -> String) throws -> (recorder: Int64, writer: Int64, firings: Int64) {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        var lines = ["trace start --limit 10000000"]
        for k in 0..<timers { lines.append(make(k)) }
        lines.append("run 1s")
        #expect(
            session.runScript(lines.joined(separator: "\n"), origin: ScriptOrigin(name: "t")) == .finished,
            "\(sink.standardError)")
        var firings: Int64 = 0
        for k in 0..<timers {
            if case .integer(let fires) = session.metricValueOrNone("timer.t\(k).fires") { firings += fires }
        }
        let timeline = try #require(session.tracing.recorder).snapshot()
        var bytes = 0
        let written = TraceRecorder.encode(timeline, generator: "t") { bytes += $0.count }
        #expect(written.kept == timeline.kept && bytes > 0)
        return (timeline.work, written.work, firings)
    }

    /// The cases: NSTimers that cost nothing (joined into one slice per instant) and
    /// that cost a microsecond (a slice each, late by those before them), GCD timers on the main
    /// queue, and on background queues with no cost (joined per lane) and with a cost longer
    /// than their interval's share (spread over lanes, at most 64).
    static let kinds: [String] = [
        "timer nstimer t%d --interval 100ms --repeats",
        "timer nstimer t%d --interval 100ms --repeats --cost 1us",
        "timer gcd t%d --interval 100ms",
        "timer gcd t%d --interval 100ms --queue background",
        "timer gcd t%d --interval 100ms --queue background --cost 1ms",
    ]

    @Test(arguments: kinds) func twiceTheTimersTakeTwiceTheSteps(_ kind: String) throws {
        let make = { (k: Int) in kind.replacingOccurrences(of: "%d", with: "\(k)") }
        let small = try cost(600, make)
        let large = try cost(1_200, make)
        // Every timer fired at each 100 ms of the second: what there is to record doubled.
        #expect(small.firings >= 600 * 9 && large.firings == 2 * small.firings, "\(small) \(large)")
        // Each callback is a few steps, however many ran at its instant before it (a handler
        // looks at the background lanes, at most 64, for one that is free).
        let most = Int64(TraceTimeline.maxLanes) + 8
        for run in [small, large] {
            #expect(run.recorder >= run.firings && run.writer >= run.firings, "\(run)")
            #expect(run.recorder <= most * run.firings && run.writer <= 4 * run.firings + 1_000, "\(run)")
        }
        let recorder = Double(large.recorder) / Double(small.recorder)
        let writer = Double(large.writer) / Double(small.writer)
        #expect(recorder > 1.8 && recorder < 2.2, "recorder: \(small.recorder) → \(large.recorder) steps")
        #expect(writer > 1.8 && writer < 2.2, "writer: \(small.writer) → \(large.writer) steps")
    }

    /// The zero-cost NSTimers of one instant are one slice (`N zero-cost items`) that names every
    /// one of them, however many: what the quadratic join built, now built in steps of one.
    @Test func zeroCostTimersOfOneInstantAreOneSliceOfThemAll() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        var lines = ["trace start --categories main"]
        for k in 0..<2_000 { lines.append("timer nstimer t\(k) --interval 100ms --repeats") }
        lines.append("run 250ms")
        #expect(session.runScript(lines.joined(separator: "\n"), origin: ScriptOrigin(name: "t")) == .finished)
        let recorder = try #require(session.tracing.recorder)
        let trace = try PerfettoImport(Data(recorder.json(generator: "t")))
        let merged = trace.slices(onThread: "Main thread").filter { $0.args["items"] != nil }
        #expect(merged.map(\.ts) == [100_000_000, 200_000_000], "\(merged.map(\.name))")
        for slice in merged {
            #expect(slice.name == "2000 zero-cost items", "\(slice.name)")
            #expect((slice.args["items"] as? [String])?.count == 2_000)
            #expect(slice.args["late"] == nil)
        }
        #expect(recorder.snapshot().work < 3 * 2 * 2_000 + 100, "\(recorder.snapshot().work) steps")
    }
}
