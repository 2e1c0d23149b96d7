import DebugShellCore

/// Typed, described settings — the shell's own and each tool's — and their values.
///
/// A setting the user has not set reads as its default, resolved at the refresh rate in force
/// when it is read: a default of `2f` is two frames at 60 Hz and at 120 Hz alike. A value the
/// user sets is parsed once, at the rate in force then, as any command's value is.
public struct SettingsStore: Sendable {
    public private(set) var specs: [SettingSpec] = []
    /// Values the user (or a tool's command) set.
    private var values: [String: ArgumentValue] = [:]
    /// Defaults that read the same at any rate, parsed once.
    private var fixedDefaults: [String: ArgumentValue] = [:]

    public init(specs: [SettingSpec]) {
        add(specs)
    }

    /// Adds settings at their defaults (at the start, or for a tool loaded later).
    public mutating func add(_ more: [SettingSpec]) {
        for spec in more {
            specs.append(spec)
            // Defaults are validated at registration (RegistrationError.badDefault) and the
            // shell's own by a unit test, so these parses do not fail.
            if !SettingsStore.dependsOnRate(spec) {
                fixedDefaults[spec.name] = try? ValueParser.parse(spec.defaultValue, as: spec.kind, rate: 60)
            }
        }
    }

    /// Whether a default reads differently at different rates: a duration in frames.
    static func dependsOnRate(_ spec: SettingSpec) -> Bool {
        spec.kind == .duration && spec.defaultValue.hasSuffix("f")
    }

    public func spec(_ name: String) -> SettingSpec? { specs.first { $0.name == name } }

    /// A setting's value at the refresh rate `rate` (its default, if not set); nil for an unknown
    /// name.
    public func value(_ name: String, rate: Int) -> ArgumentValue? {
        if let value = values[name] ?? fixedDefaults[name] { return value }
        guard let spec = spec(name) else { return nil }
        return try? ValueParser.parse(spec.defaultValue, as: spec.kind, rate: rate)
    }

    /// A typed setting's value at the refresh rate `rate`.
    public func value<Value>(_ key: SettingKey<Value>, rate: Int) -> Value {
        key.value(from: value(key.name, rate: rate))
    }

    /// A setting's default at the refresh rate `rate`.
    public func defaultValue(_ name: String, rate: Int) -> ArgumentValue? {
        guard let spec = spec(name) else { return nil }
        return fixedDefaults[name] ?? (try? ValueParser.parse(spec.defaultValue, as: spec.kind, rate: rate))
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

    /// Sets a value directly (a tool's command that is a setting, `fps tiers`); an unknown name
    /// is ignored.
    public mutating func set(_ name: String, value: ArgumentValue) {
        if spec(name) != nil { values[name] = value }
    }

    /// Puts a setting back to its default.
    public mutating func clear(_ name: String) {
        values[name] = nil
    }

    /// Sets a typed setting.
    public mutating func set<Value>(_ key: SettingKey<Value>, to value: Value) {
        set(key.name, value: key.argumentValue(of: value))
    }
}
