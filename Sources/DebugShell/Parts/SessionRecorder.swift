import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// `record`: the log of the session's commands since the start or the last `reset`
/// (``Recording``), the file it is written to while recording, and how a command is written so
/// that the replay reads it as the session did.
public final class SessionRecorder {
    /// Where a command was issued, as the log places it: the time, whether that instant's events
    /// were done, and how many instants the device had processed.
    typealias Position = (time: SimTime, done: Bool, advances: Int)

    /// The commands since the start or the last `reset`, each at the instant it was issued.
    private(set) var recording = Recording()
    /// The file written, while recording.
    public private(set) var path: String?
    /// The size of the log when the file was last written.
    private var writtenAt = 0
    /// How many times the file was written since the start (for the tests: recording a script
    /// of n commands writes it O(log n) times).
    private(set) var writes = 0

    private let simulation: Simulation
    private let vocabulary: Vocabulary
    private let tools: ToolSet
    private let nesting: ScriptNesting
    private let output: OutputRouter

    init(simulation: Simulation, vocabulary: Vocabulary, tools: ToolSet, nesting: ScriptNesting, output: OutputRouter) {
        self.simulation = simulation
        self.vocabulary = vocabulary
        self.tools = tools
        self.nesting = nesting
        self.output = output
    }

    var isWriting: Bool { path != nil }

    /// The commands that define the session's breakpoints again (they survive `reset`): set by
    /// the session once its time driver, which keeps them, is made.
    var breakpointDefinitions: () -> [String] = { [] }
    /// The `import` that read the recording open now (paths absolute), if any: a `reset` keeps the
    /// recording, so the log that starts after it reads it again.
    var openRecording: () -> [String] = { [] }

    /// A new log, after `reset`, that starts from the state a fresh session is put in by its
    /// preamble.
    func restart() {
        recording = Recording(preamble: preamble())
    }

    /// While `reset` runs: the log from before it and where the `reset` was issued. The reset
    /// runs tools' code — the old tools' `deinit`, the new ones' `init(host:)` — so a trap there
    /// is rescued into that log with the `reset` at its end, which replays into the same trap
    /// (the new log, a preamble alone, would not).
    private var resetting: (recording: Recording, at: Position)?

    /// `reset` starts: the log so far is kept until ``endReset()``.
    func beginReset() { resetting = (recording, position) }

    /// `reset` is done: the log starts anew from it, as ``restart()`` made it.
    func endReset() { resetting = nil }

    /// Where a command issued now would stand in the log.
    var position: Position {
        let engine = simulation.engine
        return (engine.now, engine.instantDone, engine.instantsProcessed)
    }

    /// Logs a command (aliases expanded: a recording replays without them), issued at `position`.
    func log(_ words: ArraySlice<Word>, at position: Position) {
        recording.append(
            words: words.lazy.map(\.raw), at: position.time, done: position.done, advances: position.advances)
    }

    /// A breakpoint stopped time here: the log moves to the stop (``Recording/mark(at:done:advances:)``).
    func markStop() {
        let at = position
        recording.mark(at: at.time, done: at.done, advances: at.advances)
    }

    /// A scheduled command failed during the session, which went on: so must a replay.
    func replayMustKeepGoing() { recording.keepGoing = true }

    /// What puts a fresh session in the state a log starts from: the display rate and the
    /// settings that differ from their defaults, which `reset` keeps. The shell's own (`shell.*`)
    /// shape the output, not the simulation, and are left to the replay's command line.
    public func preamble() -> [String] {
        // The plugins loaded before the log starts (those loaded later are required where they
        // were loaded): their settings may follow.
        var lines = tools.plugins.map(\.requirement)
        let engine = simulation.engine
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        // V12: the device comes first, before its display.
        if engine.deviceKind != .iphone { lines.append("device \(engine.deviceKind.rawValue)") }
        if let adaptive = engine.adaptiveRange {
            // V1: an adaptive display is its range; its rate now follows from the requests.
            lines.append("display adaptive --min \(adaptive.minimum.hertz)Hz --max \(adaptive.maximum.hertz)Hz")
        } else if rate != .sixty {
            lines.append("display rate \(rate.hertz)")
        }
        let hertz = rate.hertz
        let settings = vocabulary.settings
        for spec in settings.specs where !spec.name.hasPrefix("shell.") {
            guard let value = settings.value(spec.name, rate: hertz),
                value != settings.defaultValue(spec.name, rate: hertz)
            else { continue }
            lines.append("set \(spec.name) \(value)")
        }
        let importWords = openRecording()
        if !importWords.isEmpty { lines.append(importWords.map { Lexer.quote($0) }.joined(separator: " ")) }
        // Last: a breakpoint may name a plugin's event or metric.
        return lines + breakpointDefinitions()
    }

