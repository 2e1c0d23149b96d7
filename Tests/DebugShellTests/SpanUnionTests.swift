import DebugShellTesting
import Testing

@testable import DebugShell

/// Animating and scrolling time (A2, R4): the union's measure, kept with prefix sums, must equal
/// counting nanosecond by nanosecond over the same intervals.
@Suite struct SpanUnionTests {
    /// Counts the time in `[from, to)` covered by any interval, one unit at a time.
    func bruteForce(_ spans: [(Int64, Int64)], from: Int64, to: Int64) -> Int64 {
        guard to > from else { return 0 }
        return (from..<to).reduce(0) { sum, t in sum + (spans.contains { $0.0 <= t && t < $0.1 } ? 1 : 0) }
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func measureEqualsCounting(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var union = SpanUnion()
        var spans: [(Int64, Int64)] = []
        var openTokens: [(token: Int, start: Int64)] = []
        for _ in 0..<Int.random(in: 1...30, using: &rng) {
            let start = Int64.random(in: 0...400, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !openTokens.isEmpty:
                let o = openTokens.removeLast()
                let end = o.start + Int64.random(in: 0...60, using: &rng)
                union.end(o.token, at: end)
                spans.append((o.start, end))
            case 1:
                openTokens.append((union.begin(at: start), start))
            default:
                // Out of order on purpose: the rare path re-merges and rebuilds the sums.
                let end = start + Int64.random(in: 0...50, using: &rng)
                union.add(start: start, end: end)
                spans.append((start, end))
            }
        }
        for _ in 0..<20 {
            let from = Int64.random(in: -10...450, using: &rng)
            let to = from + Int64.random(in: -5...200, using: &rng)
            let withOpen = spans + openTokens.map { ($0.start, to) }
            #expect(
                union.measure(from: from, to: to) == bruteForce(withOpen, from: from, to: to),
                "seed \(seed) [\(from), \(to))")
        }
    }

    @Test func touchingIntervalsMergeAndOpenOnesRunToTheEnd() {
        var union = SpanUnion()
        union.add(start: 10, end: 20)
        union.add(start: 20, end: 30)
        union.add(start: 0, end: 5)
        #expect(union.closed.count == 2)
        #expect(union.measure(from: 0, to: 100) == 25)
        #expect(union.measure(from: 12, to: 28) == 16)
        _ = union.begin(at: 25)
        #expect(union.measure(from: 0, to: 100) == 5 + 90)
        #expect(union.contains(1_000))
    }
}
