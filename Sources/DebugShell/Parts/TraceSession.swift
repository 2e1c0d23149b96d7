import DebugShellCore
import DebugShellInterpreter
import DebugShellTrace

/// The trace of the simulated timeline the session records (`trace start`, `--trace`): starting
/// it on the device, saving it, and saying once that it reached its limit.
public final class TraceSession {
    /// The trace, recording or stopped.
    public private(set) var recorder: TraceRecorder?
    /// Whether the session said that the trace reached its limit.
    private var limitReported = false
    private let simulation: Simulation
    private let output: OutputRouter

    init(simulation: Simulation, output: OutputRouter) {
        self.simulation = simulation
        self.output = output
    }

    /// A trace goes on across a reset: the fresh simulation is a new process in it.
    func attachToNewDevice() {
        recorder?.attach(simulation.engine)
    }

    /// Starts recording a trace of the simulation from now (`trace start`, `--trace`).
    ///
    /// - Throws: when one is already recording.
    public func start(
        categories: TraceCategories = .all, limit: Int = TraceRecorder.defaultLimit, keep: TraceKeep = .first
    ) throws(CommandError) {
        if let trace = recorder, trace.isRecording {
            throw CommandError(
                "a trace is already recording (\(TraceCommand.events(trace.kept))); 'trace stop' first")
        }
        let engine = simulation.engine
        let new = TraceRecorder(categories: categories, limit: limit, keep: keep, at: engine.now)
        new.attach(engine)
        recorder = new
        limitReported = false
        output.trace = new
    }

    /// Starts the trace the command line asks for (`--trace`, `--trace-categories`,
    /// `--trace-limit`, `--trace-keep`), checking its file's path now: a bad one fails before the
    /// run, not after it.
    public func start(file: String, categories: String?, limit: Int?, keep: String?) throws(CommandError) {
        try TraceSession.checkPath(file)
        let chosen = try categories.map(TraceCategories.parse) ?? .all
        let limit = limit ?? TraceRecorder.defaultLimit
        guard (1...100_000_000).contains(limit) else {
            throw CommandError("--trace-limit: '\(limit)' is outside 1…100000000")
        }
        guard let keep = TraceKeep(rawValue: keep ?? TraceKeep.first.rawValue) else {
            throw CommandError("--trace-keep: '\(keep ?? "")' is not one of first, last")
        }
        try start(categories: chosen, limit: limit, keep: keep)
    }

    /// Writes the trace to `path` atomically.
    ///
    /// - Returns: the number of events written.
    @discardableResult
    public func save(to path: String) throws(CommandError) -> Int {
        try save(to: path, stoppingWhen: { false }) ?? 0
    }

    /// Writes the trace to `path` atomically, looking for an interrupt after each megabyte.
    ///
    /// - Returns: the number of events written, or nil when `interrupted` stopped the save (the
    ///   file is left as it was).
    func save(to path: String, stoppingWhen interrupted: () -> Bool) throws(CommandError) -> Int? {
        guard let trace = recorder else { throw CommandError("no trace to save: 'trace start' records one") }
        var events = 0
        let written = try TraceSession.writeJSON(to: path, stoppingWhen: interrupted) { chunk in
            events = try trace.encode(generator: "debugsh \(DebugShellVersion.text)", chunk: chunk)
        }
        return written.map { _ in events }
    }

    /// Writes a JSON file (`trace save`, `recording save`) atomically from `encode`, which hands
    /// it a chunk at a time, looking for an interrupt before each: an interrupt drops the file,
    /// and the target stays as it was.
    ///
    /// - Returns: the bytes written, or nil when `interrupted` stopped the save.
    static func writeJSON(
        to path: String, stoppingWhen interrupted: () -> Bool,
        _ encode: (_ chunk: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(CommandError) -> Int64? {
        try checkPath(path)
        // Set when an interrupt stopped the writing (thrown out of the writer's loop).
        var stopped = false
        var size: Int64 = 0
        do {
            let file = try FileIO.AtomicFile(path)
            try withoutActuallyEscaping(interrupted) { interrupted in
                try encode { bytes in
                    if interrupted() {
                        stopped = true
                        file.discard()
                        throw FileIO.Failure("interrupted")
                    }
                    try file.write(bytes)
                    size += Int64(bytes.count)
                }
            }
            try file.commit()
        } catch let failure as FileIO.Failure {
            if stopped { return nil }
            throw CommandError(failure.message)
        } catch {
            throw CommandError("\(error)")
        }
        return size
    }

    /// Notes why time stopped now, for a trace that ends here (docs/Trace.md, "Where a trace
    /// ends").
    public func noteStop(_ stop: TraceStop) {
        recorder?.noteStop(stop)
    }

    /// Notes that a signal stopped the run now (SIGINT, SIGTERM, SIGHUP).
    public func noteSignal(_ name: String) {
        noteStop(TraceStop(reason: "signal", title: name, detail: "\(name) stopped the run"))
    }

    /// Notes why the run ends now: `reason` and `title` name the marker (`stuck`, `plugin did
    /// not return`), `detail` is what the front end says of it.
    public func noteStop(reason: String, title: String, detail: String) {
        noteStop(TraceStop(reason: reason, title: title, detail: detail))
    }

    /// Notes a trap now, with what the session says of it.
    public func noteTrap(_ what: String) {
        noteStop(TraceStop(reason: "trap", title: "trap", detail: what))
    }

    /// Says once, after the command that made it happen, that the trace dropped its oldest events.
    func reportLimit() {
        guard let trace = recorder, trace.limitReached, !limitReported else { return }
        limitReported = true
        let at = trace.limitReachedAt ?? simulation.engine.now
        if trace.keep == .first {
            output.notice(
                "warning: trace: \(TraceCommand.events(trace.limit)) reached at \(at): the trace ends there ('trace start --limit <n>' keeps more, '--keep last' the newest)"
            )
        } else {
            output.notice(
                "warning: trace: \(TraceCommand.events(trace.limit)) reached: the oldest are dropped from now on ('trace start --limit <n>' keeps more)"
            )
        }
    }

    /// A trace file's path: it must end in `.json` (the trace is Chrome trace JSON), and its
    /// folder must exist — checked before anything runs, so that a run is not lost to a bad path
    /// at its end.
    static func checkPath(_ path: String) throws(CommandError) {
        guard path.hasSuffix(".json") else {
            throw CommandError("'\(path)' is not a .json file: a trace is Chrome trace JSON (e.g. timeline.json)")
        }
        let folder = FileIO.directory(of: path)
        guard FileIO.isDirectory(folder) else {
            throw CommandError("cannot write '\(path)': the folder '\(folder)' does not exist")
        }
    }
}
