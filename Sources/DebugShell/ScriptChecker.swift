import DebugShellCore
import DebugShellInterpreter

/// A problem `--check` found in a script, at its place.
public struct ScriptProblem: Sendable {
    public enum Severity: String, Sendable {
        /// The script would fail there.
        case error
        /// What the check could not look at (the commands of a plugin it did not load).
        case note
    }

    public var severity: Severity
    public var message: String
    let location: SourceLocation

    /// `file:line`.
    public var place: String { location.text ?? "" }
}

/// `debugsh --check`: reads scripts as running them would — the lexer, aliases, the parser and
/// its typed values, the conditions with their metrics' words, the blocks of `after`, `at` and
/// `every`, the scripts `source` names — and runs nothing: no time moves, no file is written, no
/// tool's or plugin's code runs (docs/Decisions.md, "Checking a script without running it").
///
/// It uses the session's own registry, alias table and parser, so check and run cannot disagree
/// on what a line means. `alias` and `unalias` lines change the session's alias table, as they
/// would when run, so that later lines expand; nothing else of the session changes.
public struct ScriptChecker {
    let session: Session
    /// The session's words: `alias` and `unalias` lines change its aliases, as running them would.
    var vocabulary: Vocabulary { session.vocabulary }
    /// Whether a plugin may declare commands and metrics the check does not know: the front end
    /// had plugins to load (`--plugin`, the plugins folder), or a script loads one. An unknown
    /// command or metric is then a note, once per script, not an error.
    var pluginsMayAdd: Bool
    /// Every problem found, in order.
    public private(set) var problems: [ScriptProblem] = []
    /// The files `source` named that were checked already (each once: a script that sources
    /// itself is checked once).
    private var checkedFiles = Set<String>()
    /// The scripts a note about a plugin's commands was given for.
    private var notedPluginScripts = Set<String>()
    /// The scheduled commands the command being checked found (``schedule(_:at:)``).
    private var scheduledFound: [(words: ArraySlice<Word>, location: SourceLocation)] = []

    /// Polled before each line: Ctrl-C (and a script's SIGTERM or SIGHUP) stops the check there.
    public var isInterrupted: () -> Bool = { false }
    /// Where an interrupt stopped the check, if one did: nothing after it was checked.
    private(set) var interruptedAt: SourceLocation?
    /// Whether an interrupt stopped the check.
    public var wasInterrupted: Bool { interruptedAt != nil }

    public init(session: Session, pluginsMayAdd: Bool = false) {
        self.session = session
        self.pluginsMayAdd = pluginsMayAdd
    }

    /// Whether any problem is an error.
    public var failed: Bool { problems.contains { $0.severity == .error } }

    /// Checks a script's text, read from `origin`.
    public mutating func check(_ text: String, origin: ScriptOrigin, firstLine: Int = 1) {
        guard interruptedAt == nil else { return }
        if let name = origin.name { checkedFiles.insert(name) }
        Lexer.forEachLogicalLine(text, firstLine: firstLine) { result in
            switch result {
            case .success(let commands):
                for command in commands {
                    guard !isInterrupted() else {
                        interruptedAt = SourceLocation(origin: origin, line: command.line)
                        return false
                    }
                    check(command.words[...], at: SourceLocation(origin: origin, line: command.line), scheduled: false)
                }
            case .failure(let error):
                problems.append(
                    ScriptProblem(
                        severity: .error, message: error.message,
                        location: SourceLocation(origin: origin, line: error.line)))
            }
            return true
        }
    }

    /// Checks a script file, as the front end reads it.
    public mutating func checkFile(_ path: String) {
        checkScript(at: path, origin: ScriptOrigin(name: path, directory: FileIO.directory(of: path)))
    }

    /// Checks standard input, read to its end, as the script `<stdin>`.
    public mutating func checkStandardInput() {
        checkScript(at: "/dev/stdin", origin: ScriptOrigin(name: "<stdin>"))
    }

    private mutating func checkScript(at path: String, origin: ScriptOrigin) {
        guard interruptedAt == nil else { return }
        do {
            let interrupted = isInterrupted
            check(try FileIO.readScript(path, interrupted: interrupted), origin: origin)
        } catch {
            if isInterrupted() {
                interruptedAt = SourceLocation(origin: origin, line: 1)
                return
            }
            problems.append(
                ScriptProblem(
                    severity: .error, message: error.message,
                    location: SourceLocation(origin: origin, line: error.line ?? 1)
                ))
        }
    }

    /// Prints every problem through the session's output: `file:line: error: message` (under
    /// `--json`, also a JSON line each and a summary).
    public func report() {
        for problem in problems {
            session.output.checked(problem.message, severity: problem.severity.rawValue, location: problem.location)
        }
        if let at = interruptedAt {
            session.output.checked(
                "interrupted: the check stopped here; nothing after it was checked", severity: "error", location: at)
        }
        session.output.checkSummary(
            errors: problems.count { $0.severity == .error }, notes: problems.count { $0.severity == .note })
    }

    // MARK: One command

    /// Checks a command, then the commands it schedules (an `after`'s command or block), and
    /// theirs, in the order a run would meet them: with a stack of its own, not by recursion, so
    /// that 100,000 nested levels check as they run (it crashed at about 5,000).
    mutating func check(_ words: ArraySlice<Word>, at location: SourceLocation, scheduled: Bool) {
        var stack = [(words: words, location: location, scheduled: scheduled)]
        while let next = stack.popLast() {
            scheduledFound = []
            do throws(CommandError) {
                try checkCommand(next.words, at: next.location, scheduled: next.scheduled)
            } catch {
                problems.append(ScriptProblem(severity: .error, message: error.message, location: next.location))
            }
            let found = scheduledFound
            scheduledFound = []
            for command in found.reversed() { stack.append((command.words, command.location, true)) }
        }
    }

