import BuiltInTools
import DebugShellTesting
import Testing

@testable import DebugShell

/// Issue 36, item 11: `metrics` over many timers stops at Ctrl-C while the tools' metric names
/// are gathered, not only while they are listed. Counted in looks at the interrupt and names
/// gathered, never in wall-clock time.
@Suite struct MetricsInterruptTests {
    /// A session with `timers` timers (five metric names each).
    func session(timers: Int, sink: MemorySink) throws -> Session {
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        for k in 0..<timers { _ = session.runLine("timer gcd t\(k) --interval 1s") }
        return session
    }

    @Test func gatheringNamesLooksForAnInterruptEveryThousandNames() throws {
        let sink = MemorySink()
        let s = try session(timers: 2_000, sink: sink)
        // Uninterrupted: the timer inspector's 10,004 names are checked with a look every 1,024
        // (and one before each tool lists its names).
        var looks = 0
        let all = s.metrics.names(
            startingWith: "",
            stoppingWhen: {
                looks += 1; return false
            })
        #expect(all?.count == s.allMetricNames().count)
        #expect(looks >= 10_004 / 1_024, "\(looks) looks")
        // An interrupt at the third look stops the gathering there: nothing is returned.
        looks = 0
        let stopped = s.metrics.names(
            startingWith: "",
            stoppingWhen: {
                looks += 1; return looks >= 3
            })
        #expect(stopped == nil)
        #expect(looks == 3)
    }

    @Test func anInterruptWhileNamesAreGatheredStopsMetricsWithNothingPrinted() throws {
        let sink = MemorySink()
        let s = try session(timers: 2_000, sink: sink)
        sink.clear()
        // The interrupt comes at the first look, which is now in the gathering: `metrics` stops
        // there, before any metric is read or printed. (It used to gather every name first.)
        var looks = 0
        s.isInterrupted = {
            looks += 1
            return true
        }
        #expect(s.runLine("metrics") == .interrupted)
        #expect(looks <= 2, "\(looks) looks")
        #expect(sink.standardOutput == "", "\(sink.standardOutput)")
        #expect(sink.standardError == "error: interrupted at 0s\n", "\(sink.standardError)")
        // `get` with a pattern gathers the same way.
        sink.clear()
        #expect(s.runLine("get 'timer.*.fires'") == .interrupted)
        #expect(sink.standardOutput == "")
        s.isInterrupted = { false }
        sink.clear()
        #expect(s.runLine("metrics timer.t1999") == .finished)
        #expect(sink.standardOutput.split(separator: "\n").count == 5, "\(sink.standardOutput)")
    }
}
