/// The engine's event queue: a 4-ary min-heap of 16-byte entries, hand-written.
///
/// An entry is a time and a key that orders events at the same instant (S4: the step, then
/// creation or scheduling order) and names their target. Replacing the top uses Floyd's
/// bottom-up sift with branch-free child choices, as the floor benchmark in
/// Benchmarks/Floor does; four children per node halve the depth of the sift's chain of
/// dependent loads, which measured about 15% less time per event than the binary heap the floor
/// uses (swift-collections' `Heap` costs about twice the floor here). The heap starts three
/// entries into a 64-byte-aligned buffer, so each node's four children share one cache line.
struct EventQueue: ~Copyable {
    /// Time and key packed into one 128-bit word, so that the sift compares them in one
    /// branch-free comparison (a short-circuit compare mispredicts in the sift); times are
    /// never negative.
    struct Entry {
        var packed: UInt128

        @inline(__always) init(time: Int64, key: UInt64) {
            packed = UInt128(UInt64(bitPattern: time)) << 64 | UInt128(key)
        }

        @inline(__always) var time: Int64 { Int64(bitPattern: UInt64(truncatingIfNeeded: packed >> 64)) }
        @inline(__always) var key: UInt64 { UInt64(truncatingIfNeeded: packed) }

        @inline(__always) static func < (a: Entry, b: Entry) -> Bool { a.packed < b.packed }
    }

    /// Three unused entries, then the heap: node i's children 4i+1…4i+4 sit at buffer
    /// offsets 4(i+1)…4(i+1)+3, one aligned cache line.
    private static let pad = 3
    private var entries: PodVector<Entry>

    init() {
        entries = PodVector<Entry>(capacity: 64)
        for _ in 0..<Self.pad { entries.append(Entry(time: 0, key: 0)) }
    }

    var count: Int { entries.count - Self.pad }
    var isEmpty: Bool { count == 0 }
    @inline(__always) var top: Entry? { isEmpty ? nil : entries[Self.pad] }

    /// The time of the earliest entry, or `Int64.max` when there is none.
    @inline(__always) var topTime: Int64 { isEmpty ? Int64.max : entries[Self.pad].time }

    /// The time of the second-earliest entry (one of the top's children), or `Int64.max`.
    @inline(__always) var secondTime: Int64 {
        let n = min(count, 5)
        var t = Int64.max
        var k = 1
        while k < n {
            t = min(t, entries[Self.pad &+ k].time)
            k &+= 1
        }
        return t
    }

    mutating func removeAll() {
        while count > 0 { _ = entries.removeLast() }
    }

    /// The heap's nodes, indexed from its root.
    @inline(__always) private func withHeap<R>(_ body: (UnsafeMutablePointer<Entry>, Int) -> R) -> R {
        entries.withBuffer { buffer in body(buffer.baseAddress! + Self.pad, buffer.count - Self.pad) }
    }

    @inline(__always) mutating func push(time: Int64, key: UInt64) {
        entries.append(Entry(time: time, key: key))
        withHeap { p, n in
            var i = n - 1
            let x = p[i]
            while i > 0 {
                let parent = (i &- 1) >> 2
                let pv = p[parent]
                if !(x < pv) { break }
                p[i] = pv
                i = parent
            }
            p[i] = x
        }
    }

    /// Removes and returns the earliest entry. The queue must not be empty.
    @discardableResult
    mutating func popTop() -> Entry {
        let top = entries[Self.pad]
        let last = entries.removeLast()
        if !isEmpty { replaceTop(with: last) }
        return top
    }

    /// Replaces the earliest entry with `x`: one sift instead of a pop and a push.
    @inline(__always) mutating func replaceTop(time: Int64, key: UInt64) {
        replaceTop(with: Entry(time: time, key: key))
    }

    @inline(__always) private mutating func replaceTop(with x: Entry) {
        withHeap { p, n in
            var i = 0
            var c = 1
            // Walk the hole down to a leaf along the smallest children, three branch-free
            // comparisons per level...
            while c &+ 3 < n {
                let a = p[c]
                let b = p[c &+ 1]
                let d = p[c &+ 2]
                let e = p[c &+ 3]
                let ab = b < a
                let m1 = ab ? b : a
                let j1 = ab ? c &+ 1 : c
                let de = e < d
                let m2 = de ? e : d
                let j2 = de ? c &+ 3 : c &+ 2
                let right = m2 < m1
                p[i] = right ? m2 : m1
                i = right ? j2 : j1
                c = 4 &* i &+ 1
            }
            if c < n {
                var j = c
                var k = c &+ 1
                while k < n {
                    if p[k] < p[j] { j = k }
                    k &+= 1
                }
                p[i] = p[j]
                i = j
            }
            // ...then sift the new entry up: usually zero or one step, as new times are late.
            while i > 0 {
                let parent = (i &- 1) >> 2
                let pv = p[parent]
                if !(x < pv) { break }
                p[i] = pv
                i = parent
            }
            p[i] = x
        }
    }
}
