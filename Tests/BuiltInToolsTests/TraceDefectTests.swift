import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// The defects issue 32 found by looking at traces in Perfetto's UI, each checked on the trace as
/// Perfetto reads it (``PerfettoImport``).
@Suite struct TraceDefectTests {
    let base = TraceTests()

    /// Issue 32: after a `reset`, a timer item's `lateness_ns` added the reset's offset (its
    /// scheduled time was the simulation's, its start the trace's) and a hitch's
    /// `expected_present_ns` was the simulation's while its `present_ns` was the trace's. Every
    /// time in the arguments is on the trace's clock now.
    @Test func timesInArgumentsAreOnTheTracesClockAfterAReset() throws {
        let (_, trace, _) = try base.traced([
            "trace start", "run 1500ms", "reset", "timer nstimer tick --interval 100ms --repeats --cost 1ms",
            "timer gcd bg --interval 50ms --queue background --cost 1ms", "timer displaylink link --cost 1ms", "animate 1s",
            "load gpu 20ms", "run 1s",
        ])
        let offset: Int64 = 1_500_000_000
        let timed = trace.slices.filter { $0.args["lateness_ns"] != nil }
        for name in ["tick", "bg", "link"] { #expect(timed.contains { $0.name == name }, "\(name)") }
        #expect(timed.count > 40)
        for slice in timed {
            let scheduled = Int64(try #require(slice.args["scheduled_ns"] as? Int))
            let lateness = Int64(try #require(slice.args["lateness_ns"] as? Int))
            #expect(scheduled >= offset, "\(slice): scheduled on the trace's clock")
            #expect(lateness == max(0, slice.ts - scheduled), "\(slice)")
            // Late by a callback's cost at most (the link and the timer meet), never by the offset.
            #expect(lateness <= 2_000_000, "\(slice) reads \(lateness) ns late")
        }
        let hitches = trace.slices(onThread: "Hitches")
        #expect(hitches.count > 10)
        for hitch in hitches {
            let expected = Int64(try #require(hitch.args["expected_present_ns"] as? Int))
            let present = Int64(try #require(hitch.args["present_ns"] as? Int))
            let length = Int64(try #require(hitch.args["hitch_ns"] as? Int))
            #expect(present == hitch.end && expected == hitch.ts, "\(hitch)")
            #expect(present - expected == length && expected >= offset, "\(hitch)")
        }
        // The presents' expected times were already the trace's: they still are.
        for present in trace.slices(onThread: "Display") where present.name == "present" {
            #expect(Int64(present.args["expected_present_ns"] as? Int ?? 0) >= offset, "\(present)")
        }
    }
}
