import DebugShellCore

/// Help generated from the declarations (SPEC §4): the same text for built-ins and tools.
struct HelpRenderer {
    var registry: ToolRegistry
    var width: Int

    func overview() -> String {
        var out = "debugsh — a debug-tools shell for frame pacing, on a simulated iOS device.\n\nBUILT-IN COMMANDS:\n"
        let builtIns = registry.commands.filter { $0.owner == .builtIn }
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
        out += "\nType 'help <command>' for its verbs, options and examples; 'apropos <word>' searches all help."
        return out
    }

    func command(_ c: RegisteredCommand) -> String {
        let spec = c.spec
        var out = "\(spec.name) — \(spec.abstract)\n"
        if let discussion = spec.discussion { out += "\n" + wrap(discussion, indent: 0, hanging: 0) + "\n" }
        let named = spec.namedVerbs
        if named.isEmpty, let only = spec.verbs.first {
            out += "\nUSAGE: " + CommandParser.usage(only, label: spec.name) + "\n"
            out += details(only)
        } else {
            out += "\nUSAGE:\n"
            for verb in spec.verbs {
                let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
                out += wrap(CommandParser.usage(verb, label: label), indent: 2, hanging: 6) + "\n"
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
            let examples = spec.examples
            if !examples.isEmpty { out += "\nEXAMPLES:\n" + examplesText(examples) }
            out += "\nType 'help \(spec.name) <verb>' for a verb's arguments and options.\n"
        }
        if !spec.aliases.isEmpty { out += "\nALIASES: \(spec.aliases.joined(separator: ", "))\n" }
        return trimmedEnd(out)
    }

    func verb(_ verb: VerbSpec, of spec: CommandSpec) -> String {
        let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
        var out = "\(label) — \(verb.abstract)\n"
        if let discussion = verb.discussion { out += "\n" + wrap(discussion, indent: 0, hanging: 0) + "\n" }
        out += "\nUSAGE: " + CommandParser.usage(verb, label: label) + "\n"
        out += details(verb)
        return trimmedEnd(out)
    }

    private func details(_ verb: VerbSpec) -> String {
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
        if !verb.examples.isEmpty { out += "\nEXAMPLES:\n" + examplesText(verb.examples) }
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
    private func table(_ rows: [(String, String)], indent: Int = 2) -> String {
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

extension Session {
    var helpRenderer: HelpRenderer { HelpRenderer(registry: registry, width: options.width) }

    /// `help [command [verb]]`, `help <metric>`, `help <setting>`.
    func help(_ topic: [String]) throws(CommandError) -> CommandOutput {
        let renderer = helpRenderer
        guard let first = topic.first else {
            return CommandOutput(text: renderer.overview(), json: .fields(["topic": .null]))
        }
        if first.contains(".") {
            if let spec = Session.coreMetrics.first(where: { $0.name == first }) ?? registry.metricSpec(first) {
                return CommandOutput(
                    text: "\(first) (metric, \(spec.type.rawValue)) — \(spec.abstract)",
                    json: .fields([
                        "metric": .string(first), "type": .string(spec.type.rawValue),
                        "abstract": .string(spec.abstract),
                    ]))
            }
            if let spec = settings.spec(first) {
                return CommandOutput(
                    text:
                        "\(first) (setting, \(spec.kind.placeholder), default \(spec.defaultValue)) — \(spec.abstract)",
                    json: .fields([
                        "setting": .string(first), "default": .string(spec.defaultValue),
                        "abstract": .string(spec.abstract),
                    ]))
            }
            throw CommandError("no help for '\(first)': not a command, metric or setting")
        }
        let command = try parser.resolveCommand(Word(first))
        if topic.count == 1 {
            return CommandOutput(text: renderer.command(command), json: .fields(["topic": .string(command.spec.name)]))
        }
        var rest = [Word(topic[1])][...]
        let verb = try parser.resolveVerb(of: command.spec, words: &rest)
        guard rest.isEmpty else {
            throw CommandError("'\(command.spec.name)' has no verb '\(topic[1])'")
        }
        let label = verb.name.isEmpty ? command.spec.name : "\(command.spec.name) \(verb.name)"
        return CommandOutput(text: renderer.verb(verb, of: command.spec), json: .fields(["topic": .string(label)]))
    }

    /// `apropos <word>`: every command, verb, option, metric and setting whose help mentions it.
    func apropos(_ word: String) -> CommandOutput {
        let needle = word.lowercased()
        func matches(_ texts: String...) -> Bool { texts.contains { $0.lowercased().contains(needle) } }
        var hits: [(String, String)] = []
        for c in registry.commands {
            for verb in c.spec.verbs {
                let label = verb.name.isEmpty ? c.spec.name : "\(c.spec.name) \(verb.name)"
                if matches(label, verb.abstract, verb.discussion ?? "")
                    || (verb.name.isEmpty && matches(c.spec.abstract))
                {
                    hits.append((label, verb.name.isEmpty ? c.spec.abstract : verb.abstract))
                }
                for option in verb.options where matches("--" + option.name, option.abstract) {
                    hits.append(("option --\(option.name) of \(label)", option.abstract))
                }
            }
        }
        let metrics = Session.coreMetrics + registry.toolDescriptors.flatMap(\.metrics)
        for m in metrics where matches(m.name, m.abstract) { hits.append(("metric \(m.name)", m.abstract)) }
        for s in settings.specs where matches(s.name, s.abstract) { hits.append(("setting \(s.name)", s.abstract)) }
        for e in registry.toolDescriptors.flatMap(\.events) where matches(e.name, e.abstract) {
            hits.append(("event \(e.name)", e.abstract))
        }
        guard !hits.isEmpty else {
            return CommandOutput(text: "nothing matches '\(word)'", json: .array([]))
        }
        return CommandOutput(
            text: hits.map { "\($0.0) — \($0.1)" }.joined(separator: "\n"),
            json: .array(hits.map { .fields(["topic": .string($0.0), "abstract": .string($0.1)]) }))
    }
}

extension Session {
    /// The text `help <topic>` prints, for generated docs.
    public func helpTextForDocs(_ topic: String) -> String {
        let words = topic.split(separator: " ").map(String.init)
        return (try? help(words).text) ?? ""
    }

    /// A settings table row for generated docs.
    public func runHelpText(_ setting: String) -> String? {
        guard let spec = settings.spec(setting) else { return nil }
        return "| `\(spec.name)` | `\(spec.kind.placeholder)` | \(spec.defaultValue) | \(spec.abstract) |\n"
    }
}
