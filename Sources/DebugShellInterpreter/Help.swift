import DebugShellCore

/// Help generated from the declarations: the same text for built-ins and tools (docs/Commands.md
/// is generated from it), and the rules of the simulated device (docs/Semantics.md).
public struct HelpRenderer {
    var registry: ToolRegistry
    var width: Int

    public init(registry: ToolRegistry, width: Int) {
        self.registry = registry
        self.width = width
    }

    public func overview() -> String {
        var out = "debugsh — a debug-tools shell for frame pacing, on a simulated iOS device.\n\nBUILT-IN COMMANDS:\n"
        let builtIns = registry.commands.filter { $0.owner.isBuiltIn }
        out += table(builtIns.map { ($0.spec.name, $0.spec.abstract) })
        out += "\nTOOLS:\n"
        if registry.toolDescriptors.isEmpty {
            out += "  (none registered)\n"
        }
        for (index, d) in registry.toolDescriptors.enumerated() {
            out += wrap("\(d.name) — \(d.abstract)", indent: 2, hanging: 4) + "\n"
            let commands = registry.commands.filter { $0.owner == .tool(index) }
            out += table(commands.map { ($0.spec.name, $0.spec.abstract) }, indent: 4)
        }
        out += "\nRULES OF THE SIMULATED DEVICE (docs/Semantics.md):\n"
        var rows = RuleBook.groups.map { group in
            let main = RuleBook.mainRules(of: group.id)
            let span = main.count > 1 ? "\(main[0].id)–\(main[main.count - 1].id)" : main.first?.id ?? group.id
            return (span, group.title)
        }
        rows.append(("examples", RuleBook.rules.filter(\.isWorkedExample).map(\.id).joined(separator: ", ")))
        out += table(rows)
        out +=
            "\n"
            + wrap(
                "Type 'help <command>' for its verbs, options and examples, 'help <rule>' for a rule (help DL7);"
                    + " 'help examples' lists the example scripts; 'apropos <word>' searches all help.", indent: 0,
                hanging: 0)
        return out
    }

    /// How much of a command's or verb's help to print.
    public enum Detail: Sendable {
        /// A page that fits a 40-row terminal (``HelpRenderer/shortPageRows``): usage, verbs,
        /// arguments and options, at most two examples, and where the rest is (`help`,
        /// `--help`).
        case short
        /// Everything: every example (`help --full`, docs/Commands.md).
        case full
        /// The examples alone, all of them (`help <command> --examples`).
        case examples
    }

    /// The most lines a short page has: with the prompt under it, it fits a 40-row terminal.
    public static let shortPageRows = 38

    public func command(_ c: RegisteredCommand, detail: Detail = .full) -> String {
        let spec = c.spec
        let named = spec.namedVerbs
        if named.isEmpty, let only = spec.verbs.first {
            return page(
                label: spec.name, abstract: spec.abstract, discussion: spec.discussion, examples: only.examples,
                detail: detail
            ) { examples, _ in
                var out = "\n" + usageLine(CommandParser.usage(only, label: spec.name), label: spec.name) + "\n"
                out += details(only, examples: examples)
                if !spec.aliases.isEmpty { out += "\nALIASES: \(spec.aliases.joined(separator: ", "))\n" }
                let described = [spec.abstract, spec.discussion ?? ""] + descriptions(only)
                return out + rulesCited(in: described.joined(separator: "\n"))
            }
        }
        return page(
            label: spec.name, abstract: spec.abstract, discussion: spec.discussion, examples: spec.examples,
            detail: detail
        ) { examples, compact in
            var out: String
            if compact {
                // LLDB's `help breakpoint`: the verbs and what they do; each one's usage is its own help.
                out = "\nUSAGE: \(spec.name) <verb> [<arguments>] [<options>]\n"
            } else {
                out = "\nUSAGE:\n"
                for verb in spec.verbs {
                    let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
                    out += wrap(CommandParser.usage(verb, label: label), indent: 2, hanging: 6) + "\n"
                }
            }
            out += "\nVERBS:\n"
            var rows: [(String, String)] = []
            for verb in spec.verbs {
                var abstract = verb.abstract
                if verb.name == spec.defaultVerb { abstract += verb.name.isEmpty ? "" : " (the default)" }
                if !verb.aliases.isEmpty { abstract += " (also: \(verb.aliases.joined(separator: ", ")))" }
                rows.append((verb.name.isEmpty ? "(none)" : verb.name, abstract))
            }
            out += table(rows)
            if !examples.isEmpty { out += "\nEXAMPLES:\n" + examplesText(examples) }
            out += "\nType 'help \(spec.name) <verb>' for a verb's arguments and options.\n"
            if !spec.aliases.isEmpty { out += "\nALIASES: \(spec.aliases.joined(separator: ", "))\n" }
            let described = [spec.abstract, spec.discussion ?? ""] + spec.verbs.map(\.abstract)
            return out + rulesCited(in: described.joined(separator: "\n"))
        }
    }

