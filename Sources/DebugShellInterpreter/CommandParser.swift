import DebugShellCore

/// A command line resolved against the registry: which command, which verb, what values.
public struct ParsedCommand: Sendable {
    public var command: RegisteredCommand
    public var verb: VerbSpec
    public var invocation: Invocation
    /// The rest argument's words, left unparsed as a slice of the words parsed, for a command that
    /// takes a command (``CommandTraits/takesCommand``: `after`, `at`, `every`).
    public var rest: ArraySlice<Word>?
    /// `--help` stood where the verb's options do: the command prints its help instead of
    /// running (``CommandParser/asksForHelp(_:verb:)``).
    public var asksForHelp = false
    /// The verb was named (`fps start --help`), not the command's default (`fps --help`).
    public var verbNamed = false

    /// How the command is named in messages: `fps start`, `run`.
    public var label: String {
        verb.name.isEmpty ? command.spec.name : "\(command.spec.name) \(verb.name)"
    }
}

/// Parses words into a ``ParsedCommand``: exact names and declared aliases win, then
/// unique prefixes; options anywhere after the verb, `--opt=value`, `--` ends options.
public struct CommandParser {
    var registry: ToolRegistry
    /// The refresh rate for `<n>f` durations.
    var rate: Int

    public init(registry: ToolRegistry, rate: Int) {
        self.registry = registry
        self.rate = rate
    }

    public func parse(_ words: [Word], text: String) throws(CommandError) -> ParsedCommand {
        try parse(words[...], text: text)
    }

    /// Parses a command.
    ///
    /// The rest argument of a command that takes a command (``CommandTraits/takesCommand``) is
    /// not copied into the invocation but left in ``ParsedCommand/rest`` as a slice of `words`:
    /// parsing then costs time in proportion to the words before it, however long the rest is.
    public func parse(_ words: ArraySlice<Word>, text: String) throws(CommandError) -> ParsedCommand {
        guard let first = words.first else { throw CommandError("empty command") }
        let command = try resolveCommand(first)
        var rest = words.dropFirst()
        // `view --help`: the command's help, even where a verb is needed.
        let helpFirst = rest.first.map { !$0.quoted && $0.text == "--help" } ?? false
        let verb: VerbSpec
        if helpFirst, let first = command.spec.verbs.first {
            verb = first
        } else {
            verb = try resolveVerb(of: command.spec, words: &rest)
        }
        if helpFirst || CommandParser.asksForHelp(rest, verb: verb) {
            var parsed = ParsedCommand(
                command: command, verb: verb,
                invocation: Invocation(command: command.spec.name, verb: verb.name, text: text, values: [:], flags: []))
            parsed.asksForHelp = true
            parsed.verbNamed = rest.count < words.count - 1
            return parsed
        }
        let label = verb.name.isEmpty ? command.spec.name : "\(command.spec.name) \(verb.name)"
        let keepsRest = command.traits.contains(.takesCommand)
        let (values, flags, restSlice) = try parseArguments(rest, verb: verb, label: label, keepingRest: keepsRest)
        return ParsedCommand(
            command: command, verb: verb,
            invocation: Invocation(
                command: command.spec.name, verb: verb.name, text: text, values: values, flags: flags),
            rest: restSlice)
    }

