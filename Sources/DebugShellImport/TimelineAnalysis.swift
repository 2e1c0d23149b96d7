import DebugShellCore

/// What debugsh reads from a recorded timeline: its hitches with Instruments' grading, the hitch
/// time and its ratio, frame times and their percentiles — the numbers `recording` prints and the
/// `rec.*` metrics answer (docs/Import.md says where each differs from what a tool recorded).
public struct TimelineAnalysis: Sendable, Equatable {
    /// A hitch's severity as Instruments grades it: the plugin API's, the one the FPS meter grades
    /// the simulation's hitches with (R8).
    public typealias Severity = HitchSeverity

    /// Which stage a hitch's description blames, as Apple splits hitches: the app's commit, the
    /// render server (and GPU), or neither said.
    public enum Stage: String, Sendable, CaseIterable {
        case commit, render, unknown

        /// From a description as Instruments writes it (`Potentially expensive app update(s)`,
        /// `Pre-Commit(s) latency`, `Expensive Commit(s)` → commit; `… render …`, `… GPU …`,
        /// `… offscreen …` → render), or debugsh's own cause words (`commit`, `render`, `both`).
        public static func of(_ description: String) -> Stage {
            let text = description.lowercased()
            if text == "commit" || text.contains("app update") || text.contains("commit(s)")
                || text.contains("pre-commit")
            {
                return .commit
            }
            if text == "render" || text == "both" || text.contains("render") || text.contains("gpu")
                || text.contains("offscreen")
            {
                return .render
            }
            return .unknown
        }
    }

    /// One hitch as debugsh reads it.
    public struct Hitch: Sendable, Equatable {
        public var start: SimTime
        public var duration: SimDuration
        public var description: String
        public var stage: Stage
        /// debugsh's grade by the refresh interval, and the recording's own where it has one.
        public var severity: Severity?
        public var recordedSeverity: String?
    }

    /// The span the ratios are over: the recording's, from its start to its end.
    public var span: SimDuration
    /// The refresh interval the grades use, if the recording gives or implies one.
    public var refreshInterval: SimDuration?
    public var hitches: [Hitch]
    /// Whether the recording has a hitch list at all (a display-link log has none).
    public var hasHitchList: Bool
    /// Frames presented, and the intervals between consecutive presents, sorted.
    public var frameCount: Int
    public var sortedFrameIntervals: [Int64]
    /// Frames shown after their expected present (a hitch, or late because the frame before
    /// was), where the recording has expected presents; nil where it has none.
    public var lateFrames: Int?

    public init(_ timeline: RecordedTimeline) {
        span = timeline.end > timeline.start ? timeline.end - timeline.start : .zero
        refreshInterval = timeline.refreshInterval
        hasHitchList = timeline.hasHitchList
        hitches = timeline.hitches.map { row in
            let interval = row.refreshInterval ?? timeline.refreshInterval
            return Hitch(
                start: row.start, duration: row.duration, description: row.description,
                stage: Stage.of(row.description), severity: interval.map { Severity.of(row.duration, interval: $0) },
                recordedSeverity: row.severity)
        }
        frameCount = timeline.frames.count
        // A frame log says which frames the meter counted (A2: a hitch, zero or more, where
        // counted): their intervals are the meter's. Any other recording: every present.
        let countedOnly = timeline.format == .framesCSV && timeline.frames.contains { $0.hitch != nil }
        var intervals: [Int64] = []
        intervals.reserveCapacity(max(0, timeline.frames.count - 1))
        var previous: SimTime?
        for frame in timeline.frames where !countedOnly || frame.hitch != nil {
            if let previous { intervals.append((frame.present - previous).nanoseconds) }
            previous = frame.present
        }
        sortedFrameIntervals = intervals.sorted()
        var late = 0
        var known = false
        for frame in timeline.frames where !countedOnly || frame.hitch != nil {
            guard let expected = frame.expectedPresent else { continue }
            known = true
            if frame.present > expected { late += 1 }
        }
        lateFrames = known ? late : nil
    }

    /// The hitches' total time.
    public var hitchTime: SimDuration {
        SimDuration(nanoseconds: hitches.reduce(Int64(0)) { $0 &+ $1.duration.nanoseconds })
    }

    /// Hitch time per second of the recording, in ms/s; nil for an empty span or no hitch list.
    public var hitchRatio: MetricNumber? {
        guard hasHitchList, span > .zero else { return nil }
        return MetricNumber(numerator: Int128(hitchTime.nanoseconds) * 1000, denominator: Int128(span.nanoseconds))
    }

    /// The longest hitch.
    public var worstHitch: SimDuration? { hitches.map(\.duration).max() }

    /// Frames presented per second of the recording; nil without frames or span.
    public var framesPerSecond: MetricNumber? {
        guard frameCount > 0, span > .zero else { return nil }
        return MetricNumber(numerator: Int128(frameCount) * 1_000_000_000, denominator: Int128(span.nanoseconds))
    }

    /// The nearest-rank percentile of the frame intervals: the smallest with at least
    /// ⌈p/100 · N⌉ intervals at or below it (as `fps.frame_p95` reads); nil without intervals.
    public func frameInterval(percentile p: Int) -> SimDuration? {
        let n = sortedFrameIntervals.count
        guard n > 0 else { return nil }
        let rank = max(1, (p * n + 99) / 100)
        return SimDuration(nanoseconds: sortedFrameIntervals[min(n, rank) - 1])
    }

    /// How many hitches debugsh grades at `severity`.
    public func count(_ severity: Severity) -> Int { hitches.count { $0.severity == severity } }

    /// How many hitches blame `stage`.
    public func count(_ stage: Stage) -> Int { hitches.count { $0.stage == stage } }
}
