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

/// Main-thread busy time, merged, for `main.busy_ratio` (RL6).
struct BusySpans {
    private var spans: [(start: Int64, end: Int64)] = []
    private var head = 0

    mutating func add(start: Int64, end: Int64) {
        guard end > start else { return }
        if head < spans.count, spans[spans.count - 1].end == start {
            spans[spans.count - 1].end = end
        } else {
            spans.append((start, end))
        }
    }

    /// Busy time within `[from, to)`; forgets what ends before `from`.
    mutating func busy(from: Int64, to: Int64) -> Int64 {
        while head < spans.count, spans[head].end <= from { head += 1 }
        if head > 4096, head * 2 > spans.count {
            spans.removeFirst(head)
            head = 0
        }
        var total: Int64 = 0
        var i = head
        while i < spans.count, spans[i].start < to {
            let a = max(spans[i].start, from)
            let b = min(spans[i].end, to)
            if b > a { total += b - a }
            i += 1
        }
        return total
    }

    /// Forgets spans that end before `t` (called as time moves on).
    mutating func prune(before t: Int64) {
        while head < spans.count, spans[head].end <= t { head += 1 }
        if head > 4096, head * 2 > spans.count {
            spans.removeFirst(head)
            head = 0
        }
    }
}
