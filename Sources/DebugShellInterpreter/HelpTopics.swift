import DebugShellCore

/// The `help` and `apropos` answers: every topic the shell can explain — commands and verbs,
/// metrics, settings, aliases and the rules of the simulated device — from the declarations.
public struct HelpTopics {
    var registry: ToolRegistry
    var settings: SettingsStore
    var aliases: AliasTable
    /// Columns the text is wrapped to.
    var width: Int

    public init(registry: ToolRegistry, settings: SettingsStore, aliases: AliasTable, width: Int) {
        self.registry = registry
        self.settings = settings
        self.aliases = aliases
        self.width = width
    }

    /// Resolves command and verb names; the rate is for values, which it never parses here.
    private var parser: CommandParser { CommandParser(registry: registry, rate: 60) }

    /// The text `help <topic>` prints (generated docs use it); empty when there is no such topic.
    public func text(of topic: String) -> String {
        (try? self.topic(topic.split(separator: " ").map(String.init), detail: .full).text) ?? ""
    }

    /// `help [command [verb]]`, `help <metric>`, `help <setting>`, `help <rule>`.
    ///
    /// A command's or verb's help is a short page unless `detail` asks for more
    /// (``HelpRenderer/Detail``); other topics are short already.
    public func topic(_ topic: [String], detail: HelpRenderer.Detail = .short) throws(CommandError) -> CommandOutput {
        let renderer = HelpRenderer(registry: registry, width: width)
        guard let first = topic.first else {
            return CommandOutput(text: renderer.overview(), json: .fields(["topic": .null]))
        }
        if let rule = RuleBook.rule(first) {
            guard topic.count == 1 else {
                throw CommandError("unexpected argument '\(topic[1])' after rule \(rule.id)")
            }
            return CommandOutput(
                text: renderer.rule(rule),
                json: .fields([
                    "rule": .string(rule.id), "title": .string(rule.title),
                    "part_of": rule.parent.map(JSONValue.string) ?? .null,
                    "text": .string(HelpRenderer.plain(rule.text)),
                    "sources": .array(rule.sources.map(JSONValue.string)),
                    "why": .string(HelpRenderer.plain(rule.why)),
                    "touches": .array(rule.touches.map(JSONValue.string)),
                ]))
        }
        if first.contains(".") {
            if let spec = registry.metricSpec(first) {
                let text = "\(first) (metric, \(spec.kind.description)) — \(spec.abstract)"
                var fields: [(String, JSONValue)] = [
                    ("metric", .string(first)), ("type", .string(spec.type.rawValue)),
                ]
                if let words = spec.words { fields.append(("words", .array(words.map(JSONValue.string)))) }
                fields.append(("abstract", .string(spec.abstract)))
                return CommandOutput(
                    text: text + renderer.rulesCited(in: text).dropLast(), json: .object(fields))
            }
            if let spec = settings.spec(first) {
                let text =
                    "\(first) (setting, \(spec.kind.placeholder), default \(spec.defaultValue)) — \(spec.abstract)"
                return CommandOutput(
                    text: text + renderer.rulesCited(in: text).dropLast(),
                    json: .fields([
                        "setting": .string(first), "default": .string(spec.defaultValue),
                        "abstract": .string(spec.abstract),
                    ]))
            }
            if !RuleBook.looksLikeRuleID(first) {
                throw CommandError("no help for '\(first)': not a command, metric, setting or rule")
            }
        }
        if first == "examples", registry.command(exactly: first) == nil, aliases[first] == nil {
            guard topic.count == 1 else { throw CommandError("unexpected argument '\(topic[1])' after examples") }
            return examplesList()
        }
        if registry.command(exactly: first) == nil, let alias = aliases[first] {
            return try aliasHelp(first, alias, topic: topic, detail: detail)
        }
        if RuleBook.looksLikeRuleID(first), registry.command(exactly: first) == nil {
            throw CommandError("no rule '\(first)' in docs/Semantics.md ('help' lists the rules)")
        }
        let command = try parser.resolveCommand(Word(first))
        if topic.count == 1 {
            return CommandOutput(
                text: renderer.command(command, detail: detail), json: .fields(["topic": .string(command.spec.name)]))
        }
        var rest = [Word(topic[1])][...]
        let verb = try parser.resolveVerb(of: command.spec, words: &rest)
        guard rest.isEmpty else {
            throw CommandError("'\(command.spec.name)' has no verb '\(topic[1])'")
        }
        let label = verb.name.isEmpty ? command.spec.name : "\(command.spec.name) \(verb.name)"
        return CommandOutput(
            text: renderer.verb(verb, of: command.spec, detail: detail), json: .fields(["topic": .string(label)]))
    }

