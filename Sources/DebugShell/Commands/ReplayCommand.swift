import DebugShellCore
import DebugShellEngine
import DebugShellImport
import DebugShellInterpreter

/// `replay`: the imported recording replayed on the simulated device, with changes, and the two
/// compared (docs/Replay.md).
struct ReplayCommand: BuiltInCommand {
    static let scale = OptionSpec.word(
        "scale", abstract: "Scale stages' costs: PHASE=FACTOR[,…] (update, commit, render, main).",
        defaultText: "none")
    static let move = OptionSpec.word(
        "move", abstract: "Move stages off the main thread: PHASE=background[,…] (update, commit, main).",
        defaultText: "none")
    static let cap = OptionSpec.word(
        "cap", abstract: "Cap each frame's stage: PHASE=DURATION[,…] (update, commit, render, main).",
        defaultText: "none")
    static let from = OptionSpec.time(
        "from", abstract: "Change only the frames from this recording time on.", defaultText: "the start")
    static let to = OptionSpec.time(
        "to", abstract: "Change only the frames before this recording time.", defaultText: "the end")
    static let labelCost = OptionSpec.duration(
        "without-label", abstract: "Take an FPS label's callback of this cost out of every frame.",
        defaultText: "kept")

    enum Verb: String, ToolVerbs {
        case show = ""
        case start, run, compare

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "", abstract: "The replay under way: its frames, stretches, changes and notes.",
                    examples: [Example("> replay\nno replay ('replay start' replays the imported recording)")])
            case .start:
                return VerbSpec(
                    "start",
                    abstract: "Turn the imported recording into frames on a fresh simulated device, with changes.",
                    discussion:
                        "A fresh simulation (as 'reset') at the recording's refresh rate and buffer count, time aligned so its vsyncs fall on the recording's. Each recorded frame becomes an animation tick whose update, commit and render cost what the recording says; what a format lacks is the least that explains its present, and said. Change the device after it and before 'replay run': 'display rate 120', 'display adaptive', 'display buffers 3', 'set app.high_frame_rates on', 'fps start' (a label's cost). A change to the frames goes in its options; --from/--to limit them to a stretch.",
                    options: [
                        ReplayCommand.scale, ReplayCommand.move, ReplayCommand.cap, ReplayCommand.from,
                        ReplayCommand.to, ReplayCommand.labelCost,
                    ],
                    examples: [
                        Example(
                            "> replay start\nerror: no recording to replay: 'import xctrace|csv|chrome <file>' reads one"
                        )
                    ])
            case .run:
                return VerbSpec(
                    "run", abstract: "Run the replay to its end: the recording's span, and its last frame shown.",
                    examples: [Example("> replay run\nerror: no replay: 'replay start' starts one")])
            case .compare:
                return VerbSpec(
                    "compare",
                    abstract:
                        "The recording and the replay side by side: frames, hitches by type and severity, ratio, frame times.",
                    discussion:
                        "Both sides are read the same way (as 'recording' reads a recording), over the recording's span up to now. An unchanged replay is calibrated: each recorded hitch is reproduced when a replayed hitch starts within one refresh interval of it and is as long in whole refresh intervals; the ones that are not are listed, with by how much.",
                    examples: [Example("> replay compare\nerror: no replay: 'replay start' starts one")])
            }
        }
    }

    static let spec = CommandSpec(
        "replay",
        abstract: "Replay the imported recording on the simulated device, change one thing, compare the two.",
        discussion:
            "'import' a recording, 'replay start' it (with changes to its frames), change the device ('display rate 120', 'display buffers 3'), 'replay run', then 'replay compare'. The replay.* metrics read the replay's side as rec.* reads the recording's, so 'expect replay.hitch_ratio < 5' gates a what-if.",
        verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)

    /// `replay start` resets and logs itself; `replay run` moves time, which a recording's own time
    /// lines stand for.
    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        switch try call.verb(Verb.self) {
        case .show:
            guard let replay = context.imported.replay else {
                return CommandOutput(
                    text: "no replay ('replay start' replays the imported recording)", json: .fields(["replay": .null]))
            }
            return show(replay, engine: context.engine)
        case .start: return try start(call, in: context)
        case .run:
            guard let replay = context.imported.replay else {
                throw CommandError("no replay: 'replay start' starts one")
            }
            guard !context.nesting.inScheduledCommand else {
                throw CommandError("replay run cannot run from a scheduled command")
            }
            let from = context.engine.now
            guard from < replay.plan.end else {
                throw CommandError("the replay has run to its end (\(replay.plan.end)): 'replay compare' reads it")
            }
            let stop = try context.time.advance("replay run", to: .before(replay.plan.end))
            return context.time.saysWhereTimeStopped(
                context.time.said(
                    stop.hit,
                    CommandOutput(
                        json: .fields([
                            "from_ns": .int(from.nanoseconds), "to_ns": .int(context.engine.now.nanoseconds),
                        ]))), call: call)
        case .compare:
            guard let replay = context.imported.replay else {
                throw CommandError("no replay: 'replay start' starts one")
            }
            return compare(replay)
        }
    }

    // MARK: start

    static func start(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        guard let timeline = context.imported.timeline else {
            throw CommandError("no recording to replay: 'import xctrace|csv|chrome <file>' reads one")
        }
        guard !context.nesting.inScheduledCommand else {
            throw CommandError("replay start cannot run from a scheduled command")
        }
        var changes = ReplayChanges()
        let rate = context.engine.refreshRate.hertz
        if let text = call[Self.scale] {
            for (phase, value) in try pairs(text, option: "scale", phases: ReplayPhase.allCases) {
                guard let factor = Double(value), factor.isFinite, factor >= 0, factor <= 1000 else {
                    throw CommandError("--scale \(phase.rawValue)=\(value): a factor is a number from 0 to 1000")
                }
                changes.scale[phase] = factor
            }
        }
        if let text = call[Self.move] {
            for (phase, value) in try pairs(text, option: "move", phases: [.update, .commit, .main]) {
                guard value == "background" else {
                    throw CommandError("--move \(phase.rawValue)=\(value): a stage moves to 'background'")
                }
                changes.moved.insert(phase)
            }
        }
        if let text = call[Self.cap] {
            for (phase, value) in try pairs(text, option: "cap", phases: ReplayPhase.allCases) {
                changes.cap[phase] = try ValueParser.duration(value, rate: rate)
            }
        }
        changes.from = call[Self.from]
        changes.to = call[Self.to]
        if let from = changes.from, let to = changes.to, to <= from {
            throw CommandError("--to \(to) is not after --from \(from)")
        }
        changes.labelCost = call[Self.labelCost] ?? .zero

        // The plan on the recording's display, then the fresh device it runs on.
        let probe = try ReplayPlan.build(timeline, changes: changes) { _ in .zero }
        context.shell.resetSimulation(display: (probe.rate, probe.buffers))
        context.time.timeDidMove()
        let engine = context.engine
        let plan = try ReplayPlan.build(timeline, changes: changes) { engine.vsync(atOrAfter: $0) }
        let replay = ReplayRun(plan: plan, changes: changes, recording: timeline, engine: engine)
        context.imported.replay = replay
        // The recording starts again after the reset (its preamble reads the recording again),
        // then this line.
        var words = ["replay", "start"]
        for (option, text) in [("scale", call[Self.scale]), ("move", call[Self.move]), ("cap", call[Self.cap])] {
            if let text { words += ["--\(option)", text] }
        }
        if let from = changes.from { words += ["--from", "\(from)"] }
        if let to = changes.to { words += ["--to", "\(to)"] }
        if changes.labelCost > .zero { words += ["--without-label", "\(changes.labelCost)"] }
        context.recorder.logCommand(words)

        var lines = [
            "replay of \(timeline.format.rawValue): \(grouped(plan.frames.count)) frames in \(grouped(plan.stretches.count)) stretches at \(plan.rate.hertz) Hz, \(plan.buffers) buffers; the recording's \(SimTime.zero + plan.offset) is the simulation's 0s; 'replay run' runs to \(plan.end)"
        ]
        for change in changes.descriptions { lines.append("change: \(change)") }
        for note in plan.notes { lines.append("note: \(note)") }
        return CommandOutput(text: lines.joined(separator: "\n"), json: json(replay, engine: engine))
    }

    /// `a=1,b=2` into phases and values; an unknown phase is an error naming the ones there are.
    static func pairs(_ text: String, option: String, phases: [ReplayPhase]) throws(CommandError) -> [(
        ReplayPhase, String
    )] {
        var out: [(ReplayPhase, String)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CommandError("--\(option) \(text): expected PHASE=VALUE[,…], e.g. update=0.5")
            }
            let name = String(parts[0])
            guard let phase = ReplayPhase(rawValue: name), phases.contains(phase) else {
                let known = phases.map(\.rawValue).joined(separator: ", ")
                if ReplayPhase.finer.contains(name) {
                    throw CommandError(
                        "--\(option) \(name): a recording gives a frame's update, commit and render, not its \(name) (R6's phases are the simulation's); use one of \(known)"
                    )
                }
                throw CommandError("--\(option): unknown stage '\(name)' (\(known))")
            }
            out.append((phase, String(parts[1])))
        }
        return out
    }

    // MARK: show and compare

    static func show(_ replay: ReplayRun, engine: DeviceEngine) -> CommandOutput {
        let plan = replay.plan
        var rows: [(String, String)] = []
        rows.append(
            ("recording", "\(replay.recording.format.rawValue): \(replay.recording.sources.joined(separator: ", "))"))
        rows.append(
            (
                "frames",
                "\(grouped(plan.frames.count)) (\(grouped(plan.frames.count { $0.inferred })) with inferred costs) in \(grouped(plan.stretches.count)) stretches"
            ))
        rows.append(
            (
                "display",
                "recorded \(plan.rate.hertz) Hz, \(plan.buffers) buffers; now \(engine.refreshRate.hertz) Hz, \(engine.bufferCount) buffers"
            ))
        rows.append(("time", "recording = simulation + \(plan.offset); runs to \(plan.end); now \(engine.now)"))
        rows.append(
            (
                "progress",
                "\(grouped(replay.frames.count)) frames presented, \(engine.scriptedFramesSkipped) recorded frames skipped, \(engine.scriptedFramesRepeated) ticks repeated a frame"
            ))
        for change in replay.allChanges { rows.append(("change", change)) }
        if replay.allChanges.isEmpty { rows.append(("change", "none: a calibration run")) }
        for note in plan.notes { rows.append(("note", note)) }
        return CommandOutput(
            text: RecordingCommand.labelled(rows),
            json: json(replay, engine: engine))
    }

    static func json(_ replay: ReplayRun, engine: DeviceEngine) -> JSONValue {
        let plan = replay.plan
        return .fields([
            "frames": .int(Int64(plan.frames.count)), "inferred": .int(Int64(plan.frames.count { $0.inferred })),
            "stretches": .int(Int64(plan.stretches.count)), "rate_hz": .int(Int64(plan.rate.hertz)),
            "buffers": .int(Int64(plan.buffers)), "offset_ns": .int(plan.offset.nanoseconds),
            "end_ns": .int(plan.end.nanoseconds), "presented": .int(Int64(replay.frames.count)),
            "skipped": .int(engine.scriptedFramesSkipped), "repeated": .int(engine.scriptedFramesRepeated),
            "changes": .array(replay.allChanges.map { .string($0) }),
            "notes": .array(plan.notes.map { .string($0) }),
        ])
    }

    static func compare(_ replay: ReplayRun) -> CommandOutput {
        let a = replay.recorded
        let b = replay.analysis
        let upTo = replay.recordingNow
        func cell(_ x: TimelineAnalysis, _ read: (TimelineAnalysis) -> String?) -> String { read(x) ?? "-" }
        var rows: [[String]] = [["", "recording", "replay"]]
        func row(_ name: String, _ read: (TimelineAnalysis) -> String?) {
            rows.append([name, cell(a, read), cell(b, read)])
        }
        row("frames") { grouped($0.frameCount) }
        row("fps") { $0.framesPerSecond.map { "\($0)" } }
        for p in [50, 95, 99] { row("frame p\(p)") { $0.frameInterval(percentile: p).map { "\($0)" } } }
        row("late frames") { x in x.lateFrames.map { "\($0)" } }
        row("hitches") { $0.hasHitchList ? "\($0.hitches.count)" : nil }
        row("hitch time") { $0.hasHitchList ? "\($0.hitchTime)" : nil }
        row("hitch ratio") { x in x.hitchRatio.map { "\($0) ms/s (\(RecordingCommand.appleTier($0)))" } }
        row("worst hitch") { $0.worstHitch.map { "\($0)" } }
        for severity in TimelineAnalysis.Severity.allCases.reversed() {
            row(severity.rawValue) { $0.hasHitchList && $0.refreshInterval != nil ? "\($0.count(severity))" : nil }
        }
        // Hitches by type: every description either side has, in the recording's order first.
        var types: [String] = []
        for h in a.hitches + b.hitches where !types.contains(h.description) { types.append(h.description) }
        for type in types {
            let name = type.isEmpty ? "(no type)" : type
            rows.append([
                name, String(a.hitches.count { $0.description == type }),
                String(b.hitches.count { $0.description == type }),
            ])
        }
        var lines = [
            "recording vs replay over \(replay.recording.start) to \(upTo)\(upTo < replay.recording.end ? " (the replay has not run to the recording's end)" : "")"
        ]
        let changes = replay.allChanges
        lines.append(changes.isEmpty ? "changes: none" : "changes: " + changes.joined(separator: "; "))
        lines.append(RecordingCommand.table(rows))
        let matches = replay.matches()
        let reproduced = matches.count { $0.reproduced }
        let interval = a.refreshInterval ?? replay.plan.interval
        if !a.hitches.isEmpty {
            lines.append(
                "calibration: \(reproduced) of \(matches.count) recorded hitches reproduced (start within one refresh interval, same length in refresh intervals)"
                    + (changes.isEmpty ? "" : "; the replay is changed, so differences are the what-if's"))
            for (k, m) in matches.enumerated() where !m.reproduced {
                let recorded = "\(m.recorded.start) \(ReplayRun.intervals(m.recorded.duration, interval)) intervals"
                if let r = m.replayed {
                    let shift = r.start - m.recorded.start
                    lines.append(
                        "  hitch \(k + 1) at \(recorded): replayed at \(r.start) (\(shift.nanoseconds >= 0 ? "+" : "")\(shift)), \(ReplayRun.intervals(r.duration, interval)) intervals"
                    )
                } else {
                    lines.append("  hitch \(k + 1) at \(recorded): no replayed hitch within one refresh interval")
                }
            }
        }
        func side(_ x: TimelineAnalysis) -> JSONValue {
            .fields([
                "frames": .int(Int64(x.frameCount)), "hitches": .int(Int64(x.hitches.count)),
                "hitch_time_ns": .int(x.hitchTime.nanoseconds),
                "hitch_ratio": JSONValue(x.hitchRatio.map(\.description)),
                "worst_hitch_ns": x.worstHitch.map { .int($0.nanoseconds) } ?? .null,
                "frame_p50_ns": x.frameInterval(percentile: 50).map { .int($0.nanoseconds) } ?? .null,
                "frame_p95_ns": x.frameInterval(percentile: 95).map { .int($0.nanoseconds) } ?? .null,
                "frame_p99_ns": x.frameInterval(percentile: 99).map { .int($0.nanoseconds) } ?? .null,
                "by_type": .object(types.map { t in (t, .int(Int64(x.hitches.count { $0.description == t }))) }),
            ])
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields([
                "recording": side(a), "replay": side(b), "until_ns": .int(upTo.nanoseconds),
                "changes": .array(changes.map { .string($0) }), "recorded_hitches": .int(Int64(matches.count)),
                "reproduced": .int(Int64(reproduced)),
            ]))
    }
}
