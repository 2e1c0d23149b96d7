import DebugShellCore

// MARK: - Records

/// One completed window of the reading (F1).
struct WindowRecord {
    /// When the closing callback ran.
    var closedAt: SimTime
    /// The window's first and last timestamps.
    var from: SimTime
    var to: SimTime
    var callbacks: Int64
    var reading: Int64
    /// Frames presented in `(from, to]`: what the display showed over the same span.
    var presents: Int64

    static let zero = WindowRecord(closedAt: .zero, from: .zero, to: .zero, callbacks: 0, reading: 0, presents: 0)
}

/// A stretch of time the run loop spent in tracking mode (a scroll), from the meter's mode-change
/// observations.
struct TrackingSpan {
    var from: SimTime
    var to: SimTime

    static let zero = TrackingSpan(from: .zero, to: .zero)
}

/// Why a frame was late (R4).
enum HitchCause: String, CaseIterable {
    /// The commit ended at or after the vsync after its newest tick: it missed its render vsync.
    case commit
    /// The render ended after the vsync after its start, or the frame waited for the render
    /// server to finish an earlier one.
    case render
    case both

    init(_ info: PresentInfo) {
        switch (info.commitLate, info.renderLate) {
        case (true, true): self = .both
        case (true, false): self = .commit
        default: self = .render
        }
    }
}

/// Hitches since start or reset (R4).
struct HitchTally {
    var count: Int64 = 0
    var commit: Int64 = 0
    var render: Int64 = 0
    var both: Int64 = 0
    /// Total hitch time in ns.
    var time: Int64 = 0
    /// The part of it within animating time as the display shows it: the hitch ratio's (R4).
    var ratioTime: Int64 = 0

    mutating func add(_ hitch: SimDuration, cause: HitchCause) {
        count += 1
        time += hitch.nanoseconds
        switch cause {
        case .commit: commit += 1
        case .render: render += 1
        case .both: both += 1
        }
    }
}

/// One presented frame, for `fps frames` (and its CSV, `fps frames --csv`).
struct FrameRecord {
    // The small fields last, so that they share one word (96 bytes in all).
    var frame: Int64
    var commitStart: SimTime
    var commitEnd: SimTime
    var renderStart: SimTime
    var renderEnd: SimTime
    var present: SimTime
    var expected: SimTime
    /// Its hitch in ns (R4); 0 when on time or not counted.
    var hitch: Int64 = 0
    /// The time since the previous counted present in ns, for a counted present that has one;
    /// 0 otherwise (`fps plot`'s frame time).
    var interval: Int64 = 0
    /// The display's refresh interval when it was presented.
    var refresh: SimDuration
    /// The newest animation tick in the frame (R3's v), if any.
    var tick: SimTime?
    /// Whether the frame counts for hitch metrics (A2).
    var counted: Bool
    var cause: HitchCause?
    /// Frames merged into it and never shown (R1, R9).
    var dropped: Int32 = 0

    /// R9: a hitch, late only because the frame before was, or on time; nil when not counted.
    var verdict: FrameVerdict? {
        guard counted else { return nil }
        return hitch > 0 ? .hitch : (present > expected ? .stuffed : .onTime)
    }

    init(_ info: PresentInfo, refresh: SimDuration) {
        frame = info.frame
        tick = info.newestTick
        commitStart = info.commitStart
        commitEnd = info.commitEnd
        renderStart = info.renderStart
        renderEnd = info.renderEnd
        present = info.present
        expected = info.expectedPresent
        counted = info.counted
        dropped = Int32(clamping: info.mergedFrames - 1)
        self.refresh = refresh
    }

    private init() {
        frame = 0
        commitStart = .zero
        commitEnd = .zero
        renderStart = .zero
        renderEnd = .zero
        present = .zero
        expected = .zero
        counted = false
        refresh = .zero
    }

    static let zero = FrameRecord()
}

/// One hitch with what Instruments shows of it, for `fps hitches` (R8).
struct HitchRecord {
    var frame: Int64
    var present: SimTime
    var expected: SimTime
    var earliest: SimTime
    var hitch: Int64
    var refresh: SimDuration
    var buffers: Int
    var type: HitchType
    var cause: HitchCause
    var phases: FramePhases
    var delay: FrameDelay?

    /// Low, Moderate or High by refresh intervals (R8).
    var severity: HitchSeverity { .of(SimDuration(nanoseconds: hitch), interval: refresh) }
    /// The acceptable latency: the buffer count in refresh intervals (R7).
    var latencyAllowed: SimDuration { expected - earliest }

    static let zero = HitchRecord(
        frame: 0, present: .zero, expected: .zero, earliest: .zero, hitch: 0, refresh: .zero, buffers: 2,
        type: .expensiveGPU, cause: .render, phases: .zero, delay: nil)
}
