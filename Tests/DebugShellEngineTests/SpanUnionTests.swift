import DebugShellTesting
import Testing

@testable import DebugShellEngine

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

    /// Intervals with a planned end that end early (`view spin --for` replaced, stopped or
    /// removed, A2): as time goes on, animations of every kind start now and some end now; the
    /// union must always be the intervals as they finally are — an early end cuts its interval
    /// there — counted unit by unit, and `contains` must say the same at now.
    @Test(arguments: 1...60 as ClosedRange<UInt64>)
    func earlyEndsCutTheirIntervals(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var union = SpanUnion()
        // Each interval as it stands: its start, its end (nil while open), its token if endable.
        var spans: [(start: Int64, end: Int64?, token: Int?)] = []
        var now: Int64 = 0
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            now += [0, 0, Int64.random(in: 1...40, using: &rng)].randomElement(using: &rng)!
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                let end = now + Int64.random(in: 0...60, using: &rng)
                union.add(start: now, end: end)
                spans.append((now, end, nil))
            case 1:
                spans.append((now, nil, union.begin(at: now)))
            case 2:
                let end = now + Int64.random(in: 0...120, using: &rng)
                spans.append((now, end, union.begin(at: now, until: end)))
            default:
                // End one that can be ended, open or not, perhaps after its planned end.
                let endable = spans.indices.filter { spans[$0].token != nil }
                guard let k = endable.randomElement(using: &rng), let token = spans[k].token else { continue }
                union.end(token, at: now)
                spans[k].end = min(spans[k].end ?? now, now)
                spans[k].token = nil
            }
            let covered = spans.contains { $0.start <= now && now < ($0.end ?? Int64.max) }
            #expect(union.contains(now) == covered, "seed \(seed) at \(now)")
        }
        for _ in 0..<20 {
            let from = Int64.random(in: -10...(now + 50), using: &rng)
            // Measures are asked up to now or later: open intervals run to the window's end.
            let to = max(now, from + Int64.random(in: -5...200, using: &rng))
            let finished = spans.map { ($0.start, $0.end ?? to) }
            #expect(
                union.measure(from: from, to: to) == bruteForce(finished, from: from, to: to),
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

/// Main-thread busy time (RL6): kept in O(1) as a running sum and a few second boundaries, it
/// must equal summing every item's overlap with the window, for the windows `main.busy_ratio`
/// asks about (the last whole second before now) after any sequence of items — short and
/// many, long (a stall over many seconds), with idle gaps of any length, and now inside an
/// item or after it.
@Suite struct BusyTimeTests {
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func busyTimeEqualsSummingItems(seed: UInt64) {
        var rng = SplitMix(state: seed)
        let second: Int64 = 1_000_000_000
        var busy = BusyTime()
        var items: [(start: Int64, end: Int64)] = []
        var now: Int64 = 0
        var asked = 0
        for _ in 0..<3_000 {
            // The next item starts when the thread is free, at or after now.
            let free = max(now, items.last?.end ?? 0)
            let gap: Int64 =
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: Int64.random(in: 0...5 * second, using: &rng)  // idle seconds
                case 1: 0  // back to back
                default: Int64.random(in: 0...3_000_000, using: &rng)
                }
            let cost: Int64 =
                switch Int.random(in: 0..<20, using: &rng) {
                case 0: Int64.random(in: second...4 * second, using: &rng)  // a long stall
                case 1: 0
                default: Int64.random(in: 1...4_000_000, using: &rng)
                }
            let start = free + gap
            now = start
            busy.add(start: start, end: start + cost)
            if cost > 0 { items.append((start, start + cost)) }
            // Time moves on, perhaps into the item; then the ratio's window is asked about.
            now += Int64.random(in: 0...(Bool.random(using: &rng) ? cost : 3 * second), using: &rng)
            let k = now / second
            guard k >= 1 else { continue }
            let from = (k - 1) * second
            let to = k * second
            // Items are in time order: only the last ones can reach into the window.
            var expected: Int64 = 0
            for i in items.reversed() {
                if i.end <= from { break }
                expected += max(0, min(i.end, to) - max(i.start, from))
            }
            #expect(busy.busy(from: from, to: to) == expected, "seed \(seed)")
            asked += 1
        }
        #expect(asked > 1_000)
    }
}
