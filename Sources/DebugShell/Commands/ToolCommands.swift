import DebugShellCore
import DebugShellInterpreter

/// `tools`: the registered tools, one line each.
struct ToolsCommand: BuiltInCommand {
    static let spec = CommandSpec("tools", abstract: "List the registered tools, one line each.")

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let descriptors = context.vocabulary.registry.toolDescriptors
        guard !descriptors.isEmpty else {
            return CommandOutput(text: "no tools registered", json: .array([]))
        }
        let width = descriptors.map(\.name.count).max() ?? 0
        let lines = descriptors.map { d in
            "\(d.name.padding(width))  \(d.abstract) (commands: \(d.commands.map(\.name).joined(separator: ", ")))"
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .array(
                descriptors.map { d in
                    .fields([
                        "name": .string(d.name), "abstract": .string(d.abstract),
                        "commands": .array(d.commands.map { .string($0.name) }),
                    ])
                }))
    }
}

/// `status`: every tool's status line, and what the live block shows.
struct StatusCommand: BuiltInCommand {
    static let target = ArgumentSpec.words(
        "target", abstract: "on|off, or a tool's name followed by on|off.", optional: true)

    static let spec = CommandSpec(
        "status",
        abstract:
            "Print every tool's status line; 'status on|off' and 'status <tool> on|off' choose what the live block shows.",
        arguments: [
            target
        ],
        examples: [Example("> status off\n> status on")])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let words = call[target].map(\.text)
        let tools = context.tools
        let descriptors = context.vocabulary.registry.toolDescriptors
        switch words.count {
        case 0:
            var lines: [String] = []
            var json: [JSONValue] = []
            for (index, d) in descriptors.enumerated() {
                let line = tools.statusLine(of: index)?.plain
                // As the live block shows it: a tool's control characters are spaces.
                lines.append(line.map(VisibleText.blanked) ?? "\(d.name) —")
                json.append(
                    .fields([
                        "tool": .string(d.name), "line": JSONValue(line),
                        "shown": .bool(tools.statusEnabled[index]),
                    ]))
            }
            if lines.isEmpty { lines = ["no tools registered"] }
            let block = tools.blockEnabled
            return CommandOutput(
                text: lines.joined(separator: "\n"), json: .fields(["block": .bool(block), "tools": .array(json)]))
        case 1:
            let on = try ValueParser.boolean(words[0])
            tools.blockEnabled = on
            return CommandOutput(json: .fields(["block": .bool(on)]))
        case 2:
            guard let index = descriptors.firstIndex(where: { $0.name == words[0] }) else {
                var message = "unknown tool '\(words[0])'"
                if let guess = Suggest.closest(to: words[0], in: descriptors.map(\.name)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw CommandError(message)
            }
            let on = try ValueParser.boolean(words[1])
            tools.statusEnabled[index] = on
            return CommandOutput(json: .fields(["tool": .string(words[0]), "shown": .bool(on)]))
        default:
            throw CommandError("usage: status [on|off] or status <tool> on|off")
        }
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        if words.isEmpty { return Completion(candidates: ["on", "off"] + completer.toolNames) }
        if words.count == 1 { return Completion(candidates: ["on", "off"]) }
        return nil
    }
}
