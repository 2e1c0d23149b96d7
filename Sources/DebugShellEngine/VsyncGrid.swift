import DebugShellCore

/// The display's vsync grid through time, with its rate changes (S2).
///
/// Vsync k of a segment is at `anchor + floor(k · 1e9 / R)`: the grid never adds a rounded
/// period, so it never drifts. A rate change takes effect at the first vsync at or after the
/// command's time, which becomes the next segment's anchor with k = 0. All products are taken
/// in 128 bits, so nothing traps (S1).
struct VsyncGrid {
    struct Segment {
        /// The anchor: vsync k = 0 of this segment.
        var start: Int64
        var rate: Int64
        /// The global vsync index (since t = 0) of the anchor.
        var baseIndex: Int64
    }

    /// A vsync: its time, its segment and its index k within the segment.
    struct Position: Equatable {
        var time: Int64
        var segment: Int
        var k: Int64
        /// The global index since t = 0.
        var index: Int64
    }

    private(set) var segments: [Segment]

    init(rate: Int) {
        segments = [Segment(start: 0, rate: Int64(rate), baseIndex: 0)]
    }

    /// The rate in force at `time`.
    func rate(at time: Int64) -> Int64 { segments[segmentIndex(at: time)].rate }

    /// A segment's nominal refresh period, 1e9 / R rounded to the nearest nanosecond: a display
    /// link's `duration` (DL2). The grid itself never adds it (vsyncs are floor(k · 1e9 / R)).
    func period(segment s: Int) -> SimDuration {
        let rate = segments[s].rate
        return .nanoseconds((1_000_000_000 + rate / 2) / rate)
    }

    /// The index of the segment in force at `time` (the last one starting at or before it).
    func segmentIndex(at time: Int64) -> Int {
        var lo = 0
        var hi = segments.count - 1
        if segments[hi].start <= time { return hi }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The time of vsync k of a segment, or `Int64.max` past the range.
    @inline(__always) func time(segment s: Int, k: Int64) -> Int64 {
        let seg = segments[s]
        // In 64 bits while nothing overflows (k below about 9.2e9, years of vsyncs), which
        // gives the same floor as the 128-bit path.
        let (product, overflow) = k.multipliedReportingOverflow(by: 1_000_000_000)
        if !overflow && k >= 0 {
            let (t, over) = seg.start.addingReportingOverflow(product / seg.rate)
            if !over { return t }
        }
        let offset = Int128(k) * 1_000_000_000 / Int128(seg.rate)
        let t = Int128(seg.start) + offset
        return t >= Int128(Int64.max) ? Int64.max : Int64(t)
    }

    /// The position of segment `s`'s vsync k, moved into the next segment if it starts first.
    private func position(segment s: Int, k: Int64) -> Position {
        let t = time(segment: s, k: k)
        if s + 1 < segments.count, t >= segments[s + 1].start {
            let next = segments[s + 1]
            return Position(time: next.start, segment: s + 1, k: 0, index: next.baseIndex)
        }
        return Position(time: t, segment: s, k: k, index: segments[s].baseIndex + k)
    }

    /// The first vsync at or after `time` (S2).
    func first(atOrAfter time: Int64) -> Position {
        let s = segmentIndex(at: max(0, time))
        let seg = segments[s]
        // In 64 bits while d · R fits, the same ceiling as the 128-bit path below.
        let (num64, overflow) = (max(0, time) - seg.start).multipliedReportingOverflow(by: seg.rate)
        if !overflow {
            var k = num64 / 1_000_000_000
            if k * 1_000_000_000 < num64 { k += 1 }
            return position(segment: s, k: k)
        }
        let d = Int128(max(0, time) - seg.start)
        // Smallest k with floor(k·1e9/R) ≥ d, that is k ≥ d·R/1e9.
        let num = d * Int128(seg.rate)
        var k = num / 1_000_000_000
        if k * 1_000_000_000 < num { k += 1 }
        let kk = k >= Int128(Int64.max) ? Int64.max / 2 : Int64(k)
        return position(segment: s, k: kk)
    }

    /// The first vsync strictly after `time`.
    func first(after time: Int64) -> Position {
        first(atOrAfter: time == Int64.max ? time : time + 1)
    }

    /// The vsync after `p`.
    @inline(__always) func next(after p: Position) -> Position {
        position(segment: p.segment, k: p.k + 1)
    }

    /// The vsync `count` vsyncs after `p`, across rate changes, computed rather than walked.
    func position(_ count: Int64, after p: Position) -> Position {
        var p = p
        var remaining = count
        while remaining > 0 {
            let k = p.k.addingReportingOverflow(remaining)
            let candidate = position(segment: p.segment, k: k.overflow ? Int64.max / 2 : k.partialValue)
            if candidate.segment == p.segment || p.segment + 1 >= segments.count {
                return candidate
            }
            // It crossed into the next segment: count the vsyncs left before that segment's anchor.
            let next = segments[p.segment + 1]
            let before = next.baseIndex - p.index
            remaining -= before
            p = Position(time: next.start, segment: p.segment + 1, k: 0, index: next.baseIndex)
        }
        return p
    }

    /// The first vsync of a link's grid (`k mod step == 0`, DL3) at or after `p`.
    func firstOnGrid(atOrAfter p: Position, step: Int64) -> Position {
        if step <= 1 || p.k % step == 0 { return p }
        let k = (p.k / step + 1) * step
        return position(segment: p.segment, k: k)
    }

    /// A link's next grid vsync after `p` (its `targetTimestamp`, DL2).
    func nextOnGrid(after p: Position, step: Int64) -> Position {
        firstOnGrid(atOrAfter: next(after: p), step: step)
    }

    /// Vsyncs in `[0, time)`.
    func count(before time: Int64) -> Int64 {
        if time <= 0 { return 0 }
        return first(atOrAfter: time).index
    }

    /// Changes the rate at the first vsync at or after `time` (S2); returns that vsync's time.
    ///
    /// A change not yet in force is replaced; setting the rate already in force is no change
    /// (re-anchoring would move later vsyncs by a nanosecond of rounding).
    @discardableResult
    mutating func changeRate(to rate: Int, at time: Int64) -> Int64 {
        let anchor = first(atOrAfter: time)
        segments.removeAll { $0.start >= anchor.time && $0.start > 0 }
        if segments.count == 1 && segments[0].start >= anchor.time {
            segments[0].rate = Int64(rate)
        } else if segments[segments.count - 1].rate != Int64(rate) {
            segments.append(Segment(start: anchor.time, rate: Int64(rate), baseIndex: anchor.index))
        }
        return anchor.time
    }
}
