import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// What to complete at the cursor.
public struct Completion: Equatable, Sendable {
    /// Candidates for the word being typed (already filtered by its prefix).
    public var candidates: [String]
    /// The word is a file path: the front end completes it from the file system.
    public var filePaths: Bool

    public init(candidates: [String], filePaths: Bool = false) {
        self.candidates = candidates
        self.filePaths = filePaths
    }
}

extension Session {
    /// Completion candidates for the word at the end of `text` (the line up to the cursor):
    /// commands, verbs, options, option values, and names that tools supply.
    public func complete(_ text: String) -> Completion {
        let (words, current) = Session.splitForCompletion(text)
        let result = complete(words: words, current: current)
        var seen = Set<String>()
        let filtered = result.candidates.filter { $0.hasPrefix(current) && seen.insert($0).inserted }
        return Completion(candidates: filtered, filePaths: result.filePaths)
    }

    private func complete(words: [String], current: String) -> Completion {
        guard let first = words.first else {
            return Completion(candidates: registry.allCommandNames + aliasesInOrder.map(\.name))
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
        var i = 0
        var pendingOption: OptionSpec?
        while i < rest.count {
            let w = rest[i].text
            i += 1
            if positional < verb.arguments.count, verb.arguments[positional].isRest {
                // The rest of the line is a command (after, at, every) or a condition.
                let tail = rest[(i - 1)...].map(\.text)
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
                return completeRest(argument, words: [], current: current, label: label)
            }
            let names = candidates(for: argument.kind, command: spec.name, previous: rest.map(\.text))
            return Completion(candidates: names, filePaths: argument.kind == .path)
        }
        return Completion(candidates: current.isEmpty ? [] : verb.options.map { "--" + $0.name })
    }

    private func completeRest(_ argument: ArgumentSpec, words: [String], current: String, label: String) -> Completion {
        switch label {
        case "after", "at", "every":
            // A scheduled command completes like a typed one.
            return complete(words: words, current: current)
        case "expect", "run until":
            // A metric at the start of each term.
            if words.isEmpty || ["and", "or"].contains(words.last ?? "") {
                return Completion(candidates: allMetricNames())
            }
            if words.count % 4 == 1 { return Completion(candidates: Condition.Op.allCases.map(\.rawValue)) }
            if words.count % 4 == 3 { return Completion(candidates: ["and", "or"]) }
            return Completion(candidates: [])
        case "help":
            if words.isEmpty {
                // Rule ids only once the word starts like one, so 'help <tab>' stays the commands.
                let rules = current.first?.isUppercase == true ? RuleBook.rules.map(\.id) : []
                return Completion(candidates: registry.allCommandNames + rules)
            }
            if words.count == 1, let c = registry.command(exactly: words[0]) {
                return Completion(candidates: c.spec.namedVerbs.map(\.name))
            }
            return Completion(candidates: [])
        case "status":
            if words.isEmpty { return Completion(candidates: ["on", "off"] + registry.toolDescriptors.map(\.name)) }
            if words.count == 1 { return Completion(candidates: ["on", "off"]) }
            return Completion(candidates: [])
        case "alias":
            return Completion(candidates: words.isEmpty ? aliasesInOrder.map(\.name) : [])
        default:
            return Completion(candidates: [])
        }
    }

    /// Values of a kind: choices, booleans, rates, and names from the shell and the tools.
    private func candidates(for kind: ValueKind, command: String, previous: [String]) -> [String] {
        switch kind {
        case .boolean: return ["on", "off"]
        case .choice(let words): return words
        case .rate: return ["60Hz", "120Hz"]
        case .name(let domain):
            switch domain {
            case .metric: return allMetricNames()
            case .setting: return settings.specs.map(\.name)
            case .tool: return registry.toolDescriptors.map(\.name)
            case .command: return registry.allCommandNames
            case .alias: return aliasesInOrder.map(\.name)
            default: return tools.flatMap { $0.candidates(for: domain) }
            }
        case .word where command == "set":
            // `set <setting> <value>`: values of the setting's kind.
            if let name = previous.first, let spec = settings.spec(name) {
                return candidates(for: spec.kind, command: "", previous: [])
            }
            return []
        default: return []
        }
    }

    /// The complete words before the cursor and the partial word at it; quotes are honoured
    /// and only the last `;`-separated command counts.
    static func splitForCompletion(_ text: String) -> (words: [String], current: String) {
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
