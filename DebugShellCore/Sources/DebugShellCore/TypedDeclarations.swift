/// Typed declarations: an option, argument or setting is declared once — name, kind, help and
/// default — and read back through the same value, so its name cannot be misspelt at the read
/// and its default is not written twice (ArgumentParser's `@Option(help:) var kind = .mean`).
///
/// ```swift
/// static let over = OptionSpec.duration("over", abstract: "The hitch length to report.", default: .milliseconds(250))
/// static let watch = VerbSpec("watch", abstract: "…", options: [over])
/// …
/// let threshold = invocation[Self.over]   // a SimDuration: the value given, or 250ms
/// ```

/// Something that declares an option of a verb: a typed ``OptionKey`` or a plain ``OptionSpec``.
public protocol OptionDeclaration: Sendable {
    /// The declaration help, completion and the parser read.
    var optionSpec: OptionSpec { get }
}

/// Something that declares a positional argument: a typed ``ArgumentKey`` or a plain
/// ``ArgumentSpec``.
public protocol ArgumentDeclaration: Sendable {
    var argumentSpec: ArgumentSpec { get }
}

/// Something that declares a setting: a typed ``SettingKey`` or a plain ``SettingSpec``.
public protocol SettingDeclaration: Sendable {
    var settingSpec: SettingSpec { get }
}

extension OptionSpec: OptionDeclaration {
    public var optionSpec: OptionSpec { self }
}

extension ArgumentSpec: ArgumentDeclaration {
    public var argumentSpec: ArgumentSpec { self }
}

extension SettingSpec: SettingDeclaration {
    public var settingSpec: SettingSpec { self }
}

/// An option declared with its type and default; `invocation[key]` reads its value.
public struct OptionKey<Value: Sendable>: OptionDeclaration {
    public let optionSpec: OptionSpec
    @usableFromInline let read: @Sendable (ArgumentValue?) -> Value

    /// The option's name, without dashes.
    @inlinable public var name: String { optionSpec.name }

    /// What `invocation[key]` reads when the option is not given: its default, or nil for an
    /// optional one. A tool's state before the first command can start from it
    /// (`var threshold = Self.over.defaultValue`), so the default stays written once.
    public var defaultValue: Value { read(nil) }

    /// The same option, refusing a duration of 0 when the command is parsed (``OptionSpec/positive``).
    public func positive() -> OptionKey {
        var spec = optionSpec
        spec.positive = true
        return OptionKey(optionSpec: spec, read: read)
    }
}

/// A flag (`--ui`): `invocation[key]` is whether it was given.
public struct FlagKey: OptionDeclaration {
    public let optionSpec: OptionSpec
    @inlinable public var name: String { optionSpec.name }
}

/// A positional argument declared with its type; `invocation[key]` reads its value.
///
/// A required argument reads as a plain value: the parser refuses a command without it, so the
/// value is always there when the command runs. An optional one reads as its default, or as an
/// optional when it has none.
public struct ArgumentKey<Value: Sendable>: ArgumentDeclaration {
    public let argumentSpec: ArgumentSpec
    @usableFromInline let read: @Sendable (ArgumentValue?) -> Value

    @inlinable public var name: String { argumentSpec.name }
}

/// A setting declared with its type and default; `host.setting(key)` reads it and
/// `host.setSetting(key, to:)` changes it.
public struct SettingKey<Value: Sendable>: SettingDeclaration {
    public let settingSpec: SettingSpec
    @usableFromInline let read: @Sendable (ArgumentValue?) -> Value
    @usableFromInline let write: @Sendable (Value) -> ArgumentValue

    public var name: String { settingSpec.name }

    /// The setting's default value, as declared.
    public var defaultValue: Value { read(nil) }

    /// The typed value of a stored one: the value, or the default when none is stored or it is
    /// of another kind. For hosts, which store settings as ``ArgumentValue``s.
    @inlinable
    public func value(from stored: ArgumentValue?) -> Value { read(stored) }

    /// How a value is stored. For hosts.
    public func argumentValue(of value: Value) -> ArgumentValue { write(value) }
}

// MARK: - Reading

