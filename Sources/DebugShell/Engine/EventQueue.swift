/// The engine's event queue: a binary min-heap of 16-byte entries, hand-written.
///
/// An entry is a time and a key that orders events at the same instant (S4: the step, then
/// creation or scheduling order) and names their target. Replacing the top uses Floyd's
/// bottom-up sift with a branch-free child choice, as the floor benchmark in
/// ../shared/peers/floor does: swift-collections' `Heap` costs about twice as much here.
struct EventQueue {
    struct Entry {
        var time: Int64
        var key: UInt64

        @inline(__always) static func < (a: Entry, b: Entry) -> Bool {
            a.time < b.time || (a.time == b.time && a.key < b.key)
        }
    }

    private(set) var entries: [Entry] = []

    init() { entries.reserveCapacity(64) }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var top: Entry? { entries.first }

    /// The time of the earliest entry, or `Int64.max` when there is none.
    @inline(__always) var topTime: Int64 { entries.isEmpty ? Int64.max : entries[0].time }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    mutating func push(time: Int64, key: UInt64) {
        entries.append(Entry(time: time, key: key))
        entries.withUnsafeMutableBufferPointer { p in
            var i = p.count - 1
            let x = p[i]
            while i > 0 {
                let parent = (i &- 1) >> 1
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
        let top = entries[0]
        let last = entries.removeLast()
        if !entries.isEmpty { replaceTop(with: last) }
        return top
    }

    /// Replaces the earliest entry with `x`: one sift instead of a pop and a push.
    mutating func replaceTop(time: Int64, key: UInt64) {
        replaceTop(with: Entry(time: time, key: key))
    }

    private mutating func replaceTop(with x: Entry) {
        entries.withUnsafeMutableBufferPointer { p in
            let n = p.count
            var i = 0
            var c = 1
            // Walk the hole down to a leaf along the smaller children...
            while c &+ 1 < n {
                let l = p[c]
                let r = p[c &+ 1]
                let right = r < l
                p[i] = right ? r : l
                i = right ? c &+ 1 : c
                c = 2 &* i &+ 1
            }
            if c < n {
                p[i] = p[c]
                i = c
            }
            // ...then sift the new entry up: usually zero or one step, as new times are late.
            while i > 0 {
                let parent = (i &- 1) >> 1
                let pv = p[parent]
                if !(x < pv) { break }
                p[i] = pv
                i = parent
            }
            p[i] = x
        }
    }
}
