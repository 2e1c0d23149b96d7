import DebugShellCore

/// One firing as the inspector keeps it, packed into 24 bytes.
///
/// A hundred thousand timers keep up to a thousand firings each, so the record is small: times
/// stay below the 2^62 ns horizon (S1), which leaves the top bits of two words free for the
/// K2 cause.
struct FiringRecord {
    /// The scheduled time (K2's oldest grid point) in the low 62 bits; the cause's index in the
    /// top two.
    private var scheduledWord: UInt64
    /// The lateness in the low 62 bits; the top bit says whether there is a cause.
    private var latenessWord: UInt64
    /// A dispatch timer's `data` (D3) or a run-loop timer's skipped grid points (T4).
    var extra: Int64

    private static let low62: UInt64 = (1 << 62) - 1
    private static let causes: [LatenessCause] = [.mode, .busy, .coalesced, .paused]

    init(scheduled: SimTime, lateness: SimDuration, cause: LatenessCause?, extra: Int64) {
        let code = cause.flatMap { FiringRecord.causes.firstIndex(of: $0) } ?? 0
        scheduledWord = UInt64(clamping: scheduled.nanoseconds) & FiringRecord.low62 | UInt64(code) << 62
        latenessWord = UInt64(clamping: lateness.nanoseconds) & FiringRecord.low62 | (cause == nil ? 0 : 1 << 63)
        self.extra = extra
    }

    var scheduled: SimTime { SimTime(nanoseconds: Int64(scheduledWord & FiringRecord.low62)) }
    var lateness: SimDuration { SimDuration(nanoseconds: Int64(latenessWord & FiringRecord.low62)) }
    /// When the callback or handler started.
    var start: SimTime { scheduled + lateness }
    var cause: LatenessCause? {
        latenessWord >> 63 == 0 ? nil : FiringRecord.causes[Int(scheduledWord >> 62)]
    }
}

/// Every app timer's last ``capacity`` firings (docs/Limits: 1,000 per timer) and its largest
/// lateness, addressed by the timer's entry index.
///
/// This is the firing observer's whole working set, so it is laid out for it: one dense array
/// of small ring headers, each pointing at its own block of records. A firing reads its
/// header and writes one record — no array bounds or uniqueness checks on the records, no
/// allocation once a ring is full. (Swift arrays per timer cost two more cache misses per
/// firing at 100,000 timers.) Rings grow by doubling up to ``capacity``.
///
/// Memory is bounded as well: all rings together keep at most ``budget`` firings (48 MB), so
/// with more than 2,000 timers each ring keeps an equal share, at least ``minimumShare``
/// (README, Performance: 100,000 timers and 100,000 views under 200 MB).
final class FiringLog {
    static let capacity = 1_000
    static let budget = 2_000_000
    static let minimumShare = 16

    /// How many firings a ring may keep now: 1,000, or an equal share of the budget.
    var ringLimit: Int { max(FiringLog.minimumShare, min(FiringLog.capacity, FiringLog.budget / max(1, rings.count))) }

    /// A timer's ring: where its records are, how many, the oldest, and its largest lateness.
    private struct Ring {
        var records: UnsafeMutablePointer<FiringRecord>?
        var capacity: Int32 = 0
        var count: Int32 = 0
        /// The oldest record once the ring is full.
        var head: Int32 = 0
        /// The largest lateness's cause (K2), as the record encodes it.
        var maxLateCause: LatenessCause?
        /// Every firing recorded, kept or not.
        var total: Int64 = 0
        /// The sum of every recorded firing's `extra` (kept or not), plus what ``addExtra(_:to:)``
        /// added: a dispatch timer's data, a run-loop timer's skips.
        var extraTotal: Int64 = 0
        /// The largest lateness, or -1 before the first firing.
        var maxLate: Int64 = -1
    }

    private var rings: [Ring] = []

    deinit {
        for ring in rings {
            ring.records?.deinitialize(count: Int(ring.count))
            ring.records?.deallocate()
        }
    }

    /// Adds an empty ring; returns its index (the timer's entry index).
    func addTimer() -> Int {
        rings.append(Ring())
        return rings.count - 1
    }

