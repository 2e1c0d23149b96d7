import DebugShellCore

/// The grammar of the names a tool declares (docs/Plugins.md, "Names"), written once: the
/// registry checks every declaration against it and quotes it in its errors.
///
/// - A *name* is `[a-z][a-z0-9-]*`: tools, commands and their aliases, verbs and their aliases,
///   options and arguments.
/// - A metric, setting or event name is `<namespace>.<part>[.<part>…]`: the namespace is the
///   tool's name or one of its commands' names, and each part is `[a-z][a-z0-9_-]*` (a name that
///   may also hold `_`, as the shell's own `main.busy_ratio` does). A metric family has one part
///   `*`, never the first (`timer.*.fires`).
public enum NameGrammar {
    /// The rule for names, as errors quote it.
    public static let nameRule = "names are lowercase letters, digits and '-', starting with a letter"

    /// The rule for metric, setting and event names, as errors quote it.
    public static func dottedRule(_ kind: String) -> String {
        "\(kind) names are '<tool>.<name>', each part lowercase letters, digits, '-' and '_', starting with a letter"
            + (kind == "metric" ? " ('*' for one part of a family)" : "")
    }

    /// `[a-z][a-z0-9-]*`.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLower(first) else { return false }
        return name.utf8.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// `[a-z][a-z0-9_-]*`: a part of a metric, setting or event name.
    public static func isPart(_ part: some StringProtocol) -> Bool {
        guard let first = part.utf8.first, isLower(first) else { return false }
        return part.utf8.allSatisfy {
            isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    /// Whether `name` is `<part>.<part>[.<part>…]`; with `family`, one part after the first may be `*`.
    public static func isDotted(_ name: String, family: Bool) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        var stars = 0
        for (index, part) in parts.enumerated() {
            if part == "*" && family && index > 0 {
                stars += 1
            } else if !isPart(part) {
                return false
            }
        }
        return stars <= 1
    }

    private static func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}

/// Who holds a name a tool asked for: named in the error that refuses it.
public enum NameHolder: Equatable, Sendable, CustomStringConvertible {
    /// One of the shell's own commands (`run`).
    case builtInCommand
    /// The shell's own metrics and settings (`clock.now`, `shell.echo`).
    case shell
    /// A registered tool, compiled into debugsh (`plugin` nil) or loaded from a plugin.
    case tool(String, plugin: String?)
    /// One of the shell's own aliases (`r` for `run`): a tool's command may not take its name,
    /// and the alias is kept.
    case builtInAlias(String, expansion: String)

    public var description: String {
        switch self {
        case .builtInCommand: return "a built-in command"
        case .shell: return "the shell's own metrics and settings"
        case .tool(let name, let plugin?): return "the tool '\(name)' (plugin '\(plugin)')"
        case .tool(let name, nil): return "the tool '\(name)' (built in)"
        case .builtInAlias(let name, let expansion):
            return "the built-in alias '\(name)' (for '\(expansion)'), which is kept: name the command otherwise"
        }
    }
}

/// A declaration the registry refuses (ArgumentParser-style validation at registration), in one
/// format: `<owner>: <kind> '<name>'[ of <place>] <problem>` —
/// `tool 'hangs': tool name 'hangs' is taken by the tool 'hangs' (plugin 'hangs')`.
public struct RegistrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the name or its declaration.
    public enum Problem: Equatable, Sendable {
        /// The name breaks the grammar; the rule is quoted (``NameGrammar``).
        case notAName(rule: String)
        case emptyAbstract
        /// Help text (an abstract, a discussion, an example, a default as help shows it) with a
        /// control character in it, which help would print raw: newlines and tabs are allowed
        /// outside abstracts.
        case controlCharacter(in: String)
        /// The tool declares the name twice.
        case declaredTwice
        /// A metric, setting or event outside the tool's namespaces (listed).
        case outsideNamespace([String])
        /// A setting's default that does not parse as its kind.
        case badDefault(value: String, reason: String)
        /// Someone else has the name already.
        case taken(by: NameHolder)
        /// A default verb the command does not have.
        case notAVerb
        /// A word metric's words that a condition could not compare with: none, an empty or
        /// reserved word, one twice (the reason).
        case badWords(String)

