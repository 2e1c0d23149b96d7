/// The engine's event queue: a calendar queue of 16-byte entries, hand-written.
///
/// An entry is a time and a key that orders events at the same instant (S4: the step, then
/// creation or scheduling order) and names their target. Entries are ordered by (time, key).
///
/// A heap pays a sift of log n levels — each a cache miss once the heap outgrows the cache — for
/// every event, twice for an event that is popped and pushed again later. Timers, though, are
/// scheduled a little into the future and taken in time order, which a calendar does in constant
/// time: time is cut into slots of 2^20 ns (about a millisecond), and a wheel of 4,096 buckets
/// (about 4.3 s) holds the entries of the slots ahead, unsorted — a push is an append. When the
/// queue reaches a slot, it sorts that bucket once and hands its entries out in order. Entries
/// beyond the wheel wait in a heap (`overflow`); those pushed into a slot already reached wait
/// in another (`late`: a background handler's return, a command at now). The earliest entry is
/// the least of the three. At 100,000 timers this costs a third of what the 4-ary heap it
/// replaces did, and at 1,000 timers no more.
struct EventQueue: ~Copyable {
    /// Time and key packed into one 128-bit word, so that ordering is one comparison; times are
    /// never negative.
    struct Entry {
        var packed: UInt128

        @inline(__always) init(time: Int64, key: UInt64) {
            packed = UInt128(UInt64(bitPattern: time)) << 64 | UInt128(key)
        }

        @inline(__always) var time: Int64 { Int64(bitPattern: UInt64(truncatingIfNeeded: packed >> 64)) }
        @inline(__always) var key: UInt64 { UInt64(truncatingIfNeeded: packed) }

        @inline(__always) static func < (a: Entry, b: Entry) -> Bool { a.packed < b.packed }
        @inline(__always) static func == (a: Entry, b: Entry) -> Bool { a.packed == b.packed }
    }

    /// A slot is 2^shift ns; the wheel has 2^wheelBits buckets.
    static let shift: Int64 = 20
    static let wheelBits = 12
    static let wheelSize = 1 << wheelBits
    /// How far ahead the engine asks for a timer's record (``upcomingKey(_:)``): a few events
    /// cover a memory access.
    static let prefetchDistance = 8
    static let wheelMask = Int64(wheelSize - 1)

    /// The wheel's buckets: each an unsorted buffer of the entries of one slot ahead.
    private var buckets: UnsafeMutablePointer<EntryBuffer>
    /// Which buckets hold entries, one bit each.
    private var occupied: UnsafeMutablePointer<UInt64>
    /// Entries in the wheel's buckets.
    private var inWheel = 0
    /// The slot reached: its entries, sorted, are `current`, handed out from `cursor`.
    private var slot: Int64 = 0
    private var current = EntryBuffer()
    private var cursor = 0
    /// Entries pushed into a slot already reached, and entries beyond the wheel: min-heaps.
    private var late = EntryHeap()
    private var overflow = EntryHeap()
    /// Buffers no bucket holds, the most recently used last. An empty bucket holds no buffer: a
    /// push into it takes the last one here — the one whose entries were just handed out, still
    /// in the cache — rather than the one it held a turn of the wheel (4.3 s) ago, long gone
    /// from the cache. At 1,000 timers this keeps the wheel's lines in use down to the buffers
    /// of the buckets with entries.
    private var spare: UnsafeMutablePointer<EntryBuffer>
    private var spareCount = 0
    /// Room for sorting a bucket: a second buffer and a radix sort's digit counts.
    private var scratch = EntryBuffer()
    private var counts: UnsafeMutablePointer<Int32>
    /// Room for sorting a small bucket's words (EntryBuffer.sortFew).
    private var words: UnsafeMutablePointer<UInt64>

    private(set) var count = 0

    init() {
        buckets = .allocate(capacity: EventQueue.wheelSize)
        buckets.initialize(repeating: EntryBuffer(), count: EventQueue.wheelSize)
        occupied = .allocate(capacity: EventQueue.wheelSize / 64)
        occupied.initialize(repeating: 0, count: EventQueue.wheelSize / 64)
        counts = .allocate(capacity: EntryBuffer.radix)
        counts.initialize(repeating: 0, count: EntryBuffer.radix)
        words = .allocate(capacity: EntryBuffer.networkLimit)
        // Every buffer is a bucket's, the current slot's or spare: at most one per bucket and one.
        spare = .allocate(capacity: EventQueue.wheelSize + 1)
    }

