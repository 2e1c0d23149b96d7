import DebugShellCore

/// The seed algorithm's window (F1): the first callback records its timestamp; each later one
/// counts; the window closes at the first callback at least `window` after the start.
struct WindowCounter {
    private(set) var last: SimTime?
    private(set) var count: Int64 = 0
    /// The newest timestamp fed: where the open window's callbacks end (`fps plot`).
    private(set) var newest: SimTime?

    /// A window that closed: its start and end timestamps and the callbacks counted in it.
    struct Closed: Equatable {
        var from: SimTime
        var to: SimTime
        var callbacks: Int64
        var span: SimDuration { to - from }

        /// `round(callbacks / span in s)`, half away from zero (F1), before any clamp.
        var rate: Int64 {
            guard span > .zero else { return 0 }
            return Int64(
                clamping: SimFormat.roundedDivide(
                    Int128(callbacks) * 1_000_000_000, by: Int128(span.nanoseconds)))
        }
    }

    /// Feeds one callback's timestamp; returns the window when it closes.
    mutating func feed(_ timestamp: SimTime, window: SimDuration) -> Closed? {
        newest = timestamp
        guard let start = last else {
            last = timestamp
            return nil
        }
        count += 1
        guard timestamp - start >= window else { return nil }
        let closed = Closed(from: start, to: timestamp, callbacks: count)
        count = 0
        last = timestamp
        return closed
    }
}

/// The classic estimators, run passively on the meter's own callbacks (`fps compare`, docs/FPSMeter.md).
///
/// Each reads only what its original reads — the link's `timestamp` and `targetTimestamp`, and
/// DXFPSLabel the run-loop mode — and adds no link and no cost. Every update is O(1) and
/// allocation-free: the sliding second is a ring of at most 1,001 timestamps (1000 Hz).
struct EstimatorLab {
    // YYFPSLabel and HyFPSLabel: F1 with the originals' 1 s window.
    var tumbling = WindowCounter()
    var lastWindow: WindowCounter.Closed?
    /// Presents in that window, measured when it closed (the ground truth of the same span).
    var lastWindowPresents: Int64 = 0

    // GDPerformanceView and KMCGeigerCounter: the callbacks of the last second.
    var recent = Ring<Int64>(capacity: 1024, filler: 0)
    var firstTimestamp: SimTime?
    var lastTimestamp: SimTime?
    var lastTarget: SimTime?

    /// KMCGeigerCounter's clicks: intervals above 1.5 refresh periods.
    var clicks: Int64 = 0

    // Sentry's frames tracker.
    var frames: Int64 = 0
    var slowFrames: Int64 = 0
    var frozenFrames: Int64 = 0
    var framesDelay: Int64 = 0

    // Matrix's frame tracer: dropped frames, their time in ns, and the intervals that dropped any.
    var matrixDroppedFrames: Int64 = 0
    var matrixDropTime: Int64 = 0
    var matrixSlowIntervals: Int64 = 0

    // DXFPSLabel: callbacks and presents while the run loop was tracking.
    var trackingCallbacks: Int64 = 0
    var trackingPresents: Int64 = 0

    static let second = SimDuration.seconds(1)
    static let sentryFrozen = SimDuration.milliseconds(700)

    init() {}

    /// One callback of the meter's link; `tracking` is the run-loop mode it ran in.
    mutating func feed(_ callback: TimerCallback, tracking: Bool, presents: (SimTime, SimTime) -> Int64) {
        let ts = callback.timestamp
        if tracking { trackingCallbacks += 1 }
        if let closed = tumbling.feed(ts, window: EstimatorLab.second) {
            lastWindow = closed
            lastWindowPresents = presents(closed.from, closed.to)
        }

        // GDPerformanceView: drop timestamps more than 1 s older than the newest (inclusive).
        recent.append(ts.nanoseconds)
        while let oldest = recent.first, ts.nanoseconds - oldest > EstimatorLab.second.nanoseconds {
            recent.removeFirst()
        }
        if firstTimestamp == nil { firstTimestamp = ts }

        frames += 1
        if let previous = lastTimestamp {
            let interval = (ts - previous).nanoseconds
            let period = (callback.targetTimestamp - ts).nanoseconds
            // KMCGeigerCounter: a click when the interval is over 1.5 periods.
            if period > 0, 2 * interval > 3 * period { clicks += 1 }
            // Sentry: the rate from targetTimestamp − timestamp (sentry-cocoa#1915); slow above
            // 1/(rate − 1) s, frozen above 700 ms; the delay is what each frame took beyond the
            // previous frame's expected duration.
            if interval > EstimatorLab.sentryFrozen.nanoseconds {
                frozenFrames += 1
            } else if period > 0 {
                // round(1 s / period), half up. The interval is at most 700 ms here and the rate at
                // most 1000 Hz, so the product cannot overflow.
                let rate = (2_000_000_000 + period) / (2 * period)
                if rate > 1, interval * (rate - 1) > 1_000_000_000 { slowFrames += 1 }
            }
            if let target = lastTarget { framesDelay += max(0, (ts - target).nanoseconds) }
            // Matrix (its FrameTracer): the frames an interval dropped are its jitter over the
            // frame interval, (Δ − T) / T with T the previous frame's expected duration, and its
            // dropped time is that many whole frame intervals. Rounded rather than truncated: the
            // grid's vsyncs are whole nanoseconds, so Δ is n·T give or take a nanosecond.
            if let target = lastTarget {
                let frame = (target - previous).nanoseconds
                // round(Δ / T) − 1, half up, in Int64 without overflow; an interval that rounds to
                // one frame drops none, so callbacks on the grid skip the division.
                if frame > 0, interval - frame >= frame - frame / 2 {
                    let dropped = (interval - frame + frame / 2) / frame
                    if dropped > 0 {
                        matrixDroppedFrames += dropped
                        matrixDropTime += dropped * frame
                        matrixSlowIntervals += 1
                    }
                }
            }
        }
        lastTimestamp = ts
        lastTarget = callback.targetTimestamp
    }

    /// Whether a full second of callbacks has been seen: the sliding estimators read from then.
    var hasFullSecond: Bool {
        guard let first = firstTimestamp, let last = lastTimestamp else { return false }
        return last - first >= EstimatorLab.second
    }

    /// GDPerformanceView's reading: callbacks with a timestamp in `[last − 1 s, last]`.
    var slidingCount: Int64 { Int64(recent.count) }

    /// Callbacks with a timestamp in `(last − 1 s, last]` (KMCGeigerCounter's second).
    var callbacksInOpenSecond: Int64 {
        guard let last = lastTimestamp else { return 0 }
        let edge = (last - EstimatorLab.second).nanoseconds
        return Int64(recent.count - recent.partition { $0 <= edge })
    }
}
