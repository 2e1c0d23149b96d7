import DebugShellCore

/// What to complete at the cursor.
public struct Completion: Equatable, Sendable {
    /// Candidates for the word being typed (already filtered by its prefix).
    public var candidates: [String]
    /// The word is a file path: the front end completes it from the file system.
    public var filePaths: Bool
    /// With ``filePaths``, the endings a file may have to be offered (`svg` for a chart);
    /// folders are always offered. Empty for any file.
    public var fileExtensions: [String]

    public init(candidates: [String], filePaths: Bool = false, fileExtensions: [String] = []) {
        self.candidates = candidates
        self.filePaths = filePaths
        self.fileExtensions = fileExtensions
    }

    /// Whether the front end offers a file or folder of this name (``fileExtensions``).
    public func offers(file name: String, isDirectory: Bool) -> Bool {
        guard !isDirectory, !fileExtensions.isEmpty else { return true }
        let lower = name.lowercased()
        return fileExtensions.contains { lower.hasSuffix("." + $0) && lower.count > $0.count + 1 }
    }
}

/// Completes a command line from the declarations: commands, verbs, options and their values,
/// and the names the shell and its tools know. What follows a command's rest argument (the
/// command of `after`, the condition of `expect`) the command itself says, through
/// ``restCompletion``.
public struct Completer {
    var registry: ToolRegistry
    var aliases: AliasTable
    var settings: SettingsStore
    /// Every metric name now, the tools' dynamic ones included.
    var metricNames: () -> [String]
    /// The names the tools know in a domain (views, timers).
    var toolCandidates: (NameDomain) -> [String]
    /// Completes the words after a rest argument, given the command's label (`run until`), the
    /// words so far, the word being typed and this completer; nil for nothing.
    var restCompletion: (String, [String], String, Completer) -> Completion?

    public init(
        registry: ToolRegistry, aliases: AliasTable, settings: SettingsStore, metricNames: @escaping () -> [String],
        toolCandidates: @escaping (NameDomain) -> [String],
        restCompletion: @escaping (String, [String], String, Completer) -> Completion?
    ) {
        self.registry = registry
        self.aliases = aliases
        self.settings = settings
        self.metricNames = metricNames
        self.toolCandidates = toolCandidates
        self.restCompletion = restCompletion
    }

    /// Resolves command and verb names; the rate is for values, which it never parses here.
    private var parser: CommandParser { CommandParser(registry: registry, rate: 60) }

    /// Every command name and declared alias.
    public var commandNames: [String] { registry.allCommandNames }
    /// The registered tools' names.
    public var toolNames: [String] { registry.toolDescriptors.map(\.name) }
    /// Every event the tools declare (`break on <Tab>`).
    public var eventNames: [String] { registry.toolDescriptors.flatMap(\.events).map(\.name) }
    /// The aliases' names, in the order first defined.
    public var aliasNames: [String] { aliases.names }

    /// The command named exactly `name` or by a declared alias.
    public func command(exactly name: String) -> RegisteredCommand? { registry.command(exactly: name) }

    /// Completion candidates for the word at the end of `text` (the line up to the cursor):
    /// commands, verbs, options, option values, and names that tools supply.
    public func complete(_ text: String) -> Completion {
        let (words, current) = Completer.splitForCompletion(text)
        let result = complete(words: words, current: current)
        var seen = Set<String>()
        let filtered = result.candidates.filter { $0.hasPrefix(current) && seen.insert($0).inserted }
        return Completion(candidates: filtered, filePaths: result.filePaths, fileExtensions: result.fileExtensions)
    }

