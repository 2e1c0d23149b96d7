import DebugShellCore

/// One firing as the inspector keeps it, packed into 32 bytes: a firing off its timer's grid, or
/// a mark where the grid restarts.
///
/// Times stay below the 2^62 ns horizon (S1), which leaves the top bits of two words free for
/// the K2 cause and the kind of record.
struct FiringRecord {
    /// The scheduled time (K2's oldest grid point) in the low 62 bits; the cause's index in the
    /// top two.
    private var scheduledWord: UInt64
    /// The lateness in the low 62 bits; bit 62 marks a restart, bit 63 says there is a cause.
    private var latenessWord: UInt64
    /// A dispatch timer's `data` (D3) or a run-loop timer's skipped grid points (T4).
    var extra: Int64
    /// Which firing of the timer it is, from 1; for a restart, the number of the firing after it.
    var number: Int64

    private static let low62: UInt64 = (1 << 62) - 1
    private static let restartBit: UInt64 = 1 << 62

    /// A cause's two-bit code, and back.
    @inline(__always) private static func code(_ cause: LatenessCause?) -> UInt64 {
        switch cause {
        case .mode?, nil: return 0
        case .busy?: return 1
        case .coalesced?: return 2
        case .paused?: return 3
        }
    }

    @inline(__always) private static func cause(code: UInt64) -> LatenessCause {
        switch code {
        case 0: return .mode
        case 1: return .busy
        case 2: return .coalesced
        default: return .paused
        }
    }

    init(number: Int64, scheduled: SimTime, lateness: SimDuration, cause: LatenessCause?, extra: Int64) {
        let code = FiringRecord.code(cause)
        scheduledWord = UInt64(clamping: scheduled.nanoseconds) & FiringRecord.low62 | code << 62
        latenessWord = UInt64(clamping: lateness.nanoseconds) & FiringRecord.low62 | (cause == nil ? 0 : 1 << 63)
        self.extra = extra
        self.number = number
    }

    /// The grid starts again: the firing numbered `number` is due at `scheduled` (a resumed
    /// NSTimer's next fire date, T8).
    static func restart(number: Int64, scheduled: SimTime) -> FiringRecord {
        var r = FiringRecord(number: number, scheduled: scheduled, lateness: .zero, cause: nil, extra: 0)
        r.latenessWord |= restartBit
        return r
    }

    var scheduled: SimTime { SimTime(nanoseconds: Int64(scheduledWord & FiringRecord.low62)) }
    var lateness: SimDuration { SimDuration(nanoseconds: Int64(latenessWord & FiringRecord.low62)) }
    /// When the callback or handler started.
    var start: SimTime { scheduled + lateness }
    var cause: LatenessCause? {
        latenessWord >> 63 == 0 ? nil : FiringRecord.cause(code: scheduledWord >> 62)
    }
    var isRestart: Bool { latenessWord & FiringRecord.restartBit != 0 }
}

/// Every app timer's firings, addressed by the timer's entry index — kept as run-length
/// history: a firing exactly on its timer's grid (on time, skipping nothing, one grid point)
/// adds nothing but a count, which the device keeps (`fires`).
///
/// Such a firing needs no record: the n-th on-grid firing after a known one is due at a known
/// grid point (T4: an NSTimer that skipped k points fires next k + 1 intervals on; D3: a GCD
/// handler that covered d points is followed by the one d intervals on). So the log records
/// only the firings *off* the grid — late, skipping, covering more than one point — and, for a
/// display link (whose grid is the vsyncs), every firing; the firings between two records are
/// reconstructed when they are shown. Recording costs nothing per on-grid firing: the inspector
/// subscribes only to off-grid ones (`ObservationKinds.timerFiredOffGrid`).
///
/// `timer show` can list the last ``capacity`` firings of every timer. Records are bounded too:
/// all rings together keep at most ``budget`` of them (48 MB); with more than 1,500 timers each
/// keeps an equal share, at least ``minimumShare``, and a timer whose window reaches past its
/// oldest record shows fewer firings.
struct FiringLog: ~Copyable {
    /// Firings `timer show` can list per timer (docs/Limits.md).
    static let capacity = 1_000
    static let budget = 1_500_000
    static let minimumShare = 16

    /// How a timer's grid continues after a record.
    enum Pattern {
        /// Every interval; after a firing, `extra + 1` intervals on (T4's skips).
        case runLoop(interval: Int64)
        /// Every interval; after a handler, `extra` intervals on (D3's data).
        case dispatch(interval: Int64)
        /// Every firing is recorded (a display link: its grid is the vsyncs).
        case everyFiring
    }

