import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// `play`, `pause` and `record`: the live session (README, "The interactive session").
extension Session {
    /// Built-in commands that move time or control the session are not replayed by `record`;
    /// nor is help that changes nothing.
    static let notRecorded: Set<String> = [
        "run", "step", "play", "pause", "record", "quit", "exit", "reset", "history", "help", "apropos", "tools",
        "alias", "unalias", "source", "plugin",
    ]

    /// Built-in commands that cannot be scheduled: they move time or end the session.
    static let notSchedulable: Set<String> = ["run", "step", "reset", "exit", "quit", "play", "pause"]

    /// Logs a command for `record` (typed, from a script, or from a sourced file, whose commands
    /// are logged in place of the `source`) at the instant it was issued. Aliases are expanded,
    /// so a recording replays without them.
    func logForReplay(
        _ parsed: ParsedCommand, words: ArraySlice<Word>, issuedAt: (time: SimTime, done: Bool, advances: Int),
        typed: Bool
    ) {
        if parsed.command.owner == .builtIn, Session.notRecorded.contains(parsed.command.spec.name) { return }
        recording.append(
            words: words.lazy.map(\.raw), at: issuedAt.time, done: issuedAt.done, advances: issuedAt.advances)
        if recordingPath != nil { writeRecordingIfDue(typed: typed) }
    }

    /// What puts a fresh session in the state a log starts from: the display rate and the
    /// settings that differ from their defaults, which `reset` keeps. The shell's own (`shell.*`)
    /// shape the output, not the simulation, and are left to the replay's command line.
    func recordingPreamble() -> [String] {
        var lines: [String] = []
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        if rate != .sixty { lines.append("display rate \(rate.hertz)") }
        for spec in settings.specs where !spec.name.hasPrefix("shell.") {
            guard let value = settings.value(spec.name),
                value != (try? ValueParser.parse(spec.defaultValue, as: spec.kind, rate: 60))
            else { continue }
            lines.append("set \(spec.name) \(value)")
        }
        return lines
    }

    // MARK: play

    func play(_ speed: Double?) throws(CommandError) -> CommandOutput {
        guard supportsPlay else {
            throw CommandError(
                "play needs the interactive session, where time can follow the wall clock; use 'run' here")
        }
        let speed = speed ?? 1
        guard speed > 0, speed <= 1_000_000, speed.isFinite else {
            throw CommandError("play speed must be above 0 and at most 1000000 (got \(FrameRect.format(speed)))")
        }
        playSpeed = speed
        playRemainder = 0
        playPace = nil
        paceWindow = (0, 0)
        return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
    }

    func pause() -> CommandOutput {
        let wasPlaying = playSpeed != nil
        stopPlaying()
        return CommandOutput(
            text: wasPlaying ? "paused at \(engine.now)" : "not playing (now \(engine.now))",
            json: .fields(["now_ns": .int(self.engine.now.nanoseconds), "was_playing": .bool(wasPlaying)]))
    }

    /// Stops `play` (Ctrl-C at the prompt while playing).
    public func stopPlaying() {
        playSpeed = nil
        playPace = nil
    }

    /// Moves virtual time on by `wallNanoseconds` × the play speed, processing what happens;
    /// called by the front end between keystrokes. Returns false when time could not move (not
    /// playing, the horizon, an interrupt).
    ///
    /// - Parameter outOfTime: polled between events; when it returns true the tick stops where
    ///   time is, so that a heavy simulation never keeps the prompt from the keyboard for long.
    ///   The virtual time not reached is given up, not owed: time then runs slower than asked,
    ///   and ``playPace`` says how much.
    @discardableResult
    public func playTick(wallNanoseconds: Int64, outOfTime: () -> Bool = { false }) -> Bool {
        guard let speed = playSpeed, wallNanoseconds > 0 else { return false }
        let exact = Double(wallNanoseconds) * speed + playRemainder
        let whole = exact.rounded(.down)
        playRemainder = exact - whole
        guard whole >= 1 else { return false }
        let step = SimDuration(nanoseconds: Int64(min(whole, Double(SimTime.horizon.nanoseconds))))
        guard let end = try? engine.now.adding(step) else {
            playSpeed = nil
            sink.write("error: play stopped at the 2^62 ns horizon\n", to: .standardError)
            return false
        }
        scheduledFailures = 0
        let start = engine.now
        let outcome = engine.advance(to: end) { isInterrupted() || outOfTime() }
        scheduleHeldCommands()
        if scheduledFailures > 0 { recording.keepGoing = true }
        reportTraceLimit()
        timeDidMove()
        if outcome == .interrupted && isInterrupted() {
            playSpeed = nil
            sink.write("error: interrupted at \(engine.now)\n", to: .standardError)
            return false
        }
        if outcome == .interrupted { playRemainder = 0 }
        notePlayPace(wallNanoseconds: wallNanoseconds, virtualNanoseconds: (engine.now - start).nanoseconds)
        return true
    }