    /// Candidates (not yet filtered by `current`) after the complete `words` of a command.
    public func complete(words: [String], current: String) -> Completion {
        guard let first = words.first else {
            return Completion(candidates: registry.allCommandNames + aliases.names)
        }
        var words = words
        if let alias = aliases[first],
            let expanded = try? Lexer.lexLine(alias.expansion, line: 1).first?.words.map(\.text)
        {
            words = expanded + words.dropFirst()
        }
        guard let command = try? parser.resolveCommand(Word(words[0])) else { return Completion(candidates: []) }
        let spec = command.spec
        var rest = words.dropFirst().map { Word($0) }
        if rest.isEmpty && !spec.namedVerbs.isEmpty {
            var names = spec.namedVerbs.flatMap { [$0.name] + $0.aliases }
            if let d = spec.defaultVerb, let verb = spec.verb(named: d), let arg = verb.arguments.first {
                names += candidates(for: arg.kind, command: spec.name, previous: [])
            }
            return Completion(candidates: names)
        }
        var restSlice = rest[...]
        guard let verb = try? parser.resolveVerb(of: spec, words: &restSlice) else { return Completion(candidates: []) }
        rest = Array(restSlice)
        let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
        // Walk the words typed so far: options, their values and positional arguments.
        var positional = 0
        var positionalWords: [String] = []
        var i = 0
        var pendingOption: OptionSpec?
        while i < rest.count {
            let w = rest[i].text
            i += 1
            if positional < verb.arguments.count, verb.arguments[positional].isRest {
                // The rest of the line is a command (after, at, every) or a condition.
                let tail = rest[(i - 1)...].map(\.text)
                if let values = settingValues(verb, positional, positionalWords, tail: tail) {
                    return Completion(candidates: values)
                }
                return completeRest(verb.arguments[positional], words: tail, current: current, label: label)
            }
            if w.hasPrefix("--"),
                let option = verb.options.first(where: { "--" + $0.name == w || w.hasPrefix("--\($0.name)=") })
            {
                if option.kind != nil && !w.contains("=") { pendingOption = option }
                continue
            }
            if pendingOption != nil {
                pendingOption = nil
                continue
            }
            positional += 1
            positionalWords.append(w)
        }
        if let option = pendingOption, let kind = option.kind {
            return Completion(
                candidates: candidates(for: kind, command: spec.name, previous: []), filePaths: kind == .path)
        }
        if current.hasPrefix("--") {
            return Completion(candidates: verb.options.map { "--" + $0.name })
        }
        if positional < verb.arguments.count {
            let argument = verb.arguments[positional]
            if argument.isRest {
                // Words that are paths (`import xctrace <path…>`): every one completes a file.
                if argument.kind == .path { return Completion(candidates: [], filePaths: true) }
                if let values = settingValues(verb, positional, positionalWords, tail: []) {
                    return Completion(candidates: values)
                }
                return completeRest(argument, words: [], current: current, label: label)
            }
            let names = candidates(for: argument.kind, command: spec.name, previous: rest.map(\.text))
            return Completion(
                candidates: names, filePaths: argument.kind == .path,
                fileExtensions: argument.kind == .path ? Completer.fileExtensions(verb: verb.name) : [])
        }
        return Completion(candidates: current.isEmpty ? [] : verb.options.map { "--" + $0.name })
    }

    /// The files a path argument takes, by what the verb writes: a chart (`plot`) is SVG
    /// (DebugShellCharts refuses any other name); a plugin is a shared library.
    static func fileExtensions(verb: String) -> [String] {
        switch verb {
        case "plot": return ["svg"]
        case "load": return ["so"]
        default: return []
        }
    }

    /// `set <setting> <value…>` and `settings set`: after the setting's name, its values (and
    /// after `name =`, the same); nil where the words are not a setting's value.
    private func settingValues(_ verb: VerbSpec, _ positional: Int, _ words: [String], tail: [String]) -> [String]? {
        guard positional > 0, positional == words.count, verb.arguments[positional - 1].kind == .name(.setting),
            verb.arguments[positional].kind == .word, let spec = settings.spec(words[positional - 1])
        else { return nil }
        guard tail.isEmpty || tail == ["="] else { return [] }
        return candidates(for: spec.kind, command: "", previous: [])
    }

    private func completeRest(_ argument: ArgumentSpec, words: [String], current: String, label: String) -> Completion {
        restCompletion(label, words, current, self) ?? Completion(candidates: [])
    }

    /// What comes next in a condition (`expect`, `run until`): a metric at the start of each
    /// term, then an operator, a value, and `and` or `or`.
    public func conditionCompletion(words: [String]) -> Completion {
        if words.isEmpty || ["and", "or"].contains(words.last ?? "") {
            return Completion(candidates: metricNames())
        }
        if words.count % 4 == 1 { return Completion(candidates: Condition.Op.allCases.map(\.rawValue)) }
        if words.count % 4 == 3 { return Completion(candidates: ["and", "or"]) }
        // After `<metric> <op>`: a word metric's words (issue 24).
        if words.count >= 2, let choices = registry.metricSpec(words[words.count - 2])?.words {
            return Completion(candidates: choices)
        }
        return Completion(candidates: [])
    }

    /// Values of a kind: choices, booleans, rates, and names from the shell and the tools.
    func candidates(for kind: ValueKind, command: String, previous: [String]) -> [String] {
        switch kind {
        case .boolean: return ["on", "off"]
        case .choice(let words): return words
        case .rate: return ["60Hz", "120Hz"]
        case .name(let domain):
            switch domain {
            case .metric: return metricNames()
            case .setting: return settings.specs.map(\.name)
            case .tool: return registry.toolDescriptors.map(\.name)
            case .command: return registry.allCommandNames
            case .alias: return aliases.names
            case .event: return eventNames
            default: return toolCandidates(domain)
            }
        case .word where command == "metrics":
            // `metrics <prefix>`: the metrics' names are the prefixes that list one.
            return metricNames()
        case .word where command == "example":
            return BundledExamples.all.map(\.name)
        case .word where command == "settings":
            // `settings list <prefix>`.
            return settings.specs.map(\.name)
        default: return []
        }
    }

    /// The complete words before the cursor and the partial word at it; quotes are honoured
    /// and only the last `;`-separated command counts.
    public static func splitForCompletion(_ text: String) -> (words: [String], current: String) {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
                continue
            }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { current.append(c) }
                continue
            }
            switch c {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = c
                inWord = true
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case ";":
                words = []
                current = ""
                inWord = false
            default:
                current.append(c)
                inWord = true
            }
        }
        return (words, current)
    }
}