    public func verb(_ verb: VerbSpec, of spec: CommandSpec, detail: Detail = .full) -> String {
        let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
        return page(
            label: label, abstract: verb.abstract, discussion: verb.discussion, examples: verb.examples,
            detail: detail
        ) { examples, _ in
            var out = "\n" + usageLine(CommandParser.usage(verb, label: label), label: label) + "\n"
            out += details(verb, examples: examples)
            return out + rulesCited(in: descriptions(verb).joined(separator: "\n"))
        }
    }

    /// One help page: the title, the discussion, then `body` with the examples it is given.
    ///
    /// A short page keeps the first examples that fit, at most two, in the order declared. When
    /// even none fit, `body` is asked for its compact form (a command's verbs without each one's
    /// usage), and then the discussion is cut to its first sentence. What it leaves out, it
    /// names in a last line: `help <label> --examples` and `help <label> --full`.
    private func page(
        label: String, abstract: String, discussion: String?, examples: [Example], detail: Detail,
        body: ([Example], _ compact: Bool) -> String
    ) -> String {
        func head(_ discussion: String?) -> String {
            // The title wraps between words, its lines after the first under the abstract.
            var out = wrap("\(label) — \(abstract)", indent: 0, hanging: label.count + 3) + "\n"
            if let discussion { out += "\n" + wrap(discussion, indent: 0, hanging: 0) + "\n" }
            return out
        }
        switch detail {
        case .full:
            return trimmedEnd(head(discussion) + body(examples, false))
        case .examples:
            guard !examples.isEmpty else { return "\(label) has no examples; 'help \(label)' shows its usage." }
            let count = examples.count == 1 ? "1 example" : "\(examples.count) examples"
            return trimmedEnd("\(label) — \(count)\n\n" + examplesText(examples))
        case .short:
            // Rows on a terminal of `width` columns, the MORE line and the blank line before it
            // counted.
            let fits = { (text: String) in
                HelpRenderer.rows(of: text, width: width) + 2 <= HelpRenderer.shortPageRows
            }
            let cutDiscussion = discussion.flatMap { d in HelpRenderer.firstSentence(of: d).map { $0 + " …" } }
            var choice: (head: String, compact: Bool) = (head(discussion), false)
            for candidate in [(head(discussion), false), (head(discussion), true), (head(cutDiscussion), true)] {
                choice = candidate
                if fits(candidate.0 + body([], candidate.1)) { break }
            }
            var shown: [Example] = []
            for example in examples.prefix(4) where shown.count < 2 {
                if fits(choice.head + body(shown + [example], choice.compact)) { shown.append(example) }
            }
            let text = choice.head + body(shown, choice.compact)
            let whole = shown.count == examples.count && !choice.compact && choice.head == head(discussion)
            guard !whole else { return trimmedEnd(text) }
            var more: [String] = []
            if shown.count < examples.count {
                let left = examples.count - shown.count
                more.append("'help \(label) --examples' (\(left) more example\(left == 1 ? "" : "s"))")
            }
            more.append("'help \(label) --full' (everything)")
            return trimmedEnd(text) + "\n\n" + wrap("MORE: " + more.joined(separator: ", "), indent: 0, hanging: 2)
        }
    }

