import DebugShellCore
import DebugShellInterpreter

/// `record`: write the session's commands, each at its virtual time, so that the file replays
/// the session.
struct RecordCommand: BuiltInCommand {
    static let target = ArgumentSpec.words("target", .path, abstract: "The file to write, or 'stop'.", optional: true)

    static let spec = CommandSpec(
        "record",
        abstract:
            "Write the session's commands, each at its virtual time, so that the file replays it; 'record stop' ends.",
        arguments: [
            target
        ],
        examples: [Example("> record\nnot recording\n> record stop\nerror: not recording")])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let words = call[target]
        guard let first = words.first else {
            if let path = session.recorder.path {
                return CommandOutput(text: "recording to \(path)", json: .fields(["file": .string(path)]))
            }
            return CommandOutput(text: "not recording", json: .fields(["file": .null]))
        }
        if first.text == "stop" && !first.quoted && words.count == 1 {
            guard let path = session.recorder.path else { throw CommandError("not recording") }
            let written = session.writeRecording()
            session.recorder.path = nil
            if let failure = written { throw CommandError(failure.message) }
            let commands = session.recorder.recording.commands
            return CommandOutput(
                text: "recorded \(commands == 1 ? "1 command" : "\(commands) commands") to \(path)",
                json: .fields(["file": .string(path), "commands": .int(Int64(commands))]))
        }
        guard words.count == 1 else { throw CommandError("usage: record <file.dsh> | record stop") }
        if let path = session.recorder.path { throw CommandError("already recording to \(path) ('record stop' first)") }
        if let at = session.recorder.recording.overflowedAt {
            throw CommandError(
                "cannot record: the session's commands passed the log's \(Recording.limit >> 20) MiB at \(at); 'reset' starts a new log"
            )
        }
        session.recorder.path = first.text
        if let failure = session.writeRecording() {
            session.recorder.path = nil
            throw CommandError(failure.message)
        }
        let commands = session.recorder.recording.commands
        return CommandOutput(
            text: "recording to \(first.text) (\(commands == 1 ? "1 command" : "\(commands) commands") so far)",
            json: .fields(["file": .string(first.text), "commands": .int(Int64(commands))]))
    }
}

extension Session {
    /// The file `record` writes, while recording.
    public var recordingPath: String? { recorder.path }

    /// What puts a fresh session in the state a log starts from: the display rate and the
    /// settings that differ from their defaults, which `reset` keeps. The shell's own (`shell.*`)
    /// shape the output, not the simulation, and are left to the replay's command line.
    func recordingPreamble() -> [String] {
        var lines: [String] = []
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        if rate != .sixty { lines.append("display rate \(rate.hertz)") }
        let hertz = rate.hertz
        for spec in settings.specs where !spec.name.hasPrefix("shell.") {
            guard let value = settings.value(spec.name, rate: hertz),
                value != settings.defaultValue(spec.name, rate: hertz)
            else { continue }
            lines.append("set \(spec.name) \(value)")
        }
        return lines
    }

    /// Writes the recording after a command: always after a typed one, so that the file is
    /// current while someone works at the prompt; for scripts, once the log has grown by half
    /// since the last write, so that recording n commands costs O(n) in all.
    func writeRecordingIfDue(typed: Bool) {
        let size = recorder.recording.body.count
        if typed || size >= recorder.writtenAt + recorder.writtenAt / 2 + 4096 {
            if let failure = writeRecording() { output.notice("warning: record: \(failure.message)") }
        }
    }

    /// Writes the recording: the log as a script that ends at now (atomically: a file written
    /// beside it, then renamed over it). Returns the failure, if any.
    ///
    /// - Parameters:
    ///   - endingDone: Whether the last time line ends with now's instant processed (by default
    ///     as the device stands); `note` a last comment line.
    @discardableResult
    func writeRecording(endingDone: Bool? = nil, note: String? = nil) -> FileIO.Failure? {
        guard let path = recorder.path else { return nil }
        let recording = recorder.recording
        if recording.overflowedAt != nil {
            return FileIO.Failure(
                "the session's commands passed the log's \(Recording.limit >> 20) MiB: the recording ends at \(recording.position.time)"
            )
        }
        do {
            try FileIO.writeAtomically(
                recording.script(
                    path: path, now: engine.now, done: endingDone ?? engine.instantDone,
                    advances: engine.instantsProcessed + (endingDone == true && !engine.instantDone ? 1 : 0),
                    requirements: plugins.map { "plugin require \($0.name) --from \(Lexer.quote($0.resolvedPath))" })
                    + (note.map { "# debugsh stopped here: \(VisibleText.escaped($0))\n" } ?? ""),
                to: path)
            recorder.writtenAt = recording.body.count
            return nil
        } catch {
            return error
        }
    }

    /// Finishes a recording when the session ends.
    public func finishRecording() {
        if recorder.path != nil {
            if let failure = writeRecording() { output.notice("error: record: \(failure.message)") }
            recorder.path = nil
        }
    }
}
