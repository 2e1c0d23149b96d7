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
public struct MetricSpec: Sendable {
    public var name: String
    public var type: MetricType
    public var abstract: String

    public init(_ name: String, _ type: MetricType, abstract: String) {
        self.name = name
        self.type = type
        self.abstract = abstract
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

    public init(_ name: String, abstract: String) {
        self.name = name
        self.abstract = abstract
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