    /// The rows `text` takes on a terminal `width` columns wide, long lines wrapped.
    public static func rows(of text: String, width: Int) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) {
            $0 + max(1, ($1.count + max(1, width) - 1) / max(1, width))
        }
    }

    /// A discussion's first sentence: up to the first '. ' or the end; nil for none.
    static func firstSentence(of text: String) -> String? {
        var previous: Character = " "
        for index in text.indices {
            if text[index] == " " && previous == "." { return String(text[..<index]) }
            previous = text[index]
        }
        return nil
    }

    /// `help <rule>`: the rule's text, the kinds of source it rests on and why, what it touches.
    /// A step of a rule (`S4.1`) prints its own text and points to the whole rule.
    public func rule(_ rule: DeviceRule) -> String {
        let parent = rule.parent.flatMap(RuleBook.rule)
        var out = "\(rule.id) — \(rule.title)"
        if let parent { out += " (a step of \(parent.id))" }
        out += "\n\n"
        out += paragraphs(rule.text) + "\n"
        if rule.isWorkedExample {
            out += "\nSOURCE: a worked example, computed from the rules it cites\n"
        } else {
            out += "\nSOURCE: " + rule.sources.joined(separator: ", ") + "\n"
        }
        if let parent {
            out += "\nWHY: see 'help \(parent.id)' (\(parent.title)).\n"
        } else if !rule.why.isEmpty {
            out += "\nWHY:\n" + paragraphs(rule.why, indent: 2) + "\n"
        }
        if !rule.touches.isEmpty {
            out += "\nTOUCHES:\n" + wrap(rule.touches.joined(separator: ", "), indent: 2, hanging: 2) + "\n"
        }
        let cited = RuleBook.citedIDs(in: rule.text + " " + rule.why).filter {
            $0 != rule.id && $0 != rule.parent && RuleBook.rule($0)?.parent != rule.id
        }
        if !cited.isEmpty {
            out += "\nSEE ALSO: " + RuleBook.compactList(cited) + "\n"
        }
        out += "\nIn docs/Semantics.md under \(rule.parent ?? rule.id)."
        return out
    }

    /// The line that tells a reader of a help text which rules it cites and that `help <rule>`
    /// prints them; empty when it cites none.
    public func rulesCited(in text: String) -> String {
        let ids = RuleBook.citedIDs(in: text)
        guard let first = ids.first else { return "" }
        let how = ids.count == 1 ? "type 'help \(first)'" : "type 'help <rule>', e.g. 'help \(first)'"
        return "\n" + wrap("RULES: \(RuleBook.compactList(ids)) (\(how))", indent: 0, hanging: 2) + "\n"
    }

    /// A rule's Markdown as plain text: paragraphs wrapped, list items with a hanging indent.
    private func paragraphs(_ markdown: String, indent: Int = 0) -> String {
        var blocks: [String] = []
        for block in markdown.split(separator: "\n\n", omittingEmptySubsequences: true) {
            let lines = block.split(separator: "\n").map { HelpRenderer.plain(String($0)) }
            blocks.append(
                lines.map { line in
                    let number = line.prefix(while: \.isNumber)
                    let isItem = !number.isEmpty && line.dropFirst(number.count).hasPrefix(". ")
                    return wrap(line, indent: indent + (isItem ? 2 : 0), hanging: indent + (isItem ? 5 : 0))
                }.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n")
    }

    /// Markdown's `code` and **emphasis** marks removed.
    public static func plain(_ markdown: String) -> String {
        String(markdown.filter { $0 != "`" && $0 != "*" })
    }

    /// What a verb's help says about it, without its examples: where the rules it cites are.
    private func descriptions(_ verb: VerbSpec) -> [String] {
        [verb.abstract, verb.discussion ?? ""] + verb.arguments.map(\.abstract) + verb.options.map(\.abstract)
    }

    private func details(_ verb: VerbSpec, examples: [Example]) -> String {
        var out = ""
        if !verb.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            out += table(verb.arguments.map { ("<\($0.name)\($0.isRest ? "…" : "")>", $0.abstract) })
        }
        if !verb.options.isEmpty {
            out += "\nOPTIONS:\n"
            out += table(
                verb.options.map { option in
                    var abstract = option.abstract
                    if let d = option.defaultText { abstract += " (default: \(d))" }
                    return (option.usage, abstract)
                })
        }
        if !examples.isEmpty { out += "\nEXAMPLES:\n" + examplesText(examples) }
        return out
    }

    private func examplesText(_ examples: [Example]) -> String {
        var blocks: [String] = []
        for example in examples {
            var lines = example.transcript.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }[
                ...]
            while let last = lines.last, Substring(last).trimmingSpaces.isEmpty { lines.removeLast() }
            blocks.append(lines.map { Substring($0).trimmingSpaces.isEmpty ? "" : $0 }.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// Two columns: names padded to the widest (at most 28), descriptions wrapped.
    func table(_ rows: [(String, String)], indent: Int = 2) -> String {
        let column = min(28, rows.map(\.0.count).max() ?? 0)
        var out = ""
        for (name, text) in rows {
            let pad = String(repeating: " ", count: indent)
            if name.count > column {
                out += pad + name + "\n"
                out += wrap(text, indent: indent + column + 2, hanging: indent + column + 2) + "\n"
            } else {
                let head = pad + name.padding(column) + "  "
                out += head + String(wrap(text, indent: head.count, hanging: head.count).dropFirst(head.count)) + "\n"
            }
        }
        return out
    }

    /// `USAGE: layout watch [<root>] [--quiet <duration>] …` wrapped to the width between its
    /// parts — never inside `[--quiet <duration>]` — the lines after the first under the first
    /// part after the command's name (a terminal cut `<duratio` / `n>]` at 80 columns).
    func usageLine(_ usage: String, label: String) -> String {
        let head = "USAGE: " + label
        guard usage.hasPrefix(label) else { return "USAGE: " + usage }
        // The parts after the name, split at spaces outside brackets.
        var parts: [String] = []
        var current = ""
        var depth = 0
        for c in usage.dropFirst(label.count) {
            if c == "[" || c == "<" || c == "(" { depth += 1 }
            if c == "]" || c == ">" || c == ")" { depth = max(0, depth - 1) }
            if c == " " && depth == 0 {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { parts.append(current) }
        let hanging = String(repeating: " ", count: head.count + 1)
        var lines: [String] = []
        var line = head
        var lineHasPart = false
        for part in parts {
            if lineHasPart && line.count + 1 + part.count > width {
                lines.append(line)
                line = hanging + part
            } else {
                line += " " + part
            }
            lineHasPart = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Wraps words to the width; the first line indented by `indent`, the others by `hanging`.
    func wrap(_ text: String, indent: Int, hanging: Int) -> String {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: hanging)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    private func trimmedEnd(_ s: String) -> String {
        var s = Substring(s)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}

/// How well `apropos` found a phrase in a text.
public enum AproposMatch {
    static let wholeWord = 0
    static let wordStart = 1
    public static let substring = 2
    /// `apropos`'s ranks past the name and the abstract: a word of the rest of the help, and
    /// the phrase inside a word, anywhere.
    static let text = 4
    static let inside = 5
    /// The ranks' names in JSON.
    public static let names = ["name", "name-prefix", "word", "word-prefix", "text", "substring"]

    /// The best place `needle` (lowercased) has in `text`: a whole word, the start of a word,
    /// anywhere; nil when it is not there. Words are runs of letters and digits.
    public static func quality(of needle: [Unicode.Scalar], in text: String) -> Int? {
        guard !needle.isEmpty else { return substring }
        let hay = Array(text.lowercased().unicodeScalars)
        guard hay.count >= needle.count else { return nil }
        var best: Int?
        for start in 0...(hay.count - needle.count) where hay[start] == needle[0] {
            guard hay[start..<(start + needle.count)].elementsEqual(needle) else { continue }
            let end = start + needle.count
            let startsWord = start == 0 || !isWordScalar(hay[start - 1]) || !isWordScalar(needle[0])
            let endsWord = end == hay.count || !isWordScalar(hay[end]) || !isWordScalar(needle[needle.count - 1])
            let found = startsWord ? (endsWord ? wholeWord : wordStart) : substring
            best = min(best ?? found, found)
            if best == wholeWord { break }
        }
        return best
    }

    private static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        s.properties.isAlphabetic || ("0"..."9").contains(s)
    }
}
