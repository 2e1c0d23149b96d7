import DebugShellCore
import DebugShellImport
import DebugShellTrace

/// The recording imported (`import`): a timeline a real device recorded, beside the simulated
/// device, never mixed into it. `recording` and the `rec.*` metrics read it; time commands move
/// the simulation, not the recording, which is whole from the moment it is imported; `reset` keeps
/// it and `recording close` lets it go (docs/Import.md, docs/Decisions.md "Importing recordings").
public final class ImportedTimeline {
    /// The timeline, and what debugsh reads from it; nil before an import.
    public private(set) var timeline: RecordedTimeline?
    private(set) var analysis: TimelineAnalysis?

    /// The `import` line that read it, paths absolute: `replay start` logs it again after its reset.
    private(set) var importWords: [String] = []
    /// The replay of it under way (`replay start`), if any (docs/Replay.md).
    var replay: ReplayRun?

    /// Takes a new recording in place of the one open, if any; a replay of the one before ends.
    func open(_ timeline: RecordedTimeline, importWords: [String] = []) {
        endReplay()
        self.timeline = timeline
        self.importWords = importWords
        analysis = TimelineAnalysis(timeline)
    }

    /// `recording close`.
    func close() {
        endReplay()
        timeline = nil
        analysis = nil
        importWords = []
    }

    /// Ends the replay under way, if any (a new one, `reset`, `recording close`).
    func endReplay() {
        replay?.end()
        replay = nil
    }

    /// `recording save`: writes the recording as a Chrome trace to `path` atomically, looking
    /// for an interrupt after each megabyte (docs/Import.md, "Saving a recording").
    ///
    /// - Returns: the file's size in bytes, or nil when `interrupted` stopped the save (the file
    ///   is left as it was).
    func save(to path: String, stoppingWhen interrupted: () -> Bool) throws(CommandError) -> Int64? {
        guard let timeline else {
            throw CommandError("no recording to save: 'import xctrace|csv|chrome <file>' reads one")
        }
        return try TraceSession.writeJSON(to: path, stoppingWhen: interrupted) { chunk in
            try RecordingTrace.encode(timeline, generator: "debugsh \(DebugShellVersion.text)", chunk: chunk)
        }
    }
}

/// One of the recording's metrics (`rec.*`): its declaration and how it is read from the
/// recording's analysis. None of them has a value before an import.
struct RecordedMetric: Sendable {
    /// Where a metric reads: the recording's analysis (`rec.*`), or the replay under way
    /// (`replay.*`, docs/Replay.md).
    enum Source: Sendable {
        case recording(@Sendable (RecordedTimeline, TimelineAnalysis) -> MetricValue)
        case replay(@Sendable (ReplayRun) -> MetricValue)
    }

    let spec: MetricSpec
    let source: Source

    init(
        _ name: String, _ kind: MetricKind, abstract: String,
        read: @escaping @Sendable (RecordedTimeline, TimelineAnalysis) -> MetricValue
    ) {
        spec = MetricSpec(name, kind, abstract: abstract)
        source = .recording(read)
    }

    init(_ name: String, _ kind: MetricKind, abstract: String, replay: @escaping @Sendable (ReplayRun) -> MetricValue) {
        spec = MetricSpec(name, kind, abstract: abstract)
        source = .replay(replay)
    }

    /// The value now: none before an import (or, for a replay's metric, before `replay start`).
    func value(_ imported: ImportedTimeline) -> MetricValue {
        guard let timeline = imported.timeline, let analysis = imported.analysis else { return .none }
        switch source {
        case .recording(let read): return read(timeline, analysis)
        case .replay(let read): return imported.replay.map(read) ?? .none
        }
    }
}

