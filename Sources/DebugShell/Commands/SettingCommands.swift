import DebugShellCore
import DebugShellInterpreter

/// `set`: change a setting (the same as `settings set`).
struct SetCommand: BuiltInCommand {
    static let setting = ArgumentSpec.name("setting", .setting, abstract: "The setting's name.")
    static let value = ArgumentSpec.words(
        "value", abstract: "Its new value, of the setting's type; 'name = value' works too.")

    static let spec = CommandSpec(
        "set", abstract: "Change a setting (the same as 'settings set').",
        arguments: [
            setting,
            value,
        ],
        examples: [
            Example(
                "> set runloop.coalescing on\n> settings runloop\nrunloop.coalescing = on  Coalesce timer wake-ups within tolerance and leeway (T5, D2)."
            )
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try SettingsCommand.set(call[setting], value: call[value], label: "set", in: context)
    }
}

/// `settings`: list, show and change settings, as LLDB's `settings` does.
struct SettingsCommand: BuiltInCommand {
    static let prefix = ArgumentSpec.optional(
        "prefix", .word, abstract: "Only settings whose names start with it.", as: String.self)
    static let name = ArgumentSpec.optional(
        "name", .name(.setting), abstract: "The setting, or a prefix of names.", as: String.self)
    static let setting = ArgumentSpec.name("name", .setting, abstract: "The setting's name.")

    enum Verb: String, ToolVerbs {
        case list, show, set, clear

        var declaration: VerbSpec {
            switch self {
            case .list:
                return VerbSpec(
                    "list", abstract: "Every setting with its value and description, or those starting with a prefix.",
                    arguments: [
                        SettingsCommand.prefix
                    ],
                    examples: [
                        Example(
                            "> settings shell.echo\nshell.echo = off  Print each script command, as '> command', before running it (like --echo)."
                        )
                    ])
            case .show:
                return VerbSpec(
                    "show", abstract: "A setting's value as 'name = value', or every value starting with a prefix.",
                    arguments: [
                        SettingsCommand.name
                    ],
                    examples: [
                        Example(
                            """
                            > settings show timer.late-threshold
                            timer.late-threshold = 1ms
                            > settings show runloop
                            runloop.coalescing = off
                            """)
                    ])
            case .set:
                return VerbSpec(
                    "set", abstract: "Change a setting (the same as 'set').",
                    arguments: [
                        SettingsCommand.setting,
                        SetCommand.value,
                    ],
                    examples: [
                        Example(
                            """
                            > settings set timer.late-threshold 5ms
                            > settings show timer.late-threshold
                            timer.late-threshold = 5ms
                            > settings set fps.tiers = wwdc20
                            > settings show fps.tiers
                            fps.tiers = wwdc20
                            """)
                    ])
            case .clear:
                return VerbSpec(
                    "clear", abstract: "Put a setting back to its default, as LLDB's 'settings clear' does.",
                    arguments: [
                        SettingsCommand.setting
                    ],
                    examples: [
                        Example(
                            """
                            > settings set timer.late-threshold 5ms
                            > settings clear timer.late-threshold
                            > settings show timer.late-threshold
                            timer.late-threshold = 1ms
                            """)
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "settings", abstract: "Show, list and change settings, as LLDB's 'settings' does.",
        discussion:
            "'settings' alone, or with a prefix, lists settings with their values and descriptions ('settings list'). "
            + "'settings show' prints values only, as 'name = value'; 'settings set' is 'set'; 'settings clear' "
            + "puts one back to its default.",
        verbs: Verb.declarations, defaultVerb: Verb.list.rawValue)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let vocabulary = context.vocabulary
        switch try call.verb(Verb.self) {
        case .list:
            let specs = try settingSpecs(prefix: call[prefix] ?? "", in: vocabulary.settings)
            let values = specs.map { vocabulary.value($0.name) }
            let heads = zip(specs, values).map { "\($0.name) = \($1?.description ?? "none")" }
            let width = heads.map(\.count).max() ?? 0
            let lines = zip(heads, specs).map { head, spec in head.padding(width) + "  " + spec.abstract }
            return CommandOutput(
                text: lines.joined(separator: "\n"),
                json: .array(
                    zip(specs, values).map {
                        .fields([
                            "name": .string($0.name), "value": $1?.json ?? .null, "abstract": .string($0.abstract),
                        ])
                    }))
        case .show:
            let specs = try settingSpecs(prefix: call[name] ?? "", in: vocabulary.settings)
            let values = specs.map { vocabulary.value($0.name) }
            return CommandOutput(
                text: zip(specs, values).map { "\($0.name) = \($1?.description ?? "none")" }.joined(separator: "\n"),
                json: .array(
                    zip(specs, values).map { .fields(["name": .string($0.name), "value": $1?.json ?? .null]) }))
        case .set:
            return try set(call[setting], value: call[SetCommand.value], label: "settings set", in: context)
        case .clear:
            return try clear(call[setting], in: context)
        }
    }

    /// `set <name> <value>`, or `set <name> = <value>` as gdb and IPython's `%config` write it.
    static func set(_ name: String, value words: [Word], label: String, in context: CommandContext)
        throws(CommandError) -> CommandOutput
    {
        var words = words[...]
        if words.count == 2, let first = words.first, first.text == "=", !first.quoted { words.removeFirst() }
        guard words.count == 1, let value = words.first else {
            throw CommandError(
                "'\(label)' takes one value: '\(label) \(name) <value>' (or '\(label) \(name) = <value>')")
        }
        let vocabulary = context.vocabulary
        try vocabulary.settings.set(name, text: value.text, rate: vocabulary.rate)
        return changed(name, in: context)
    }

    /// `settings clear <name>`: the setting back at its default, and whoever it concerns told.
    private static func clear(_ name: String, in context: CommandContext) throws(CommandError) -> CommandOutput {
        let vocabulary = context.vocabulary
        guard vocabulary.settings.spec(name) != nil else {
            // The same error an unknown name gets from `set`.
            try vocabulary.settings.set(name, text: "", rate: vocabulary.rate)
            return .silent
        }
        vocabulary.settings.clear(name)
        return changed(name, in: context)
    }

    /// Tells whoever a setting concerns that it changed — the device (T5, D2, V2), the tool that
    /// owns it — and says its value.
    private static func changed(_ name: String, in context: CommandContext) -> CommandOutput {
        let vocabulary = context.vocabulary
        context.simulation.apply(vocabulary.settings, changed: name)
        context.tools.settingDidChange(name)
        let value = vocabulary.value(name)
        return CommandOutput(json: .fields(["setting": .string(name), "value": value?.json ?? .null]))
    }

    /// The settings whose names start with `prefix`, or an error with a did-you-mean.
    private static func settingSpecs(prefix: String, in settings: SettingsStore) throws(CommandError)
        -> [SettingSpec]
    {
        let specs = settings.specs.filter { $0.name.hasPrefix(prefix) }
        guard specs.isEmpty else { return specs }
        var message = "no setting starts with '\(prefix)'"
        if let guess = Suggest.closest(to: prefix, in: settings.specs.map(\.name)) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " ('settings list' lists them)"
        }
        throw CommandError(message)
    }
}
