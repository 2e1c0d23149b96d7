import DebugShellCore

/// A declaration the registry refuses, with the offending names (ArgumentParser-style
/// validation at registration).
public enum RegistrationError: Error, Equatable, Sendable, CustomStringConvertible {
    case badName(kind: String, name: String, owner: String)
    case emptyAbstract(kind: String, name: String, owner: String)
    case duplicate(kind: String, name: String, owner: String)
    case clashesWithBuiltIn(command: String, tool: String)
    case outsideNamespace(kind: String, name: String, tool: String)
    case badDefault(setting: String, value: String, owner: String, reason: String)
    /// A name another tool (or the shell) already has: a plugin's tool clashing with a loaded one.
    case taken(kind: String, name: String, tool: String, by: String)

    public var description: String {
        switch self {
        case .badName(let kind, let name, let owner):
            return
                "\(owner): \(kind) name '\(name)' is not valid (lowercase letters, digits and '-', starting with a letter)"
        case .emptyAbstract(let kind, let name, let owner):
            return "\(owner): \(kind) '\(name)' has an empty abstract"
        case .duplicate(let kind, let name, let owner):
            return "\(owner): \(kind) '\(name)' is declared twice"
        case .clashesWithBuiltIn(let command, let tool):
            return "\(tool): command '\(command)' clashes with a built-in command"
        case .outsideNamespace(let kind, let name, let tool):
            return "\(tool): \(kind) '\(name)' must start with '\(tool).' or one of the tool's command names"
        case .badDefault(let setting, let value, let owner, let reason):
            return "\(owner): setting '\(setting)' has a default '\(value)' that is not valid: \(reason)"
        case .taken(let kind, let name, let tool, let by):
            return "tool '\(tool)': \(kind) '\(name)' is already taken by \(by)"
        }
    }
}

/// Who runs a command.
public enum CommandOwner: Sendable, Equatable {
    /// The shell itself, by the command's index among the built-ins.
    case builtIn(Int)
    /// A tool, by its index in registration order.
    case tool(Int)

    public var isBuiltIn: Bool {
        if case .builtIn = self { return true }
        return false
    }
}

/// What a built-in command does besides its output, declared with it: the traits the session's
/// rules about scheduling, recording and parsing read (LLDB's command flags).
public struct CommandTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Moves virtual time or sets how it follows the wall clock (`run`, `step`, `play`,
    /// `pause`): it cannot run from a scheduled command, and a recording's own time lines stand
    /// for it.
    public static let movesTime = CommandTraits(rawValue: 1 << 0)
    /// Ends the session or replaces the simulation (`quit`, `exit`, `reset`): it cannot be
    /// scheduled, and a recording starts after it.
    public static let controlsSession = CommandTraits(rawValue: 1 << 1)
    /// Changes nothing a replay of the simulation needs (`help`, `history`, `record`,
    /// `plugin`, whose libraries a recording requires at its top): it is not recorded.
    public static let notRecorded = CommandTraits(rawValue: 1 << 2)
    /// Its rest argument is a command, kept as the words it came in (`after`, `at`, `every`),
    /// so that parsing a deeply nested one costs time in proportion to its length.
    public static let takesCommand = CommandTraits(rawValue: 1 << 3)

    /// Whether a scheduled command may be this one.
    public var isSchedulable: Bool { isDisjoint(with: [.movesTime, .controlsSession]) }
    /// Whether `record` writes it.
    public var isRecorded: Bool { isDisjoint(with: [.movesTime, .controlsSession, .notRecorded]) }
}

/// A command the shell knows, with its owner.
public struct RegisteredCommand: Sendable {
    public var spec: CommandSpec
    public var owner: CommandOwner
    /// A built-in's traits; a tool's commands have none.
    public var traits: CommandTraits = []
}

/// Every command, metric and setting the shell knows: built-ins and the registered tools'.
///
/// A value handed to the session, never a global (STYLE.md). Registration validates each tool's
/// declaration and throws ``RegistrationError`` on the first problem.
public struct ToolRegistry: Sendable {
    public private(set) var commands: [RegisteredCommand] = []
    public private(set) var toolDescriptors: [ToolDescriptor] = []
    /// Metric namespaces (the part before the first dot) owned by each tool.
    public private(set) var namespaces: [String: Int] = [:]
    private var byName: [String: Int] = [:]
    private var byAlias: [String: Int] = [:]

    /// The shell's own metrics (`clock.now`), found by name like a tool's.
    public private(set) var shellMetrics: [MetricSpec] = []
    /// Namespaces the shell's own metrics and settings use: no tool may take them.
    private var reservedNamespaces: Set<String> = []