    /// A scheduled command a command's check found (``BuiltInCommand/check(_:in:)`` of `after`,
    /// `at`, `every`): checked next, at the scheduling line.
    mutating func schedule(_ words: ArraySlice<Word>, at location: SourceLocation) {
        scheduledFound.append((words, location))
    }

    /// Checks one command as running it would read it: aliases, the parser and its typed values,
    /// then what the command itself checks (its condition, a scheduled block, an alias, a
    /// sourced file: ``BuiltInCommand/check(_:in:)``).
    mutating func checkCommand(_ words: ArraySlice<Word>, at location: SourceLocation, scheduled: Bool)
        throws(CommandError)
    {
        let registry = vocabulary.registry
        let expanded = try vocabulary.expand(words)
        guard let first = expanded.first else {
            if scheduled { throw CommandError("a scheduled block needs a command to run") }
            return
        }
        if !first.quoted, registry.command(exactly: first.text) == nil,
            !registry.allCommandNames.contains(where: { $0.hasPrefix(first.text) }), pluginsMayAdd
        {
            notePlugin(at: location)
            return
        }
        let parsed = try vocabulary.parser.parse(expanded, text: "")
        if scheduled, !parsed.command.traits.isSchedulable {
            throw CommandError(
                "'\(parsed.label)' cannot be scheduled: only commands that neither move time nor end the session can")
        }
        guard !parsed.asksForHelp, case .builtIn(let index) = parsed.command.owner else { return }
        let call = BuiltInCall(parsed, at: location)
        let command = BuiltInCommands.all[index]
        if let condition = command.condition(of: call) {
            try checkCondition(condition, at: location)
            return
        }
        try command.check(call, in: &self)
    }

    /// A condition, its metrics by their declarations: a family's member (`timer.t.state`) need
    /// not exist yet, as the script has not made it.
    private mutating func checkCondition(_ words: [Word], at location: SourceLocation) throws(CommandError) {
        var unknownNamespace = false
        let registry = vocabulary.registry
        let mayAdd = pluginsMayAdd
        do throws(CommandError) {
            _ = try Condition.parse(words, rate: vocabulary.rate) {
                name throws(CommandError) -> MetricKind in
                if let spec = registry.metricSpec(name) { return spec.kind }
                if mayAdd, registry.toolIndex(forNamespace: name) == nil {
                    unknownNamespace = true
                    return .anyWord
                }
                var message = "unknown metric '\(name)'"
                let declared = (registry.shellMetrics + registry.toolDescriptors.flatMap(\.metrics)).map(\.name)
                    .filter { !$0.contains("*") }
                if let guess = Suggest.closest(to: name, in: declared) {
                    message += "; did you mean '\(guess)'?"
                } else {
                    message += " (see 'metrics')"
                }
                throw CommandError(message)
            }
        } catch {
            if !unknownNamespace { throw error }
        }
        if unknownNamespace { notePlugin(at: location) }
    }

    /// `break on <event>`: declared by a tool, or (when a plugin may declare it) noted.
    mutating func checkEvent(_ name: String, at location: SourceLocation) throws(CommandError) {
        let registry = vocabulary.registry
        do throws(CommandError) {
            _ = try BreakCommand.event(name, in: registry)
        } catch {
            guard pluginsMayAdd, registry.toolIndex(forNamespace: name) == nil else { throw error }
            notePlugin(at: location)
        }
    }

    /// `source <file>`: the file is checked in its place, once.
    mutating func checkSource(_ path: String, at location: SourceLocation) throws(CommandError) {
        let resolved = FileIO.join(location.origin.directory, path)
        guard !checkedFiles.contains(resolved) else { return }
        checkedFiles.insert(resolved)
        var includedFrom = location.origin.includedFrom
        if let here = location.text { includedFrom.insert(here, at: 0) }
        let origin = ScriptOrigin(name: resolved, directory: FileIO.directory(of: resolved), includedFrom: includedFrom)
        let text: String
        do {
            text = try FileIO.readScript(resolved)
        } catch {
            guard let line = error.line else { throw CommandError(error.message) }
            problems.append(
                ScriptProblem(
                    severity: .error, message: error.message, location: SourceLocation(origin: origin, line: line)))
            return
        }
        check(text, origin: origin)
    }

    private mutating func notePlugin(at location: SourceLocation) {
        let script = location.origin.name ?? ""
        guard notedPluginScripts.insert(script).inserted else { return }
        problems.append(
            ScriptProblem(
                severity: .note,
                message:
                    "a command or metric no built-in tool declares is not checked here or after in this script: "
                    + "a plugin may declare it, and --check loads none",
                location: location))
    }
}

extension ScriptChecker {
    /// A scheduled command's condition (`after 1s expect layout.state == settled`), checked
    /// when it is scheduled by the metrics' declarations, so that a misspelt word fails at the
    /// `after` line rather than when the command runs. A metric the session does not know yet is
    /// left for the run (a plugin loaded meanwhile may declare it).
    static func checkScheduledCondition(_ parsed: ParsedCommand, vocabulary: Vocabulary) throws(CommandError) {
        guard !parsed.asksForHelp, case .builtIn(let index) = parsed.command.owner,
            let words = BuiltInCommands.all[index].condition(
                of: BuiltInCall(parsed, at: SourceLocation(origin: .typed, line: 0)))
        else { return }
        let registry = vocabulary.registry
        var unknown = false
        do throws(CommandError) {
            _ = try Condition.parse(words, rate: vocabulary.rate) { name throws(CommandError) -> MetricKind in
                if let spec = registry.metricSpec(name) { return spec.kind }
                unknown = true
                return .anyWord
            }
        } catch {
            if !unknown { throw error }
        }
    }
}
