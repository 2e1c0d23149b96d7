/// A union of half-open time intervals, some still open: animating time (A2) or scrolling.
///
/// Intervals start at "now" when added, so the current state is a comparison with the latest
/// end; the merged history serves measures since an earlier time (the hitch ratio, R4). An
/// interval with a planned end (``begin(at:until:)``, a `view spin --for`) is in `closed` from
/// the start, and ending it early cuts the union back to what the other intervals cover.
struct SpanUnion {
    /// Merged, sorted, disjoint closed intervals `[start, end)`: their ends are sorted too.
    private(set) var closed: [(start: Int64, end: Int64)] = []
    /// `lengthBefore[i]`: the total length of `closed[0..<i]`, so a measure is two binary
    /// searches, not a walk over the whole history.
    private var lengthBefore: [Int64] = []
    /// The total length of `closed`.
    private var closedLength: Int64 = 0
    /// Open intervals by token, with their start.
    private(set) var open: [Int: Int64] = [:]
    /// Intervals with a planned end that may still end early, by token: already in `closed`.
    private(set) var bounded: [Int: (start: Int64, end: Int64)] = [:]
    /// The latest end of the intervals that can no longer change: added, or ended.
    private var settledEnd = Int64.min
    /// The latest end of any closed interval.
    private(set) var maxEnd = Int64.min
    private var nextToken = 0

    /// Whether `t`, which is not before any start, lies in the union.
    @inline(__always) func contains(_ t: Int64) -> Bool { !open.isEmpty || t < maxEnd }

    /// Whether the union holds every point of `[a, b]` (a ≤ b): `a` and `b` lie in one stretch
    /// of it. Open intervals run on for ever.
    func covers(from a: Int64, through b: Int64) -> Bool {
        var earliestOpen = Int64.max
        for start in open.values { earliestOpen = min(earliestOpen, start) }
        if earliestOpen <= a { return true }
        // The closed interval holding `a` (closed intervals are disjoint and never touch).
        let i = firstIndex { $0.end > a }
        guard i < closed.count, closed[i].start <= a else { return false }
        let reach = closed[i].end
        return b < reach || earliestOpen <= reach
    }

    public mutating func add(start: Int64, end: Int64) {
        guard end > start else { return }
        maxEnd = max(maxEnd, end)
        settledEnd = max(settledEnd, end)
        insert(start: start, end: end)
    }

    mutating func begin(at start: Int64) -> Int {
        nextToken += 1
        open[nextToken] = start
        return nextToken
    }

    /// An interval `[start, end)` that ``end(_:at:)`` can end early (`view spin --for`, L1).
    mutating func begin(at start: Int64, until end: Int64) -> Int {
        nextToken += 1
        if end > start {
            maxEnd = max(maxEnd, end)
            insert(start: start, end: end)
            bounded[nextToken] = (start, end)
        }
        return nextToken
    }

    /// Ends an interval at `end`, which is not before the start of any interval (it is now): an
    /// open one is closed there; one with a planned end after `end` is cut there (A2: its
    /// animation is over), and the union keeps only what the other intervals cover after it.
    mutating func end(_ token: Int, at end: Int64) {
        if let start = open.removeValue(forKey: token) {
            if end > start {
                settledEnd = max(settledEnd, end)
                insert(start: start, end: end)
            }
            return
        }
        guard let planned = bounded.removeValue(forKey: token) else { return }
        guard end < planned.end else {
            settledEnd = max(settledEnd, planned.end)
            return
        }
        if end > planned.start { settledEnd = max(settledEnd, end) }
        // Every interval starts at or before `end`, so after `end` the union is one stretch, up
        // to the latest end of what remains; the last closed interval is that stretch.
        var reach = settledEnd
        for other in bounded.values { reach = max(reach, other.end) }
        cutLast(at: reach)
    }

    /// Ends the last closed interval at `reach` (before its end), or drops it if nothing of it
    /// remains.
    private mutating func cutLast(at reach: Int64) {
        guard let last = closed.last, reach < last.end else { return }
        if reach <= last.start {
            closedLength -= last.end - last.start
            closed.removeLast()
            lengthBefore.removeLast()
        } else {
            closedLength -= last.end - reach
            closed[closed.count - 1].end = reach
        }
        maxEnd = closed.last?.end ?? Int64.min
    }

    /// Time in the union within `[from, to)`; open intervals count up to `to`.
    ///
    /// Every open interval runs to `to`, so together they are `[earliest open start, to)`: the
    /// measure is the closed intervals' time before that point plus the time after it.
    func measure(from: Int64, to: Int64) -> Int64 {
        guard to > from else { return 0 }
        var openFrom = to
        for start in open.values { openFrom = min(openFrom, start) }
        openFrom = max(openFrom, from)
        return closedMeasure(from: from, to: openFrom) + (to - openFrom)
    }