        var text: String {
            switch self {
            case .notAName(let rule): return "is not a name: \(rule)"
            case .emptyAbstract: return "has an empty abstract"
            case .controlCharacter(let place): return "has a control character in its \(place)"
            case .declaredTwice: return "is declared twice"
            case .outsideNamespace(let spaces):
                return "is outside the tool's namespaces: it must start with "
                    + spaces.map { "'\($0).'" }.joined(separator: " or ")
            case .badDefault(let value, let reason): return "has a default '\(value)' that is not valid: \(reason)"
            case .taken(let holder): return "is taken by \(holder)"
            case .notAVerb: return "is not one of its verbs"
            case .badWords(let reason): return reason
            }
        }
    }

    /// Whose declaration it is: `tool 'fps'`, or `debugsh` for the shell's own commands.
    public var owner: String
    /// What the name names: `tool name`, `command`, `verb`, `option`, `metric`, `namespace`…
    public var kind: String
    /// The name, as declared.
    public var name: String
    /// Where the name stands, for a verb's or command's parts: `'fps start'`.
    public var place: String?
    public var problem: Problem

    public init(owner: String, kind: String, name: String, place: String? = nil, _ problem: Problem) {
        self.owner = owner
        self.kind = kind
        self.name = name
        self.place = place
        self.problem = problem
    }

