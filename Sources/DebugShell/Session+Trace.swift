import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// `trace`: the simulated timeline as a Chrome trace (docs/Trace.md).
extension Session {
    /// Starts recording a trace of the simulation from now (`trace start`, `--trace`).
    ///
    /// - Throws: when one is already recording.
    public func startTrace(categories: TraceCategories = .all, limit: Int = TraceRecorder.defaultLimit)
        throws(CommandError)
    {
        if let trace, trace.isRecording {
            throw CommandError("a trace is already recording (\(trace.kept) events); 'trace stop' first")
        }
        let recorder = TraceRecorder(categories: categories, limit: limit, at: engine.now)
        recorder.attach(engine)
        trace = recorder
        traceLimitReported = false
    }

    /// Writes the trace to `path` atomically.
    ///
    /// - Returns: the number of events written.
    @discardableResult
    public func saveTrace(to path: String) throws(CommandError) -> Int {
        guard let trace else { throw CommandError("no trace to save: 'trace start' records one") }
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
        guard let trace, trace.limitReached, !traceLimitReported else { return }
        traceLimitReported = true
        sink.write(
            "warning: trace: \(trace.limit) events reached: the oldest are dropped from now on ('trace start --limit <n>' keeps more)\n",
            to: .standardError)
    }

    func traceCommand(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        switch inv.verb {
        case "start":
            var categories = TraceCategories.all
            if let words = inv.word("categories") {
                categories = []
                for word in words.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                    guard let found = TraceCategories.names.first(where: { $0.0 == word }) else {
                        var message = "unknown trace category '\(word)' (categories: "
                        message += TraceCategories.names.map(\.0).joined(separator: ", ") + ")"
                        if let guess = Suggest.closest(to: word, in: TraceCategories.names.map(\.0)) {
                            message += "; did you mean '\(guess)'?"
                        }
                        throw CommandError(message)
                    }
                    categories.insert(found.1)
                }
            }
            let limit = Int(inv.integer("limit") ?? Int64(TraceRecorder.defaultLimit))
            try startTrace(categories: categories, limit: limit)
            return CommandOutput(
                json: .fields([
                    "categories": .array(categories.words.map { .string($0) }), "limit": .int(Int64(limit)),
                    "from_ns": .int(self.engine.now.nanoseconds),
                ]))
        case "stop":
            guard let trace, trace.isRecording else { throw CommandError("no trace is recording") }
            trace.stop()
            return CommandOutput(
                text: "trace stopped: \(trace.kept) events (save it with 'trace save <file.json>')",
                json: .fields(["events": .int(Int64(trace.kept)), "dropped": .int(trace.dropped)]))
        case "save":
            let path = inv.word("file") ?? ""
            let count = try saveTrace(to: path)
            return CommandOutput(
                text: "saved \(count) trace events to \(path)",
                json: .fields(["file": .string(path), "events": .int(Int64(count))]))
        default:
            guard let trace else {
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