extension Invocation {
    /// The value of a typed option: the one given, or its default.
    @inlinable
    public subscript<Value>(_ key: OptionKey<Value>) -> Value { key.read(values[key.name]) }

    /// Whether a flag was given.
    @inlinable
    public subscript(_ key: FlagKey) -> Bool { flags.contains(key.name) }

    /// The value of a typed argument.
    @inlinable
    public subscript<Value>(_ key: ArgumentKey<Value>) -> Value { key.read(values[key.name]) }

    /// Whether the option or flag was given at all (not only its default).
    public func has(_ key: some OptionDeclaration) -> Bool {
        let name = key.optionSpec.name
        return values[name] != nil || flags.contains(name)
    }

    /// Whether the argument was given (an optional one may be left out).
    public func has(_ key: some ArgumentDeclaration) -> Bool { values[key.argumentSpec.name] != nil }
}

extension ToolHost {
    /// The current value of one of the tool's typed settings.
    @inlinable
    public func setting<Value>(_ key: SettingKey<Value>) -> Value { key.read(setting(key.name)) }

    /// Changes one of the tool's typed settings (a command like `fps tiers` is a setting).
    public func setSetting<Value>(_ key: SettingKey<Value>, to value: Value) {
        setSetting(key.name, to: key.write(value))
    }
}

// MARK: - Values on the command line

/// A type whose values a command line carries: how one is read from a parsed ``ArgumentValue``
/// and written back (for a default's help text and a setting's value).
public protocol CommandLineValue: Sendable {
    init?(argumentValue: ArgumentValue)
    var argumentValue: ArgumentValue { get }
}

extension SimDuration: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .duration(let d) = argumentValue else { return nil }
        self = d
    }
    public var argumentValue: ArgumentValue { .duration(self) }
}

extension SimTime: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .time(let t) = argumentValue else { return nil }
        self = t
    }
    public var argumentValue: ArgumentValue { .time(self) }
}

extension RefreshRate: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .rate(let r) = argumentValue else { return nil }
        self = r
    }
    public var argumentValue: ArgumentValue { .rate(self) }
}

extension Int64: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .integer(let v) = argumentValue else { return nil }
        self = v
    }
    public var argumentValue: ArgumentValue { .integer(self) }
}

extension Double: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .decimal(let v) = argumentValue else { return nil }
        self = v
    }
    public var argumentValue: ArgumentValue { .decimal(self) }
}

extension Bool: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .boolean(let b) = argumentValue else { return nil }
        self = b
    }
    public var argumentValue: ArgumentValue { .boolean(self) }
}

extension String: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .word(let w) = argumentValue else { return nil }
        self = w
    }
    public var argumentValue: ArgumentValue { .word(self) }
}

extension FrameRect: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .rect(let r) = argumentValue else { return nil }
        self = r
    }
    public var argumentValue: ArgumentValue { .rect(self) }
}

extension FrameRateRange: CommandLineValue {
    public init?(argumentValue: ArgumentValue) {
        guard case .frameRateRange(let r) = argumentValue else { return nil }
        self = r
    }
    public var argumentValue: ArgumentValue { .frameRateRange(self) }
}

/// A fixed set of words as an enum: `enum Mode: String, CaseIterable { case common, default }`.
public protocol CommandLineChoice: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

// MARK: - Declaring options

extension OptionSpec {
    /// A flag: `--name`, given or not.
    public static func flag(_ name: String, abstract: String) -> FlagKey {
        FlagKey(optionSpec: OptionSpec(name, abstract: abstract))
    }