    public var description: String {
        "\(owner): \(kind) '\(name)'\(place.map { " of \($0)" } ?? "") \(problem.text)"
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
    /// Per tool, the plugin it came from; nil for a tool compiled into debugsh.
    public private(set) var toolPlugins: [String?] = []
    /// Per tool, the metrics it declares, to check the names it lists.
    private var toolMetrics: [DeclaredMetrics] = []
    /// Metric namespaces (the part before the first dot) owned by each tool.
    public private(set) var namespaces: [String: Int] = [:]
    private var byName: [String: Int] = [:]
    private var byAlias: [String: Int] = [:]

    /// The shell's own metrics (`clock.now`), found by name like a tool's.
    public private(set) var shellMetrics: [MetricSpec] = []
    /// Namespaces the shell's own metrics and settings use: no tool may take them.
    private var reservedNamespaces: Set<String> = []
    /// The shell's own aliases (`r` → `run`), by name: no tool's command may take one's name.
    private var builtInAliases: [String: String] = [:]

    /// Registers the built-in commands, the shell's own metrics and settings, then the tools.
    ///
    /// - Parameters:
    ///   - builtIns: Each built-in command's declaration and traits, in the order help lists them.
    ///   - shellMetrics: The shell's own metrics.
    ///   - shellSettings: The shell's own settings (only their namespaces are kept here).
    ///   - builtInAliases: The shell's own aliases (`r` for `run`), which no tool's command may
    ///     be named.
    ///   - tools: The tools compiled into debugsh, in registration order.
    public init(
        builtIns: [(spec: CommandSpec, traits: CommandTraits)], shellMetrics: [MetricSpec] = [],
        shellSettings: [SettingSpec] = [], builtInAliases: [(name: String, expansion: String)] = [],
        tools: [ToolDescriptor]
    ) throws(RegistrationError) {
        for (index, builtIn) in builtIns.enumerated() {
            try add(builtIn.spec, owner: .builtIn(index), traits: builtIn.traits, ownerName: "debugsh")
        }
        for alias in builtInAliases { self.builtInAliases[alias.name] = alias.expansion }
        self.shellMetrics = shellMetrics
        let shellNames = [("metric", shellMetrics.map(\.name)), ("setting", shellSettings.map(\.name))]
        for (kind, names) in shellNames {
            for name in names {
                guard NameGrammar.isDotted(name, family: false) else {
                    throw RegistrationError(
                        owner: "debugsh", kind: kind, name: name, .notAName(rule: NameGrammar.dottedRule(kind)))
                }
                if let space = name.split(separator: ".").first { reservedNamespaces.insert(String(space)) }
            }
        }
        for descriptor in tools { try register(descriptor, plugin: nil) }
    }

    /// Registers more tools: all of them, or — on the first problem — none.
    ///
    /// - Parameter plugin: The plugin they come from, named when another tool's name clashes
    ///   with theirs; nil for tools compiled into debugsh.
    public mutating func add(tools: [ToolDescriptor], plugin: String? = nil) throws(RegistrationError) {
        var grown = self
        for descriptor in tools { try grown.register(descriptor, plugin: plugin) }
        self = grown
    }

    /// Who has a command name already: a built-in command or a tool.
    private func holder(ofCommand name: String) -> NameHolder? {
        guard let index = byName[name] ?? byAlias[name] else { return nil }
        switch commands[index].owner {
        case .builtIn: return .builtInCommand
        case .tool(let t): return holder(ofTool: t)
        }
    }

    /// A registered tool as the holder of a name.
    private func holder(ofTool index: Int) -> NameHolder {
        .tool(toolDescriptors[index].name, plugin: toolPlugins[index])
    }

    /// The name of the plugin a tool came from; nil for a tool compiled into debugsh.
    public func plugin(ofTool index: Int) -> String? {
        toolPlugins.indices.contains(index) ? toolPlugins[index] : nil
    }

    private mutating func register(_ declared: ToolDescriptor, plugin: String?) throws(RegistrationError) {
        // Help text past the caps is cut, with a visible `…` (``TextCap``).
        let d = TextCap.cut(declared)
        let owner = "tool '\(d.name)'"
        func refuse(_ kind: String, _ name: String, _ problem: RegistrationError.Problem) -> RegistrationError {
            RegistrationError(owner: owner, kind: kind, name: name, problem)
        }
        guard NameGrammar.isName(d.name) else {
            throw refuse("tool name", d.name, .notAName(rule: NameGrammar.nameRule))
        }
        guard !d.abstract.isEmpty else { throw refuse("tool", d.name, .emptyAbstract) }
        if let place = ToolRegistry.controlCharacter(abstract: d.abstract) { throw refuse("tool", d.name, place) }
        if let holder = toolDescriptors.firstIndex(where: { $0.name == d.name }) {
            throw refuse("tool name", d.name, .taken(by: self.holder(ofTool: holder)))
        }
        let index = toolDescriptors.count
        // The tool's own commands and aliases, each once.
        var ownCommandNames = Set<String>()
        for spec in d.commands {
            for name in [spec.name] + spec.aliases {
                if let holder = holder(ofCommand: name) { throw refuse("command", name, .taken(by: holder)) }
                if let expansion = builtInAliases[name] {
                    throw refuse("command", name, .taken(by: .builtInAlias(name, expansion: expansion)))
                }
                guard ownCommandNames.insert(name).inserted else { throw refuse("command", name, .declaredTwice) }
            }
        }
        var spaces = Set([d.name])
        for spec in d.commands { spaces.insert(spec.name) }
        for space in spaces.sorted() {
            if reservedNamespaces.contains(space) { throw refuse("namespace", space, .taken(by: .shell)) }
            if let holder = namespaces[space] {
                throw refuse("namespace", space, .taken(by: self.holder(ofTool: holder)))
            }
        }
        // Metrics, settings and events: named by the grammar, described, in the tool's
        // namespaces, each named once.
        let named: [(kind: String, family: Bool, entries: [(name: String, abstract: String)])] = [
            ("metric", true, d.metrics.map { ($0.name, $0.abstract) }),
            ("setting", false, d.settings.map { ($0.name, $0.abstract) }),
            ("event", false, d.events.map { ($0.name, $0.abstract) }),
        ]
        for (kind, family, entries) in named {
            var seen = Set<String>()
            for entry in entries {
                guard NameGrammar.isDotted(entry.name, family: family) else {
                    throw refuse(kind, entry.name, .notAName(rule: NameGrammar.dottedRule(kind)))
                }
                guard let space = entry.name.split(separator: ".").first, spaces.contains(String(space)) else {
                    throw refuse(kind, entry.name, .outsideNamespace([d.name] + spaces.subtracting([d.name]).sorted()))
                }
                guard !entry.abstract.isEmpty else { throw refuse(kind, entry.name, .emptyAbstract) }
                if let place = ToolRegistry.controlCharacter(abstract: entry.abstract) {
                    throw refuse(kind, entry.name, place)
                }
                guard seen.insert(entry.name).inserted else { throw refuse(kind, entry.name, .declaredTwice) }
            }
        }
        for metric in d.metrics {
            if let reason = ToolRegistry.wordsProblem(metric.kind) {
                throw refuse("metric", metric.name, .badWords(reason))
            }
        }
        for setting in d.settings {
            do {
                _ = try ValueParser.parse(setting.defaultValue, as: setting.kind, rate: 60)
            } catch {
                throw refuse("setting", setting.name, .badDefault(value: setting.defaultValue, reason: error.message))
            }
        }
        // Commands last: nothing is added before every check passed (the caller keeps the old
        // registry on a throw anyway).
        for spec in d.commands { try add(spec, owner: .tool(index), traits: [], ownerName: owner) }
        for space in spaces { namespaces[space] = index }
        toolDescriptors.append(d)
        toolPlugins.append(plugin)
        toolMetrics.append(DeclaredMetrics(d.metrics))
    }

    private mutating func add(
        _ spec: CommandSpec, owner: CommandOwner, traits: CommandTraits, ownerName: String
    ) throws(RegistrationError) {
        func refuse(
            _ kind: String, _ name: String, of place: String? = nil, _ problem: RegistrationError.Problem
        ) -> RegistrationError {
            RegistrationError(owner: ownerName, kind: kind, name: name, place: place.map { "'\($0)'" }, problem)
        }
        let notAName = RegistrationError.Problem.notAName(rule: NameGrammar.nameRule)
        guard NameGrammar.isName(spec.name) else { throw refuse("command", spec.name, notAName) }
        guard !spec.abstract.isEmpty else { throw refuse("command", spec.name, .emptyAbstract) }
        if let place = ToolRegistry.controlCharacter(abstract: spec.abstract, discussion: spec.discussion) {
            throw refuse("command", spec.name, place)
        }
        for alias in spec.aliases {
            guard NameGrammar.isName(alias) else { throw refuse("command alias", alias, of: spec.name, notAName) }
        }
        for name in [spec.name] + spec.aliases {
            if let holder = holder(ofCommand: name) { throw refuse("command", name, .taken(by: holder)) }
        }
        var verbNames = Set<String>()
        for verb in spec.verbs {
            let label = verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)"
            if !verb.name.isEmpty {
                guard NameGrammar.isName(verb.name) else { throw refuse("verb", verb.name, of: spec.name, notAName) }
            }
            for alias in verb.aliases {
                guard NameGrammar.isName(alias) else { throw refuse("verb alias", alias, of: spec.name, notAName) }
            }
            guard !verb.abstract.isEmpty else {
                throw verb.name.isEmpty
                    ? refuse("verb", spec.name, .emptyAbstract)
                    : refuse("verb", verb.name, of: spec.name, .emptyAbstract)
            }
            if let place = ToolRegistry.controlCharacter(
                abstract: verb.abstract, discussion: verb.discussion, examples: verb.examples)
            {
                throw verb.name.isEmpty
                    ? refuse("verb", spec.name, place) : refuse("verb", verb.name, of: spec.name, place)
            }
            for name in [verb.name] + verb.aliases {
                guard verbNames.insert(name).inserted else { throw refuse("verb", name, of: spec.name, .declaredTwice) }
            }
            var optionNames = Set<String>()
            for option in verb.options {
                guard NameGrammar.isName(option.name) else { throw refuse("option", option.name, of: label, notAName) }
                guard !option.abstract.isEmpty else { throw refuse("option", option.name, of: label, .emptyAbstract) }
                if let place = ToolRegistry.controlCharacter(abstract: option.abstract, default: option.defaultText) {
                    throw refuse("option", option.name, of: label, place)
                }
                guard optionNames.insert(option.name).inserted else {
                    throw refuse("option", option.name, of: label, .declaredTwice)
                }
                if let value = option.typedDefault, let kind = option.kind,
                    let reason = ToolRegistry.typedDefaultProblem(value, kind, fallback: false)
                {
                    throw refuse("option", option.name, of: label, .badDefault(value: "\(value)", reason: reason))
                }
            }
            var argumentNames = Set<String>()
            for argument in verb.arguments {
                guard NameGrammar.isName(argument.name) else {
                    throw refuse("argument", argument.name, of: label, notAName)
                }
                guard !argument.abstract.isEmpty else {
                    throw refuse("argument", argument.name, of: label, .emptyAbstract)
                }
                if let place = ToolRegistry.controlCharacter(abstract: argument.abstract) {
                    throw refuse("argument", argument.name, of: label, place)
                }
                guard argumentNames.insert(argument.name).inserted else {
                    throw refuse("argument", argument.name, of: label, .declaredTwice)
                }
                if let value = argument.typedDefault,
                    let reason = ToolRegistry.typedDefaultProblem(value, argument.kind, fallback: !argument.isOptional)
                {
                    throw refuse("argument", argument.name, of: label, .badDefault(value: "\(value)", reason: reason))
                }
            }
        }
        if let d = spec.defaultVerb, spec.verb(named: d) == nil {
            throw refuse("default verb", d, of: spec.name, .notAVerb)
        }
        let index = commands.count
        commands.append(RegisteredCommand(spec: spec, owner: owner, traits: traits))
        byName[spec.name] = index
        for alias in spec.aliases { byAlias[alias] = index }
    }