    /// A timer's ring of records and what the reconstruction needs.
    private struct Ring {
        var records: UnsafeMutablePointer<FiringRecord>?
        var capacity: Int32 = 0
        var count: Int32 = 0
        /// The oldest record once the ring is full.
        var head: Int32 = 0
        var pattern: Pattern
        /// The first firing the kept window can show, and when it was due: the timer's first
        /// until a record is dropped, then the one after the dropped record.
        var originNumber: Int64 = 1
        var originScheduled: SimTime
        /// Whether a record was ever dropped: the window starts at the origin, not at firing 1.
        var dropped = false
        /// The largest lateness's cause (K2), as the record encodes it.
        var maxLateCause: LatenessCause?
        /// The largest lateness of a recorded firing, or -1 before one.
        var maxLate: Int64 = -1
        /// The sum of every recorded firing's `extra`, plus what ``addExtra(_:to:)`` added.
        var extraTotal: Int64 = 0
        /// Firings recorded since the start, kept or not.
        var recorded: Int64 = 0
    }

    private var rings: [Ring] = []

    /// A firing waiting to go into its timer's ring (``append(_:timer:)``), under the device's
    /// timer id: which ring is found when it is stored.
    private struct Staged {
        var record: FiringRecord
        var timer: Int
    }
    /// The ring of each device timer (by ``TimerID`` raw value), -1 for timers not kept here.
    private var ringOfTimer: [Int32] = []
    private var staged: [Staged] = []
    /// Records staged before they are stored: 40 bytes each, 2.6 MB.
    static let stagingCapacity = 65_536
    /// From how many rings a batch's store prefetches the rings and slots ahead (``flush()``).
    static let prefetchRings = 8_192

    /// Above it a lateness is late (`timer.late-threshold`); ``lateCount`` counts by it.
    var lateThreshold = TimerInspector.lateThresholdSetting.defaultValue
    /// Which firings `timer watch` prints.
    var watching = WatchedFirings.off
    /// Records every firing, on-grid ones too: the reference the run-length history is tested
    /// against.
    var keepsEveryFiring = false

    /// Takes a firing as the device publishes it (of any timer: another tool's too) and keeps it
    /// unless it is on its grid, where it is a count the device keeps; a display link's firings
    /// are all kept, for the app's links. The whole decision is one access to the log, which the
    /// inspector holds as a stored property: each access to one is checked at run time.
    ///
    /// - Returns: the ring of the firing's timer when `timer watch` prints the firing.
    mutating func take(_ firing: TimerFiring) -> Int? {
        let raw = firing.id.rawValue
        var printed: Int?
        if watching == .all || (watching == .late && firing.lateness > lateThreshold) {
            printed = ring(ofTimer: raw)
        }
        if firing.kind == .displayLink {
            // Every link firing is published; most are a tool's or the system's (the FPS meter's,
            // the UI link), which the log would only drop. Links are few: look the ring up now.
            guard ring(ofTimer: raw) != nil else { return printed }
        } else if firing.lateness == .zero && firing.skipped == 0 && firing.data == 1 && !keepsEveryFiring {
            return printed
        }
        let extra = firing.kind == .dispatchTimer ? firing.data : firing.skipped
        append(
            FiringRecord(
                number: firing.number, scheduled: firing.scheduled, lateness: firing.lateness, cause: firing.cause,
                extra: extra), timer: raw)
        return printed
    }
    /// Timers whose largest recorded lateness is above ``lateThreshold`` (`timer.late`, K2).
    var lateCount: Int {
        mutating get {
            flush()
            return storedLateCount
        }
        set { storedLateCount = newValue }
    }
    private var storedLateCount = 0

    /// The largest lateness of any recorded firing, and its cause (the status line's `max`).
    var maxLate: (lateness: SimDuration, cause: LatenessCause?)? {
        mutating get {
            flush()
            return storedMaxLate >= 0 ? (SimDuration(nanoseconds: storedMaxLate), storedMaxLateCause) : nil
        }
    }
    private var storedMaxLate: Int64 = -1
    private var storedMaxLateCause: LatenessCause?

