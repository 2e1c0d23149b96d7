/// The trace's records, by index, in chunks of 65,536 (3 MB), each allocated once at its size and
/// filled in place: a growing trace never copies what it holds to grow (one array would copy it
/// at each doubling, and touch twice the memory it keeps), and appending a record is a store and
/// a check that no copy shares the chunk — no array's growth or uniqueness checks per record. A
/// copy of the store — the snapshot a save writes, with what is open closed — shares every chunk
/// it does not change (copy on write, a chunk at a time), so that saving a million events does
/// not copy 48 MB.
struct TraceRecordStore {
    static let chunkShift = 16
    static let chunkSize = 1 << chunkShift
    static let chunkMask = chunkSize - 1

    /// A block of records. It holds no count (its store knows how many it holds), so that a store
    /// reads nothing of it that could change: only its constants and, through its pointer, its
    /// records.
    final class Chunk {
        let records: UnsafeMutablePointer<TraceRecord>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            records = .allocate(capacity: max(1, capacity))
        }

        /// A chunk of `capacity` with this one's first `count` records.
        func copy(count: Int, capacity: Int) -> Chunk {
            let copy = Chunk(capacity: capacity)
            copy.records.initialize(from: records, count: count)
            return copy
        }

        // Records are plain numbers: nothing to deinitialize.
        deinit { records.deallocate() }
    }

    /// The full chunks, oldest first.
    private var chunks: [Chunk] = []
    /// The chunk being filled (records `chunks.count << chunkShift` on); an empty placeholder
    /// before the first record.
    private var tail = Chunk(capacity: 0)
    /// Records held.
    private(set) var count = 0
    /// The most records it will hold as a rule (a trace's limit): no chunk reserves more.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(index: Int) -> TraceRecord {
        get {
            precondition(index >= 0 && index < count, "no record \(index)")
            let c = index &>> TraceRecordStore.chunkShift
            let chunk = c < chunks.count ? chunks[c] : tail
            return chunk.records[index & TraceRecordStore.chunkMask]
        }
        set {
            precondition(index >= 0 && index < count, "no record \(index)")
            let c = index &>> TraceRecordStore.chunkShift
            if c < chunks.count {
                if !isKnownUniquelyReferenced(&chunks[c]) {
                    chunks[c] = chunks[c].copy(count: TraceRecordStore.chunkSize, capacity: TraceRecordStore.chunkSize)
                }
                chunks[c].records[index & TraceRecordStore.chunkMask] = newValue
            } else {
                let held = count - chunks.count << TraceRecordStore.chunkShift
                if !isKnownUniquelyReferenced(&tail) { tail = tail.copy(count: held, capacity: tail.capacity) }
                tail.records[index & TraceRecordStore.chunkMask] = newValue
            }
        }
    }

    @inline(__always)
    mutating func append(_ record: TraceRecord) {
        let offset = count & TraceRecordStore.chunkMask
        if _slowPath(offset == 0 || offset >= tail.capacity || !isKnownUniquelyReferenced(&tail)) {
            prepareTail(offset)
        }
        tail.records[offset] = record
        count &+= 1
    }

    /// Makes the tail ready for a record at `offset`: a fresh chunk when the tail is full (as
    /// large as the trace can use, at most a chunk), a larger one when a small trace's records
    /// pass its limit (what is open, closed as a full trace stops), a copy of its own when a copy
    /// of the store shares it.
    @inline(never)
    private mutating func prepareTail(_ offset: Int) {
        if offset == 0 {
            if count > 0 { chunks.append(tail) }
            tail = Chunk(capacity: max(1, min(TraceRecordStore.chunkSize, capacity - count)))
        } else {
            let size = offset >= tail.capacity ? min(TraceRecordStore.chunkSize, offset * 2) : tail.capacity
            tail = tail.copy(count: offset, capacity: size)
        }
    }

    /// Calls `body` with the records from `start` to the end, then from the first to `start` (a
    /// ring's order, oldest first), each with its position in that order, a chunk at a time.
    func forEach(from start: Int, _ body: (Int, TraceRecord) throws -> Void) rethrows {
        var position = 0
        for range in [start..<count, 0..<start] where !range.isEmpty {
            var i = range.lowerBound
            while i < range.upperBound {
                let c = i &>> TraceRecordStore.chunkShift
                let offset = i & TraceRecordStore.chunkMask
                let n = min(range.upperBound - i, TraceRecordStore.chunkSize - offset)
                let chunk = c < chunks.count ? chunks[c] : tail
                try withExtendedLifetime(chunk) {
                    let records = chunk.records
                    for k in offset..<(offset + n) {
                        try body(position, records[k])
                        position += 1
                    }
                }
                i += n
            }
        }
    }
}
