import DebugShellCore
import DebugShellInterpreter

/// Where commands come from: a file, `<command-line>`, `<stdin>`, or typed (no name).
public struct ScriptOrigin: Sendable {
    /// The name errors use; nil for typed commands (`error: message`).
    public var name: String?
    /// Where relative `source` paths resolve.
    public var directory: String
    /// The `file:line` of each `source` that led here, innermost first.
    public var includedFrom: [String] = []

    public init(name: String?, directory: String = ".", includedFrom: [String] = []) {
        self.name = name
        self.directory = directory
        self.includedFrom = includedFrom
    }

    public static let typed = ScriptOrigin(name: nil)
}

/// A place in a script, for messages.
struct SourceLocation: Sendable {
    public var origin: ScriptOrigin
    public var line: Int

    public init(origin: ScriptOrigin, line: Int) {
        self.origin = origin
        self.line = line
    }

    /// `file:line`, or nil for a typed command.
    var text: String? { origin.name.map { "\($0):\(line)" } }

    /// `file:line: error: ` (or `error: ` for typed commands); the suffix names the sources.
    func prefix(_ severity: String) -> String {
        if let text { return "\(text): \(severity): " }
        return "\(severity): "
    }

    /// ` (sourced from b.dsh:2, a.dsh:7)`; a place repeated in a row is named once with a count
    /// (`loop.dsh:1 ×64`), so a script that sources itself reads as what it is.
    var suffix: String {
        guard !origin.includedFrom.isEmpty else { return "" }
        var places: [String] = []
        var previous: String?
        var repeats = 0
        func flush() {
            if let previous { places.append(repeats > 1 ? "\(previous) ×\(repeats)" : previous) }
        }
        for place in origin.includedFrom {
            if place == previous {
                repeats += 1
                continue
            }
            flush()
            previous = place
            repeats = 1
        }
        flush()
        return " (sourced from \(places.joined(separator: ", ")))"
    }
}

/// How a command came to run, which fixes how its echo and errors read and whether `history`
/// and `record` keep it.
enum CommandIssue {
    /// Typed, or read from a script or a sourced file at this place.
    case issued(at: SourceLocation)
    /// Run by the scheduler (`after`, `at`, `every`); scheduled at this place.
    case scheduled(from: SourceLocation)

    var location: SourceLocation {
        switch self {
        case .issued(let location), .scheduled(let location): return location
        }
    }

    var isScheduled: Bool {
        if case .scheduled = self { return true }
        return false
    }
}

/// Leaving or stopping: thrown out of commands and through nested sources.
enum SessionControl: Error {
    /// `exit` or `quit`.
    case exit(Int32)
    /// Ctrl-C; `reported` once a message named where it stopped (an inner `source`).
    case interrupted(reported: Bool)
    /// The command failed and its error has been printed already (a `source` whose script
    /// failed reports at the script's own line).
    case failedAndReported
}