    /// Firings of device timer `raw` go into ring `ring`.
    mutating func assign(timer raw: Int, to ring: Int) {
        flush()
        if ringOfTimer.count <= raw {
            ringOfTimer.append(contentsOf: repeatElement(-1, count: raw + 1 - ringOfTimer.count))
        }
        ringOfTimer[raw] = Int32(ring)
    }

    /// The ring of device timer `raw`, if it has one.
    func ring(ofTimer raw: Int) -> Int? {
        raw >= 0 && raw < ringOfTimer.count && ringOfTimer[raw] >= 0 ? Int(ringOfTimer[raw]) : nil
    }

    deinit {
        for ring in rings {
            ring.records?.deinitialize(count: Int(ring.count))
            ring.records?.deallocate()
        }
    }

    /// How many records a ring may keep now: enough for ``capacity`` firings, or an equal share
    /// of the budget.
    private(set) var ringLimit = FiringLog.capacity

    private static func limit(rings: Int) -> Int {
        max(FiringLog.minimumShare, min(FiringLog.capacity, FiringLog.budget / max(1, rings)))
    }

    /// Adds an empty ring for a timer whose first firing is due at `origin`; returns its index
    /// (the timer's entry index).
    mutating func addTimer(pattern: Pattern, origin: SimTime) -> Int {
        flush()  // a new ring changes every ring's limit (``ringLimit``): earlier records first
        rings.append(Ring(pattern: pattern, originScheduled: origin))
        ringLimit = FiringLog.limit(rings: rings.count)
        return rings.count - 1
    }

    /// Keeps a firing off its timer's grid (or any firing of an `everyFiring` timer): O(1), and
    /// no allocation once the rings and the staging buffer are full.
    ///
    /// The record is staged, not stored: it goes into its ring at the next ``flush()``, which
    /// every read of the log does first, so no answer can tell the difference. With many timers
    /// the rings do not fit in the cache, and storing a record in its ring costs two misses
    /// (the ring, the slot); stored in a batch, the misses of one record no longer wait for the
    /// previous one's, and the processor overlaps them.
    ///
    /// `timer` is the device's timer id: a firing of a timer without a ring (``assign(timer:to:)``)
    /// is dropped when the batch is stored. Looking the ring up then, not now, moves that lookup's
    /// cache miss into the batch too.
    mutating func append(_ record: FiringRecord, timer raw: Int) {
        staged.append(Staged(record: record, timer: raw))
        if staged.count >= FiringLog.stagingCapacity { flush() }
    }

    /// Stores every staged record in its ring, in the order they came.
    mutating func flush() {
        guard !staged.isEmpty else { return }
        let limit = ringLimit  // rings are added only after a flush, so the limit holds throughout
        let threshold = lateThreshold.nanoseconds
        // With few rings their lines stay in the cache and the hints only cost instructions
        // (issue 38: a third of a record's store at 1,000 timers).
        let prefetching = rings.count >= FiringLog.prefetchRings
        staged.withUnsafeBufferPointer { batch in
            ringOfTimer.withUnsafeBufferPointer { ringOfTimer in
                rings.withUnsafeMutableBufferPointer { rings in
                    guard let base = rings.baseAddress else { return }
                    /// The ring of a staged record, or -1 when it has none (a timer not kept here).
                    @inline(__always) func ringIndex(_ timer: Int) -> Int {
                        timer >= 0 && timer < ringOfTimer.count ? Int(ringOfTimer[timer]) : -1
                    }
                    for (k, item) in batch.enumerated() {
                        // Three steps ahead: a record 24 on has its ring looked up, one 16 on its
                        // ring fetched, one 8 on its slot (found from its ring, here by then).
                        // Hints only.
                        if prefetching {
                            if k + 24 < batch.count, batch[k + 24].timer >= 0,
                                batch[k + 24].timer < ringOfTimer.count
                            {
                                MemoryHint.prefetch(ringOfTimer.baseAddress! + batch[k + 24].timer)
                            }
                            if k + 16 < batch.count, case let r = ringIndex(batch[k + 16].timer), r >= 0 {
                                FiringLog.prefetchRing(base + r)
                            }
                            if k + 8 < batch.count, case let r = ringIndex(batch[k + 8].timer), r >= 0 {
                                FiringLog.prefetchSlot(of: base + r)
                            }
                        }
                        let index = ringIndex(item.timer)
                        guard index >= 0 else { continue }
                        let ring = base + index
                        ring.pointee.extraTotal &+= item.record.extra
                        ring.pointee.recorded += 1
                        FiringLog.store(item.record, in: ring, limit: limit)
                        let lateness = item.record.lateness.nanoseconds
                        let previous = ring.pointee.maxLate
                        if lateness > storedMaxLate {
                            storedMaxLate = lateness
                            storedMaxLateCause = item.record.cause
                        }
                        guard lateness > previous else { continue }
                        ring.pointee.maxLate = lateness
                        ring.pointee.maxLateCause = item.record.cause
                        // The timer's largest lateness rose: it is late now if it was not before (K2).
                        if lateness > threshold && !(previous > threshold) { storedLateCount += 1 }
                    }
                }
            }
        }
        staged.removeAll(keepingCapacity: true)
    }

