import DebugShellCore

/// The engine's record of one display link, run-loop timer or dispatch timer.
///
/// Records live in one array and are named by their index (the ``TimerID``) everywhere else —
/// due lists, batches, the main thread — so the hot loop does no reference counting.
struct TimerRecord {
    // The fields are ordered by use: the first 64 bytes are what every firing reads and writes,
    // the next 64 what a dispatch timer's firing adds, the rest is cold. Swift lays fields out in
    // order and TimerTable puts each record on a cache line: with a thousand records, a firing's
    // cache misses are a good part of its cost.

    // Hot: one cache line.
    /// The time of the one queue entry that is current; others are stale.
    var eventTime = Int64.max
    /// The next fire date (T1) or the next target (D1).
    var fireDate = SimTime.never
    // Run-loop and dispatch timers: the grid is origin + k · interval.
    var interval: SimDuration = .zero
    var cost: SimDuration
    var pendingData: Int64 = 0
    /// When the last callback or handler returns: a background handler's end, for which a return
    /// event is queued while data waits (D4); a run-loop timer's callback end, which decides its
    /// next fire date and skips (T4).
    var handlerBusyUntil = SimTime.zero
    var fires: Int64 = 0
    var state: TimerState = .scheduled
    var repeats = true
    /// `owner == .app`, kept as a flag for the hot path.
    let isApp: Bool
    /// Whether `callback` is set: a plain flag, so the hot path need not touch the closure.
    var hasCallback = false
    var dirtiesUI: Bool
    /// In the due list of its mode (run-loop) or queue kind (dispatch, coalescing).
    var isDue = false
    // Run-loop timers and display links.
    var mode: RunLoopMode = .default
    // Dispatch timers.
    var queue: DispatchQueueKind = .main

    // Warm: what a dispatch timer's firing and a late firing touch.
    /// A dispatch timer's data (D3); run-loop timers and links derive theirs from `fires`.
    var totalData: Int64 = 0
    var lastData: Int64 = 0
    /// The oldest grid point in `pendingData` (K2).
    var oldestPending = SimTime.never
    /// When the oldest pending target was released to the handler's queue (K2 cause).
    var releasedAt = SimTime.zero
    var maxLateness = SimDuration.zero
    /// Tolerance (run-loop) or leeway (dispatch), clamped (T5, D2).
    var slack: SimDuration = .zero
    var handlerLimit: Int64 = Int64.max
    var handlerEnqueued = false
    var handlerRunning = false
    var returnEventQueued = false
    /// The pending data was counted at a resume: its lateness is the pause's (K2).
    var releasedWhilePaused = false

    // Cool: a late or skipping firing.
    var gridOrigin = SimTime.zero
    /// Skips counted so far, including those of a callback still running (see `lastSkipped`).
    var skipped: Int64 = 0
    /// The skips of a run-loop timer's latest skipping firing and that firing's end: until the
    /// callback returns they are not decided, and ``DeviceEngine/timerInfo(_:)`` leaves them out
    /// (T4; a metric never shows the future). Written only by firings that skip.
    var lastSkipped: Int64 = 0
    var lastSkippedEnd = SimTime.never
    /// Whether this is the app's UI link (A1), which ticks only while the app animates.
    var isUILink = false
    let kind: TimerKind
    let owner: TimerOwner

    // Cold.
    var callback: TimerCallbackHandler?
    let label: String
    /// The tool that made it (its registration index; -1 debugsh's own), for a trap's last words.
    let tool: Int32
    // Display links.
    var preferredFramesPerSecond = 0
    /// `preferredFrameRateRange` (V2, V4).
    var frameRateRange: FrameRateRange?
    /// The grid step n (DL3) at the current rate.
    var gridStep: Int64 = 1
    /// The grid segment `gridStep` was computed for (a rate change recomputes it).
    var stepSegment = -1
    /// The pending slot: its vsync (DL7), or nil when empty.
    var slot: VsyncGrid.Position?

    init(kind: TimerKind, owner: TimerOwner, label: String, cost: SimDuration, dirtiesUI: Bool, tool: Int32 = -1) {
        self.kind = kind
        self.owner = owner
        self.isApp = owner == .app
        self.label = label
        self.tool = tool
        self.cost = cost
        self.dirtiesUI = dirtiesUI
    }

    var isLive: Bool { state == .scheduled || state == .paused }
    var isActive: Bool { state == .scheduled }

    /// T4: a repeating run-loop timer's next fire date once its callback for the grid point
    /// `scheduled` returns at `end` — the next point, or the first one strictly after `end`, the
    /// points passed without a callback skipped. Returns how many were skipped.
    @inline(__always)
    mutating func advanceAfterCallback(scheduled: SimTime, end: SimTime) -> Int64 {
        let next = scheduled + interval
        if end < next {
            fireDate = next
            return 0
        }
        let later = gridPoint(after: end)
        let skipped = max(0, gridPoints(after: scheduled, through: later) - 1)
        self.skipped += skipped
        lastSkipped = skipped
        lastSkippedEnd = end
        fireDate = later
        return skipped
    }

    /// The first point of the grid strictly after `t` (T4), saturating at `never`.
    func gridPoint(after t: SimTime) -> SimTime {
        let iv = interval.nanoseconds
        guard iv > 0 else { return .never }
        if t < gridOrigin { return gridOrigin }
        let k = (t.nanoseconds - gridOrigin.nanoseconds) / iv + 1
        let (product, overflow) = k.multipliedReportingOverflow(by: iv)
        if overflow { return .never }
        return gridOrigin + SimDuration(nanoseconds: product)
    }

    /// Grid points in `(a, b]`.
    func gridPoints(after a: SimTime, through b: SimTime) -> Int64 {
        let iv = interval.nanoseconds
        guard iv > 0, b > a else { return 0 }
        func index(_ t: SimTime) -> Int64 {  // points ≤ t
            if t < gridOrigin { return 0 }
            return (t.nanoseconds - gridOrigin.nanoseconds) / iv + 1
        }
        return index(b) - index(a)
    }
}