    /// Keeps a firing of the timer (an index from ``addTimer()``).
    ///
    /// - Returns: the previous largest lateness in nanoseconds (-1 before the first firing) when
    ///   this firing raised it; nil otherwise.
    func append(_ record: FiringRecord, to timer: Int) -> Int64? {
        let limit = ringLimit  // read before the rings are borrowed for writing
        return rings.withUnsafeMutableBufferPointer { rings -> Int64? in
            guard let base = rings.baseAddress, timer >= 0, timer < rings.count else { return nil }
            let ring = base + timer
            ring.pointee.total += 1
            ring.pointee.extraTotal &+= record.extra
            let count = ring.pointee.count
            if count == ring.pointee.capacity && Int(count) < limit {
                grow(ring, limit: limit)
            }
            guard let records = ring.pointee.records else { return nil }
            if count < ring.pointee.capacity {
                (records + Int(count)).initialize(to: record)
                ring.pointee.count = count + 1
            } else {
                let head = ring.pointee.head
                records[Int(head)] = record
                ring.pointee.head = head + 1 == count ? 0 : head + 1
            }
            let lateness = record.lateness.nanoseconds
            let previous = ring.pointee.maxLate
            guard lateness > previous else { return nil }
            ring.pointee.maxLate = lateness
            ring.pointee.maxLateCause = record.cause
            return previous
        }
    }

    private func grow(_ ring: UnsafeMutablePointer<Ring>, limit: Int) {
        let old = Int(ring.pointee.capacity)
        let capacity = min(limit, max(8, old * 2))
        let records = UnsafeMutablePointer<FiringRecord>.allocate(capacity: capacity)
        if let previous = ring.pointee.records {
            records.moveInitialize(from: previous, count: Int(ring.pointee.count))
            previous.deallocate()
        }
        ring.pointee.records = records
        ring.pointee.capacity = Int32(capacity)
    }

    /// Firings recorded for the timer, kept or not.
    func total(_ timer: Int) -> Int64 { rings[timer].total }

    /// Firings kept for the timer.
    func kept(_ timer: Int) -> Int { Int(rings[timer].count) }

    /// The sum of the `extra` of every firing recorded for the timer, kept or not, and of what
    /// was added apart from firings.
    func extraTotal(_ timer: Int) -> Int64 { rings[timer].extraTotal }

    /// Adds to the timer's `extra` total apart from a firing (the skips a resume counts, T8).
    func addExtra(_ n: Int64, to timer: Int) { rings[timer].extraTotal &+= n }

    /// Sets the `extra` of the timer's newest firing to 0: a run-loop timer invalidated during
    /// its callback skips nothing (T4).
    func clearNewestExtra(_ timer: Int) {
        let count = Int(rings[timer].count)
        guard count > 0, let records = rings[timer].records else { return }
        let k = (Int(rings[timer].head) + count - 1) % count
        rings[timer].extraTotal &-= records[k].extra
        records[k].extra = 0
    }

    /// The timer's newest firing, if any is kept.
    func newest(_ timer: Int) -> FiringRecord? {
        let ring = rings[timer]
        let count = Int(ring.count)
        guard count > 0, let records = ring.records else { return nil }
        return records[(Int(ring.head) + count - 1) % count]
    }

    /// How many firings the timer's ring keeps: 1,000, or its share of the budget.
    func keeps(_ timer: Int) -> Int { max(Int(rings[timer].capacity), ringLimit) }

    /// The timer's largest lateness and its cause (K2); nil before it fired.
    func maxLate(_ timer: Int) -> (lateness: SimDuration, cause: LatenessCause?)? {
        let ring = rings[timer]
        return ring.maxLate < 0 ? nil : (SimDuration(nanoseconds: ring.maxLate), ring.maxLateCause)
    }

    /// The last `n` kept firings of the timer, oldest first, each with its number (the first
    /// firing is 1).
    func last(_ n: Int, of timer: Int) -> [(number: Int64, record: FiringRecord)] {
        let ring = rings[timer]
        let count = Int(ring.count)
        let shown = max(0, min(n, count))
        guard shown > 0, let records = ring.records else { return [] }
        let firstNumber = ring.total - Int64(shown) + 1
        return (0..<shown).map { k in
            (firstNumber + Int64(k), records[(Int(ring.head) + count - shown + k) % count])
        }
    }
}