    /// Registers the built-in commands, the shell's own metrics and settings, then the tools.
    ///
    /// - Parameters:
    ///   - builtIns: Each built-in command's declaration and traits, in the order help lists them.
    ///   - shellMetrics: The shell's own metrics.
    ///   - shellSettings: The shell's own settings (only their namespaces are kept here).
    ///   - tools: The tools, in registration order.
    public init(
        builtIns: [(spec: CommandSpec, traits: CommandTraits)], shellMetrics: [MetricSpec] = [],
        shellSettings: [SettingSpec] = [], tools: [ToolDescriptor]
    ) throws(RegistrationError) {
        for (index, builtIn) in builtIns.enumerated() {
            try add(builtIn.spec, owner: .builtIn(index), traits: builtIn.traits, ownerName: "debugsh")
        }
        self.shellMetrics = shellMetrics
        for name in shellMetrics.map(\.name) + shellSettings.map(\.name) {
            if let space = name.split(separator: ".").first { reservedNamespaces.insert(String(space)) }
        }
        for descriptor in tools { try register(descriptor) }
    }

    /// Registers more tools (a plugin's): all of them, or — on the first problem — none.
    public mutating func add(tools: [ToolDescriptor]) throws(RegistrationError) {
        var grown = self
        for descriptor in tools { try grown.register(descriptor) }
        self = grown
    }

    /// Who has a command name or namespace already: `the tool 'fps'` or `a built-in command`.
    private func holder(ofCommand name: String) -> String? {
        guard let index = byName[name] ?? byAlias[name] else { return nil }
        switch commands[index].owner {
        case .builtIn: return "a built-in command"
        case .tool(let t): return "the tool '\(toolDescriptors[t].name)'"
        }
    }

    private mutating func register(_ d: ToolDescriptor) throws(RegistrationError) {
        let owner = "tool '\(d.name)'"
        guard ToolRegistry.isIdentifier(d.name) else { throw .badName(kind: "tool", name: d.name, owner: owner) }
        guard !d.abstract.isEmpty else { throw .emptyAbstract(kind: "tool", name: d.name, owner: owner) }
        guard !toolDescriptors.contains(where: { $0.name == d.name }) else {
            throw .taken(kind: "tool name", name: d.name, tool: d.name, by: "a tool already registered")
        }
        let index = toolDescriptors.count
        for spec in d.commands {
            if let existing = byName[spec.name] ?? byAlias[spec.name], commands[existing].owner.isBuiltIn {
                throw .clashesWithBuiltIn(command: spec.name, tool: d.name)
            }
            for name in [spec.name] + spec.aliases {
                if let by = holder(ofCommand: name) { throw .taken(kind: "command", name: name, tool: d.name, by: by) }
            }
            try add(spec, owner: .tool(index), traits: [], ownerName: owner)
        }
        var spaces = Set([d.name])
        for spec in d.commands { spaces.insert(spec.name) }
        for space in spaces {
            if reservedNamespaces.contains(space) {
                throw .clashesWithBuiltIn(command: space, tool: d.name)
            }
            if let holder = namespaces[space] {
                throw .taken(
                    kind: "namespace", name: space, tool: d.name, by: "the tool '\(toolDescriptors[holder].name)'")
            }
        }
        // Metrics, settings and events: described, in the tool's namespaces, each named once.
        let named: [(kind: String, entries: [(name: String, abstract: String)])] = [
            ("metric", d.metrics.map { ($0.name, $0.abstract) }),
            ("setting", d.settings.map { ($0.name, $0.abstract) }),
            ("event", d.events.map { ($0.name, $0.abstract) }),
        ]
        for (kind, entries) in named {
            var seen = Set<String>()
            for entry in entries {
                guard !entry.abstract.isEmpty else { throw .emptyAbstract(kind: kind, name: entry.name, owner: owner) }
                guard let space = entry.name.split(separator: ".").first, spaces.contains(String(space)),
                    entry.name.contains(".")
                else { throw .outsideNamespace(kind: kind, name: entry.name, tool: d.name) }
                guard seen.insert(entry.name).inserted else {
                    throw .duplicate(kind: kind, name: entry.name, owner: owner)
                }
            }
        }
        for setting in d.settings {
            do {
                _ = try ValueParser.parse(setting.defaultValue, as: setting.kind, rate: 60)
            } catch {
                throw .badDefault(
                    setting: setting.name, value: setting.defaultValue, owner: owner, reason: error.message)
            }
        }
        for space in spaces { namespaces[space] = index }
        toolDescriptors.append(d)
    }