    /// Why a typed key's default cannot stand for `kind`, or nil when it can: a default of
    /// another type would be read instead of every value typed (`default: 1.0` for an integer
    /// argument read as 1.0 whatever was given). A required argument's `fallback`, never read
    /// after a parse, need only be of the kind's type.
    static func typedDefaultProblem(_ value: ArgumentValue, _ kind: ValueKind, fallback: Bool) -> String? {
        if fallback {
            switch (value, kind) {
            case (.integer, .integer), (.word, .word), (.word, .name), (.word, .path), (.word, .choice): return nil
            default: break
            }
        }
        guard let mismatch = ValueParser.mismatch(value, for: kind, rate: 60) else { return nil }
        return mismatch + " (declare the default as that kind reads: Int64 for an integer, Double for a number)"
    }

    /// Where declared help text holds a control character, as the problem to report; nil when
    /// none does. Abstracts and defaults are one line; discussions and examples may hold
    /// newlines and tabs.
    static func controlCharacter(
        abstract: String, discussion: String? = nil, examples: [Example] = [], default defaultText: String? = nil
    ) -> RegistrationError.Problem? {
        // In the bytes: C0 and DEL are one byte each in UTF-8, C1 is 0xC2 then 0x80…0x9F. Every
        // built-in's help is checked at each start, so the scan is a plain loop over the bytes.
        func has(_ text: String, layout: Bool) -> Bool {
            var text = text
            return text.withUTF8 { bytes in
                var previous: UInt8 = 0
                for byte in bytes {
                    if byte < 0x20 {
                        if !(layout && (byte == 0x0A || byte == 0x09)) { return true }
                    } else if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
                        return true
                    }
                    previous = byte
                }
                return false
            }
        }
        if has(abstract, layout: false) { return .controlCharacter(in: "abstract") }
        if let defaultText, has(defaultText, layout: false) { return .controlCharacter(in: "default") }
        if let discussion, has(discussion, layout: true) { return .controlCharacter(in: "discussion") }
        if examples.contains(where: { has($0.transcript, layout: true) }) { return .controlCharacter(in: "examples") }
        return nil
    }

    /// `[a-z][a-z0-9-]*`: tool, command, verb, option and argument names (``NameGrammar``).
    public static func isIdentifier(_ name: String) -> Bool { NameGrammar.isName(name) }

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

    /// Whether the tool declares the metric `name`, exactly or as a member of a family: a name
    /// it lists in `metricNames()` must be one.
    public func declares(metric name: String, tool index: Int) -> Bool {
        toolMetrics.indices.contains(index) && toolMetrics[index].contains(name)
    }

    /// Why a word metric's words cannot be compared with, or nil: a `.word` metric names at
    /// least one word, each a bare word of the condition grammar (`[A-Za-z0-9_.-]`, not `none`,
    /// which means no value), each once.
    static func wordsProblem(_ kind: MetricKind) -> String? {
        guard case .word(let words) = kind else { return nil }
        guard !words.isEmpty else {
            return "is a word metric without its words: declare them, .word([\"a\", \"b\"]) or .word(of: AnEnum.self), "
                + "or .anyWord for a word that is a name"
        }
        var seen = Set<String>()
        for word in words {
            let bare =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                        || "_-.".unicodeScalars.contains($0)
                }
            guard bare, word != "none" else {
                return "has the word '\(VisibleText.terminalSafe(word, keepingLayout: false))', which a condition "
                    + "cannot write: a word is letters, digits, '_', '-' and '.', and not 'none'"
            }
            guard seen.insert(word).inserted else { return "has the word '\(word)' twice" }
        }
        return nil
    }

    /// The declared metric a name refers to (exactly or as an instance of a family): the
    /// shell's or a tool's.
    public func metricSpec(_ name: String) -> MetricSpec? {
        if let shell = shellMetrics.first(where: { $0.name == name }) { return shell }
        guard let index = toolIndex(forNamespace: name), let spec = toolMetrics[index].spec(for: name) else {
            return nil
        }
        return toolDescriptors[index].metrics[spec]
    }
}