    /// Time in the closed intervals within `[from, to)`: O(log n).
    private func closedMeasure(from: Int64, to: Int64) -> Int64 {
        guard to > from else { return 0 }
        // i: the first interval ending after `from`; j: the first starting at or after `to`.
        let i = firstIndex { $0.end > from }
        let j = firstIndex { $0.start >= to }
        guard i < j else { return 0 }
        let whole = (j == closed.count ? closedLength : lengthBefore[j]) - lengthBefore[i]
        return whole - max(0, from - closed[i].start) - max(0, closed[j - 1].end - to)
    }

    /// The first index whose interval satisfies a predicate that is monotone over `closed`.
    private func firstIndex(where holds: ((start: Int64, end: Int64)) -> Bool) -> Int {
        var lo = 0
        var hi = closed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if holds(closed[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    private mutating func insert(start: Int64, end: Int64) {
        // The common case: a new interval at or after the last one.
        if let last = closed.last, start >= last.start {
            if start <= last.end {
                let grown = max(last.end, end)
                closedLength += grown - last.end
                closed[closed.count - 1].end = grown
            } else {
                lengthBefore.append(closedLength)
                closed.append((start, end))
                closedLength += end - start
            }
            return
        }
        if closed.isEmpty {
            lengthBefore.append(0)
            closed.append((start, end))
            closedLength = end - start
            return
        }
        closed.append((start, end))
        closed.sort { $0.start < $1.start }
        var merged: [(start: Int64, end: Int64)] = []
        for s in closed {
            if let last = merged.last, s.start <= last.end {
                merged[merged.count - 1].end = max(last.end, s.end)
            } else {
                merged.append(s)
            }
        }
        closed = merged
        lengthBefore.removeAll(keepingCapacity: true)
        closedLength = 0
        for s in closed {
            lengthBefore.append(closedLength)
            closedLength += s.end - s.start
        }
    }
}

/// Main-thread busy time, for `main.busy_ratio` (RL6): O(1) per item, O(1) memory.
///
/// Items come in time order and never overlap (the main thread runs one at a time), so B(x),
/// the busy time before x, is the time of the items before the last one plus the last one's
/// part before x — for any x from the last item's start on. A ratio's window is a whole second
/// that ends at or before now, so it can also ask about a second boundary a little before the
/// last item's start: B at the last few second boundaries before it is kept as items come.
struct BusyTime {
    static let second: Int64 = 1_000_000_000
    /// Second boundaries kept before the last item's start: the window's two ends lie within
    /// the two seconds before now, and now is not before that start.
    static let kept = 4

    /// B(end of the last item), B(its start), and the item.
    private var total: Int64 = 0
    private var beforeLast: Int64 = 0
    private var lastStart: Int64 = 0
    private var lastEnd: Int64 = 0
    /// The first second boundary not yet kept; always after the last item's start.
    private var nextMark: Int64 = 0
    /// B at kept second boundaries, oldest first.
    private var marks: [(time: Int64, busy: Int64)] = []

    /// B(x) from the last item alone: exact for x at or after its start.
    @inline(__always) private func fromLast(_ x: Int64) -> Int64 {
        x >= lastEnd ? total : beforeLast + max(0, x - lastStart)
    }

    /// An item of the main thread over `[start, end)`, after every item added before.
    @inline(__always) public mutating func add(start: Int64, end: Int64) {
        guard end > start else { return }
        if start >= nextMark { mark(through: start) }
        beforeLast = total  // every earlier item ended by `start`
        total &+= end - start
        lastStart = start
        lastEnd = end
    }

    /// Keeps B at the last few second boundaries at or before `t`, not kept yet: nothing added
    /// later can change them, and the last item so far tells them.
    private mutating func mark(through t: Int64) {
        let last = t / BusyTime.second * BusyTime.second
        var x = max(nextMark, last - Int64(BusyTime.kept - 1) * BusyTime.second)
        while x <= last {
            marks.append((x, fromLast(x)))
            x += BusyTime.second
        }
        if marks.count > BusyTime.kept { marks.removeFirst(marks.count - BusyTime.kept) }
        nextMark = last + BusyTime.second
    }

    /// B(x) for a time x no later than now: at or after the last item's start, or a kept
    /// second boundary before it.
    private func busy(before x: Int64) -> Int64 {
        if x >= lastStart { return fromLast(x) }
        for m in marks where m.time == x { return m.busy }
        assertionFailure("busy time asked before the window kept")
        return 0
    }

    /// Busy time within `[from, to)`, where `to` is no later than now and both are second
    /// boundaries of the last two seconds (or any times at or after the last item's start).
    func busy(from: Int64, to: Int64) -> Int64 {
        busy(before: to) - busy(before: from)
    }
}
