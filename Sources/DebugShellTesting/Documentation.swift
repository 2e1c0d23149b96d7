import DebugShell
import DebugShellCore
import DebugShellInterpreter

/// Generates docs/Commands.md from the declarations, so the reference never drifts from `help`
/// (SwiftLint and swift-format generate their rule docs the same way).
public enum Documentation {
    public static func commandsMarkdown(tools: [any DebugTool.Type]) throws -> String {
        let session = try Session(
            tools: tools, options: SessionOptions(interactive: true, width: 100), sink: MemorySink())
        var out = """
            # Command reference

            Generated from the declarations by `Documentation.commandsMarkdown` (DebugShellTesting);
            `swift test` fails when this file is out of date — regenerate it with
            `DEBUGSH_UPDATE_DOCS=1 swift test --filter DocumentationTests`. The same text is what `help`
            prints. Output formats and JSON result shapes: [JSON.md](JSON.md). Rule ids such as `DL7` or
            `S4.1` are the simulated device's rules in [Semantics.md](Semantics.md); `help DL7` prints one.

            """
        func section(_ title: String, _ commands: [RegisteredCommand]) {
            out += "\n## \(title)\n"
            for c in commands {
                out += "\n### `\(c.spec.name)`\n\n```\n\(helpText(session, c.spec.name))\n```\n"
                for verb in c.spec.namedVerbs {
                    out += "\n```\n\(helpText(session, "\(c.spec.name) \(verb.name)"))\n```\n"
                }
            }
        }
        section("Built-in commands", session.registry.commands.filter { $0.owner == .builtIn })
        for (index, d) in session.registry.toolDescriptors.enumerated() {
            out += "\n# Tool `\(d.name)`\n\n\(d.abstract)\n"
            section("Commands", session.registry.commands.filter { $0.owner == .tool(index) })
            if !d.metrics.isEmpty {
                out += "\n## Metrics\n\n| metric | type | meaning |\n|---|---|---|\n"
                for m in d.metrics { out += "| `\(m.name)` | \(m.type.rawValue) | \(m.abstract) |\n" }
            }
            if !d.settings.isEmpty {
                out += "\n## Settings\n\n| setting | value | default | meaning |\n|---|---|---|---|\n"
                for s in d.settings {
                    out += "| `\(s.name)` | `\(s.kind.placeholder)` | \(s.defaultValue) | \(s.abstract) |\n"
                }
            }
            if !d.events.isEmpty {
                out += "\n## Events\n\n| event | meaning |\n|---|---|\n"
                for e in d.events { out += "| `\(e.name)` | \(e.abstract) |\n" }
            }
        }
        out += "\n# The shell's metrics and settings\n\n| metric | type | meaning |\n|---|---|---|\n"
        for m in Session.coreMetrics { out += "| `\(m.name)` | \(m.type.rawValue) | \(m.abstract) |\n" }
        out += "\n| setting | value | default | meaning |\n|---|---|---|---|\n"
        for name in ["shell.stop-on-error", "shell.echo", "shell.history-size", "runloop.coalescing"] {
            if let text = session.runHelpText(name) { out += text }
        }
        return out
    }

    private static func helpText(_ session: Session, _ topic: String) -> String {
        session.helpTextForDocs(topic)
    }
}