    /// `help examples`: the example scripts compiled into debugsh (``BundledExamples``), which
    /// `example <name>` runs, and the worked examples of the rules.
    public func examplesList() -> CommandOutput {
        let renderer = HelpRenderer(registry: registry, width: width)
        var out = "EXAMPLE SCRIPTS ('example <name>' runs one, 'example <name> --print' prints it):\n"
        out += renderer.table(BundledExamples.all.map { ($0.name, $0.summary) })
        let worked = RuleBook.rules.filter(\.isWorkedExample)
        if !worked.isEmpty {
            out += "\nWORKED EXAMPLES OF THE RULES ('help <id>' prints one):\n"
            out += renderer.table(worked.map { ($0.id, $0.title) })
        }
        return CommandOutput(
            text: String(out.dropLast()),
            json: .fields([
                "scripts": .array(
                    BundledExamples.all.map { .fields(["name": .string($0.name), "summary": .string($0.summary)]) }),
                "worked_examples": .array(worked.map { .string($0.id) }),
            ]))
    }

    /// `help r`: what the alias stands for, then the help of the command it runs.
    private func aliasHelp(
        _ name: String, _ alias: AliasTable.Alias, topic: [String], detail: HelpRenderer.Detail
    ) throws(CommandError) -> CommandOutput {
        let head =
            "\(name) is an alias\(alias.builtIn ? " (built-in)" : ""): \(name) = \(VisibleText.escaped(alias.expansion))"
        let expansion = (try? Lexer.lexLine(alias.expansion, line: 1).first?.words.map(\.text)) ?? nil
        guard let words = expansion, let command = words.first, registry.command(exactly: command) != nil else {
            return CommandOutput(
                text: head, json: .fields(["alias": .string(name), "expansion": .string(alias.expansion)]))
        }
        // `help r` is `help run`; a verb typed after the alias counts as the expansion's (`help c`).
        let verbWord = words.count > 1 ? words[1] : topic.dropFirst().first
        var withVerb: CommandOutput?
        if let verbWord { withVerb = try? self.topic([command, verbWord], detail: detail) }
        let inner: CommandOutput
        if let withVerb { inner = withVerb } else { inner = try self.topic([command], detail: detail) }
        return CommandOutput(
            text: head + "\n\n" + inner.text,
            json: .object([("alias", .string(name)), ("expansion", .string(alias.expansion)), ("help", inner.json)]))
    }

    /// `<command> --help` and `<command> <verb> --help`: what `help <command> [<verb>]` prints.
    public func asked(by parsed: ParsedCommand) -> CommandOutput {
        let renderer = HelpRenderer(registry: registry, width: width)
        let spec = parsed.command.spec
        if parsed.verbNamed || spec.namedVerbs.isEmpty {
            let label = parsed.verb.name.isEmpty ? spec.name : "\(spec.name) \(parsed.verb.name)"
            let text =
                spec.namedVerbs.isEmpty
                ? renderer.command(parsed.command, detail: .short)
                : renderer.verb(parsed.verb, of: spec, detail: .short)
            return CommandOutput(text: text, json: .fields(["topic": .string(label)]))
        }
        return CommandOutput(
            text: renderer.command(parsed.command, detail: .short), json: .fields(["topic": .string(spec.name)]))
    }

    /// `apropos <word or phrase>`: every command, verb, option, metric, setting, event and rule
    /// whose help mentions it as a word or the start of one (`hang` finds `hangs` and `hanging`,
    /// not `change`), best matches first: in the topic's name as a whole word (`main.hangs` for
    /// `hangs`), then starting a word of the name (`main.hangs` for `hang`), then in its abstract
    /// as a whole word, then starting a word, then in the rest of its help (a discussion, a rule's
    /// text). Only when nothing matches so does the phrase anywhere inside a word count. Ties
    /// keep the order of `help`.
    public func apropos(_ phrase: String) -> CommandOutput {
        let whole = apropos(phrase, needles: [Array(phrase.lowercased().unicodeScalars)])
        // Several words that do not stand together anywhere (`timer scroll`): the topics whose
        // help mentions every one of them, each where it may, ranked by the word found worst.
        let words = phrase.lowercased().split(separator: " ").map { Array($0.unicodeScalars) }
        guard whole == nil, words.count > 1 else {
            return whole ?? CommandOutput(text: "nothing matches '\(phrase)'", json: .array([]))
        }
        return apropos(phrase, needles: words)
            ?? CommandOutput(text: "nothing matches '\(phrase)', as a phrase or word by word", json: .array([]))
    }

