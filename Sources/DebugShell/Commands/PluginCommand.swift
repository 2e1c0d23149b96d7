import DebugShellCore
import DebugShellInterpreter

/// `plugin`: load tools from a plugin library built outside debugsh, and list what is loaded.
struct PluginCommand: BuiltInCommand {
    static let path = ArgumentSpec.path("path", abstract: "The library (a .so file); '~/' is the home folder.")
    static let name = ArgumentSpec.word("name", abstract: "The plugin's name (see 'plugin list').")
    static let from = OptionSpec.path(
        "from", abstract: "The library to load when it is not loaded; it must hold the plugin of that name.")

    enum Verb: String, ToolVerbs {
        case list, load, require

        var declaration: VerbSpec {
            switch self {
            case .list:
                return VerbSpec(
                    "list", abstract: "The built-in tools and each loaded plugin: name, version, path as given, tools.",
                    examples: [
                        Example(
                            "> plugin list\nname      version  path          tools\nbuilt-in  0.2.0    (in debugsh)  fps, layout, timer\nno plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)"
                        )
                    ])
            case .load:
                return VerbSpec(
                    "load", abstract: "Load a plugin library and register its tools (all or none).",
                    discussion:
                        "A library cannot be unloaded: to load a plugin rebuilt at the same path, restart debugsh (loading it again says so).",
                    arguments: [PluginCommand.path],
                    examples: [
                        Example(
                            "> plugin load no-such-plugin.so\nerror: cannot load plugin 'no-such-plugin.so': No such file or directory"
                        )
                    ])
            case .require:
                return VerbSpec(
                    "require", abstract: "Need a plugin by name: nothing if it is loaded, else load it from --from.",
                    discussion:
                        "Recordings have it where each plugin was loaded, so that a replay works whether or not the plugin was loaded at start. The name is checked first, and the plugin's name at --from before anything of it is registered.",
                    arguments: [PluginCommand.name],
                    options: [PluginCommand.from],
                    examples: [
                        Example(
                            "> plugin require hangs\nerror: this needs the plugin 'hangs': load it with 'plugin load <path>' or 'debugsh --plugin <path>'"
                        )
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "plugin", abstract: "Load tools from a plugin library built outside debugsh, and list what is loaded.",
        discussion:
            "A plugin is a shared library built against this debugsh's DebugShellCore package with the same Swift toolchain (docs/Plugins.md); 'debugsh --version' names the plugin API, the compiler and the fingerprint of DebugShellCore's sources that a plugin must have been built with. Its tools are tools like the built-in ones. Libraries in $XDG_CONFIG_HOME/debugsh/plugins/ load at start unless --no-plugins; --plugin <path> loads one from the command line.",
        verbs: Verb.declarations, defaultVerb: Verb.list.rawValue)

    /// A recording requires a plugin where it was loaded instead (`logPluginLoaded`).
    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        switch try call.verb(Verb.self) {
        case .load:
            let plugin = try context.shell.loadPlugin(call[path], named: nil)
            return CommandOutput(
                text: "loaded plugin \(plugin.name) \(plugin.version): \(plugin.tools.joined(separator: ", "))",
                json: json(plugin))
        case .require:
            let name = call[name]
            guard ToolRegistry.isIdentifier(name) else {
                throw CommandError("plugin name '\(name)' is not valid: \(Self.nameRule)")
            }
            if let loaded = context.tools.plugins.first(where: { $0.name == name }) {
                return CommandOutput(json: json(loaded))
            }
            guard let path = call[from] else {
                throw CommandError(
                    "this needs the plugin '\(name)': load it with 'plugin load <path>' or 'debugsh --plugin <path>'")
            }
            let plugin = try context.shell.loadPlugin(path, named: name)
            return CommandOutput(json: json(plugin))
        case .list:
            return list(context)
        }
    }

    /// `plugin load` as a scheduled command reads its library from where it was issued: a
    /// recording writes the path absolute.
    static func recordedPath(of arguments: ArraySlice<Word>, verb: String, issuedAt location: SourceLocation)
        -> String?
    {
        guard Verb(rawValue: verb) == .load, let word = arguments.last, !word.text.hasPrefix("~") else { return nil }
        return word.text
    }

    /// `--check` loads no plugin, so the commands and metrics after a `plugin load` may be a
    /// plugin's: from there on they are noted, not refused.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        if call.is(Verb.load) { checker.pluginsMayAdd = true }
    }

    /// The grammar of plugin names (as of tool, command, verb and option names), in messages.
    static let nameRule = "a plugin name is [a-z][a-z0-9-]*, a lowercase letter then lowercase letters, digits and '-'"

    private static func json(_ p: LoadedPlugin) -> JSONValue {
        .fields([
            "name": .string(p.name), "version": .string(p.version), "path": .string(p.path),
            "resolved_path": .string(p.resolvedPath), "tools": .array(p.tools.map { .string($0) }),
        ])
    }

    /// `plugin list`: the built-in tools, then each loaded library.
    private static func list(_ context: CommandContext) -> CommandOutput {
        let plugins = context.tools.plugins
        let loadedTools = Set(plugins.flatMap(\.tools))
        let builtIn = context.vocabulary.registry.toolDescriptors.map(\.name).filter { !loadedTools.contains($0) }
        var rows = [["name", "version", "path", "tools"]]
        rows.append(["built-in", DebugShellVersion.text, "(in debugsh)", builtIn.joined(separator: ", ")])
        for p in plugins { rows.append([p.name, p.version, p.path, p.tools.joined(separator: ", ")]) }
        let widths = (0..<4).map { k in rows.map { $0[k].count }.max() ?? 0 }
        let text = rows.map { row in
            row.enumerated().map { k, cell in k == 3 ? cell : cell.padding(widths[k]) }.joined(separator: "  ")
        }.joined(separator: "\n")
        var json: [JSONValue] = [
            .fields([
                "name": .string("built-in"), "version": .string(DebugShellVersion.text), "path": .null,
                "resolved_path": .null, "tools": .array(builtIn.map { .string($0) }),
            ])
        ]
        json += plugins.map(Self.json)
        let footer = plugins.isEmpty ? "\nno plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)" : ""
        return CommandOutput(text: text + footer, json: .array(json))
    }
}