    deinit {
        for b in 0..<EventQueue.wheelSize { buckets[b].free() }
        for k in 0..<spareCount { spare[k].free() }
        spare.deallocate()
        buckets.deallocate()
        occupied.deallocate()
        current.free()
        scratch.free()
        counts.deallocate()
        words.deallocate()
        late.free()
        overflow.free()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always) private static func slot(of time: Int64) -> Int64 { time >> shift }

    /// Adds an entry: an append to its slot's bucket, or a push into a small heap.
    @inline(__always) mutating func push(time: Int64, key: UInt64) {
        let e = Entry(time: time, key: key)
        count &+= 1
        let s = EventQueue.slot(of: time)
        // One unsigned comparison: s is one of the wheel's slots, slot + 1 … slot + size − 1.
        if UInt64(bitPattern: s &- slot &- 1) < UInt64(EventQueue.wheelSize - 1) {
            let b = Int(s & EventQueue.wheelMask)
            if buckets[b].base == nil && spareCount > 0 {
                spareCount &-= 1
                buckets[b] = spare[spareCount]
            }
            buckets[b].append(e)
            occupied[b >> 6] |= 1 << UInt64(b & 63)
            inWheel &+= 1
        } else {
            pushAside(e, slot: s)
        }
    }

    /// An entry for a slot already reached (`late`) or beyond the wheel (`overflow`).
    private mutating func pushAside(_ e: Entry, slot s: Int64) {
        if s <= slot {
            late.push(e)
        } else {
            overflow.push(e)
        }
        if e < aside { aside = e }
    }

    /// The key of the entry `k` places after the current slot's next one, if the slot has it: a
    /// hint of what comes soon (not necessarily in that order, as a late entry may come first).
    @inline(__always) func upcomingKey(_ k: Int) -> UInt64? {
        cursor + k < current.count ? current[cursor + k].key : nil
    }

    /// No entry: later than any real one (times stay below 2^62, S1).
    @inline(__always) static var none: Entry { Entry(time: Int64.max, key: UInt64.max) }

    /// The earliest entry of `late` and `overflow`, or ``none``: kept current by their pushes and
    /// pops, so that the queue's earliest entry is one comparison with the current slot's next.
    private var aside = EventQueue.none

    @inline(__always) private mutating func refreshAside() {
        let l = late.top ?? EventQueue.none
        let o = overflow.top ?? EventQueue.none
        aside = o < l ? o : l
    }

    /// Makes sure the current slot has entries when the wheel has any: loads the next occupied
    /// bucket once the current one is used up.
    @inline(__always) private mutating func settle() {
        guard cursor == current.count, inWheel > 0 else { return }
        loadNextBucket()
    }

    private mutating func loadNextBucket() {
        // The first occupied bucket after the current slot, in wheel order.
        let words = EventQueue.wheelSize / 64
        let start = Int((slot &+ 1) & EventQueue.wheelMask)
        var word = start >> 6
        var bits = occupied[word] & (~0 << UInt64(start & 63))
        var checked = 0
        while bits == 0 {
            checked += 1
            if checked > words { return }
            word = (word + 1) & (words - 1)
            bits = occupied[word]
        }
        var b = 0
        b = (word << 6) | bits.trailingZeroBitCount
        occupied[word] &= ~(1 << UInt64(b & 63))
        // The bucket's slot: the first at or after slot + 1 with this index.
        let distance = (Int64(b) &- (slot &+ 1)) & EventQueue.wheelMask
        slot = slot &+ 1 &+ distance
        // The used-up buffer becomes the next spare (its lines were just read); the bucket is
        // left without one.
        current.count = 0
        cursor = 0
        if current.base != nil {
            spare[spareCount] = current
            spareCount &+= 1
        }
        current = buckets[b]
        buckets[b] = EntryBuffer()
        inWheel &-= current.count
        current.sortWithinSlot(scratch: &scratch, counts: counts, words: self.words)
    }

    /// The current slot's next entry, or ``none``.
    @inline(__always) private mutating func next() -> Entry {
        settle()
        return cursor < current.count ? current[cursor] : EventQueue.none
    }

    /// The earliest entry, or ``none`` when the queue is empty.
    @inline(__always) var first: Entry {
        mutating get {
            let c = next()
            return aside < c ? aside : c
        }
    }

    /// The time of the earliest entry, or `Int64.max` when there is none.
    @inline(__always) var topTime: Int64 {
        mutating get { first.time }
    }

    /// Whether the earliest entry, which is at or before `t`, is the only one at or before `t`:
    /// nothing else happens at its instant. A quick answer for the common case (the entry is the
    /// current slot's, and `t` lies in that slot); false when unsure.
    @inline(__always) func isOnlyEntry(atOrBefore t: Int64) -> Bool {
        guard cursor < current.count, EventQueue.slot(of: t) == slot, aside.time > t else { return false }
        return cursor &+ 1 == current.count || current[cursor &+ 1].time > t
    }

