/// A growable buffer of trivial values with no copy-on-write: the engine's hot lists.
///
/// `Array.append` checks uniqueness through a runtime call on every mutation; the engine's
/// queue, due lists and batches are owned by one object and never shared, so this buffer skips
/// that. Elements are `BitwiseCopyable`, so nothing needs deinitializing.
struct PodVector<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        self.capacity = max(4, capacity)
        base = Self.allocate(self.capacity)
    }

    /// Buffers start on a cache line (the event queue lays its heap out by lines).
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride, alignment: max(64, MemoryLayout<Element>.alignment)
        ).bindMemory(to: Element.self, capacity: capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) var isEmpty: Bool { count == 0 }
    @inline(__always) var first: Element? { count > 0 ? base[0] : nil }
    @inline(__always) var last: Element? { count > 0 ? base[count - 1] : nil }

    @inline(__always) mutating func append(_ x: Element) {
        if count == capacity { grow() }
        base[count] = x
        count += 1
    }

    private mutating func grow() {
        let bigger = Self.allocate(capacity * 2)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    @inline(__always) mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Removes the first `n` elements.
    mutating func removeFirst(_ n: Int) {
        guard n > 0 else { return }
        let n = min(n, count)
        (base).update(from: base + n, count: count - n)
        count -= n
    }

    /// Removes every element equal to `x`, keeping the order of the rest.
    mutating func removeAll(where predicate: (Element) -> Bool) {
        var kept = 0
        for i in 0..<count where !predicate(base[i]) {
            base[kept] = base[i]
            kept += 1
        }
        count = kept
    }

    subscript(i: Int) -> Element {
        @inline(__always) get {
            assert(i >= 0 && i < count, "index out of range")
            return base[i]
        }
        @inline(__always) set {
            assert(i >= 0 && i < count, "index out of range")
            base[i] = newValue
        }
    }

    /// Direct access to the elements, for the heap's sifts.
    @inline(__always) func withBuffer<R>(_ body: (UnsafeMutableBufferPointer<Element>) -> R) -> R {
        body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Exchanges contents with another vector in O(1).
    mutating func swapContents(with other: inout PodVector<Element>) {
        swap(&base, &other.base)
        swap(&count, &other.count)
        swap(&capacity, &other.capacity)
    }
}
