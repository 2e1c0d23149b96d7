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

extension LoadedPlugin {
    /// The line that loads this plugin in a replay, unless it is loaded: `plugin require`.
    var requirement: String { requirementWords.map(\.raw).joined(separator: " ") }

    var requirementWords: [Word] {
        ["plugin", "require", name, "--from"].map { Word($0) }
            + [
                Word(
                    text: resolvedPath, raw: Lexer.quote(resolvedPath),
                    quoted: Lexer.quote(resolvedPath) != resolvedPath)
            ]
    }
}

extension Session {
    /// The file `record` writes, while recording.
    public var recordingPath: String? { recorder.path }

    /// What puts a fresh session in the state a log starts from: the display rate and the
    /// settings that differ from their defaults, which `reset` keeps. The shell's own (`shell.*`)
    /// shape the output, not the simulation, and are left to the replay's command line.
    func recordingPreamble() -> [String] {
        // The plugins loaded before the log starts (those loaded later are required where they
        // were loaded): their settings may follow.
        var lines = plugins.map(\.requirement)
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        if let adaptive = engine.adaptiveRange {
            // V1: an adaptive display is its range; its rate now follows from the requests.
            lines.append("display adaptive --min \(adaptive.minimum.hertz)Hz --max \(adaptive.maximum.hertz)Hz")
        } else if rate != .sixty {
            lines.append("display rate \(rate.hertz)")
        }
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
            if let failure = writeRecording() {
                // Said once: the recording stops rather than rewrite the whole log, and warn, after
                // every later command (a full disk, a file-size limit).
                let path = recorder.path ?? ""
                recorder.path = nil
                output.notice(
                    "warning: record: \(failure.message): recording to \(path) stopped ('record <file>' writes the session again from its start)"
                )
            }
        }
    }

    /// Logs a plugin loaded at top level (not by a scheduled command, which the log has as it
    /// was scheduled) as the `plugin require` that loads it in its place in the replay's
    /// timeline: the replay then has its commands from there on, as the session did.
    func logPluginLoaded(_ plugin: LoadedPlugin) {
        guard !nesting.inScheduledCommand else { return }
        recorder.log(plugin.requirementWords[...], at: recorder.position(of: engine))
        if recorder.isWriting { writeRecordingIfDue(typed: true) }
    }

    /// A recorded command's words as the replay must read them, whatever it has loaded and
    /// wherever the file is: the command's name in full (`ti` → `timer`, so that a plugin loaded
    /// first in the replay cannot make it ambiguous), and in a command that takes a command
    /// (`after`, `at`, `every`), that command's aliases expanded as now and its name in full too
    /// (the replay has no aliases), a `source`'s file and a `plugin load`'s library as absolute
    /// paths (the replay's folder is the recording's). Words after the command's name stay as
    /// typed. What no longer parses is kept as typed.
    func recordedWords(_ words: ArraySlice<Word>, parsed: ParsedCommand, at location: SourceLocation)
        -> ArraySlice<Word>
    {
        let name = parsed.command.spec.name
        guard parsed.command.traits.contains(.takesCommand) else {
            // The common case: at most the name changes.
            guard let first = words.first, first.raw != name else { return words }
            var resolved = Array(words)
            resolved[0] = Word(name)
            return resolved[...]
        }
        var out: [Word] = []
        var words = words
        var parsed = parsed
        // The aliases expanded so far: one that comes back (`alias z = after 0s z`) schedules
        // itself, and its expansion never ends; it is written as typed from there on (the
        // session fails that chain at the limit of commands per instant).
        var expanded: Set<String> = []
        // A loop, not recursion: `after 1ns after 1ns …` may nest 100,000 deep.
        while true {
            out.append(Word(parsed.command.spec.name))
            if !parsed.asksForHelp, parsed.command.traits.contains(.takesCommand), let rest = parsed.rest,
                rest.startIndex > words.startIndex, rest.startIndex <= words.endIndex
            {
                out += words[(words.startIndex + 1)..<rest.startIndex]
                if let first = rest.first, !first.quoted, registry.command(exactly: first.text) == nil {
                    guard expanded.insert(first.text).inserted else {
                        out += rest
                        break
                    }
                }
                guard let next = try? aliases.expand(rest, registry: registry), !next.isEmpty,
                    let inner = try? parser.parse(next, text: "")
                else {
                    out += rest
                    break
                }
                words = next
                parsed = inner
                continue
            }
            out += resolvingPaths(words.dropFirst(), of: parsed, at: location)
            break
        }
        return out[...]
    }

    /// The arguments of a scheduled `source` or `plugin load` with the path made absolute: the
    /// file the session would read, read by a replay from any folder.
    private func resolvingPaths(_ arguments: ArraySlice<Word>, of parsed: ParsedCommand, at location: SourceLocation)
        -> ArraySlice<Word>
    {
        guard !parsed.asksForHelp, case .builtIn = parsed.command.owner, arguments.count >= 1 else { return arguments }
        let path: String
        switch parsed.command.spec.name {
        case SourceCommand.spec.name:
            guard arguments.count == 1, let word = arguments.first else { return arguments }
            path = FileIO.join(location.origin.directory, word.text)
        case PluginCommand.spec.name where parsed.verb.name == PluginCommand.Verb.load.rawValue:
            guard let word = arguments.last, !word.text.hasPrefix("~") else { return arguments }
            path = word.text
        default:
            return arguments
        }
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), let cwd = FileIO.currentDirectory() else {
            return arguments.dropLast() + [Word(text: path, raw: Lexer.quote(path), quoted: true)]
        }
        let absolute = FileIO.join(cwd, path)
        return arguments.dropLast() + [Word(text: absolute, raw: Lexer.quote(absolute), quoted: true)]
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
                    advances: engine.instantsProcessed + (endingDone == true && !engine.instantDone ? 1 : 0))
                    + (note.map { "# debugsh stopped here: \(VisibleText.escaped($0))\n" } ?? ""),
                to: path)
            recorder.writtenAt = recording.body.count
            recorder.writes += 1
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
