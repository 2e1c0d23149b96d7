import DebugShellCore

/// Typed, described settings: the shell's own (`shell.*`, `runloop.*`) and each tool's.
public struct SettingsStore {
    public private(set) var specs: [SettingSpec] = []
    private var values: [String: ArgumentValue] = [:]

    /// The shell's own settings.
    public static let shellSettings: [SettingSpec] = [
        SettingSpec(
            "shell.stop-on-error", .boolean, default: "on",
            abstract: "Stop a script at the first failed command (--keep-going turns it off)."),
        SettingSpec(
            "shell.echo", .boolean, default: "off",
            abstract: "Print each script command, as '> command', before running it (like --echo)."),
        SettingSpec(
            "shell.history-size", .integer(0...100_000), default: "1000",
            abstract: "How many commands the interactive history file keeps."),
        SettingSpec(
            "runloop.coalescing", .boolean, default: "off",
            abstract: "Coalesce timer wake-ups within tolerance and leeway (T5, D2)."),
    ]

    public init(specs: [SettingSpec]) {
        add(specs)
    }

    /// Adds settings at their defaults (at the start, or for a tool loaded later).
    public mutating func add(_ more: [SettingSpec]) {
        for spec in more {
            specs.append(spec)
            // Tools' defaults are validated at registration (RegistrationError.badDefault) and the
            // shell's are checked by a unit test, so this parse does not fail.
            values[spec.name] = try? ValueParser.parse(spec.defaultValue, as: spec.kind, rate: 60)
        }
    }

    public func spec(_ name: String) -> SettingSpec? { specs.first { $0.name == name } }

    public func value(_ name: String) -> ArgumentValue? { values[name] }

    public func boolean(_ name: String) -> Bool {
        if case .boolean(let b)? = values[name] { return b }
        return false
    }

    /// Sets a setting from the user's text, checking its type.
    public mutating func set(_ name: String, text: String, rate: Int) throws(CommandError) {
        guard let spec = spec(name) else {
            var message = "unknown setting '\(name)'"
            if let guess = Suggest.closest(to: name, in: specs.map(\.name)) { message += "; did you mean '\(guess)'?" }
            throw CommandError(message)
        }
        do {
            values[name] = try ValueParser.parse(text, as: spec.kind, rate: rate)
        } catch {
            throw CommandError("\(name): \(error.message)")
        }
    }

    /// Sets a value directly (a tool's command that is a setting, `fps tiers`).
    public mutating func set(_ name: String, value: ArgumentValue) {
        if spec(name) != nil { values[name] = value }
    }
}