    /// The grid starts again at firing `number`, due at `scheduled` (a resumed NSTimer, T8).
    mutating func restart(_ timer: Int, number: Int64, scheduled: SimTime) {
        flush()
        guard timer >= 0, timer < rings.count, !isEveryFiring(timer) else { return }
        store(.restart(number: number, scheduled: scheduled), in: timer)
    }

    private func isEveryFiring(_ timer: Int) -> Bool {
        if case .everyFiring = rings[timer].pattern { return true }
        return false
    }

    private mutating func store(_ record: FiringRecord, in timer: Int) {
        let limit = ringLimit  // read before the rings are borrowed for writing
        rings.withUnsafeMutableBufferPointer { rings in
            guard let base = rings.baseAddress else { return }
            FiringLog.store(record, in: base + timer, limit: limit)
        }
    }

    /// Starts bringing in a ring's first and last byte: a ring may straddle two cache lines.
    @inline(__always) private static func prefetchRing(_ ring: UnsafeMutablePointer<Ring>) {
        MemoryHint.prefetch(ring)
        MemoryHint.prefetch(UnsafeRawPointer(ring) + (MemoryLayout<Ring>.size - 1))
    }

    /// Starts bringing in the slot the ring's next record goes to.
    @inline(__always) private static func prefetchSlot(of ring: UnsafeMutablePointer<Ring>) {
        guard let records = ring.pointee.records else { return }
        let count = ring.pointee.count
        MemoryHint.prefetch(records + Int(count < ring.pointee.capacity ? count : ring.pointee.head))
    }

    private static func store(_ record: FiringRecord, in ring: UnsafeMutablePointer<Ring>, limit: Int) {
        let count = ring.pointee.count
        if count == ring.pointee.capacity && Int(count) < limit {
            FiringLog.grow(ring, limit: limit)
        }
        guard let records = ring.pointee.records else { return }
        if count < ring.pointee.capacity {
            (records + Int(count)).initialize(to: record)
            ring.pointee.count = count + 1
        } else {
            // Full: the oldest record goes, and the window starts after it.
            let head = Int(ring.pointee.head)
            let dropped = records[head]
            if dropped.isRestart {
                ring.pointee.originNumber = dropped.number
                ring.pointee.originScheduled = dropped.scheduled
            } else {
                ring.pointee.originNumber = dropped.number + 1
                ring.pointee.originScheduled = FiringLog.next(after: dropped, ring.pointee.pattern)
            }
            ring.pointee.dropped = true
            records[head] = record
            ring.pointee.head = Int32(head + 1 == Int(count) ? 0 : head + 1)
        }
    }