/// The metrics a tool declares, as a test of names: the exact ones in a dictionary, each family
/// as the text before and after its `*` (`timer.`, `.fires`), so checking the names of 100,000
/// timers, or reading each of their metrics (`metrics`), costs no splitting.
struct DeclaredMetrics: Sendable {
    /// Each exact name, and its place in the tool's declaration.
    private var exact: [String: Int] = [:]
    private var families: [(head: String, tail: String, index: Int)] = []

    init(_ specs: [MetricSpec]) {
        for (index, spec) in specs.enumerated() {
            let parts = spec.name.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 {
                families.append((String(parts[0]), String(parts[1]), index))
            } else if exact[spec.name] == nil {
                exact[spec.name] = index
            }
        }
    }

    /// Whether `name` is a declared metric or a member of a declared family (its `*` at least
    /// one character).
    func contains(_ name: String) -> Bool {
        if exact[name] != nil { return true }
        for family in families
        where name.utf8.count > family.head.utf8.count + family.tail.utf8.count && name.hasPrefix(family.head)
            && name.hasSuffix(family.tail)
        {
            return true
        }
        return false
    }

    /// The place in the declaration of the metric `name` refers to: its exact declaration, else
    /// the first family it is an instance of as `MetricSpec.matches` has it (the `*` one part or
    /// more, an empty one too: a family's `*` is a whole part, so its head ends with a dot and
    /// its tail is empty or starts with one).
    func spec(for name: String) -> Int? {
        if let index = exact[name] { return index }
        for family in families
        where name.utf8.count >= family.head.utf8.count + family.tail.utf8.count && name.hasPrefix(family.head)
            && name.hasSuffix(family.tail)
        {
            return family.index
        }
        return nil
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

/// The words an LLDB user types that are no debugsh command, each with what debugsh offers in
/// its place (docs/Decisions.md, "LLDB's words"): `unknown command 'bt'` then points there
/// instead of suggesting a command spelled alike that does something else (`at` for `bt`).
/// LLDB's long forms that debugsh has under another name are aliases (`print`, `continue`) or
/// the `command` family (`command alias`, `command source`), not entries here.
public enum LLDBWords {
    /// An LLDB word, what it does there, and what to type here.
    public static let table: [(word: String, lldb: String, here: String)] = [
        ("expr", "expression", noExpressions),
        ("expression", "expression", noExpressions),
        ("po", "print object", noExpressions),
        ("bt", "thread backtrace", noStacks),
        ("backtrace", "thread backtrace", noStacks),
        ("thread", "thread", noStacks),
        ("frame", "frame", noStacks),
        ("up", "frame select", noStacks),
        ("down", "frame select", noStacks),
        ("next", "thread step-over", stepping),
        ("n", "thread step-over", stepping),
        ("si", "thread step-inst", stepping),
        ("ni", "thread step-inst-over", stepping),
        ("finish", "thread step-out", untilCondition),
        ("breakpoint", "breakpoint", untilCondition),
        ("br", "breakpoint", untilCondition),
        ("b", "breakpoint", untilCondition),
        ("watchpoint", "watchpoint", untilCondition),
        ("wa", "watchpoint", untilCondition),
        ("process", "process", "'status' shows the device; 'reset' starts the simulation afresh"),
        ("kill", "process kill", "'reset' starts the simulation afresh; 'quit' leaves"),
        ("target", "target", "'tools' lists the tools; 'plugin load <path>' adds one"),
        ("var", "frame variable", "'metrics' lists every metric with its value; 'get <metric>' (p) prints one"),
        ("v", "frame variable", "'metrics' lists every metric with its value; 'get <metric>' (p) prints one"),
    ]

    private static let noExpressions =
        "debugsh evaluates no expressions: 'get <metric>' (or 'print', 'p') prints a metric, 'expect <condition>' checks one"
    private static let noStacks =
        "a simulated device has no call stacks: 'status' shows the device and its main thread, 'tools' the tools"
    private static let stepping = "'step' (s) moves to the next vsync; 'run <duration>' (r) moves further"
    private static let untilCondition =
        "'run until <condition>' stops time where a condition holds; 'after', 'at' and 'every' run a command at a time"

    /// What `unknown command '<word>'` adds for an LLDB word; nil for any other word.
    public static func pointer(for word: String) -> String? {
        guard let entry = table.first(where: { $0.word == word }) else { return nil }
        return "'\(word)' is LLDB's '\(entry.lldb)'; \(entry.here)"
    }
}
