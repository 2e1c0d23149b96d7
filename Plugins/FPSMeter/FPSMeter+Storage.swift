import DebugShellCore

/// A fixed-capacity ring of values: the newest `capacity` appended are kept, the oldest drop out.
///
/// Storage is allocated once, so appending on the simulation's hot path never allocates.
struct Ring<Element> {
    private var storage: [Element] = []
    /// The index in `storage` of the oldest kept element.
    private var head = 0
    /// How many are kept now.
    private(set) var count = 0
    /// How many were ever appended (kept or dropped).
    private(set) var appended: Int64 = 0
    private(set) var capacity: Int
    private let filler: Element

    init(capacity: Int, filler: Element) {
        self.capacity = max(1, capacity)
        self.filler = filler
    }

    var isEmpty: Bool { count == 0 }
    /// How many were appended and then dropped for want of room.
    var dropped: Int64 { appended - Int64(count) }

    mutating func append(_ element: Element) {
        if storage.isEmpty { storage = Array(repeating: filler, count: capacity) }
        appended += 1
        if count < capacity {
            storage[(head + count) % capacity] = element
            count += 1
        } else {
            storage[head] = element
            head = (head + 1) % capacity
        }
    }

    /// The `i`-th kept element, 0 being the oldest.
    subscript(i: Int) -> Element { storage[(head + i) % capacity] }

    var first: Element? { count > 0 ? self[0] : nil }
    var last: Element? { count > 0 ? self[count - 1] : nil }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) % capacity
        count -= 1
    }

    /// Keeps room for `newCapacity` elements from now on, keeping the newest of those kept (the
    /// oldest are dropped, and counted as dropped, when there are more).
    mutating func resize(to newCapacity: Int) {
        let newCapacity = max(1, newCapacity)
        guard newCapacity != capacity else { return }
        let kept = min(count, newCapacity)
        let newest = (count - kept..<count).map { self[$0] }
        storage = newest.isEmpty ? [] : newest + Array(repeating: filler, count: newCapacity - kept)
        head = 0
        count = kept
        capacity = newCapacity
    }

    /// Forgets every element; the storage is kept for reuse.
    mutating func removeAll() {
        head = 0
        count = 0
        appended = 0
    }

    /// The kept elements, oldest first.
    var elements: [Element] { (0..<count).map { self[$0] } }

    /// The number of kept elements, from the oldest, for which `isBefore` holds (they must be a
    /// prefix: the ring is ordered by it).
    func partition(_ isBefore: (Element) -> Bool) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isBefore(self[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// Counts of events per whole second of virtual time, for the last two seconds that had any.
///
/// Events arrive in time order, so the second being filled and the one before it are all that is
/// needed to answer "how many in the last whole second" (R5).
struct SecondTally {
    private var second: Int64 = -1
    private var count: Int64 = 0
    private var previousSecond: Int64 = -1
    private var previousCount: Int64 = 0

    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    mutating func add(at time: SimTime) {
        let s = time.nanoseconds / SecondTally.nanosecondsPerSecond
        if s != second {
            previousSecond = second
            previousCount = count
            second = s
            count = 0
        }
        count += 1
    }

    /// Events in `[k s, (k + 1) s)`.
    func count(inSecond k: Int64) -> Int64 {
        if k == second { return count }
        if k == previousSecond { return previousCount }
        return 0
    }
}

/// Frame intervals, kept exactly as a sorted list of distinct values with their counts.
///
/// Presents fall on the vsync grid, so intervals take few distinct values (about two per whole
/// number of periods, from the grid's rounding): memory grows with the distinct values, not with
/// time, and adding a value seen before allocates nothing.
struct IntervalHistogram {
    private(set) var values: [Int64] = []
    private(set) var counts: [Int64] = []
    private(set) var total: Int64 = 0

    mutating func add(_ value: Int64) {
        total += 1
        var lo = 0
        var hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        if lo < values.count, values[lo] == value {
            counts[lo] += 1
        } else {
            values.insert(value, at: lo)
            counts.insert(1, at: lo)
        }
    }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        total = 0
    }

    /// The nearest-rank percentile: the smallest value with at least ⌈p/100 · N⌉ values at or
    /// below it; nil when empty.
    func percentile(_ p: Int64) -> Int64? {
        guard total > 0 else { return nil }
        let rank = max(1, (p * total + 99) / 100)
        var seen: Int64 = 0
        for (value, count) in zip(values, counts) {
            seen += count
            if seen >= rank { return value }
        }
        return values.last
    }

    var maximum: Int64? { values.last }
}

/// One processed vsync with running totals up to and including it: what the estimator lab needs
/// to measure the ground truth over any recent span.
struct VsyncMark {
    var time: Int64
    /// Presents at or before this vsync.
    var presents: Int64
    /// Vsyncs at or before this one that expected a present and had none.
    var missed: Int64
    /// The refresh periods of those vsyncs, summed.
    var missedTime: Int64

    static let zero = VsyncMark(time: Int64.min, presents: 0, missed: 0, missedTime: 0)
}

/// The ground truth per vsync: presents and vsyncs without a present when one was expected.
///
/// A vsync expects a present when the vsync two before it was in animating time: R3's double
/// buffering (commit in v's frame, render in the next, show at the one after) — so the two
/// vsyncs at the start of an animation, which no frame of it can reach, are not counted as
/// missed, and the two after its end, which show its last frames, are.
struct VsyncLedger {
    /// The last vsyncs, oldest first. 8,192 cover 136 s at 60 Hz and 8 s at 1000 Hz.
    private(set) var marks = Ring(capacity: 8192, filler: VsyncMark.zero)
    private(set) var totals = VsyncMark.zero
    /// Whether the vsync before the previous one, and the previous one, were in animating time.
    private var animatingTwoBefore = false
    private var animatingBefore = false
    private(set) var lastPresent = SimTime(nanoseconds: -1)

    /// Starts with the animation state in force now, so frames already in flight count.
    mutating func start(animating: Bool) {
        marks.removeAll()
        totals = VsyncMark(time: Int64.min, presents: 0, missed: 0, missedTime: 0)
        animatingTwoBefore = animating
        animatingBefore = animating
        lastPresent = SimTime(nanoseconds: -1)
    }

    mutating func presented(at time: SimTime) {
        totals.presents += 1
        lastPresent = time
    }

    /// A vsync, after the presents at it (S4.3 presents first); `period` is asked for only when
    /// the vsync missed its present.
    mutating func vsync(at time: SimTime, animating: Bool, period: () -> SimDuration) {
        if animatingTwoBefore && lastPresent != time {
            totals.missed += 1
            totals.missedTime += period().nanoseconds
        }
        animatingTwoBefore = animatingBefore
        animatingBefore = animating
        totals.time = time.nanoseconds
        marks.append(totals)
    }

    /// The running totals at the last vsync at or before `time`; for a time older than the kept
    /// vsyncs, the oldest kept (the span is then measured from there).
    func totals(atOrBefore time: SimTime) -> VsyncMark {
        let n = marks.partition { $0.time <= time.nanoseconds }
        if n > 0 { return marks[n - 1] }
        if marks.dropped == 0 { return VsyncMark(time: Int64.min, presents: 0, missed: 0, missedTime: 0) }
        return marks[0]
    }

    /// Presents and missed vsyncs in `(from, to]`.
    func span(after from: SimTime, through to: SimTime) -> (presents: Int64, missed: Int64, missedTime: Int64) {
        let a = totals(atOrBefore: from)
        let b = totals(atOrBefore: to)
        return (b.presents - a.presents, b.missed - a.missed, b.missedTime - a.missedTime)
    }
}