/// The recording's metrics, in the order `metrics` lists them; the namespace `rec` is the shell's.
enum RecordedMetrics {
    static let all: [RecordedMetric] = [
        RecordedMetric("rec.duration", .duration, abstract: "The span the imported recording covers.") { _, a in
            .duration(a.span)
        },
        RecordedMetric(
            "rec.refresh_interval", .duration,
            abstract: "The recording's refresh interval (as 'recording' says where it was read)."
        ) { t, _ in
            t.refreshInterval.map { .duration($0) } ?? .none
        },
        RecordedMetric("rec.frames", .integer, abstract: "Frames the recording's display presented.") { t, _ in
            t.frames.isEmpty ? .none : .integer(Int64(t.frames.count))
        },
        RecordedMetric("rec.fps", .number, abstract: "Frames presented per second of the recording.") { _, a in
            a.framesPerSecond.map { .number($0) } ?? .none
        },
        RecordedMetric("rec.frame_p50", .duration, abstract: "The recording's median frame interval.") { _, a in
            a.frameInterval(percentile: 50).map { .duration($0) } ?? .none
        },
        RecordedMetric("rec.frame_p95", .duration, abstract: "The recording's 95th-percentile frame interval.") {
            _, a in a.frameInterval(percentile: 95).map { .duration($0) } ?? .none
        },
        RecordedMetric("rec.frame_p99", .duration, abstract: "The recording's 99th-percentile frame interval.") {
            _, a in a.frameInterval(percentile: 99).map { .duration($0) } ?? .none
        },
        RecordedMetric("rec.hitches", .integer, abstract: "Hitches the recording reports.") { _, a in
            a.hasHitchList ? .integer(Int64(a.hitches.count)) : .none
        },
        RecordedMetric("rec.hitch_time", .duration, abstract: "The recorded hitches' total time.") { _, a in
            a.hasHitchList ? .duration(a.hitchTime) : .none
        },
        RecordedMetric(
            "rec.hitch_ratio", .number, abstract: "Recorded hitch time per second of the recording, in ms/s."
        ) { _, a in
            a.hitchRatio.map { .number($0) } ?? .none
        },
        RecordedMetric("rec.worst_hitch", .duration, abstract: "The longest recorded hitch.") { _, a in
            a.hasHitchList ? .duration(a.worstHitch ?? .zero) : .none
        },
        RecordedMetric(
            "rec.high_hitches", .integer,
            abstract: "Recorded hitches more than two refresh intervals long (Instruments' High)."
        ) { _, a in
            a.hasHitchList && a.refreshInterval != nil ? .integer(Int64(a.count(.high))) : .none
        },
        RecordedMetric("rec.callbacks", .integer, abstract: "Display-link callbacks the recording logged.") { t, _ in
            t.linkCallbacks.isEmpty ? .none : .integer(Int64(t.linkCallbacks.count))
        },
    ]

    /// The replay's (docs/Replay.md): the same numbers, read from what the simulated device
    /// presented since `replay start`, over the recording's span up to now.
    static let replay: [RecordedMetric] = [
        RecordedMetric("replay.frames", .integer, abstract: "Frames the replay presented.") { r in
            .integer(Int64(r.frames.count))
        },
        RecordedMetric("replay.fps", .number, abstract: "Frames the replay presented per second of the recording.") {
            r in
            r.span > .zero
                ? .number(
                    MetricNumber(
                        numerator: Int128(r.frames.count) * 1_000_000_000, denominator: Int128(r.span.nanoseconds)))
                : .none
        },
        // Percentiles need the frame times sorted: read from the analysis (kept until more is shown).
        RecordedMetric("replay.frame_p95", .duration, abstract: "The replay's 95th-percentile frame interval.") { r in
            r.analysis.frameInterval(percentile: 95).map { .duration($0) } ?? .none
        },
        RecordedMetric("replay.hitches", .integer, abstract: "Hitches in the replay.") { r in
            .integer(Int64(r.hitches.count))
        },
        RecordedMetric("replay.hitch_time", .duration, abstract: "The replay's hitches' total time.") { r in
            .duration(r.hitchTime)
        },
        RecordedMetric(
            "replay.hitch_ratio", .number, abstract: "The replay's hitch time per second of the recording, in ms/s."
        ) { r in
            r.span > .zero
                ? .number(
                    MetricNumber(
                        numerator: Int128(r.hitchTime.nanoseconds) * 1000, denominator: Int128(r.span.nanoseconds)))
                : .none
        },
        RecordedMetric("replay.worst_hitch", .duration, abstract: "The replay's longest hitch.") { r in
            .duration(r.worstHitch ?? .zero)
        },
        RecordedMetric(
            "replay.high_hitches", .integer, abstract: "The replay's hitches more than two refresh intervals long."
        ) { r in .integer(Int64(r.highHitches)) },
        RecordedMetric(
            "replay.unreproduced", .integer,
            abstract:
                "Recorded hitches so far that the replay did not reproduce (start within one refresh interval, same length)."
        ) { replay in .integer(Int64(replay.matches().count { !$0.reproduced })) },
    ]

    /// The metric named `name`, if it is one of the recording's or the replay's.
    static func named(_ name: String) -> RecordedMetric? {
        all.first { $0.spec.name == name } ?? replay.first { $0.spec.name == name }
    }
}