    /// An option of any kind whose value reads as `Value`, with a default used when it is not
    /// given.
    ///
    /// - Parameters:
    ///   - name: The option's name, without dashes.
    ///   - kind: How its value is parsed and completed.
    ///   - abstract: One sentence for help.
    ///   - value: The value read when the option is not given.
    ///   - defaultText: How help shows the default; by default as the command line writes
    ///     `value` (`250ms`, `on`, `0,0,0,0`).
    public static func typed<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Value, defaultText: String? = nil
    ) -> OptionKey<Value> {
        var spec = OptionSpec(name, kind, abstract: abstract, default: defaultText ?? value.argumentValue.description)
        spec.typedDefault = value.argumentValue
        return OptionKey(optionSpec: spec) { $0.flatMap(Value.init(argumentValue:)) ?? value }
    }

    /// An option whose default is an integer literal: it reads as an `Int64`, the type the
    /// command line carries integers as (without this, `default: 1` made a `Double` that never
    /// read what was typed).
    public static func typed(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Int64, defaultText: String? = nil
    ) -> OptionKey<Int64> {
        var spec = OptionSpec(name, kind, abstract: abstract, default: defaultText ?? value.argumentValue.description)
        spec.typedDefault = value.argumentValue
        return OptionKey(optionSpec: spec) { $0.flatMap(Int64.init(argumentValue:)) ?? value }
    }

    /// An option of any kind whose value reads as `Value?`: nil when it is not given.
    /// `defaultText` says in help what happens then (`forever`, `the interval`).
    public static func typed<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, defaultText: String? = nil, as type: Value.Type
    ) -> OptionKey<Value?> {
        OptionKey(optionSpec: OptionSpec(name, kind, abstract: abstract, default: defaultText)) {
            $0.flatMap(Value.init(argumentValue:))
        }
    }

    /// A duration with a default; `defaultText` says how help shows it when not as the value
    /// (`0` for zero).
    public static func duration(
        _ name: String, abstract: String, default value: SimDuration, defaultText: String? = nil
    ) -> OptionKey<SimDuration> {
        typed(name, .duration, abstract: abstract, default: value, defaultText: defaultText)
    }
    public static func duration(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<SimDuration?>
    {
        typed(name, .duration, abstract: abstract, defaultText: defaultText, as: SimDuration.self)
    }
    public static func time(_ name: String, abstract: String, default value: SimTime) -> OptionKey<SimTime> {
        typed(name, .time, abstract: abstract, default: value)
    }
    public static func time(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<SimTime?> {
        typed(name, .time, abstract: abstract, defaultText: defaultText, as: SimTime.self)
    }
    public static func rate(_ name: String, abstract: String, default value: RefreshRate) -> OptionKey<RefreshRate> {
        typed(name, .rate, abstract: abstract, default: value)
    }
    public static func rate(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<RefreshRate?> {
        typed(name, .rate, abstract: abstract, defaultText: defaultText, as: RefreshRate.self)
    }
    /// A `CAFrameRateRange`, `min,max[,preferred]` in whole hertz (``ValueKind/frameRateRange``):
    /// the parser refuses a bad range before the command runs, and `--check` finds it.
    public static func frameRateRange(
        _ name: String, abstract: String, default value: FrameRateRange
    ) -> OptionKey<FrameRateRange> {
        typed(name, .frameRateRange, abstract: abstract, default: value)
    }
    public static func frameRateRange(
        _ name: String, abstract: String, defaultText: String? = nil
    ) -> OptionKey<FrameRateRange?> {
        typed(name, .frameRateRange, abstract: abstract, defaultText: defaultText, as: FrameRateRange.self)
    }
    public static func integer(
        _ name: String, in range: ClosedRange<Int64>, abstract: String, default value: Int64
    ) -> OptionKey<Int64> {
        typed(name, .integer(range), abstract: abstract, default: value)
    }
    public static func integer(
        _ name: String, in range: ClosedRange<Int64>, abstract: String, defaultText: String? = nil
    ) -> OptionKey<Int64?> {
        typed(name, .integer(range), abstract: abstract, defaultText: defaultText, as: Int64.self)
    }
    public static func decimal(_ name: String, abstract: String, default value: Double) -> OptionKey<Double> {
        typed(name, .decimal, abstract: abstract, default: value)
    }
    public static func decimal(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<Double?> {
        typed(name, .decimal, abstract: abstract, defaultText: defaultText, as: Double.self)
    }
    public static func boolean(_ name: String, abstract: String, default value: Bool) -> OptionKey<Bool> {
        typed(name, .boolean, abstract: abstract, default: value)
    }
    public static func boolean(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<Bool?> {
        typed(name, .boolean, abstract: abstract, defaultText: defaultText, as: Bool.self)
    }
    public static func rect(_ name: String, abstract: String, default value: FrameRect) -> OptionKey<FrameRect> {
        typed(name, .rect, abstract: abstract, default: value)
    }
    public static func rect(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<FrameRect?> {
        typed(name, .rect, abstract: abstract, defaultText: defaultText, as: FrameRect.self)
    }
    public static func word(_ name: String, abstract: String, default value: String) -> OptionKey<String> {
        typed(name, .word, abstract: abstract, default: value)
    }
    public static func word(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<String?> {
        typed(name, .word, abstract: abstract, defaultText: defaultText, as: String.self)
    }
    /// A name in a domain (a view, a timer), completed from the tool's candidates.
    public static func name(
        _ name: String, _ domain: NameDomain, abstract: String, default value: String
    ) -> OptionKey<String> {
        typed(name, .name(domain), abstract: abstract, default: value)
    }
    public static func name(
        _ name: String, _ domain: NameDomain, abstract: String, defaultText: String? = nil
    ) -> OptionKey<String?> {
        typed(name, .name(domain), abstract: abstract, defaultText: defaultText, as: String.self)
    }
    public static func path(_ name: String, abstract: String, default value: String) -> OptionKey<String> {
        typed(name, .path, abstract: abstract, default: value)
    }
    public static func path(_ name: String, abstract: String, defaultText: String? = nil) -> OptionKey<String?> {
        typed(name, .path, abstract: abstract, defaultText: defaultText, as: String.self)
    }
    /// One of an enum's cases, by raw value.
    public static func choice<Choice: CommandLineChoice>(
        _ name: String, abstract: String, default value: Choice
    ) -> OptionKey<Choice> {
        choice(name, among: Array(Choice.allCases), abstract: abstract, default: value)
    }
    /// One of an enum's cases, or nil when not given.
    public static func choice<Choice: CommandLineChoice>(
        _ name: String, abstract: String, defaultText: String? = nil, as type: Choice.Type
    ) -> OptionKey<Choice?> {
        choice(name, among: Array(Choice.allCases), abstract: abstract, defaultText: defaultText)
    }
    /// One of the given cases, by raw value, offered in the order given: for an enum that is not
    /// `CaseIterable`, or whose declaration order is not the order help should list.
    ///
    /// ```swift
    /// static let mode = OptionSpec.choice(
    ///     "mode", among: [RunLoopMode.common, .default, .tracking], abstract: "The link's mode.", default: .common)
    /// ```
    public static func choice<Choice: RawRepresentable & Sendable>(
        _ name: String, among cases: [Choice], abstract: String, default value: Choice
    ) -> OptionKey<Choice> where Choice.RawValue == String {
        OptionKey(
            optionSpec: OptionSpec(name, .choice(cases.map(\.rawValue)), abstract: abstract, default: value.rawValue)
        ) { $0.flatMap(String.init(argumentValue:)).flatMap(Choice.init(rawValue:)) ?? value }
    }
    /// One of the given cases, in the order given, or nil when not given.
    public static func choice<Choice: RawRepresentable & Sendable>(
        _ name: String, among cases: [Choice], abstract: String, defaultText: String? = nil
    ) -> OptionKey<Choice?> where Choice.RawValue == String {
        OptionKey(
            optionSpec: OptionSpec(name, .choice(cases.map(\.rawValue)), abstract: abstract, default: defaultText)
        ) { $0.flatMap(String.init(argumentValue:)).flatMap(Choice.init(rawValue:)) }
    }
}

// MARK: - Declaring arguments

extension ArgumentSpec {
    /// A required argument: it always has a value when the command runs. `fallback` is never
    /// read after a successful parse; it stands in for a host that builds an ``Invocation`` by
    /// hand without the value.
    public static func required<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, fallback: Value
    ) -> ArgumentKey<Value> {
        required(name, kind, abstract: abstract, fallback: fallback, as: Value.self)
    }

    /// A required argument whose fallback is an integer literal: it reads as an `Int64`.
    public static func required(
        _ name: String, _ kind: ValueKind, abstract: String, fallback: Int64
    ) -> ArgumentKey<Int64> {
        required(name, kind, abstract: abstract, fallback: fallback, as: Int64.self)
    }

    private static func required<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, fallback: Value, as type: Value.Type
    ) -> ArgumentKey<Value> {
        var spec = ArgumentSpec(name, kind, abstract: abstract)
        spec.typedDefault = fallback.argumentValue
        return ArgumentKey(argumentSpec: spec) { $0.flatMap(Value.init(argumentValue:)) ?? fallback }
    }

    /// An optional argument that reads as its default when left out. The default must be of
    /// the declared kind (an `Int64` for `.integer`, a `Double` for `.decimal`…): the host refuses
    /// one that is not when the tool is registered.
    public static func optional<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Value
    ) -> ArgumentKey<Value> {
        optional(name, kind, abstract: abstract, default: value, reading: Value.self)
    }

    /// An optional argument whose default is an integer literal (`default: 1`): it reads as an
    /// `Int64`, as the command line carries integers (without this overload the literal made a
    /// `Double` that never read what was typed).
    public static func optional(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Int64
    ) -> ArgumentKey<Int64> {
        optional(name, kind, abstract: abstract, default: value, reading: Int64.self)
    }

    private static func optional<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Value, reading type: Value.Type
    ) -> ArgumentKey<Value> {
        var spec = ArgumentSpec(name, kind, abstract: abstract, optional: true)
        spec.typedDefault = value.argumentValue
        return ArgumentKey(argumentSpec: spec) { $0.flatMap(Value.init(argumentValue:)) ?? value }
    }

    /// An optional argument that reads as nil when left out.
    public static func optional<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, as type: Value.Type
    ) -> ArgumentKey<Value?> {
        ArgumentKey(argumentSpec: ArgumentSpec(name, kind, abstract: abstract, optional: true)) {
            $0.flatMap(Value.init(argumentValue:))
        }
    }

    public static func duration(_ name: String, abstract: String) -> ArgumentKey<SimDuration> {
        required(name, .duration, abstract: abstract, fallback: .zero)
    }
    public static func time(_ name: String, abstract: String) -> ArgumentKey<SimTime> {
        required(name, .time, abstract: abstract, fallback: .zero)
    }
    public static func rate(_ name: String, abstract: String) -> ArgumentKey<RefreshRate> {
        required(name, .rate, abstract: abstract, fallback: .sixty)
    }
    public static func integer(_ name: String, in range: ClosedRange<Int64>, abstract: String) -> ArgumentKey<Int64> {
        required(name, .integer(range), abstract: abstract, fallback: range.lowerBound)
    }
    public static func decimal(_ name: String, abstract: String) -> ArgumentKey<Double> {
        required(name, .decimal, abstract: abstract, fallback: 0)
    }
    public static func boolean(_ name: String, abstract: String) -> ArgumentKey<Bool> {
        required(name, .boolean, abstract: abstract, fallback: false)
    }
    public static func rect(_ name: String, abstract: String) -> ArgumentKey<FrameRect> {
        required(name, .rect, abstract: abstract, fallback: .zero)
    }
    public static func frameRateRange(_ name: String, abstract: String) -> ArgumentKey<FrameRateRange> {
        required(name, .frameRateRange, abstract: abstract, fallback: FrameRateRange(valid: 60, 60))
    }
    public static func word(_ name: String, abstract: String) -> ArgumentKey<String> {
        required(name, .word, abstract: abstract, fallback: "")
    }
    public static func name(_ name: String, _ domain: NameDomain, abstract: String) -> ArgumentKey<String> {
        required(name, .name(domain), abstract: abstract, fallback: "")
    }
    public static func path(_ name: String, abstract: String) -> ArgumentKey<String> {
        required(name, .path, abstract: abstract, fallback: "")
    }
    /// One of an enum's cases, by raw value. It reads as an optional either way: nil when an
    /// optional one is left out; a required one always has its case once the command parsed.
    public static func choice<Choice: CommandLineChoice>(
        _ name: String, abstract: String, optional: Bool = false, as type: Choice.Type
    ) -> ArgumentKey<Choice?> {
        ArgumentKey(
            argumentSpec: ArgumentSpec(
                name, .choice(Choice.allCases.map(\.rawValue)), abstract: abstract, optional: optional)
        ) { $0.flatMap(String.init(argumentValue:)).flatMap(Choice.init(rawValue:)) }
    }
    /// One of an enum's cases, by raw value, that may be left out and then reads as `value`.
    public static func choice<Choice: CommandLineChoice>(
        _ name: String, abstract: String, default value: Choice
    ) -> ArgumentKey<Choice> {
        ArgumentKey(
            argumentSpec: ArgumentSpec(
                name, .choice(Choice.allCases.map(\.rawValue)), abstract: abstract, optional: true)
        ) { $0.flatMap(String.init(argumentValue:)).flatMap(Choice.init(rawValue:)) ?? value }
    }
    /// Every remaining word, unparsed (`echo <words…>`); empty when there are none.
    ///
    /// - Parameters:
    ///   - name: The argument's name in help (`<words…>`).
    ///   - kind: What the words are, for completion (`.path` completes file names).
    ///   - abstract: One sentence for help.
    ///   - optional: Whether the command runs without any.
    ///   - allowsOptions: The verb's own options may still stand among the words
    ///     (`run until <condition> --timeout 5s`); otherwise every remaining word is taken as is.
    public static func words(
        _ name: String, _ kind: ValueKind = .word, abstract: String, optional: Bool = false,
        allowsOptions: Bool = false
    ) -> ArgumentKey<[Word]> {
        ArgumentKey(
            argumentSpec: ArgumentSpec(
                name, kind, abstract: abstract, optional: optional, rest: true, restAllowsOptions: allowsOptions)
        ) {
            if case .words(let words)? = $0 { return words }
            return []
        }
    }
}

// MARK: - Declaring settings

extension SettingSpec {
    /// A setting whose value reads as `Value`; its default is written once, as a value.
    ///
    /// `defaultText` is the default as the command line writes it, when that is not how the
    /// value prints: `1f`, one frame at the refresh rate in force whenever it is read (the host
    /// resolves it; the value, one frame at 60 Hz, is what ``SettingKey/defaultValue`` says).
    public static func typed<Value: CommandLineValue>(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Value, defaultText: String? = nil
    ) -> SettingKey<Value> {
        SettingKey(
            settingSpec: SettingSpec(
                name, kind, default: defaultText ?? value.argumentValue.description, abstract: abstract),
            read: { $0.flatMap(Value.init(argumentValue:)) ?? value }, write: { $0.argumentValue })
    }

    /// A setting whose default is an integer literal (`default: 4`): it reads as an `Int64`.
    public static func typed(
        _ name: String, _ kind: ValueKind, abstract: String, default value: Int64, defaultText: String? = nil
    ) -> SettingKey<Int64> {
        SettingKey(
            settingSpec: SettingSpec(
                name, kind, default: defaultText ?? value.argumentValue.description, abstract: abstract),
            read: { $0.flatMap(Int64.init(argumentValue:)) ?? value }, write: { $0.argumentValue })
    }

    public static func boolean(_ name: String, abstract: String, default value: Bool) -> SettingKey<Bool> {
        typed(name, .boolean, abstract: abstract, default: value)
    }
    /// A duration. With `defaultText: "1f"` (or `"2f"`) the default follows the refresh rate: the
    /// host resolves it at the rate in force whenever it is read.
    public static func duration(
        _ name: String, abstract: String, default value: SimDuration, defaultText: String? = nil
    ) -> SettingKey<SimDuration> {
        typed(name, .duration, abstract: abstract, default: value, defaultText: defaultText)
    }
    public static func integer(
        _ name: String, in range: ClosedRange<Int64>, abstract: String, default value: Int64
    ) -> SettingKey<Int64> {
        typed(name, .integer(range), abstract: abstract, default: value)
    }
    /// One of an enum's cases, by raw value.
    public static func choice<Choice: CommandLineChoice>(
        _ name: String, abstract: String, default value: Choice
    ) -> SettingKey<Choice> {
        SettingKey(
            settingSpec: SettingSpec(
                name, .choice(Choice.allCases.map(\.rawValue)), default: value.rawValue, abstract: abstract),
            read: { $0.flatMap(String.init(argumentValue:)).flatMap(Choice.init(rawValue:)) ?? value },
            write: { .word($0.rawValue) })
    }
}
