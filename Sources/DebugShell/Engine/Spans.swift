/// A union of half-open time intervals, some still open: animating time (A2) or scrolling.
///
/// Intervals start at "now" when added, so the current state is a comparison with the latest
/// end; the merged history serves measures since an earlier time (the hitch ratio, R4).
struct SpanUnion {
    /// Merged, sorted, disjoint closed intervals `[start, end)`.
    private(set) var closed: [(start: Int64, end: Int64)] = []
    /// Open intervals by token, with their start.
    private(set) var open: [Int: Int64] = [:]
    /// The latest end of any closed interval.
    private(set) var maxEnd = Int64.min
    private var nextToken = 0

    /// Whether `t`, which is not before any start, lies in the union.
    @inline(__always) func contains(_ t: Int64) -> Bool { !open.isEmpty || t < maxEnd }

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
    func measure(from: Int64, to: Int64) -> Int64 {
        guard to > from else { return 0 }
        var spans = closed
        for start in open.values { spans.append((start, to)) }
        spans.sort { $0.start < $1.start }
        var total: Int64 = 0
        var curStart = Int64.min
        var curEnd = Int64.min
        for s in spans {
            let a = max(s.start, from)
            let b = min(s.end, to)
            if b <= a { continue }
            if a > curEnd {
                if curEnd > curStart { total += curEnd - curStart }
                curStart = a
                curEnd = b
            } else {
                curEnd = max(curEnd, b)
            }
        }
        if curEnd > curStart { total += curEnd - curStart }
        return total
    }

    private mutating func insert(start: Int64, end: Int64) {
        // The common case: a new interval at or after the last one.
        if let last = closed.last, start >= last.start {
            if start <= last.end {
                closed[closed.count - 1].end = max(last.end, end)
            } else {
                closed.append((start, end))
            }
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
