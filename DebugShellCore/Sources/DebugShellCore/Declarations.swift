/// What a tool is: its name, its commands, metrics, settings and events, as values.
///
/// Help, `apropos`, completion, validation and the docs are all generated from this one
/// declaration, the way ArgumentParser's `CommandConfiguration` and SwiftLint's
/// `RuleDescription` drive theirs. The registry checks it when the tool is registered.
public struct ToolDescriptor: Sendable {
    /// The tool's name, lowercase (`fps`); also the prefix of its metrics and settings.
    public var name: String
    /// One sentence: what the tool is for.
    public var abstract: String
    /// The top-level commands the tool adds (`fps`; `layout` and `view`).
    public var commands: [CommandSpec]
    public var metrics: [MetricSpec]
    public var settings: [SettingSpec]
    public var events: [EventSpec]

    public init(
        name: String, abstract: String, commands: [CommandSpec], metrics: [MetricSpec] = [],
        settings: [any SettingDeclaration] = [], events: [EventSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.commands = commands
        self.metrics = metrics
        self.settings = settings.map(\.settingSpec)
        self.events = events
    }
}

/// A top-level command word and its verbs.
///
/// A command without named verbs parses its words with its one unnamed verb (`name == ""`).
/// With named verbs, `defaultVerb` (possibly the unnamed one) runs when the next word is not a
/// verb: `fps` = `fps show`, `run 2s` = the unnamed verb of `run`.
public struct CommandSpec: Sendable {
    public var name: String
    public var aliases: [String]
    public var abstract: String
    public var discussion: String?
    public var verbs: [VerbSpec]
    public var defaultVerb: String?

    /// A command with verbs.
    public init(
        _ name: String, aliases: [String] = [], abstract: String, discussion: String? = nil,
        verbs: [VerbSpec], defaultVerb: String? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.verbs = verbs
        self.defaultVerb = defaultVerb
    }

    /// A command that takes its arguments directly (`echo <words…>`).
    public init(
        _ name: String, aliases: [String] = [], abstract: String, discussion: String? = nil,
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [], examples: [Example] = []
    ) {
        self.init(
            name, aliases: aliases, abstract: abstract, discussion: discussion,
            verbs: [VerbSpec("", abstract: abstract, arguments: arguments, options: options, examples: examples)],
            defaultVerb: "")
    }

    /// The verb named exactly `name` (or `""` for the unnamed one).
    public func verb(named name: String) -> VerbSpec? { verbs.first { $0.name == name } }

    /// The named verbs, in declaration order.
    public var namedVerbs: [VerbSpec] { verbs.filter { !$0.name.isEmpty } }

    /// Every example of the command and its verbs.
    public var examples: [Example] { verbs.flatMap(\.examples) }
}

/// One verb of a command: its arguments, options and examples.
public struct VerbSpec: Sendable {
    public var name: String
    public var aliases: [String]
    public var abstract: String
    public var discussion: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var examples: [Example]

    public init(
        _ name: String, aliases: [String] = [], abstract: String, discussion: String? = nil,
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [], examples: [Example] = []
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.argumentSpec)
        self.options = options.map(\.optionSpec)
        self.examples = examples
    }

    public func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
}

/// The kind of a value on the command line, which fixes how it is parsed and completed.
public enum ValueKind: Sendable, Hashable {
    /// A non-negative duration with a unit, or `<n>f`.
    case duration
    /// A time measured from t = 0.
    case time
    /// `<n>Hz` or a bare integer, 1…1000.
    case rate
    /// An integer within the range.
    case integer(ClosedRange<Int64>)
    /// A decimal number (no exponent).
    case decimal
    /// `on|off`, `true|false`, `yes|no`.
    case boolean
    /// One of the given words.
    case choice([String])
    /// A name `[A-Za-z_][A-Za-z0-9_.-]*`; the domain names what it refers to, for completion.
    case name(NameDomain)
    /// `x,y,w,h`.
    case rect
    /// A `CAFrameRateRange`, `min,max[,preferred]` in whole hertz (``FrameRateRange/parse(_:)``):
    /// the parser refuses a range the device would refuse, wherever a command is parsed.
    case frameRateRange
    /// Any single word.
    case word
    /// A file path.
    case path