    /// The topics every needle matches, best first; nil when none.
    private func apropos(_ phrase: String, needles: [[Unicode.Scalar]]) -> CommandOutput? {
        var hits: [(rank: Int, topic: String, abstract: String)] = []
        /// The rank of a topic for every needle (the worst of them); nil when one is not mentioned.
        func rank(name: String, abstract: String, _ texts: String...) -> Int? {
            var worst = 0
            for needle in needles {
                guard let r = rank(of: needle, name: name, abstract: abstract, texts) else { return nil }
                worst = max(worst, r)
            }
            return worst
        }
        /// The rank of a topic: its name, its abstract, then the rest of its help; nil when
        /// nothing mentions the phrase.
        func rank(of needle: [Unicode.Scalar], name: String, abstract: String, _ texts: [String]) -> Int? {
            let inName = AproposMatch.quality(of: needle, in: name)
            if let inName, inName < AproposMatch.substring { return inName }
            let inAbstract = AproposMatch.quality(of: needle, in: abstract)
            if let inAbstract, inAbstract < AproposMatch.substring { return inAbstract + 2 }
            let inText = texts.compactMap { AproposMatch.quality(of: needle, in: $0) }.min()
            if let inText, inText < AproposMatch.substring { return AproposMatch.text }
            return inName != nil || inAbstract != nil || inText != nil ? AproposMatch.inside : nil
        }
        func add(_ rank: Int?, _ topic: String, _ abstract: String) {
            if let rank { hits.append((rank, topic, abstract)) }
        }
        for c in registry.commands {
            for verb in c.spec.verbs {
                let label = verb.name.isEmpty ? c.spec.name : "\(c.spec.name) \(verb.name)"
                let abstract = verb.name.isEmpty ? c.spec.abstract : verb.abstract
                add(
                    rank(
                        name: label, abstract: abstract, verb.abstract, verb.discussion ?? "",
                        verb.name.isEmpty ? c.spec.discussion ?? "" : ""),
                    label, abstract)
                for option in verb.options {
                    add(
                        rank(name: "--" + option.name, abstract: option.abstract),
                        "option --\(option.name) of \(label)", option.abstract)
                }
            }
        }
        let metrics = registry.shellMetrics + registry.toolDescriptors.flatMap(\.metrics)
        for m in metrics { add(rank(name: m.name, abstract: m.abstract), "metric \(m.name)", m.abstract) }
        for s in settings.specs { add(rank(name: s.name, abstract: s.abstract), "setting \(s.name)", s.abstract) }
        for e in registry.toolDescriptors.flatMap(\.events) {
            add(rank(name: e.name, abstract: e.abstract), "event \(e.name)", e.abstract)
        }
        var rulesFound = Set<String>()
        for rule in RuleBook.rules {
            guard let r = rank(name: rule.id, abstract: rule.title, HelpRenderer.plain(rule.text)) else { continue }
            rulesFound.insert(rule.id)
            // A step whose rule matched already is part of that hit.
            if let parent = rule.parent, rulesFound.contains(parent) { continue }
            hits.append((r, "rule \(rule.id)", rule.title))
        }
        // Inside a word ('hang' in 'change') only when no word starts with the phrase.
        if hits.contains(where: { $0.rank < AproposMatch.inside }) {
            hits.removeAll { $0.rank == AproposMatch.inside }
        }
        guard !hits.isEmpty else { return nil }
        // A stable sort: within a rank, the order of `help`.
        let ranked = hits.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }.map(\.element)
        return CommandOutput(
            // Each line wraps between words at the width, its rest indented under the topic.
            text: ranked.map {
                HelpRenderer(registry: registry, width: width).wrap(
                    "\($0.topic) — \($0.abstract)", indent: 0, hanging: 4)
            }.joined(separator: "\n"),
            json: .array(
                ranked.map {
                    .fields([
                        "topic": .string($0.topic), "abstract": .string($0.abstract),
                        "match": .string(AproposMatch.names[$0.rank]),
                    ])
                }))
    }
}
