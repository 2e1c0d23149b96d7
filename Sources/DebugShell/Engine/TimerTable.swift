/// The engine's timer records in one block of memory, addressed in place.
///
/// `timers[i].fires += 1` on an `Array` checks uniqueness and may copy the record; the hot loop
/// does this several times per event. This table hands out the element's address instead. The
/// engine never holds an element's address across a call that could add a timer (tool callbacks
/// run between accesses, not inside them), so growth never invalidates a live access.
struct TimerTable: ~Copyable {
    private var base: UnsafeMutablePointer<TimerRecord>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 64
        base = TimerTable.allocate(capacity)
    }

    /// Records start on a cache line: a record's first 64 bytes are its hot fields (TimerRecord),
    /// so a firing misses one line, not two.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<TimerRecord> {
        UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<TimerRecord>.stride,
            alignment: max(64, MemoryLayout<TimerRecord>.alignment)
        ).bindMemory(to: TimerRecord.self, capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var indices: Range<Int> { 0..<count }

    mutating func append(_ record: TimerRecord) {
        if count == capacity {
            let bigger = TimerTable.allocate(capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        (base + count).initialize(to: record)
        count += 1
    }

    subscript(i: Int) -> TimerRecord {
        @inline(__always) unsafeAddress {
            assert(i >= 0 && i < count, "timer index out of range")
            return UnsafePointer(base + i)
        }
        @inline(__always) unsafeMutableAddress {
            assert(i >= 0 && i < count, "timer index out of range")
            return base + i
        }
    }
}