    /// How help shows a value of this kind.
    public var placeholder: String {
        switch self {
        case .duration: return "<duration>"
        case .time: return "<time>"
        case .rate: return "<rate>"
        case .integer: return "<n>"
        case .decimal: return "<number>"
        case .boolean: return "on|off"
        case .choice(let words): return words.joined(separator: "|")
        case .name(let domain): return "<\(domain.rawValue)>"
        case .rect: return "x,y,w,h"
        case .frameRateRange: return "min,max[,preferred]"
        case .word: return "<word>"
        case .path: return "<file>"
        }
    }
}

/// What a name refers to: views, timers, objects, tools, metrics, settings, commands.
public struct NameDomain: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let tool = NameDomain("tool")
    public static let metric = NameDomain("metric")
    public static let setting = NameDomain("setting")
    public static let command = NameDomain("command")
    public static let alias = NameDomain("alias")
    /// The events the tools declare (`break on`).
    public static let event = NameDomain("event")
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var kind: ValueKind
    public var abstract: String
    public var isOptional: Bool
    /// Takes every remaining word (`echo <words…>`, the command of `after`).
    public var isRest: Bool
    /// A rest argument whose words may still be interrupted by the verb's own options
    /// (`run until <condition> --timeout 5s`); otherwise every remaining word is taken as is, so a
    /// scheduled command keeps its own options.
    public var restAllowsOptions: Bool
    /// What a typed key (``ArgumentKey``) reads when the argument is left out — an optional
    /// one's default, a required one's fallback — as the command line carries it; nil for a
    /// plain declaration. The host refuses at registration a default that is not of the declared
    /// kind (a `Double` for an integer argument would never read what is typed).
    public var typedDefault: ArgumentValue?

    public init(
        _ name: String, _ kind: ValueKind, abstract: String, optional: Bool = false, rest: Bool = false,
        restAllowsOptions: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.abstract = abstract
        self.isOptional = optional
        self.isRest = rest
        self.restAllowsOptions = restAllowsOptions
    }

    /// How help writes it: `<name>`, `[<name>]`, `<words…>`.
    public var usage: String {
        let core: String
        switch kind {
        case .choice(let words): core = words.joined(separator: "|")
        default: core = "<\(name)\(isRest ? "…" : "")>"
        }
        return isOptional ? "[\(core)]" : core
    }
}

/// A `--name [value]` option; without a value kind it is a flag.
public struct OptionSpec: Sendable {
    public var name: String
    public var kind: ValueKind?
    public var abstract: String
    /// The default, as help shows it.
    public var defaultText: String?
    /// A duration that must be above 0: the parser refuses 0 wherever the command is parsed (a
    /// run, `--check`), not only the tool when it runs.
    public var positive = false
    /// What a typed key (``OptionKey``) reads when the option is not given, as the command line
    /// carries it; nil for a plain declaration or a key that reads nil. The host refuses at
    /// registration a default that is not of the declared kind.
    public var typedDefault: ArgumentValue?

    public init(_ name: String, _ kind: ValueKind? = nil, abstract: String, default defaultText: String? = nil) {
        self.name = name
        self.kind = kind
        self.abstract = abstract
        self.defaultText = defaultText
    }

    public var isFlag: Bool { kind == nil }

    /// How help writes it: `--mode common|default|tracking`, `--repeats`.
    public var usage: String {
        guard let kind else { return "--\(name)" }
        return "--\(name) \(kind.placeholder)"
    }
}

/// A named metric. A `*` segment stands for a name (`timer.*.fires`).
///
/// A word metric says which words it takes, so that `expect layout.state == setled` is an error
/// and not a condition that can never fail: `MetricSpec("layout.state", .word(["idle",
/// "settling"]), …)`, `.word(of: Tier.self)` for an enum's cases, or `.anyWord` for a word that
/// is a name (a timer's label), which no list can hold. A bare `.word` does not compile.
public struct MetricSpec: Sendable {
    public var name: String
    /// The metric's type and, for a word, its words.
    public var kind: MetricKind
    public var abstract: String

    public init(_ name: String, _ kind: MetricKind, abstract: String) {
        self.name = name
        self.kind = kind
        self.abstract = abstract
    }

