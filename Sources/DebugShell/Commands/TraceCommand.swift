import DebugShellCore
import DebugShellInterpreter
import DebugShellTrace

/// `trace`: record the simulated timeline as a Chrome trace (docs/Trace.md).
struct TraceCommand: BuiltInCommand {
    static let categories = OptionSpec.word(
        "categories",
        abstract: "What to record, comma-separated: display, main, render, queues, modes, counters, tools.",
        defaultText: "all")
    static let limit = OptionSpec.integer(
        "limit", in: 1...100_000_000, abstract: "The most events kept; beyond it the oldest are dropped.",
        default: Int64(TraceRecorder.defaultLimit))
    static let file = ArgumentSpec.path("file", abstract: "The file, e.g. timeline.json.")

    enum Verb: String, BuiltInVerbs {
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
                    options: [
                        TraceCommand.categories,
                        TraceCommand.limit,
                    ],
                    examples: [
                        Example(
                            """
                            > trace start --categories display,main
                            > stall 20ms
                            > run 50ms
                            > trace
                            trace: recording since 0s
                            categories: display, main
                            events: 4 kept of 4 recorded (limit 1000000, oldest dropped beyond it)
                            memory: 3072 KiB
                            """)
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
        "trace", abstract: "Record the simulated timeline as a Chrome trace for Perfetto's UI or chrome://tracing.",
        discussion:
            "Tracks: the display (vsyncs, presents, hitches with their cause), the main thread (run-loop iterations and each item by name: timer and display-link callbacks, blocks, stalls, commits), the render server, each background queue, run-loop modes, counters (presented FPS, main-thread busy, tools' own such as the FPS label's reading) and every tool event. A trace keeps its newest events up to its limit and drops the oldest beyond it. docs/Trace.md says how to open one.",
        verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        switch try call.verb(Verb.self) {
        case .start:
            var chosen = TraceCategories.all
            if let words = call[categories] {
                chosen = []
                for word in words.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                    guard let found = TraceCategories.names.first(where: { $0.0 == word }) else {
                        var message = "unknown trace category '\(word)' (categories: "
                        message += TraceCategories.names.map(\.0).joined(separator: ", ") + ")"
                        if let guess = Suggest.closest(to: word, in: TraceCategories.names.map(\.0)) {
                            message += "; did you mean '\(guess)'?"
                        }
                        throw CommandError(message)
                    }
                    chosen.insert(found.1)
                }
            }
            let limit = Int(call[limit])
            try session.startTrace(categories: chosen, limit: limit)
            let from = session.engine.now
            return CommandOutput(
                json: .fields([
                    "categories": .array(chosen.words.map { .string($0) }), "limit": .int(Int64(limit)),
                    "from_ns": .int(from.nanoseconds),
                ]))
        case .stop:
            guard let trace = session.tracing.recorder, trace.isRecording else {
                throw CommandError("no trace is recording")
            }
            trace.stop()
            return CommandOutput(
                text: "trace stopped: \(trace.kept) events (save it with 'trace save <file.json>')",
                json: .fields(["events": .int(Int64(trace.kept)), "dropped": .int(trace.dropped)]))
        case .save:
            let path = call[file]
            let count = try session.saveTrace(to: path)
            return CommandOutput(
                text: "saved \(count) trace events to \(path)",
                json: .fields(["file": .string(path), "events": .int(Int64(count))]))
        case .show:
            guard let trace = session.tracing.recorder else {
                return CommandOutput(
                    text: "no trace ('trace start' records the simulated timeline)",
                    json: .fields(["state": .string("none")]))
            }
            let state = trace.isRecording ? "recording since \(trace.startedAt)" : "stopped"
            var lines = [
                "trace: \(state)",
                "categories: \(trace.categories.words.joined(separator: ", "))",
                "events: \(trace.kept) kept of \(trace.recorded) recorded (limit \(trace.limit), oldest dropped beyond it)",
                "memory: \(trace.memoryBytes / 1024) KiB",
            ]
            if trace.dropped > 0 { lines.append("dropped: \(trace.dropped) oldest events") }
            return CommandOutput(
                text: lines.joined(separator: "\n"),
                json: .fields([
                    "state": .string(trace.isRecording ? "recording" : "stopped"),
                    "categories": .array(trace.categories.words.map { .string($0) }),
                    "kept": .int(Int64(trace.kept)), "recorded": .int(trace.recorded), "dropped": .int(trace.dropped),
                    "limit": .int(Int64(trace.limit)), "memory_bytes": .int(Int64(trace.memoryBytes)),
                ]))
        }
    }
}

extension Session {
    /// The trace of the simulated timeline (`trace start`), recording or stopped.
    public var trace: TraceRecorder? { tracing.recorder }

    /// Starts recording a trace of the simulation from now (`trace start`, `--trace`).
    ///
    /// - Throws: when one is already recording.
    public func startTrace(categories: TraceCategories = .all, limit: Int = TraceRecorder.defaultLimit)
        throws(CommandError)
    {
        if let trace = tracing.recorder, trace.isRecording {
            throw CommandError("a trace is already recording (\(trace.kept) events); 'trace stop' first")
        }
        let recorder = TraceRecorder(categories: categories, limit: limit, at: engine.now)
        recorder.attach(engine)
        tracing = TraceSession(recorder: recorder, limitReported: false)
        output.trace = recorder
    }

    /// Writes the trace to `path` atomically.
    ///
    /// - Returns: the number of events written.
    @discardableResult
    public func saveTrace(to path: String) throws(CommandError) -> Int {
        guard let trace = tracing.recorder else { throw CommandError("no trace to save: 'trace start' records one") }
        do {
            let file = try FileIO.AtomicFile(path)
            try trace.encode(generator: "debugsh \(DebugShellVersion.text)") { bytes throws(FileIO.Failure) in
                try file.write(bytes)
            }
            try file.commit()
        } catch let failure as FileIO.Failure {
            throw CommandError(failure.message)
        } catch {
            throw CommandError("\(error)")
        }
        return trace.kept
    }

    /// Says once, after the command that made it happen, that the trace dropped its oldest events.
    func reportTraceLimit() {
        guard let trace = tracing.recorder, trace.limitReached, !tracing.limitReported else { return }
        tracing.limitReported = true
        output.notice(
            "warning: trace: \(trace.limit) events reached: the oldest are dropped from now on ('trace start --limit <n>' keeps more)"
        )
    }
}