extension Session {
    /// Runs one command — typed, from a script, or scheduled — through the one path: echo,
    /// history, aliases, parsing, help, the command itself, its files, the recording, its output,
    /// and its error if it fails.
    ///
    /// - Parameters:
    ///   - words: The command's words as typed.
    ///   - text: The command's text, made only when something shows or keeps it.
    ///   - issue: Who issued it.
    /// - Returns: `.failed` when it failed (reported already).
    func execute(_ words: ArraySlice<Word>, text: @autoclosure () -> String, as issue: CommandIssue) -> ScriptOutcome {
        let location = issue.location
        if settings.value(ShellSettings.echo, rate: engine.refreshRate.hertz) {
            if issue.isScheduled {
                output.echo("> [\(engine.now.eventStamp)] \(text())")
            } else if !nesting.inScheduledCommand {
                output.echo("> \(text())")
            }
        }
        if !issue.isScheduled && nesting.isTopLevel { commandHistory.remember(text()) }
        // A scheduled command's JSON lines say when it ran and where it was scheduled (docs/JSON.md).
        let stamp: [(String, JSONValue)] =
            issue.isScheduled
            ? [("t_ns", .int(engine.now.nanoseconds)), ("scheduled_at", JSONValue(location.text))] : []
        runningCommands.append(RunningCommand(words: words, location: location, scheduled: issue.isScheduled))
        defer { runningCommands.removeLast() }
        do {
            let expanded = try aliases.expand(words, registry: registry)
            if expanded.isEmpty { return .finished }
            // A scheduled command's text is made for tools only: a nested `after` would otherwise
            // copy the whole rest of its line once per level.
            var parsed = try parser.parse(expanded, text: issue.isScheduled ? "" : text())
            if issue.isScheduled, !parsed.command.owner.isBuiltIn { parsed.invocation.text = text() }
            let issuedAt = recorder.position(of: engine)
            let recorded = !issue.isScheduled && !nesting.inScheduledCommand && parsed.command.traits.isRecorded
            // As the replay must read it: names resolved, aliases expanded inside scheduled
            // commands too, paths made absolute (``recordedWords(_:parsed:at:)``).
            let recordedWords = recorded ? recordedWords(expanded, parsed: parsed, at: location) : expanded
            if recorded && recorder.isWriting {
                runningCommands[runningCommands.count - 1].recorded = (recordedWords, issuedAt)
            }
            let result = try run(parsed, at: location)
            try writeFiles(result.files)
            if recorded {
                recorder.log(recordedWords, at: issuedAt)
                if recorder.isWriting { writeRecordingIfDue(typed: location.origin.name == nil) }
            }
            output.result(
                result, command: text(), location: location, extra: stamp, fromTool: !parsed.command.owner.isBuiltIn)
            if !issue.isScheduled && isInterrupted() {
                // Ctrl-C while the command ran or wrote: what it wrote stays, the rest stops.
                output.interrupted(at: engine.now, command: text(), location: location)
                return .interrupted
            }
            return .finished
        } catch SessionControl.exit(let status) {
            return .exited(status)
        } catch SessionControl.interrupted(let reported) {
            // A scheduled `source` stopped by Ctrl-C: the `run` around it reports where time stopped.
            if !reported && !issue.isScheduled {
                output.interrupted(at: engine.now, command: text(), location: location)
            }
            return .interrupted
        } catch SessionControl.failedAndReported {
            failures += 1
            if issue.isScheduled { scheduler.failuresDuringAdvance += 1 }
            return .failed
        } catch {
            let message = (error as? CommandError)?.message ?? "\(error)"
            failures += 1
            // `debugsh test`'s child goes on after a failed `expect` (docs/Testing.md).
            let goesOn = continuesAfterFailedExpectations && failedExpectation != nil
            defer { failedExpectation = nil }
            if issue.isScheduled && !goesOn { scheduler.failuresDuringAdvance += 1 }
            // Inside a scheduled command (or a file it sources), say when (SPEC §8).
            output.error(
                nesting.inScheduledCommand ? "at \(engine.now): \(message)" : message, command: text(),
                location: location, extra: stamp)
            return goesOn ? .finished : .failed
        }
    }

    /// Runs a parsed command: its help, a built-in, or a tool's.
    private func run(_ parsed: ParsedCommand, at location: SourceLocation) throws -> CommandOutput {
        if parsed.asksForHelp {
            output.pagesNextResult = true
            return helpTopics.asked(by: parsed)
        }
        switch parsed.command.owner {
        case .builtIn(let index):
            return try BuiltInCommands.all[index].run(BuiltInCall(parsed, at: location), in: self)
        case .tool(let index):
            let before = engine.now
            let tool = toolSet.instances[index]
            let output = try calling(.command, tool: index) { () throws(CommandError) in try tool.run(parsed.invocation)
            }
            if engine.now != before { timeDidMove() }
            return output
        }
    }

    /// Writes the files a command returned, atomically and in order (``OutputFile``).
    ///
    /// - Throws: ``CommandError`` `cannot write '<path>': <reason>` for the first that fails.
    private func writeFiles(_ files: [OutputFile]) throws(CommandError) {
        for file in files {
            do {
                try FileIO.writeAtomically(file.contents, to: file.path)
            } catch {
                throw CommandError(error.message)
            }
        }
    }

    /// A scheduled command's text, as written.
    static func text(of words: ArraySlice<Word>) -> String { words.map(\.raw).joined(separator: " ") }
}
