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
        /// The grid's rate: a fixed display's rate, an adaptive display's maximum (V1).
        var rate: Int64
        /// The global vsync index (since t = 0) of the anchor.
        var baseIndex: Int64
        /// V1: the display refreshes at every `divisor`-th vsync of the grid of `rate`; 1 on a
        /// fixed display.
        var divisor: Int64 = 1
        /// An adaptive display's lowest rate; 0 for a fixed display.
        var minimum: Int64 = 0
        /// The grid's vsync 0 (V1: an adaptive display's vsyncs stay on the grid of its maximum,
        /// anchored where it became adaptive), and the anchor's index on that grid.
        var origin: Int64
        var originIndex: Int64 = 0
        /// The panel's vsyncs of the grid of `rate` before the anchor (= `baseIndex` while the
        /// display has been fixed): `clock.vsyncs` counts them, `clock.refreshes` the refreshes.
        var baseVsyncs: Int64

        init(start: Int64, rate: Int64, baseIndex: Int64) {
            self.start = start
            self.rate = rate
            self.baseIndex = baseIndex
            origin = start
            baseVsyncs = baseIndex
        }

        var isAdaptive: Bool { minimum > 0 }
        /// Whether vsync k is at `start + floor(k · 1e9 / rate)` (a fixed display's segment).
        var isPlain: Bool { divisor == 1 && originIndex == 0 }
        /// The largest divisor whose rate is at least the minimum (V1).
        var maxDivisor: Int64 { minimum > 0 ? max(1, rate / minimum) : 1 }
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
        let n = segments[s].divisor
        return .nanoseconds((n * 1_000_000_000 + rate / 2) / rate)
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
        if !seg.isPlain { return adaptiveTime(seg, k: k) }
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

    /// V1: refresh k of an adaptive segment is grid vsync `originIndex + k · divisor` of the grid
    /// of its maximum: exact, never a rounded period added.
    @inline(never)
    private func adaptiveTime(_ seg: Segment, k: Int64) -> Int64 {
        let j = Int128(seg.originIndex) + Int128(k) * Int128(seg.divisor)
        let t = Int128(seg.origin) + j * 1_000_000_000 / Int128(seg.rate)
        return t >= Int128(Int64.max) ? Int64.max : Int64(t)
    }

    /// The index on the grid of `seg.rate` (from `seg.origin`) of the first grid vsync at or
    /// after `time`.
    private func gridIndex(_ seg: Segment, atOrAfter time: Int64) -> Int128 {
        let num = Int128(max(0, time - seg.origin)) * Int128(seg.rate)
        var j = num / 1_000_000_000
        if j * 1_000_000_000 < num { j += 1 }
        return j
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
        if !seg.isPlain { return adaptiveFirst(segment: s, atOrAfter: time) }
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

    /// V1: an adaptive segment's first refresh (grid index originIndex + k · divisor) at or
    /// after `time`. Out of line: a fixed display's path stays as small as it was.
    @inline(never)
    private func adaptiveFirst(segment s: Int, atOrAfter time: Int64) -> Position {
        let seg = segments[s]
        let j = gridIndex(seg, atOrAfter: time)
        let over = j - Int128(seg.originIndex)
        var k = over <= 0 ? 0 : over / Int128(seg.divisor)
        if k * Int128(seg.divisor) < over { k += 1 }
        return position(segment: s, k: k >= Int128(Int64.max / 4) ? Int64.max / 4 : Int64(k))
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

    /// Refreshes in `[0, time)` (vsyncs, on a display that has always been fixed).
    func count(before time: Int64) -> Int64 {
        if time <= 0 { return 0 }
        return first(atOrAfter: time).index
    }

    /// The panel's vsyncs in `[0, time)` (V1): every vsync of the grid of each segment's rate,
    /// refreshing or not. The same as ``count(before:)`` while the display has been fixed.
    func vsyncCount(before time: Int64) -> Int64 {
        if time <= 0 { return 0 }
        let s = segmentIndex(at: time)
        let seg = segments[s]
        if seg.isPlain && seg.baseVsyncs == seg.baseIndex { return first(atOrAfter: time).index }
        let j = gridIndex(seg, atOrAfter: time) - Int128(seg.originIndex)
        let total = Int128(seg.baseVsyncs) + j
        return total >= Int128(Int64.max) ? Int64.max : Int64(total)
    }

    /// The anchor for a change at `time`: the first refresh at or after it, and the later
    /// segments (changes not yet in force) removed.
    private mutating func anchor(at time: Int64) -> (position: Position, vsyncs: Int64) {
        let anchor = first(atOrAfter: time)
        segments.removeAll { $0.start >= anchor.time && $0.start > 0 }
        return (anchor, vsyncCount(before: anchor.time))
    }

    /// V1: the display becomes adaptive between `minimum` and `maximum` at the first refresh at
    /// or after `time`, refreshing at every `divisor`-th vsync of the grid of `maximum`, anchored
    /// there. Returns that refresh's time.
    @discardableResult
    mutating func becomeAdaptive(minimum: Int, maximum: Int, divisor: Int64, at time: Int64) -> Int64 {
        let (a, vsyncs) = anchor(at: time)
        var seg = Segment(start: a.time, rate: Int64(maximum), baseIndex: a.index)
        seg.minimum = Int64(minimum)
        seg.divisor = max(1, min(divisor, seg.maxDivisor))
        seg.baseVsyncs = vsyncs
        if segments.count == 1 && segments[0].start >= a.time {
            segments[0] = seg
        } else {
            segments.append(seg)
        }
        return a.time
    }

    /// V3: an adaptive display's rate changes at the refresh `p` (in force from it on, counted
    /// from it, V4); `p` becomes the anchor of a new segment on the same grid, k = 0.
    mutating func changeDivisor(to divisor: Int64, at p: Position) -> Position {
        let old = segments[p.segment]
        var seg = Segment(start: p.time, rate: old.rate, baseIndex: p.index)
        seg.minimum = old.minimum
        seg.divisor = divisor
        seg.origin = old.origin
        seg.originIndex = old.originIndex + p.k * old.divisor
        seg.baseVsyncs = old.baseVsyncs + (seg.originIndex - old.originIndex)
        segments.removeAll { $0.start >= p.time && $0.start > 0 }
        if segments.count == 1 && segments[0].start >= p.time {
            segments[0] = seg
            return Position(time: p.time, segment: 0, k: 0, index: p.index)
        }
        segments.append(seg)
        return Position(time: p.time, segment: segments.count - 1, k: 0, index: p.index)
    }

    /// V15: the touch of a scroll raises an adaptive display's rate at the first vsync of the grid
    /// of its maximum at or after `time`, whether or not the display refreshes there at its old
    /// rate: that vsync becomes the anchor of a new segment on the same grid, k = 0 (V4 counts
    /// from it). Nil when the segment in force there is not the last one or not adaptive (a change
    /// of mode waiting for its refresh wins).
    mutating func changeDivisor(to divisor: Int64, atGridVsyncAtOrAfter time: Int64) -> Position? {
        let s = segments.count - 1
        let old = segments[s]
        guard old.isAdaptive, old.start <= time else { return nil }
        // The grid vsync j (from the origin), and the refreshes of the old segment before it.
        let j = gridIndex(old, atOrAfter: time)
        let over = j - Int128(old.originIndex)
        let before = (over + Int128(old.divisor) - 1) / Int128(old.divisor)
        let t128 = Int128(old.origin) + j * 1_000_000_000 / Int128(old.rate)
        guard t128 < Int128(Int64.max / 2), over >= 0 else { return nil }
        let t = Int64(t128)
        var seg = Segment(start: t, rate: old.rate, baseIndex: old.baseIndex + Int64(before))
        seg.minimum = old.minimum
        seg.divisor = divisor
        seg.origin = old.origin
        seg.originIndex = Int64(j)
        seg.baseVsyncs = old.baseVsyncs + Int64(over)
        segments.removeAll { $0.start >= t && $0.start > 0 }
        if segments.count == 1 && segments[0].start >= t {
            segments[0] = seg
            return Position(time: t, segment: 0, k: 0, index: seg.baseIndex)
        }
        segments.append(seg)
        return Position(time: t, segment: segments.count - 1, k: 0, index: seg.baseIndex)
    }

    /// Changes the rate at the first vsync at or after `time` (S2); returns that vsync's time.
    ///
    /// A change not yet in force is replaced; setting the rate already in force is no change
    /// (re-anchoring would move later vsyncs by a nanosecond of rounding).
    @discardableResult
    mutating func changeRate(to rate: Int, at time: Int64) -> Int64 {
        let (anchor, vsyncs) = self.anchor(at: time)
        var seg = Segment(start: anchor.time, rate: Int64(rate), baseIndex: anchor.index)
        seg.baseVsyncs = vsyncs
        if segments.count == 1 && segments[0].start >= anchor.time {
            segments[0] = seg
        } else if segments[segments.count - 1].rate != Int64(rate) || !segments[segments.count - 1].isPlain
            || segments[segments.count - 1].isAdaptive
        {
            segments.append(seg)
        }
        return anchor.time
    }
}
