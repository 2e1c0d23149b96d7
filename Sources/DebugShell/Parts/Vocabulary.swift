import DebugShellCore
import DebugShellInterpreter

/// What the shell's words mean now: every command, metric and setting it knows (the registry,
/// which grows when a plugin loads), the aliases, and the settings' values. Durations written in
/// frames (`30f`) read at the device's rate now.
public final class Vocabulary {
    /// Every command, metric and setting namespace the shell knows.
    public private(set) var registry: ToolRegistry
    var aliases: AliasTable
    var settings: SettingsStore
    private let simulation: Simulation

    init(tools: [ToolDescriptor], simulation: Simulation) throws(RegistrationError) {
        registry = try Vocabulary.makeRegistry(tools: tools)
        var settingSpecs = ShellSettings.all.map(\.settingSpec)
        for d in registry.toolDescriptors { settingSpecs += d.settings }
        settings = SettingsStore(specs: settingSpecs)
        aliases = AliasTable(builtIns: AliasCommand.builtIns.map { ($0.name, $0.expansion) })
        self.simulation = simulation
    }

    /// The registry of the built-in commands, the shell's metrics and settings, and `tools`.
    static func makeRegistry(tools: [ToolDescriptor]) throws(RegistrationError) -> ToolRegistry {
        try ToolRegistry(
            builtIns: BuiltInCommands.all.map { ($0.spec, $0.traits) },
            shellMetrics: ShellMetrics.all.map(\.spec) + RecordedMetrics.all.map(\.spec)
                + RecordedMetrics.replay.map(\.spec),
            shellSettings: ShellSettings.all.map(\.settingSpec),
            builtInAliases: AliasCommand.builtIns.map { ($0.name, $0.expansion) }, tools: tools)
    }

    /// Adds tools' declarations (a plugin's): all of them or, when a declaration is wrong or a
    /// name is taken, none.
    func add(_ tools: [ToolDescriptor], plugin: String?) throws(RegistrationError) {
        try registry.add(tools: tools, plugin: plugin)
        for d in tools { settings.add(d.settings) }
    }

    /// The rate `<n>f` durations are read at now.
    var rate: Int { simulation.engine.refreshRate.hertz }

    /// The parser, at the rate `<n>f` durations are read at now.
    var parser: CommandParser { CommandParser(registry: registry, rate: rate) }

    /// A setting's value now, or nil for an unknown name.
    func value(_ name: String) -> ArgumentValue? { settings.value(name, rate: rate) }

    /// A typed setting's value now.
    func value<Value>(_ key: SettingKey<Value>) -> Value { settings.value(key, rate: rate) }

    /// Expands the aliases in a command's words (`r 1s` → `run 1s`).
    func expand(_ words: ArraySlice<Word>) throws(CommandError) -> ArraySlice<Word> {
        try aliases.expand(words, registry: registry)
    }

    /// What `help` knows, at the width help is wrapped to.
    func helpTopics(width: Int) -> HelpTopics {
        HelpTopics(registry: registry, settings: settings, aliases: aliases, width: width)
    }
}
