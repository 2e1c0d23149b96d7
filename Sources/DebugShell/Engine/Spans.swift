/// A union of half-open time intervals, some still open: animating time (A2) or scrolling.
///
/// Intervals start at "now" when added, so the current state is a comparison with the latest
/// end; the merged history serves measures since an earlier time (the hitch ratio, R4).
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

    mutating func add(start: Int64, end: Int64) {
        guard end > start else { return }
        maxEnd = max(maxEnd, end)
        insert(start: start, end: end)
    }

    mutating func begin(at start: Int64) -> Int {
        nextToken += 1
        open[nextToken] = start
        return nextToken
    }

    mutating func end(_ token: Int, at end: Int64) {
        guard let start = open.removeValue(forKey: token) else { return }
        if end > start { insert(start: start, end: end) }
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

/// Main-thread busy time, for `main.busy_ratio` (RL6): recent items, merged when they touch.
///
/// Items are added in time order (the main thread runs one at a time); those that ended more
/// than two seconds before the newest one are forgotten as items are added, so memory stays
/// bounded however long time runs.
struct BusySpans: ~Copyable {
    private var starts = PodVector<Int64>(capacity: 1024)
    private var ends = PodVector<Int64>(capacity: 1024)
    private var head = 0

    init() {}

    @inline(__always) mutating func add(start: Int64, end: Int64) {
        guard end > start else { return }
        let n = starts.count
        if n > head, ends[n - 1] == start {
            ends[n - 1] = end
            return
        }
        starts.append(start)
        ends.append(end)
        if n - head >= 8192 { prune(before: start - 2_000_000_000) }
    }

    /// Busy time within `[from, to)`.
    mutating func busy(from: Int64, to: Int64) -> Int64 {
        prune(before: from)
        var total: Int64 = 0
        var i = head
        while i < starts.count, starts[i] < to {
            let a = max(starts[i], from)
            let b = min(ends[i], to)
            if b > a { total += b - a }
            i += 1
        }
        return total
    }

    /// Forgets spans that end before `t`.
    mutating func prune(before t: Int64) {
        while head < starts.count, ends[head] <= t { head += 1 }
        if head > 4096, head * 2 > starts.count {
            starts.removeFirst(head)
            ends.removeFirst(head)
            head = 0
        }
    }
}