    mutating func removeAll() {
        while count > 0 { popTop() }
    }

    /// Removes and returns the earliest entry. The queue must not be empty.
    @discardableResult
    @inline(__always) mutating func popTop() -> Entry {
        let c = next()
        if c < aside {
            cursor &+= 1
            count &-= 1
            return c
        }
        return popAside()
    }

    private mutating func popAside() -> Entry {
        guard aside.time != Int64.max else { return EventQueue.none }
        count &-= 1
        let e: Entry
        if let l = late.top, l == aside {
            e = late.pop()
        } else {
            e = overflow.pop()
        }
        refreshAside()
        return e
    }

    /// Replaces the earliest entry with another.
    @inline(__always) mutating func replaceTop(time: Int64, key: UInt64) {
        popTop()
        push(time: time, key: key)
    }
}

/// A growable buffer of entries, managed by hand: the wheel's buckets swap them.
struct EntryBuffer {
    var base: UnsafeMutablePointer<EventQueue.Entry>?
    var count = 0
    var capacity = 0

    @inline(__always) subscript(i: Int) -> EventQueue.Entry {
        get { base.unsafelyUnwrapped[i] }
        nonmutating set { base.unsafelyUnwrapped[i] = newValue }
    }

    @inline(__always) mutating func append(_ e: EventQueue.Entry) {
        if count == capacity { grow() }
        base.unsafelyUnwrapped[count] = e
        count &+= 1
    }

