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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        try session.set(call[setting], value: call[value], label: "set")
    }
}

/// `settings`: list, show and change settings, as LLDB's `settings` does.
struct SettingsCommand: BuiltInCommand {
    static let prefix = ArgumentSpec.optional(
        "prefix", .word, abstract: "Only settings whose names start with it.", as: String.self)
    static let name = ArgumentSpec.optional(
        "name", .name(.setting), abstract: "The setting, or a prefix of names.", as: String.self)
    static let setting = ArgumentSpec.name("name", .setting, abstract: "The setting's name.")

    enum Verb: String, BuiltInVerbs {
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        switch try call.verb(Verb.self) {
        case .list:
            let specs = try session.settingSpecs(prefix: call[prefix] ?? "")
            let rate = session.engine.refreshRate.hertz
            let values = specs.map { session.settings.value($0.name, rate: rate) }
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
            let specs = try session.settingSpecs(prefix: call[name] ?? "")
            let rate = session.engine.refreshRate.hertz
            let values = specs.map { session.settings.value($0.name, rate: rate) }
            return CommandOutput(
                text: zip(specs, values).map { "\($0.name) = \($1?.description ?? "none")" }.joined(separator: "\n"),
                json: .array(
                    zip(specs, values).map { .fields(["name": .string($0.name), "value": $1?.json ?? .null]) }))
        case .set:
            return try session.set(call[setting], value: call[SetCommand.value], label: "settings set")
        case .clear:
            return try session.clearSetting(call[setting])
        }
    }
}

extension Session {
    /// `set <name> <value>`, or `set <name> = <value>` as gdb and IPython's `%config` write it.
    func set(_ name: String, value words: [Word], label: String) throws(CommandError) -> CommandOutput {
        var words = words[...]
        if words.count == 2, let first = words.first, first.text == "=", !first.quoted { words.removeFirst() }
        guard words.count == 1, let value = words.first else {
            throw CommandError(
                "'\(label)' takes one value: '\(label) \(name) <value>' (or '\(label) \(name) = <value>')")
        }
        return try set(name, value.text)
    }

    /// `settings clear <name>`: the setting back at its default, and whoever it concerns told.
    func clearSetting(_ name: String) throws(CommandError) -> CommandOutput {
        guard let spec = settings.spec(name) else {
            // The same error an unknown name gets from `set`.
            try settings.set(name, text: "", rate: engine.refreshRate.hertz)
            return .silent
        }
        settings.clear(name)
        applyEngineSettings(name)
        settingDidChange(name)
        let value = settings.value(name, rate: engine.refreshRate.hertz)
        return CommandOutput(json: .fields(["setting": .string(spec.name), "value": value?.json ?? .null]))
    }

    /// Hands the engine the settings it reads as plain values (T5, D2, V2).
    func applyEngineSettings(_ name: String? = nil) {
        let rate = engine.refreshRate.hertz
        if name == nil || name == ShellSettings.coalescing.name {
            engine.coalescing = settings.value(ShellSettings.coalescing, rate: rate)
        }
        if name == nil || name == ShellSettings.highFrameRates.name {
            engine.setHighFrameRates(settings.value(ShellSettings.highFrameRates, rate: rate))
        }
        if name == nil || name == ShellSettings.lowPower.name {
            engine.setLowPower(settings.value(ShellSettings.lowPower, rate: rate))
        }
    }

    /// Tells the tool that owns a setting that it changed.
    private func settingDidChange(_ name: String) {
        if let index = registry.toolIndex(forNamespace: name),
            registry.toolDescriptors[index].settings.contains(where: { $0.name == name })
        {
            let tool = toolSet.instances[index]
            calling(.settingChange, tool: index, label: name) { tool.settingDidChange(name) }
        }
    }

    /// Changes a setting from the user's text, and tells whoever it concerns.
    func set(_ name: String, _ text: String) throws(CommandError) -> CommandOutput {
        let rate = engine.refreshRate.hertz
        try settings.set(name, text: text, rate: rate)
        applyEngineSettings(name)
        settingDidChange(name)
        let value = settings.value(name, rate: rate)
        return CommandOutput(json: .fields(["setting": .string(name), "value": value?.json ?? .null]))
    }

    /// The settings whose names start with `prefix`, or an error with a did-you-mean.
    func settingSpecs(prefix: String) throws(CommandError) -> [SettingSpec] {
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