    /// The type of the metric's values.
    public var type: MetricType { kind.type }

    /// The words a word metric can take, in declared order; nil for another type or `.anyWord`.
    public var words: [String]? {
        if case .word(let words) = kind { return words }
        return nil
    }

    /// Whether `metric` is this metric or an instance of this family.
    public func matches(_ metric: String) -> Bool {
        if !name.contains("*") { return metric == name }
        let pattern = name.split(separator: ".", omittingEmptySubsequences: false)
        let parts = metric.split(separator: ".", omittingEmptySubsequences: false)
        // The `*` may match a name with dots in it (`timer.a.b.fires`).
        guard let star = pattern.firstIndex(of: "*"), parts.count >= pattern.count else { return false }
        let head = pattern[..<star]
        let tail = pattern[(star + 1)...]
        return Array(parts.prefix(head.count)) == Array(head) && Array(parts.suffix(tail.count)) == Array(tail)
            && parts.count - head.count - tail.count >= 1
    }
}

/// A metric's type, and for a word metric the words it can take (`MetricSpec.kind`).
public enum MetricKind: Sendable, Hashable {
    case integer, number, duration, time
    /// One of these words, and no other (`idle`, `settling`, …): the host refuses a condition
    /// comparing with another word, and a value outside them.
    case word([String])
    /// Any word: for a metric whose words are names (a label), which no list can hold. Nothing
    /// is checked; prefer `.word([…])` whenever the words are known.
    case anyWord

    /// The cases of a `String` enum, in declaration order: the list cannot drift from the enum.
    public static func word<Words: CaseIterable & RawRepresentable>(of _: Words.Type) -> MetricKind
    where Words.RawValue == String {
        .word(Words.allCases.map(\.rawValue))
    }

    /// The kind of a type, a word being any word.
    public static func unchecked(_ type: MetricType) -> MetricKind {
        switch type {
        case .integer: return .integer
        case .number: return .number
        case .duration: return .duration
        case .time: return .time
        case .word: return .anyWord
        }
    }

    /// The type of the values.
    public var type: MetricType {
        switch self {
        case .integer: return .integer
        case .number: return .number
        case .duration: return .duration
        case .time: return .time
        case .word, .anyWord: return .word
        }
    }

    /// How help and docs/Commands.md write it: `integer`, `word: idle|settling`, `word (any)`.
    public var description: String {
        switch self {
        case .word(let words): return "word: " + words.joined(separator: "|")
        case .anyWord: return "word (any)"
        default: return type.rawValue
        }
    }
}

/// A typed, described setting (`set <name> <value>`).
public struct SettingSpec: Sendable {
    public var name: String
    public var kind: ValueKind
    public var defaultValue: String
    public var abstract: String

    public init(_ name: String, _ kind: ValueKind, default defaultValue: String, abstract: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.abstract = abstract
    }
}

/// An event a tool can print during `run` (`layout.settled`).
public struct EventSpec: Sendable {
    public var name: String
    public var abstract: String
    /// The command that makes the tool say the event, when it says it only while that is on
    /// (`timer watch on`): `break on` with it off says so.
    public var watch: String?

    public init(_ name: String, abstract: String, watch: String? = nil) {
        self.name = name
        self.abstract = abstract
        self.watch = watch
    }
}

/// A transcript: `> command` lines, each followed by the exact output it prints.
///
/// Examples are shown by `help` and replayed by one generic test, so every example is a test
/// (SwiftLint's triggering examples). Errors appear as `error: message` lines.
public struct Example: Sendable, CustomStringConvertible {
    public var transcript: String
    public var file: String
    public var line: Int

    public init(_ transcript: String, file: StaticString = #filePath, line: UInt = #line) {
        self.transcript = transcript
        self.file = "\(file)"
        self.line = Int(line)
    }

    /// The commands with the output each is expected to print.
    public var steps: [(command: String, output: [String])] {
        var steps: [(command: String, output: [String])] = []
        for line in transcript.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("> ") {
                steps.append((String(line.dropFirst(2)), []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output.append(String(line))
            }
        }
        return steps
    }

    public var description: String { "\(file.split(separator: "/").last ?? ""):\(line)" }
}