    // MARK: The file

    /// `record <file>`: writes the log so far to `path` and keeps it current from then on.
    func start(_ path: String) throws(CommandError) {
        if let current = self.path { throw CommandError("already recording to \(current) ('record stop' first)") }
        if let at = recording.overflowedAt {
            throw CommandError(
                "cannot record: the session's commands passed the log's \(Recording.limit >> 20) MiB at \(at); 'reset' starts a new log"
            )
        }
        self.path = path
        if let failure = write() {
            self.path = nil
            throw CommandError(failure.message)
        }
    }

    /// `record stop`: writes the file a last time and stops; returns its path.
    func stop() throws(CommandError) -> String {
        guard let path else { throw CommandError("not recording") }
        let written = write()
        self.path = nil
        if let failure = written { throw CommandError(failure.message) }
        return path
    }

    /// Writes the recording after a command: always after a typed one, so that the file is
    /// current while someone works at the prompt; for scripts, once the log has grown by half
    /// since the last write, so that recording n commands costs O(n) in all.
    func writeIfDue(typed: Bool) {
        let size = recording.body.count
        if typed || size >= writtenAt + writtenAt / 2 + 4096 {
            if let failure = write() {
                // Said once: the recording stops rather than rewrite the whole log, and warn, after
                // every later command (a full disk, a file-size limit).
                let path = self.path ?? ""
                self.path = nil
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
        log(plugin.requirementWords[...], at: position)
        if isWriting { writeIfDue(typed: true) }
    }

    /// Where a `plugin load` issued now stands in the log, should the load trap; nil inside a
    /// scheduled command, which the log has as it was scheduled (as ``logPluginLoaded(_:)``).
    var loadPosition: Position? { nesting.inScheduledCommand ? nil : position }

    /// Logs a command that writes itself into the log (`import`, whose paths must be absolute for
    /// a replay from any folder), as `plugin load` is logged: at top level only.
    func logCommand(_ words: [String]) {
        guard !nesting.inScheduledCommand else { return }
        let quoted = words.map { Word(text: $0, raw: Lexer.quote($0), quoted: Lexer.quote($0) != $0) }
        log(quoted[...], at: position)
        if isWriting { writeIfDue(typed: true) }
    }

    /// Writes the recording: the log as a script that ends at now (atomically: a file written
    /// beside it, then renamed over it). Returns the failure, if any.
    ///
    /// - Parameters:
    ///   - endingDone: Whether the last time line ends with now's instant processed (by default
    ///     as the device stands); `note` a last comment line.
    ///   - end: Where the last time line ends instead of now (a `reset` that trapped: the device
    ///     is the new one).
    @discardableResult
    func write(endingDone: Bool? = nil, note: String? = nil, end: Position? = nil) -> FileIO.Failure? {
        guard let path else { return nil }
        if recording.overflowedAt != nil {
            return FileIO.Failure(
                "the session's commands passed the log's \(Recording.limit >> 20) MiB: the recording ends at \(recording.position.time)"
            )
        }
        let engine = simulation.engine
        do {
            try FileIO.writeAtomically(
                recording.script(
                    path: path, now: end?.time ?? engine.now, done: end?.done ?? endingDone ?? engine.instantDone,
                    advances: end?.advances ?? engine.instantsProcessed
                        + (endingDone == true && !engine.instantDone ? 1 : 0))
                    + (note.map { "# debugsh stopped here: \(VisibleText.escaped($0))\n" } ?? ""),
                to: path)
            writtenAt = recording.body.count
            writes += 1
            return nil
        } catch {
            return error
        }
    }

    /// Finishes a recording when the session ends.
    public func finish() {
        if path != nil {
            if let failure = write() { output.notice("error: record: \(failure.message)") }
            path = nil
        }
    }

    /// Writes the recording as it stands, for a trap's rescue: the command that was running is in
    /// it, with the time line that reaches the instant of the trap, so that its replay runs into
    /// the same trap; a last comment gives the last words.
    ///
    /// - Returns: the file and the commands it keeps, or the failure; nil when not recording.
    public func rescue(note: String) -> (path: String, result: Result<Int, FileIO.Failure>)? {
        guard let path else { return nil }
        // A `reset` trapped: the log from before it, and the `reset`, ending where it was issued.
        var end: Position?
        if let resetting {
            recording = resetting.recording
            log([Word("reset")][...], at: resetting.at)
            end = resetting.at
        }
        // The command that was running, which the log keeps once it returns.
        if let recorded = nesting.running.last(where: { $0.recorded != nil })?.recorded {
            log(recorded.words, at: recorded.at)
        }
        // A plugin's load trapped (its entry points, a descriptor, an init): the load, as the
        // replay must run it to trap the same way.
        if let load = tools.loading, let at = load.issuedAt {
            log(load.recordedWords[...], at: at)
        }
        // A callback trapped while time ran: the replay processes that instant, and so traps.
        let duringTime = simulation.engine.running.kind.isCallback
        if let failure = write(endingDone: duringTime ? true : nil, note: note, end: end) {
            return (path, .failure(failure))
        }
        return (path, .success(recording.commands))
    }

    // MARK: Words as the replay reads them

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
        // `break command add`: its commands as kept, aliases expanded.
        if name == BreakCommand.spec.name, let kept = BreakCommand.recorded(parsed, vocabulary: vocabulary) {
            return kept
        }
        guard parsed.command.traits.contains(.takesCommand) else {
            // The common case: at most the name changes.
            guard let first = words.first, first.raw != name else { return words }
            var resolved = Array(words)
            resolved[0] = Word(name)
            return resolved[...]
        }
        let registry = vocabulary.registry
        var out: [Word] = []
        var words = words
        var parsed = parsed
        // The aliases expanded so far: one that comes back (`alias z = after 0s z`) schedules
        // itself, and its expansion never ends; it is written as typed from there on (the
        // session fails that chain at the limit of commands per instant). Only aliases: an
        // abbreviation met twice (`at 1s ev 1s ev 2s …`) is no loop.
        var expanded: Set<String> = []
        // A loop, not recursion: `after 1ns after 1ns …` may nest 100,000 deep.
        while true {
            out.append(Word(parsed.command.spec.name))
            if !parsed.asksForHelp, parsed.command.traits.contains(.takesCommand), let rest = parsed.rest,
                rest.startIndex > words.startIndex, rest.startIndex <= words.endIndex
            {
                out += words[(words.startIndex + 1)..<rest.startIndex]
                if let first = rest.first, !first.quoted, registry.command(exactly: first.text) == nil,
                    vocabulary.aliases[first.text] != nil
                {
                    guard expanded.insert(first.text).inserted else {
                        out += rest
                        break
                    }
                }
                guard let next = try? vocabulary.expand(rest), !next.isEmpty,
                    let inner = try? vocabulary.parser.parse(next, text: "")
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
        guard !parsed.asksForHelp, case .builtIn(let index) = parsed.command.owner, arguments.count >= 1 else {
            return arguments
        }
        let path: String
        switch BuiltInCommands.all[index].recordedPath(of: arguments, verb: parsed.verb.name, issuedAt: location) {
        case .none: return arguments
        case .some(let resolved): path = resolved
        }
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), let cwd = FileIO.currentDirectory() else {
            return arguments.dropLast() + [Word(text: path, raw: Lexer.quote(path), quoted: true)]
        }
        let absolute = FileIO.join(cwd, path)
        return arguments.dropLast() + [Word(text: absolute, raw: Lexer.quote(absolute), quoted: true)]
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
