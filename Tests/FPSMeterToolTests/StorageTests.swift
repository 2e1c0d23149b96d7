import DebugShellCore
import Testing

@testable import FPSMeterTool

/// The bounded structures behind the meter: rings, per-second tallies, the interval histogram
/// and the vsync ledger.
@Suite struct StorageTests {
    @Test func ringKeepsTheNewest() {
        var ring = Ring(capacity: 3, filler: 0)
        for i in 1...5 { ring.append(i) }
        #expect(ring.elements == [3, 4, 5])
        #expect(ring.appended == 5 && ring.dropped == 2)
        #expect(ring.first == 3 && ring.last == 5)
        ring.removeFirst()
        #expect(ring.elements == [4, 5])
        #expect(ring.partition { $0 < 5 } == 1)
        ring.removeAll()
        #expect(ring.isEmpty && ring.appended == 0)
        ring.append(9)
        #expect(ring.elements == [9])
    }

    /// R5's per-second counts: the second being filled and the one before.
    @Test func secondTally() {
        var tally = SecondTally()
        for t: Int64 in [100, 900, 1_000, 1_500, 1_999, 3_200] { tally.add(at: SimTime(nanoseconds: t * ms)) }
        #expect(tally.count(inSecond: 3) == 1)
        #expect(tally.count(inSecond: 2) == 0)
        #expect(tally.count(inSecond: 1) == 3)
        #expect(tally.count(inSecond: 0) == 0)  // forgotten: only two seconds are kept
    }

    /// Nearest rank: the ⌈p/100 · N⌉-th smallest.
    @Test func nearestRankPercentiles() {
        var h = IntervalHistogram()
        #expect(h.percentile(50) == nil && h.maximum == nil)
        for v in (1...100).reversed() { h.add(Int64(v)) }
        #expect(h.percentile(50) == 50)
        #expect(h.percentile(95) == 95)
        #expect(h.percentile(99) == 99)
        #expect(h.maximum == 100)
        var ten = IntervalHistogram()
        for v in stride(from: 10, through: 100, by: 10) { ten.add(Int64(v)) }
        #expect(ten.percentile(50) == 50)
        #expect(ten.percentile(95) == 100)  // rank ⌈9.5⌉ = 10
        var repeated = IntervalHistogram()
        for _ in 0..<98 { repeated.add(16_666_667) }
        repeated.add(50_000_000)
        repeated.add(100_000_000)
        #expect(repeated.values.count == 3)
        #expect(repeated.percentile(50) == 16_666_667)
        #expect(repeated.percentile(99) == 50_000_000)
        #expect(repeated.maximum == 100_000_000)
    }

    /// The ledger's vsyncs expect a present when the vsync two before was animating (R3).
    @Test func vsyncLedgerMissedPresents() {
        var ledger = VsyncLedger()
        ledger.start(animating: false)
        let period = SimDuration.milliseconds(10)
        func vsync(_ k: Int64, animating: Bool, present: Bool) {
            let t = SimTime(nanoseconds: k * 10 * ms)
            if present { ledger.presented(at: t) }
            ledger.vsync(at: t, animating: animating) { period }
        }
        // Animating from v0 to v3; presents at v2 and v5 only.
        vsync(0, animating: true, present: false)
        vsync(1, animating: true, present: false)
        vsync(2, animating: true, present: true)
        vsync(3, animating: true, present: false)
        vsync(4, animating: false, present: false)
        vsync(5, animating: false, present: true)
        vsync(6, animating: false, present: false)
        // v0, v1: nothing expected yet; v3, v4 expected and missed; v6 expects nothing.
        #expect(ledger.totals.missed == 2)
        #expect(ledger.totals.missedTime == 20 * ms)
        #expect(ledger.totals.presents == 2)
        let span = ledger.span(after: SimTime(nanoseconds: 20 * ms), through: SimTime(nanoseconds: 50 * ms))
        #expect(span.presents == 1 && span.missed == 2)
        #expect(ledger.totals(atOrBefore: SimTime(nanoseconds: -1)).presents == 0)
    }

    @Test func sparkline() {
        #expect(FPSMeter.sparkline([0, 30, 54, 60], rate: 60) == "▁▅▇█")
        #expect(FPSMeter.sparkline([120, 60], rate: 120) == "█▅")
    }
}