    fileprivate mutating func grow() {
        let newCapacity = max(8, capacity * 2)
        let new = UnsafeMutablePointer<EventQueue.Entry>.allocate(capacity: newCapacity)
        if let base {
            new.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = new
        capacity = newCapacity
    }

    /// The radix of the bucket sort: two passes of 10 bits cover a slot's 2^20 ns.
    static let radixBits: Int64 = 10
    static let radix = 1 << radixBits

    /// Sorts entries whose times lie in one slot (2^20 ns): by a sorting network when they are
    /// few (``sortFew(_:scratch:words:)``), by insertion up to 32, else by one counting pass on
    /// their times' bits 10–19 (1,024 windows of 1,024 ns) and a finishing insertion sort, which
    /// has little to do — only entries that share a window can be out of order, and windows hold
    /// about one entry each at 100,000 timers. Linear, where a comparison sort of a bucket of
    /// hundreds was a fifth of the engine's time at 100,000 timers; the insertion sort also
    /// orders entries of equal time by key.
    mutating func sortWithinSlot(
        scratch: inout EntryBuffer, counts: UnsafeMutablePointer<Int32>, words: UnsafeMutablePointer<UInt64>
    ) {
        guard count > 1, let base else { return }
        if count <= EntryBuffer.networkLimit {
            sortFew(base, scratch: &scratch, words: words)
            return
        }
        if count <= 32 {
            EntryBuffer.insertionSort(base, 0, count)
            return
        }
        while scratch.capacity < count { scratch.growForSort() }
        guard let other = scratch.base else { return }
        let mask = Int64(EntryBuffer.radix - 1)
        let shift = EntryBuffer.radixBits
        counts.update(repeating: 0, count: EntryBuffer.radix)
        for i in 0..<count { counts[Int((base[i].time >> shift) & mask)] &+= 1 }
        var sum: Int32 = 0
        for d in 0..<EntryBuffer.radix {
            let c = counts[d]
            counts[d] = sum
            sum &+= c
        }
        for i in 0..<count {
            let e = base[i]
            let d = Int((e.time >> shift) & mask)
            other[Int(counts[d])] = e
            counts[d] &+= 1
        }
        base.update(from: other, count: count)
        EntryBuffer.insertionSort(base, 0, count)
    }

    /// The most entries a slot sorts with a sorting network.
    static let networkLimit = 8
    /// A time's place within its slot: the low 20 bits.
    private static let slotMask: UInt64 = (1 << 20) - 1

    /// Sorts up to 8 entries of one slot (about five at 1,000 timers). Each entry becomes a
    /// 64-bit word, its time within the slot above its place in the buffer; the words go through
    /// a sorting network, whose exchanges are a minimum and a maximum (conditional moves, not
    /// branches: an insertion sort's comparisons are coin flips to the branch predictor); the
    /// entries are gathered in the words' order into the scratch buffer, which then changes
    /// places with this one. Entries of equal time come out in the order of their places; the
    /// rare slot that has some is finished by an insertion sort, which orders them by key.
    /// Sorting 16-byte entries by 128-bit comparisons directly cost twice the instructions.
    @inline(__always)
    private mutating func sortFew(
        _ base: UnsafeMutablePointer<EventQueue.Entry>, scratch: inout EntryBuffer, words: UnsafeMutablePointer<UInt64>
    ) {
        let n = count
        for i in 0..<n {
            words[i] =
                (UInt64(truncatingIfNeeded: base[i].time) & EntryBuffer.slotMask) << 3 | UInt64(truncatingIfNeeded: i)
        }
        EntryBuffer.networkSort(words, n)
        while scratch.capacity < n { scratch.growForSort() }
        guard let out = scratch.base else { return }
        var previous = words[0] >> 3
        var tie = false
        out[0] = base[Int(truncatingIfNeeded: words[0] & 7)]
        for k in 1..<n {
            let w = words[k]
            tie = tie || w >> 3 == previous
            previous = w >> 3
            out[k] = base[Int(truncatingIfNeeded: w & 7)]
        }
        // The sorted entries are the scratch buffer's: it becomes this slot's, and this one the
        // scratch (its entries no longer needed).
        scratch.count = n
        swap(&self, &scratch)
        scratch.count = 0
        if tie { EntryBuffer.insertionSort(out, 0, n) }
    }

    /// Sorts 2 to 8 words with a sorting network (Knuth, TAOCP 5.3.4: the fewest comparators
    /// known), written out for each size: no table, no loop.
    @inline(__always)
    static func networkSort(_ w: UnsafeMutablePointer<UInt64>, _ n: Int) {
        @inline(__always) func cx(_ i: Int, _ j: Int) {
            let a = w[i]
            let b = w[j]
            w[i] = min(a, b)
            w[j] = max(a, b)
        }
        switch n {
        case 2: cx(0, 1)
        case 3:
            cx(0, 2); cx(0, 1); cx(1, 2)
        case 4:
            cx(0, 1); cx(2, 3); cx(0, 2); cx(1, 3); cx(1, 2)
        case 5:
            cx(0, 1); cx(3, 4); cx(2, 4); cx(2, 3); cx(1, 4); cx(0, 3); cx(0, 2); cx(1, 3); cx(1, 2)
        case 6:
            cx(1, 2); cx(4, 5); cx(0, 2); cx(3, 5); cx(0, 1); cx(3, 4); cx(1, 4); cx(0, 3); cx(2, 5); cx(1, 3)
            cx(2, 4); cx(2, 3)
        case 7:
            cx(1, 2); cx(3, 4); cx(5, 6); cx(0, 2); cx(3, 5); cx(4, 6); cx(0, 1); cx(4, 5); cx(2, 6); cx(0, 4)
            cx(1, 5); cx(0, 3); cx(2, 5); cx(1, 3); cx(2, 4); cx(2, 3)
        case 8:
            cx(0, 2); cx(1, 3); cx(4, 6); cx(5, 7); cx(0, 4); cx(1, 5); cx(2, 6); cx(3, 7); cx(0, 1); cx(2, 3)
            cx(4, 5); cx(6, 7); cx(2, 4); cx(3, 5); cx(1, 4); cx(3, 6); cx(1, 2); cx(3, 4); cx(5, 6)
        default: break
        }
    }

    private static func insertionSort(_ p: UnsafeMutablePointer<EventQueue.Entry>, _ lo: Int, _ hi: Int) {
        var i = lo + 1
        while i < hi {
            let x = p[i]
            var j = i
            while j > lo && x < p[j - 1] {
                p[j] = p[j - 1]
                j -= 1
            }
            p[j] = x
            i += 1
        }
    }

    mutating func growForSort() { grow() }

    func free() { base?.deallocate() }
}

/// A binary min-heap of entries for the queue's stragglers.
struct EntryHeap {
    private var a = EntryBuffer()

    @inline(__always) var top: EventQueue.Entry? { a.count > 0 ? a[0] : nil }

    mutating func push(_ e: EventQueue.Entry) {
        a.append(e)
        var i = a.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            let p = a[parent]
            if !(e < p) { break }
            a[i] = p
            i = parent
        }
        a[i] = e
    }

    mutating func pop() -> EventQueue.Entry {
        let top = a[0]
        a.count -= 1
        let n = a.count
        guard n > 0 else { return top }
        let x = a[n]
        var i = 0
        while true {
            var c = 2 * i + 1
            if c >= n { break }
            if c + 1 < n && a[c + 1] < a[c] { c += 1 }
            if !(a[c] < x) { break }
            a[i] = a[c]
            i = c
        }
        a[i] = x
        return top
    }

    func free() { a.free() }
}
