import CPrefetch

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's timer records in one block of memory, addressed in place.
///
/// `timers[i].fires += 1` on an `Array` checks uniqueness and may copy the record; the hot loop
/// does this several times per event. This table hands out the element's address instead. The
/// engine never holds an element's address across a call that could add a timer (tool callbacks
/// run between accesses, not inside them), so growth never invalidates a live access.
///
/// Each record starts on a cache line (the stride is rounded up to 64 bytes): a record's first 64
/// bytes are its hot fields (TimerRecord), so a firing misses one line, not two. A large table
/// asks the kernel for huge pages: with 100,000 timers the records span 32 MB, and a firing that
/// lands on any of them would otherwise also miss the TLB.
struct TimerTable: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int

    /// Bytes from one record to the next: the record's stride, rounded up to a cache line.
    static let stride = (MemoryLayout<TimerRecord>.stride + 63) & ~63
    private static let hugePage = 2 << 20

    init() {
        capacity = 64
        base = TimerTable.allocate(capacity)
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        let bytes = capacity * stride
        let huge = bytes >= hugePage
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: bytes, alignment: huge ? hugePage : max(64, MemoryLayout<TimerRecord>.alignment))
        #if canImport(Glibc)
            // A hint: the table works the same without it.
            if huge { _ = madvise(memory, bytes, MADV_HUGEPAGE) }
        #endif
        return memory
    }

    @inline(__always) private func address(_ i: Int) -> UnsafeMutablePointer<TimerRecord> {
        (base + i &* TimerTable.stride).assumingMemoryBound(to: TimerRecord.self)
    }

    deinit {
        for i in 0..<count { _ = address(i).deinitialize(count: 1) }
        base.deallocate()
    }

    var indices: Range<Int> { 0..<count }

    mutating func append(_ record: TimerRecord) {
        if count == capacity {
            let bigger = TimerTable.allocate(capacity * 2)
            for i in 0..<count {
                (bigger + i * TimerTable.stride).bindMemory(to: TimerRecord.self, capacity: 1)
                    .moveInitialize(from: address(i), count: 1)
            }
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        (base + count * TimerTable.stride).bindMemory(to: TimerRecord.self, capacity: 1).initialize(to: record)
        count += 1
    }

    /// Starts bringing record `i`'s first two lines into the cache — what every firing touches
    /// and what a late or dispatch firing adds (TimerRecord) — nothing if there is no such record.
    @inline(__always) func prefetch(_ i: Int) {
        guard i < count else { return }
        let record = UnsafeRawPointer(address(i))
        debugsh_prefetch(record)
        debugsh_prefetch(record + 64)
    }

    /// Record `i`'s address, for a hot path that touches many of its fields: the address is
    /// computed once. Valid until the next timer is added.
    @inline(__always) func record(_ i: Int) -> UnsafeMutablePointer<TimerRecord> {
        assert(i >= 0 && i < count, "timer index out of range")
        return address(i)
    }

    subscript(i: Int) -> TimerRecord {
        @inline(__always) unsafeAddress {
            assert(i >= 0 && i < count, "timer index out of range")
            return UnsafePointer(address(i))
        }
        @inline(__always) unsafeMutableAddress {
            assert(i >= 0 && i < count, "timer index out of range")
            return address(i)
        }
    }
}
