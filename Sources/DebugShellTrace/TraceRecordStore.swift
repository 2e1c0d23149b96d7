/// The trace's records, by index, in chunks of 65,536 (3 MB): a growing trace never copies what
/// it holds to grow (one array would copy it at each doubling, and touch twice the memory it
/// keeps), and a copy of the store — the snapshot a save writes, with what is open closed — shares
/// every chunk it does not change (copy on write, a chunk at a time), so that saving a million
/// events does not copy 48 MB.
struct TraceRecordStore {
    static let chunkShift = 16
    static let chunkSize = 1 << chunkShift
    static let chunkMask = chunkSize - 1

    private var chunks: [[TraceRecord]] = []
    /// Records held.
    private(set) var count = 0
    /// The most records it will hold as a rule (a trace's limit): no chunk reserves more.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    subscript(index: Int) -> TraceRecord {
        get { chunks[index &>> TraceRecordStore.chunkShift][index & TraceRecordStore.chunkMask] }
        set { chunks[index &>> TraceRecordStore.chunkShift][index & TraceRecordStore.chunkMask] = newValue }
    }

    @inline(__always)
    mutating func append(_ record: TraceRecord) {
        if count & TraceRecordStore.chunkMask == 0 { addChunk() }
        chunks[chunks.count - 1].append(record)
        count += 1
    }

    /// A chunk for the records from `count` on: as large as the trace can use, at most a chunk.
    private mutating func addChunk() {
        var chunk: [TraceRecord] = []
        chunk.reserveCapacity(max(1, min(TraceRecordStore.chunkSize, capacity - count)))
        chunks.append(chunk)
    }

    /// Calls `body` with the records from `start` to the end, then from the first to `start` (a
    /// ring's order, oldest first), each with its position in that order, a chunk at a time.
    func forEach(from start: Int, _ body: (Int, TraceRecord) throws -> Void) rethrows {
        var position = 0
        for range in [start..<count, 0..<start] where !range.isEmpty {
            var i = range.lowerBound
            while i < range.upperBound {
                let chunk = i &>> TraceRecordStore.chunkShift
                let offset = i & TraceRecordStore.chunkMask
                let n = min(range.upperBound - i, TraceRecordStore.chunkSize - offset)
                try chunks[chunk].withUnsafeBufferPointer { records in
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
