import DebugShellCore
import DebugShellImport
import DebugShellInterpreter
import DebugShellTrace

/// `recording`: what an imported recording says — its span, display, frames and hitches graded
/// as Instruments grades them (docs/Import.md).
struct RecordingCommand: BuiltInCommand {
    /// A severity, as `--severity` takes it.
    enum SeverityChoice: String, CommandLineChoice {
        case low, moderate, high

        var severity: TimelineAnalysis.Severity {
            switch self {
            case .low: return .low
            case .moderate: return .moderate
            case .high: return .high
            }
        }
    }

    static let severity = OptionSpec.choice(
        "severity", abstract: "Only the hitches of this severity (by refresh intervals late).", defaultText: "all",
        as: SeverityChoice.self)
    static let worst = OptionSpec.integer(
        "worst", in: 1...1_000_000, abstract: "The n longest hitches, longest first.", defaultText: "every hitch")
    static let file = ArgumentSpec.path("file", abstract: "The file, e.g. scroll.json.")
    static let last = OptionSpec.integer(
        "last", in: 1...1_000_000, abstract: "The last n frames.", default: 20)

    enum Verb: String, ToolVerbs {
        case show = ""
        case hitches, frames, save, close

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "", abstract: "What the imported recording covers: span, display, frames, hitches, notes.",
                    examples: [Example("> recording\nno recording ('import xctrace|csv|chrome <file>' reads one)")])
            case .hitches:
                return VerbSpec(
                    "hitches",
                    abstract:
                        "The recorded hitches in time order: start, duration, refresh intervals late, severity, stage, description.",
                    discussion:
                        "The hitches are the recording's own (Instruments' rows: never derived, never summed from its per-stage tables). Severity is graded as Instruments grades it: Low at most one refresh interval late, Moderate more than one, High more than two; where the export has Instruments' own column it shows beside.",
                    options: [RecordingCommand.severity, RecordingCommand.worst],
                    examples: [Example("> recording hitches\nerror: no recording: 'import xctrace <file>' reads one")])
            case .frames:
                return VerbSpec(
                    "frames",
                    abstract: "The last frames the recording's display presented: present, on glass, interval.",
                    options: [RecordingCommand.last],
                    examples: [Example("> recording frames\nerror: no recording: 'import xctrace <file>' reads one")])
            case .save:
                return VerbSpec(
                    "save",
                    abstract:
                        "Write the recording as a Chrome trace for Perfetto's UI (atomically); 'import chrome' reads it back whole.",
                    discussion:
                        "The tracks of debugsh's own trace — Display (vsyncs, presents), Hitches (each named by its description), Render server, Main thread (commits) — and the recording's display-link callbacks and Core Animation FPS samples on tracks of their own. Every value the recording holds is in the file (the span, the refresh interval and where it was read, each frame's and hitch's fields, the notes), so 'import chrome' of it gives the same recording: the same hitches, frames and rec.* metrics.",
                    arguments: [RecordingCommand.file],
                    examples: [
                        Example(
                            "> recording save scroll.json\nerror: no recording to save: 'import xctrace|csv|chrome <file>' reads one"
                        )
                    ])
            case .close:
                return VerbSpec(
                    "close", abstract: "Let the imported recording go; its rec.* metrics have no value after.",
                    examples: [Example("> recording close\nerror: no recording to close")])
            }
        }
    }

    static let spec = CommandSpec(
        "recording",
        abstract: "Read the recording 'import' brought in: span, display, frames, hitches graded as Instruments does.",
        discussion:
            "A recording sits beside the simulation, never mixed into it: time commands move the simulation, and the recording is whole from the moment it is imported; 'reset' keeps it. Its numbers are the rec.* metrics ('metrics rec'), so 'expect rec.hitch_ratio < 5' gates a CI job on a real device's recording.",
        verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let imported = context.imported
        let verb = try call.verb(Verb.self)
        guard let timeline = imported.timeline, let analysis = imported.analysis else {
            switch verb {
            case .show:
                return CommandOutput(
                    text: "no recording ('import xctrace|csv|chrome <file>' reads one)",
                    json: .fields(["format": .null]))
            case .close: throw CommandError("no recording to close")
            case .save: throw CommandError("no recording to save: 'import xctrace|csv|chrome <file>' reads one")
            case .hitches, .frames: throw CommandError("no recording: 'import xctrace <file>' reads one")
            }
        }
        switch verb {
        case .show: return summary(timeline, analysis)
        case .hitches: return hitches(analysis, severity: call[Self.severity], worst: call[Self.worst])
        case .frames: return frames(timeline, last: Int(call[Self.last]))
        case .save:
            let path = call[Self.file]
            // A long save stops at Ctrl-C, leaving the file as it was.
            guard let size = try imported.save(to: path, stoppingWhen: context.output.isInterrupted) else {
                throw SessionControl.interrupted(reported: false)
            }
            let events =
                timeline.vsyncs.count + timeline.frames.count + timeline.hitches.count
                + timeline.linkCallbacks.count + timeline.fpsSamples.count
            return CommandOutput(
                text:
                    "saved the recording to \(path): \(grouped(timeline.frames.count)) frames, \(grouped(timeline.hitches.count)) hitches, \(grouped(timeline.vsyncs.count)) vsyncs, \(grouped(timeline.linkCallbacks.count)) link callbacks",
                json: .fields([
                    "file": .string(path), "bytes": .int(size), "frames": .int(Int64(timeline.frames.count)),
                    "hitches": .int(Int64(timeline.hitches.count)), "vsyncs": .int(Int64(timeline.vsyncs.count)),
                    "callbacks": .int(Int64(timeline.linkCallbacks.count)), "records": .int(Int64(events)),
                ]))
        case .close:
            imported.close()
            return .silent
        }
    }

    // MARK: The summary

    static func summary(_ t: RecordedTimeline, _ a: TimelineAnalysis) -> CommandOutput {
        var rows: [(String, String)] = []
        rows.append(("recording", "\(t.format.rawValue): \(t.sources.joined(separator: ", "))"))
        rows.append(("span", "\(t.start) to \(t.end) (\(a.span))"))
        rows.append(("display", display(t)))
        if !t.vsyncs.isEmpty { rows.append(("vsyncs", grouped(t.vsyncs.count))) }
        var frames = "\(grouped(a.frameCount)) presented"
        if let fps = a.framesPerSecond { frames += " · \(fps) fps" }
        if let p50 = a.frameInterval(percentile: 50), let p95 = a.frameInterval(percentile: 95),
            let p99 = a.frameInterval(percentile: 99)
        {
            frames += " · interval p50 \(p50), p95 \(p95), p99 \(p99)"
        }
        rows.append(("frames", frames))
        if a.hasHitchList {
            var line = "\(a.hitches.count) · \(a.hitchTime) hitch time"
            if let ratio = a.hitchRatio { line += " · \(ratio) ms/s (\(appleTier(ratio)))" }
            if let worst = a.worstHitch { line += " · worst \(worst)" }
            rows.append(("hitches", line))
            if a.refreshInterval != nil, !a.hitches.isEmpty {
                rows.append(
                    (
                        "severity",
                        TimelineAnalysis.Severity.allCases.reversed().map { "\($0.rawValue) \(a.count($0))" }
                            .joined(separator: " · ")
                    ))
            }
            if !a.hitches.isEmpty {
                rows.append(
                    (
                        "stages",
                        TimelineAnalysis.Stage.allCases.map { "\($0.rawValue) \(a.count($0))" }
                            .joined(separator: " · ")
                    ))
            }
        } else {
            rows.append(("hitches", "none recorded: a \(t.format.rawValue) has no hitch list"))
        }
        if !t.linkCallbacks.isEmpty { rows.append(("callbacks", grouped(t.linkCallbacks.count))) }
        for note in t.notes { rows.append(("note", note)) }
        let text = labelled(rows)
        return CommandOutput(
            text: text,
            json: .fields([
                "format": .string(t.format.rawValue), "sources": .array(t.sources.map { .string($0) }),
                "start_ns": .int(t.start.nanoseconds), "end_ns": .int(t.end.nanoseconds),
                "refresh_interval_ns": t.refreshInterval.map { .int($0.nanoseconds) } ?? .null,
                "refresh_source": JSONValue(t.refreshSource.map(\.word)),
                "vsyncs": .int(Int64(t.vsyncs.count)),
                "frames": .int(Int64(a.frameCount)), "hitches": a.hasHitchList ? .int(Int64(a.hitches.count)) : .null,
                "hitch_time_ns": a.hasHitchList ? .int(a.hitchTime.nanoseconds) : .null,
                "hitch_ratio": JSONValue(a.hitchRatio.map(\.description)),
                "callbacks": .int(Int64(t.linkCallbacks.count)), "notes": .array(t.notes.map { .string($0) }),
            ]))
    }

    /// Rows of a label and its text, the labels padded to the widest (`recording`, `replay`).
    static func labelled(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "\($0.0.padding(width))  \($0.1)" }.joined(separator: "\n")
    }

    /// `120 Hz (device-display-info), refresh interval 8.333333ms`.
    static func display(_ t: RecordedTimeline) -> String {
        guard let interval = t.refreshInterval, interval > .zero else { return "refresh rate unknown" }
        let hertz = SimFormat.roundedDivide(1_000_000_000_000, by: Int128(interval.nanoseconds))
        let rate = SimFormat.decimal(Int64(clamping: hertz), scaleDigits: 3, minFraction: 0)
        let source = t.refreshSource.map { " (\($0.text))" } ?? ""
        return "\(rate) Hz\(source), refresh interval \(interval)"
    }

    /// The Xcode Organizer's tiers (`fps.tiers apple`): good ≤ 10 ms/s, warning ≤ 25, critical
    /// ≤ 50, severe above.
    static func appleTier(_ ratio: MetricNumber) -> String {
        let ms = ratio.thousandths
        if ms <= 10_000 { return "good" }
        if ms <= 25_000 { return "warning" }
        if ms <= 50_000 { return "critical" }
        return "severe"
    }

    // MARK: Hitches and frames

    static func hitches(_ a: TimelineAnalysis, severity: SeverityChoice?, worst: Int64?) -> CommandOutput {
        var chosen = Array(a.hitches.enumerated())
        if let severity { chosen = chosen.filter { $0.element.severity == severity.severity } }
        if let worst {
            chosen = Array(chosen.sorted { $0.element.duration > $1.element.duration }.prefix(Int(worst)))
        }
        let json = JSONValue.array(
            chosen.map { n, h in
                .fields([
                    "hitch": .int(Int64(n + 1)), "start_ns": .int(h.start.nanoseconds),
                    "duration_ns": .int(h.duration.nanoseconds), "severity": JSONValue(h.severity?.rawValue),
                    "recorded_severity": JSONValue(h.recordedSeverity), "stage": .string(h.stage.rawValue),
                    "description": .string(h.description),
                ])
            })
        guard !chosen.isEmpty else {
            let what = severity.map { " of severity \($0.severity.rawValue)" } ?? ""
            return CommandOutput(text: "no hitches\(what) in the recording", json: json)
        }
        let showRecorded = chosen.contains { $0.element.recordedSeverity != nil }
        var rows = [
            ["#", "start", "duration", "intervals", "severity"] + (showRecorded ? ["recorded"] : []) + [
                "stage", "description",
            ]
        ]
        for (n, h) in chosen {
            let intervals =
                a.refreshInterval.map {
                    SimFormat.decimal(
                        Int64(
                            clamping: SimFormat.roundedDivide(
                                Int128(h.duration.nanoseconds) * 100, by: Int128($0.nanoseconds))),
                        scaleDigits: 2, minFraction: 2)
                } ?? "-"
            rows.append(
                [String(n + 1), "\(h.start)", "\(h.duration)", intervals, h.severity?.rawValue ?? "-"]
                    + (showRecorded ? [h.recordedSeverity ?? "-"] : []) + [h.stage.rawValue, h.description])
        }
        return CommandOutput(text: table(rows), json: json)
    }

    static func frames(_ t: RecordedTimeline, last: Int) -> CommandOutput {
        let shown = t.frames.suffix(last)
        let first = t.frames.count - shown.count
        var rows = [["frame", "present", "on glass", "interval"]]
        var json: [JSONValue] = []
        for (k, frame) in shown.enumerated() {
            let index = first + k
            let interval = index > 0 ? frame.present - t.frames[index - 1].present : nil
            rows.append([
                String(index + 1), "\(frame.present)", frame.onGlass.map { "\($0)" } ?? "-",
                interval.map { "\($0)" } ?? "-",
            ])
            json.append(
                .fields([
                    "frame": .int(Int64(index + 1)), "present_ns": .int(frame.present.nanoseconds),
                    "on_glass_ns": frame.onGlass.map { .int($0.nanoseconds) } ?? .null,
                    "interval_ns": interval.map { .int($0.nanoseconds) } ?? .null,
                ]))
        }
        guard !shown.isEmpty else {
            return CommandOutput(text: "no frames in the recording", json: .array([]))
        }
        return CommandOutput(text: table(rows), json: .array(json))
    }

    /// Columns padded to their widest cell, the last left as it is.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.first?.count else { return "" }
        let widths = (0..<columns).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            let line = row.enumerated().map { c, cell in c == columns - 1 ? cell : cell.padding(widths[c]) }
                .joined(separator: "  ")
            // An empty last cell leaves no trailing blanks.
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }
}