    /// Measures how fast virtual time moves against the wall clock, over half-second windows.
    private func notePlayPace(wallNanoseconds: Int64, virtualNanoseconds: Int64) {
        paceWindow.wall += wallNanoseconds
        paceWindow.virtual += virtualNanoseconds
        guard paceWindow.wall >= 500_000_000, let speed = playSpeed else { return }
        let pace = Double(paceWindow.virtual) / Double(paceWindow.wall)
        // Within 5% of the speed asked is keeping up.
        playPace = pace < speed * 0.95 ? pace : nil
        paceWindow = (0, 0)
    }

    // MARK: record

    func record(_ words: [Word]) throws(CommandError) -> CommandOutput {
        guard let first = words.first else {
            if let path = recordingPath {
                return CommandOutput(text: "recording to \(path)", json: .fields(["file": .string(path)]))
            }
            return CommandOutput(text: "not recording", json: .fields(["file": .null]))
        }
        if first.text == "stop" && !first.quoted && words.count == 1 {
            guard let path = recordingPath else { throw CommandError("not recording") }
            let written = writeRecording()
            recordingPath = nil
            if let failure = written { throw CommandError(failure.message) }
            return CommandOutput(
                text: "recorded \(recording.commands) commands to \(path)",
                json: .fields(["file": .string(path), "commands": .int(Int64(self.recording.commands))]))
        }
        guard words.count == 1 else { throw CommandError("usage: record <file.dsh> | record stop") }
        if let path = recordingPath { throw CommandError("already recording to \(path) ('record stop' first)") }
        if let at = recording.overflowedAt {
            throw CommandError(
                "cannot record: the session's commands passed the log's \(Recording.limit >> 20) MiB at \(at); 'reset' starts a new log"
            )
        }
        recordingPath = first.text
        if let failure = writeRecording() {
            recordingPath = nil
            throw CommandError(failure.message)
        }
        return CommandOutput(
            text: "recording to \(first.text) (\(recording.commands) commands so far)",
            json: .fields(["file": .string(first.text), "commands": .int(Int64(self.recording.commands))]))
    }

    /// Writes the recording after a command: always after a typed one, so that the file is
    /// current while someone works at the prompt; for scripts, once the log has grown by half
    /// since the last write, so that recording n commands costs O(n) in all.
    func writeRecordingIfDue(typed: Bool) {
        if typed || recording.body.count >= recordingWrittenAt + recordingWrittenAt / 2 + 4096 {
            if let failure = writeRecording() {
                sink.write("warning: record: \(failure.message)\n", to: .standardError)
            }
        }
    }

    /// Writes the recording: the log as a script that ends at now (atomically: a file written
    /// beside it, then renamed over it). Returns the failure, if any.
    @discardableResult
    func writeRecording() -> FileIO.Failure? {
        guard let path = recordingPath else { return nil }
        if recording.overflowedAt != nil {
            return FileIO.Failure(
                "the session's commands passed the log's \(Recording.limit >> 20) MiB: the recording ends at \(recording.position.time)"
            )
        }
        do {
            try FileIO.writeAtomically(
                recording.script(
                    path: path, now: engine.now, done: engine.instantDone, advances: engine.instantsProcessed,
                    requirements: plugins.map { "plugin require \($0.name) --from \(Lexer.quote($0.resolvedPath))" }),
                to: path)
            recordingWrittenAt = recording.body.count
            return nil
        } catch {
            return error
        }
    }

    /// Finishes a recording when the session ends.
    public func finishRecording() {
        if recordingPath != nil {
            if let failure = writeRecording() { sink.write("error: record: \(failure.message)\n", to: .standardError) }
            recordingPath = nil
        }
    }
}