    private static func grow(_ ring: UnsafeMutablePointer<Ring>, limit: Int) {
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

    /// When the firing after a recorded one is due, if it is on the grid.
    private static func next(after r: FiringRecord, _ pattern: Pattern) -> SimTime {
        switch pattern {
        case .runLoop(let interval): return r.scheduled + SimDuration(nanoseconds: (r.extra &+ 1) &* interval)
        case .dispatch(let interval): return r.scheduled + SimDuration(nanoseconds: max(1, r.extra) &* interval)
        case .everyFiring: return r.scheduled
        }
    }

    /// Adds to the timer's `extra` total apart from a firing (the skips a resume counts, T8).
    mutating func addExtra(_ n: Int64, to timer: Int) {
        flush()
        rings[timer].extraTotal &+= n
    }

    /// The timer's largest lateness and its cause (K2), given how many firings it has had: an
    /// on-grid firing is 0 late. Nil before the first firing.
    mutating func maxLate(_ timer: Int, fires: Int64) -> (lateness: SimDuration, cause: LatenessCause?)? {
        flush()
        let ring = rings[timer]
        if ring.maxLate >= 0 { return (SimDuration(nanoseconds: ring.maxLate), ring.maxLateCause) }
        return fires > 0 ? (.zero, nil) : nil
    }

    /// The sum of the `extra` of every firing (kept or not): a run-loop timer's skips (plus those
    /// of resumes), a dispatch timer's data — one for each on-grid handler.
    mutating func extraTotal(_ timer: Int, fires: Int64) -> Int64 {
        flush()
        let ring = rings[timer]
        guard case .dispatch = ring.pattern else { return ring.extraTotal }
        return ring.extraTotal + max(0, fires - ring.recorded)
    }

    /// How many of the timer's last firings the log can show, out of `fires`.
    mutating func kept(_ timer: Int, fires: Int64) -> Int {
        flush()
        let ring = rings[timer]
        let available = fires - ring.originNumber + 1
        return Int(max(0, min(Int64(FiringLog.capacity), available)))
    }

    /// Whether the timer's window was cut short by the budget (a record dropped from a ring
    /// smaller than ``capacity``).
    mutating func isCutShort(_ timer: Int, fires: Int64) -> Bool {
        flush()
        return rings[timer].dropped && kept(timer, fires: fires) < min(FiringLog.capacity, Int(fires))
    }

    /// The last `n` firings of the timer, oldest first, each with its number, out of `fires`:
    /// the records, and the on-grid firings between them reconstructed.
    mutating func last(_ n: Int, of timer: Int, fires: Int64) -> [(number: Int64, record: FiringRecord)] {
        flush()
        let ring = rings[timer]
        let shown = min(n, kept(timer, fires: fires))
        guard shown > 0 else { return [] }
        let first = fires - Int64(shown) + 1
        var out: [(number: Int64, record: FiringRecord)] = []
        out.reserveCapacity(shown)
        var number = ring.originNumber
        var scheduled = ring.originScheduled
        // An on-grid firing is on time; a handler covers one grid point, a callback skips none.
        let interval: Int64
        var onGridExtra: Int64 = 0
        switch ring.pattern {
        case .runLoop(let i): interval = i
        case .dispatch(let i):
            interval = i
            onGridExtra = 1
        case .everyFiring: interval = 0
        }
        /// The on-grid firings from `number` up to (not including) `end`, those at or after `first`.
        func onGrid(until end: Int64) {
            guard end > number else { return }
            if interval > 0 {
                let skip = max(0, first - number)
                if skip > 0 && skip < end - number {
                    scheduled = scheduled + SimDuration(nanoseconds: skip &* interval)
                    number += skip
                } else if skip >= end - number {
                    scheduled = scheduled + SimDuration(nanoseconds: (end - number) &* interval)
                    number = end
                    return
                }
            }
            while number < end {
                if number >= first {
                    out.append(
                        (
                            number,
                            FiringRecord(
                                number: number, scheduled: scheduled, lateness: .zero, cause: nil, extra: onGridExtra)
                        ))
                }
                number += 1
                scheduled = scheduled + SimDuration(nanoseconds: interval)
            }
        }
        let count = Int(ring.count)
        for k in 0..<count {
            guard let records = ring.records else { break }
            let r = records[(Int(ring.head) + k) % count]
            onGrid(until: min(r.number, fires + 1))
            if r.isRestart {
                if r.number <= fires + 1 {
                    number = r.number
                    scheduled = r.scheduled
                }
                continue
            }
            guard r.number <= fires else { break }
            if r.number >= first { out.append((r.number, r)) }
            number = r.number + 1
            scheduled = FiringLog.next(after: r, ring.pattern)
        }
        onGrid(until: fires + 1)
        return out
    }

    /// The timer's newest firing (numbered `fires`), recorded or on the grid.
    mutating func newest(_ timer: Int, fires: Int64) -> FiringRecord? {
        last(1, of: timer, fires: fires).first?.record
    }

    /// Sets the `extra` of the timer's newest firing to 0 when it is recorded: a run-loop timer
    /// invalidated during its callback skips nothing (T4).
    mutating func clearNewestExtra(_ timer: Int, fires: Int64) {
        flush()
        let count = Int(rings[timer].count)
        guard count > 0, let records = rings[timer].records else { return }
        let k = (Int(rings[timer].head) + count - 1) % count
        guard records[k].number == fires, !records[k].isRestart else { return }
        rings[timer].extraTotal &-= records[k].extra
        records[k].extra = 0
    }
}