    public func resolveCommand(_ word: Word) throws(CommandError) -> RegisteredCommand {
        if let exact = registry.command(exactly: word.text) { return exact }
        let matches = registry.commands.filter {
            ([$0.spec.name] + $0.spec.aliases).contains { $0.hasPrefix(word.text) }
        }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw CommandError(
                "ambiguous command '\(word.text)': \(matches.map(\.spec.name).joined(separator: ", "))")
        }
        var message = "unknown command '\(word.text)'"
        if let lldb = LLDBWords.pointer(for: word.text) {
            message += ": " + lldb
        } else if let guess = Suggest.closest(to: word.text, in: registry.allCommandNames) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (try 'help')"
        }
        throw CommandError(message)
    }

    /// Picks the verb from the next word, or the default verb when the word is not a verb.
    public func resolveVerb(of spec: CommandSpec, words: inout ArraySlice<Word>) throws(CommandError) -> VerbSpec {
        // The common case first, without building lists: the next word names a verb exactly.
        if let word = words.first, !word.quoted, !word.text.utf8.starts(with: "--".utf8) {
            for verb in spec.verbs
            where !verb.name.isEmpty && (verb.name == word.text || verb.aliases.contains(word.text)) {
                words.removeFirst()
                return verb
            }
        }
        let named = spec.namedVerbs
        let defaultVerb = spec.defaultVerb.flatMap { spec.verb(named: $0) }
        guard !named.isEmpty else {
            if let defaultVerb { return defaultVerb }
            throw CommandError("'\(spec.name)' has no verbs")
        }
        guard let word = words.first, !word.quoted, !word.text.hasPrefix("--") else {
            if let defaultVerb { return defaultVerb }
            throw CommandError("'\(spec.name)' needs a verb: \(named.map(\.name).joined(separator: ", "))")
        }
        if let exact = named.first(where: { $0.name == word.text || $0.aliases.contains(word.text) }) {
            words.removeFirst()
            return exact
        }
        let matches = named.filter { ([$0.name] + $0.aliases).contains { $0.hasPrefix(word.text) } }
        if matches.count == 1 {
            words.removeFirst()
            return matches[0]
        }
        if matches.count > 1 {
            throw CommandError(
                "ambiguous verb '\(word.text)' for '\(spec.name)': \(matches.map(\.name).joined(separator: ", "))")
        }
        // A word that is no verb is an argument of a default verb that takes arguments.
        if let defaultVerb, !defaultVerb.arguments.isEmpty { return defaultVerb }
        var message = "unknown verb '\(word.text)' for '\(spec.name)'"
        if let guess = Suggest.closest(to: word.text, in: named.flatMap { [$0.name] + $0.aliases }) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (verbs: \(named.map(\.name).joined(separator: ", ")))"
        }
        throw CommandError(message)
    }

    func parseArguments(_ words: ArraySlice<Word>, verb: VerbSpec, label: String, keepingRest: Bool = false)
        throws(CommandError) -> ([String: ArgumentValue], Set<String>, ArraySlice<Word>?)
    {
        var values: [String: ArgumentValue] = [:]
        var flags = Set<String>()
        var kept: ArraySlice<Word>?
        var positional = 0
        var optionsEnded = false
        var i = words.startIndex
        while i < words.endIndex {
            let word = words[i]
            i += 1
            if !word.quoted && !optionsEnded && word.text == "--" {
                optionsEnded = true
                continue
            }
            if !word.quoted && !optionsEnded && word.text.utf8.starts(with: "--".utf8) && word.text.utf8.count > 2 {
                var name = String(word.text.dropFirst(2))
                var inline: String?
                // Searched as bytes: `=` is ASCII, and a search by Character would break graphemes.
                if let eq = name.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
                let option = try resolveOption(name, verb: verb, label: label)
                if flags.contains(option.name) || values[option.name] != nil {
                    throw CommandError("option '--\(option.name)' is given twice for '\(label)'")
                }
                guard let kind = option.kind else {
                    if inline != nil { throw CommandError("option '--\(option.name)' of '\(label)' takes no value") }
                    flags.insert(option.name)
                    continue
                }
                let text: String
                if let inline {
                    text = inline
                } else {
                    guard i < words.endIndex else {
                        throw CommandError(
                            "option '--\(option.name)' of '\(label)' needs a value (\(kind.placeholder))")
                    }
                    text = words[i].text
                    i += 1
                }
                do {
                    values[option.name] = try ValueParser.parse(text, as: kind, rate: rate)
                } catch {
                    throw CommandError(
                        ValueParser.namesItself(kind) ? error.message : "--\(option.name): \(error.message)")
                }
                if option.positive, case .duration(let d)? = values[option.name], d <= .zero {
                    throw CommandError("--\(option.name) must be positive (got \(d))")
                }
                continue
            }
            guard positional < verb.arguments.count else {
                throw CommandError(
                    "unexpected argument '\(word.text)' for '\(label)'"
                        + CommandParser.hint(unexpected: word, verb: verb, label: label))
            }
            let argument = verb.arguments[positional]
            if argument.isRest && argument.restAllowsOptions {
                // The words gather, but the verb's options still count wherever they stand.
                if case .words(let gathered)? = values[argument.name] {
                    values[argument.name] = .words(gathered + [word])
                } else {
                    values[argument.name] = .words([word])
                }
                continue
            }
            positional += 1
            if argument.isRest {
                if keepingRest {
                    kept = words[(i - 1)...]
                } else {
                    values[argument.name] = .words(Array(words[(i - 1)...]))
                }
                i = words.endIndex
                break
            }
            do {
                values[argument.name] = try ValueParser.parse(word.text, as: argument.kind, rate: rate)
            } catch {
                throw CommandError(error.message)
            }
        }
        if positional < verb.arguments.count {
            let missing = verb.arguments[positional...].filter { !$0.isOptional && values[$0.name] == nil }
            if let first = missing.first {
                throw CommandError(
                    "missing \(first.usage) for '\(label)' (usage: \(CommandParser.usage(verb, label: label)))")
            }
        }
        return (values, flags, kept)
    }

    /// Whether `--help` stands among the verb's options — before `--`, and not inside a rest
    /// argument that takes its words as they are (`echo --help` asks, `echo a --help` prints,
    /// `after 1s fps --help` schedules the question) — when the verb has no option of that name.
    /// Words before it are not checked, so `run 2x --help` still shows the help. The walk stops
    /// at such a rest argument, so `after 1ns after 1ns … echo` stays linear.
    public static func asksForHelp(_ words: ArraySlice<Word>, verb: VerbSpec) -> Bool {
        var positional = 0
        for word in words {
            if !word.quoted, word.text.utf8.first == UInt8(ascii: "-"), word.text.hasPrefix("--") {
                if word.text == "--help" { return verb.option(named: "help") == nil }
                if word.text == "--" { return false }
                continue
            }
            guard positional < verb.arguments.count else { continue }
            let argument = verb.arguments[positional]
            if argument.isRest {
                if !argument.restAllowsOptions { return false }
                continue
            }
            positional += 1
        }
        return false
    }

    func resolveOption(_ name: String, verb: VerbSpec, label: String) throws(CommandError) -> OptionSpec {
        for option in verb.options where option.name == name { return option }
        let names = verb.options.map(\.name)
        switch NameResolution.resolve(name, names: names) {
        case .found(let found):
            if let option = verb.option(named: found) { return option }
        case .ambiguous(let candidates):
            throw CommandError(
                "ambiguous option '--\(name)' for '\(label)': \(candidates.map { "--\($0)" }.joined(separator: ", "))")
        case .unknown(let suggestion):
            var message = "unknown option '--\(name)' for '\(label)'"
            if let suggestion { message += "; did you mean '--\(suggestion)'?" }
            throw CommandError(message)
        }
        throw CommandError("unknown option '--\(name)' for '\(label)'")
    }

    /// What an unexpected argument likely meant, as the end of its error; empty for nothing.
    ///
    /// - A word of one dash that names an option (`-a`, `-all`): options take two dashes, as
    ///   `--all`; a one-letter word names the option it starts, when one alone does.
    /// - `quit 3`: the status is `exit`'s (LLDB's `quit` takes one; here `quit` takes none).
    static func hint(unexpected word: Word, verb: VerbSpec, label: String) -> String {
        let text = word.text
        if !word.quoted, text.hasPrefix("-"), !text.hasPrefix("--"), text.count > 1 {
            let name = String(text.dropFirst())
            let matches =
                name.count == 1
                ? verb.options.filter { $0.name.hasPrefix(name) }
                : verb.options.filter { $0.name == name }
            if matches.count == 1 {
                return "; options take two dashes: did you mean '--\(matches[0].name)'?"
            }
        }
        if label == "quit", Int(text) != nil {
            return "; 'quit' takes no status: 'exit \(text)' leaves with status \(text)"
        }
        return ""
    }

    /// `fps start [--mode common|default|tracking] …`
    static func usage(_ verb: VerbSpec, label: String) -> String {
        var parts = [label]
        parts += verb.arguments.map(\.usage)
        parts += verb.options.map { "[\($0.usage)]" }
        return parts.joined(separator: " ")
    }
}