    private mutating func add(
        _ spec: CommandSpec, owner: CommandOwner, traits: CommandTraits, ownerName: String
    ) throws(RegistrationError) {
        guard ToolRegistry.isIdentifier(spec.name) else {
            throw .badName(kind: "command", name: spec.name, owner: ownerName)
        }
        guard !spec.abstract.isEmpty else { throw .emptyAbstract(kind: "command", name: spec.name, owner: ownerName) }
        for name in [spec.name] + spec.aliases {
            guard ToolRegistry.isIdentifier(name) else {
                throw .badName(kind: "command alias", name: name, owner: ownerName)
            }
            guard byName[name] == nil, byAlias[name] == nil else {
                throw .duplicate(kind: "command", name: name, owner: ownerName)
            }
        }
        var verbNames = Set<String>()
        for verb in spec.verbs {
            let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
            if !verb.name.isEmpty {
                guard ToolRegistry.isIdentifier(verb.name) else {
                    throw .badName(kind: "verb", name: label, owner: ownerName)
                }
            }
            guard !verb.abstract.isEmpty else { throw .emptyAbstract(kind: "verb", name: label, owner: ownerName) }
            for name in [verb.name] + verb.aliases {
                guard verbNames.insert(name).inserted else {
                    throw .duplicate(kind: "verb", name: "\(spec.name) \(name)", owner: ownerName)
                }
            }
            var optionNames = Set<String>()
            for option in verb.options {
                guard ToolRegistry.isIdentifier(option.name) else {
                    throw .badName(kind: "option", name: "--\(option.name) of '\(label)'", owner: ownerName)
                }
                guard !option.abstract.isEmpty else {
                    throw .emptyAbstract(kind: "option", name: "--\(option.name) of '\(label)'", owner: ownerName)
                }
                guard optionNames.insert(option.name).inserted else {
                    throw .duplicate(kind: "option", name: "--\(option.name) of '\(label)'", owner: ownerName)
                }
            }
            for argument in verb.arguments where argument.abstract.isEmpty {
                throw .emptyAbstract(kind: "argument", name: "<\(argument.name)> of '\(label)'", owner: ownerName)
            }
        }
        if let d = spec.defaultVerb, spec.verb(named: d) == nil {
            throw .badName(kind: "default verb", name: "\(spec.name) \(d)", owner: ownerName)
        }
        let index = commands.count
        commands.append(RegisteredCommand(spec: spec, owner: owner, traits: traits))
        byName[spec.name] = index
        for alias in spec.aliases { byAlias[alias] = index }
    }

    /// `[a-z][a-z0-9-]*`: tool, command, verb and option names.
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    // MARK: Lookup

    /// The command named exactly `name` or by a declared alias.
    public func command(exactly name: String) -> RegisteredCommand? {
        (byName[name] ?? byAlias[name]).map { commands[$0] }
    }

    /// Every command name and declared alias, for prefixes and completion.
    public var allCommandNames: [String] {
        commands.flatMap { [$0.spec.name] + $0.spec.aliases }
    }

    /// The tool index owning a metric or setting namespace.
    public func toolIndex(forNamespace name: String) -> Int? {
        // The first non-empty part between dots, found in the bytes (no array of parts, no
        // grapheme breaking: this runs for every `set`, `get` and `expect`).
        let bytes = name.utf8
        guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: ".") }) else { return nil }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        return namespaces[String(name[start..<end])]
    }

    /// The declared metric a name refers to (exactly or as an instance of a family): the
    /// shell's or a tool's.
    public func metricSpec(_ name: String) -> MetricSpec? {
        if let shell = shellMetrics.first(where: { $0.name == name }) { return shell }
        guard let index = toolIndex(forNamespace: name) else { return nil }
        let metrics = toolDescriptors[index].metrics
        return metrics.first { $0.name == name } ?? metrics.first { $0.matches(name) }
    }
}

/// Resolves a word against names: exact match, then a unique prefix.
enum NameResolution: Equatable {
    case found(String)
    case ambiguous([String])
    case unknown(suggestion: String?)

    static func resolve(_ word: String, names: [String], exact: [String]? = nil) -> NameResolution {
        if (exact ?? names).contains(word) { return .found(word) }
        var seen = Set<String>()
        let matches = names.filter { $0.hasPrefix(word) && seen.insert($0).inserted }
        if matches.count == 1 { return .found(matches[0]) }
        if matches.count > 1 { return .ambiguous(matches) }
        return .unknown(suggestion: Suggest.closest(to: word, in: names))
    }
}
