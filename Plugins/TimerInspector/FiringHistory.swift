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
    private(set) var extra: Int64

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

/// The last ``capacity`` firings of one timer, in a ring that stops growing when full (SPEC §13:
/// firing history 1,000 per timer), so a timer in steady state allocates nothing per firing.
struct FiringHistory {
    static let capacity = 1_000

    private var records: [FiringRecord] = []
    /// The oldest record once the ring is full.
    private var head = 0
    /// Every firing recorded, kept or not.
    private(set) var total: Int64 = 0

    /// How many firings are kept.
    var count: Int { records.count }

    mutating func append(_ record: FiringRecord) {
        total += 1
        if records.count < FiringHistory.capacity {
            records.append(record)
        } else {
            records[head] = record
            head = head + 1 == FiringHistory.capacity ? 0 : head + 1
        }
    }

    /// The last `n` kept firings, oldest first, each with its number (the first firing is 1).
    func last(_ n: Int) -> [(number: Int64, record: FiringRecord)] {
        let shown = max(0, min(n, records.count))
        var out: [(number: Int64, record: FiringRecord)] = []
        out.reserveCapacity(shown)
        let firstNumber = total - Int64(shown) + 1
        for k in 0..<shown {
            let index = (head + records.count - shown + k) % records.count
            out.append((firstNumber + Int64(k), records[index]))
        }
        return out
    }
}
