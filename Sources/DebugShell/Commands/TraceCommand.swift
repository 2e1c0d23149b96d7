import DebugShellCore
import DebugShellInterpreter
import DebugShellTrace

/// `trace`: record the simulated timeline as a Chrome trace (docs/Trace.md).
struct TraceCommand: BuiltInCommand {
    static let categories = OptionSpec.word(
        "categories",
        abstract: "What to record, comma-separated: display, main, render, queues, modes, counters, tools, frames.",
        defaultText: "all")
    static let limit = OptionSpec.integer(
        "limit", in: 1...100_000_000, abstract: "The most events kept.", default: Int64(TraceRecorder.defaultLimit))
    static let keep = OptionSpec.choice(
        "keep",
        abstract:
            "Which events a full trace keeps: first (then recording stops, and costs nothing more) or last (the oldest are dropped).",
        default: TraceKeep.first)
    static let file = ArgumentSpec.path("file", abstract: "The file, e.g. timeline.json.")

    enum Verb: String, ToolVerbs {
        case show, start, stop, save

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "show", abstract: "What is recorded: state, categories, events kept and dropped, memory.",
                    examples: [Example("> trace\nno trace ('trace start' records the simulated timeline)")])
            case .start:
                return VerbSpec(
                    "start", abstract: "Start recording from now.",
                    options: [TraceCommand.categories, TraceCommand.limit, TraceCommand.keep],
                    examples: [
                        Example(
                            """
                            > trace start --categories display,main
                            > stall 20ms
                            > run 50ms
                            > trace
                            trace: recording since 0s
                            categories: display, main
                            events: 3 (limit 1000000, the first kept)
                            memory: 3072 KiB
                            """),
                        Example(
                            """
                            > trace start --limit 5 --keep first
                            > animate 1s
                            > run 1s
                            warning: trace: 5 events reached at 16.666666ms: the trace ends there ('trace start --limit <n>' keeps more, '--keep last' the newest)
                            > trace
                            trace: full at 16.666666ms (recording since 0s)
                            categories: display, main, render, queues, modes, counters, tools, frames
                            events: 10 (limit 5 reached at 16.666666ms: the first kept, and what was open then)
                            memory: 1 KiB
                            """),
                    ])
            case .stop:
                return VerbSpec("stop", abstract: "Stop recording; the events stay to be saved.")
            case .save:
                return VerbSpec(
                    "save", aliases: ["export"], abstract: "Write the trace as Chrome trace JSON (atomically).",
                    arguments: [TraceCommand.file],
                    examples: [Example("> trace save t.json\nerror: no trace to save: 'trace start' records one")])
            }
        }
    }

    static let spec = CommandSpec(
        "trace", abstract: "Record the simulated timeline as a Chrome trace for Perfetto's UI.",
        discussion:
            "Tracks: the display (the vsyncs the device processed, presents, idle stretches with their vsync count, hitches with their cause), the main thread (run-loop iterations enclosing each item by name: timer and display-link callbacks, blocks, stalls, commits), the render server, each background queue, run-loop modes, counters (presented FPS and main-thread busy per second, tools' own such as the FPS label's reading), every tool event, the main thread's hangs (items of 250 ms or more, RL6), and every frame's expected and actual life on lanes of their own as Perfetto's FrameTimeline shows them — each actual frame with its verdict, hitch type and severity (R8, R9), dropped frames too — with arrows from a frame's commit to its render and present and from what delayed a late frame. A trace that ends early (its limit, a breakpoint's stop, an interrupt, a signal, a trap) says where and why with a marker. A trace keeps at most its limit of events: the first by default, then it stops recording; with --keep last, the newest. After a reset the trace's time goes on where the previous simulation stopped. docs/Trace.md says how to open one.",
        verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let tracing = context.tracing
        switch try call.verb(Verb.self) {
        case .start:
            let chosen = try call[categories].map(TraceCategories.parse) ?? .all
            let limit = Int(call[limit])
            let keep = call[Self.keep]
            try tracing.start(categories: chosen, limit: limit, keep: keep)
            let from = context.engine.now
            return CommandOutput(
                json: .fields([
                    "categories": .array(chosen.words.map { .string($0) }), "limit": .int(Int64(limit)),
                    "keep": .string(keep.rawValue), "from_ns": .int(from.nanoseconds),
                ]))
        case .stop:
            guard let trace = tracing.recorder, !trace.isStopped else {
                throw CommandError("no trace is recording")
            }
            trace.stop()
            return CommandOutput(
                text: "trace stopped: \(events(trace.kept)) (save it with 'trace save <file.json>')",
                json: .fields(["events": .int(Int64(trace.kept)), "dropped": .int(trace.dropped)]))
        case .save:
            let path = call[file]
            // A long save stops at Ctrl-C, leaving the file as it was.
            guard let count = try tracing.save(to: path, stoppingWhen: context.output.isInterrupted) else {
                throw SessionControl.interrupted(reported: false)
            }
            return CommandOutput(
                text: "saved \(events(count)) to \(path)",
                json: .fields(["file": .string(path), "events": .int(Int64(count))]))
        case .show:
            guard let trace = tracing.recorder else {
                return CommandOutput(
                    text: "no trace ('trace start' records the simulated timeline)",
                    json: .fields(["state": .string("none")]))
            }
            let state: String
            if let full = trace.limitReachedAt, trace.keep == .first {
                state = "full at \(full) (recording since \(trace.startedAt))"
            } else if trace.isRecording {
                state = "recording since \(trace.startedAt)"
            } else {
                state = "stopped"
            }
            let count: String
            switch trace.keep {
            case .first:
                if let full = trace.limitReachedAt {
                    count =
                        "\(trace.kept) (limit \(trace.limit) reached at \(full): the first kept, and what was open then)"
                } else {
                    count = "\(trace.kept) (limit \(trace.limit), the first kept)"
                }
            case .last:
                count = "\(trace.kept) kept of \(trace.recorded) recorded (limit \(trace.limit), the newest kept)"
            }
            let memory = trace.memoryBytes
            var lines = [
                "trace: \(state)",
                "categories: \(trace.categories.words.joined(separator: ", "))",
                "events: \(count)",
                "memory: \(memory < 1024 ? "\(memory) bytes" : "\(memory / 1024) KiB")",
            ]
            if trace.dropped > 0 {
                lines.append(
                    "dropped: the oldest \(events(Int(trace.dropped))); the trace starts at \(trace.window.from)")
            }
            return CommandOutput(
                text: lines.joined(separator: "\n"),
                json: .fields([
                    "state": .string(trace.isRecording ? "recording" : trace.limitReached ? "full" : "stopped"),
                    "categories": .array(trace.categories.words.map { .string($0) }),
                    "kept": .int(Int64(trace.kept)), "recorded": .int(trace.recorded), "dropped": .int(trace.dropped),
                    "limit": .int(Int64(trace.limit)), "keep": .string(trace.keep.rawValue),
                    "memory_bytes": .int(Int64(trace.memoryBytes)),
                ]))
        }
    }

    /// `1 event`, `3 events`.
    static func events(_ n: Int) -> String { n == 1 ? "1 event" : "\(n) events" }
}
