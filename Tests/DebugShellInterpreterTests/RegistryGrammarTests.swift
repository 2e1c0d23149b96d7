import DebugShellCore
import Testing

@testable import DebugShellInterpreter

/// The one name grammar (docs/Plugins.md, "Names") checked at registration for every kind of
/// name a tool declares, and the one format of registration errors, naming who holds a taken
/// name (issue 22).
@Suite struct RegistryGrammarTests {
    static let builtIns: [(spec: CommandSpec, traits: CommandTraits)] = [
        (
            CommandSpec(
                "run", abstract: "Run.", arguments: [ArgumentSpec("duration", .duration, abstract: "How long.")]), []
        )
    ]
    static let shellMetrics = [MetricSpec("clock.now", .time, abstract: "Now.")]

    /// A registry with the one built-in `run`, the shell's `clock.now`, and `tools`.
    static func registry(_ tools: [ToolDescriptor] = []) throws(RegistrationError) -> ToolRegistry {
        try ToolRegistry(builtIns: builtIns, shellMetrics: shellMetrics, tools: tools)
    }

    /// The error registering `d` after the tools compiled in (`fps`) gives, as text.
    static func refusal(_ d: ToolDescriptor, after plugins: [(String, ToolDescriptor)] = []) -> String? {
        do {
            var registry = try registry([tool("fps")])
            for (plugin, tool) in plugins { try registry.add(tools: [tool], plugin: plugin) }
            try registry.add(tools: [d], plugin: "careless")
            return nil
        } catch {
            return error.description
        }
    }

    /// A tool named `name` with one command of its name and one verb.
    static func tool(
        _ name: String, command: String? = nil, verb: VerbSpec = VerbSpec("go", abstract: "Go."),
        metrics: [MetricSpec] = [], settings: [SettingSpec] = [], events: [EventSpec] = []
    ) -> ToolDescriptor {
        ToolDescriptor(
            name: name, abstract: "A tool.", commands: [CommandSpec(command ?? name, abstract: "It.", verbs: [verb])],
            metrics: metrics, settings: settings, events: events)
    }

    static let rule = "names are lowercase letters, digits and '-', starting with a letter"

    @Test func theGrammar() {
        for good in ["a", "fps", "late-threshold", "x2", "a-b-c"] { #expect(NameGrammar.isName(good), "\(good)") }
        for bad in ["", "Bad Name!", "2x", "-x", "a_b", "a.b", "é", "A", "a b", "a\u{1B}"] {
            #expect(!NameGrammar.isName(bad), "\(bad)")
        }
        for good in ["fps.value", "fps.frame_p50", "shell.history-size", "timer.a.b"] {
            #expect(NameGrammar.isDotted(good, family: false), "\(good)")
        }
        for bad in ["fps", "fps.", ".x", "fps..x", "fps.Value", "fps.2x", "fps.*", "fps._x", "Fps.x"] {
            #expect(!NameGrammar.isDotted(bad, family: false), "\(bad)")
        }
        #expect(NameGrammar.isDotted("timer.*.fires", family: true))
        #expect(NameGrammar.isDotted("timer.*", family: true))
        #expect(!NameGrammar.isDotted("*.fires", family: true))
        #expect(!NameGrammar.isDotted("timer.*.*", family: true))
        #expect(!NameGrammar.isDotted("timer.x*.fires", family: true))
    }

    /// Every kind of name is checked, each error names the tool and quotes the rule.
    @Test func everyKindOfNameIsChecked() {
        let option = VerbSpec("go", abstract: "Go.", options: [OptionSpec("Fast", abstract: "Fast.")])
        let argument = VerbSpec(
            "go", abstract: "Go.", arguments: [ArgumentSpec("How Long", .duration, abstract: "It.")])
        let verbAlias = VerbSpec("go", aliases: ["G"], abstract: "Go.")
        let cases: [(ToolDescriptor, String)] = [
            (Self.tool("Bad Name!"), "tool 'Bad Name!': tool name 'Bad Name!' is not a name: \(Self.rule)"),
            (Self.tool("careless", command: "Do"), "tool 'careless': command 'Do' is not a name: \(Self.rule)"),
            (
                ToolDescriptor(
                    name: "careless", abstract: "A tool.",
                    commands: [CommandSpec("careless", aliases: ["c!"], abstract: "It.", verbs: [Self.verb])]),
                "tool 'careless': command alias 'c!' of 'careless' is not a name: \(Self.rule)"
            ),
            (
                Self.tool("careless", verb: VerbSpec("go_on", abstract: "Go.")),
                "tool 'careless': verb 'go_on' of 'careless' is not a name: \(Self.rule)"
            ),
            (
                Self.tool("careless", verb: verbAlias),
                "tool 'careless': verb alias 'G' of 'careless' is not a name: \(Self.rule)"
            ),
            (
                Self.tool("careless", verb: option),
                "tool 'careless': option 'Fast' of 'careless go' is not a name: \(Self.rule)"
            ),
            (
                Self.tool("careless", verb: argument),
                "tool 'careless': argument 'How Long' of 'careless go' is not a name: \(Self.rule)"
            ),
            (
                Self.tool("careless", metrics: [MetricSpec("careless.Bad", .integer, abstract: "It.")]),
                "tool 'careless': metric 'careless.Bad' is not a name: metric names are '<tool>.<name>', each part lowercase letters, digits, '-' and '_', starting with a letter ('*' for one part of a family)"
            ),
            (
                Self.tool("careless", metrics: [MetricSpec("careless.*.*", .integer, abstract: "It.")]),
                "tool 'careless': metric 'careless.*.*' is not a name: metric names are '<tool>.<name>', each part lowercase letters, digits, '-' and '_', starting with a letter ('*' for one part of a family)"
            ),
            (
                Self.tool("careless", settings: [SettingSpec("careless", .boolean, default: "on", abstract: "It.")]),
                "tool 'careless': setting 'careless' is not a name: setting names are '<tool>.<name>', each part lowercase letters, digits, '-' and '_', starting with a letter"
            ),
            (
                Self.tool("careless", events: [EventSpec("careless.said it", abstract: "It.")]),
                "tool 'careless': event 'careless.said it' is not a name: event names are '<tool>.<name>', each part lowercase letters, digits, '-' and '_', starting with a letter"
            ),
        ]
        for (d, message) in cases { #expect(Self.refusal(d) == message) }
    }

    static let verb = VerbSpec("go", abstract: "Go.")

    /// Metric, setting and event names stay in the tool's namespaces: its name and its commands'.
    @Test func namesStayInTheToolsNamespaces() {
        #expect(
            Self.refusal(Self.tool("careless", events: [EventSpec("fps.hitch", abstract: "It.")]))
                == "tool 'careless': event 'fps.hitch' is outside the tool's namespaces: it must start with 'careless.'"
        )
        #expect(
            Self.refusal(Self.tool("careless", command: "do", metrics: [MetricSpec("x.y", .integer, abstract: "It.")]))
                == "tool 'careless': metric 'x.y' is outside the tool's namespaces: it must start with 'careless.' or 'do.'"
        )
        // A family's star may be any part but the namespace; its members match it.
        let family = Self.tool("careless", metrics: [MetricSpec("careless.*.hits", .integer, abstract: "It.")])
        #expect(Self.refusal(family) == nil)
        let registry = try? Self.registry([family])
        #expect(registry?.declares(metric: "careless.red.hits", tool: 0) == true)
        #expect(registry?.declares(metric: "careless.a.b.hits", tool: 0) == true)
        #expect(registry?.declares(metric: "careless.hits", tool: 0) == false)
        #expect(registry?.declares(metric: "careless.red.misses", tool: 0) == false)
    }

    /// One format for every clash, naming who holds the name: a built-in command, the shell,
    /// a tool compiled in, a plugin's tool.
    @Test func aTakenNameNamesItsHolder() {
        #expect(
            Self.refusal(Self.tool("fps", command: "meter"))
                == "tool 'fps': tool name 'fps' is taken by the tool 'fps' (built in)")
        #expect(
            Self.refusal(Self.tool("careless", command: "fps"))
                == "tool 'careless': command 'fps' is taken by the tool 'fps' (built in)")
        #expect(
            Self.refusal(Self.tool("careless", command: "run"))
                == "tool 'careless': command 'run' is taken by a built-in command")
        #expect(
            Self.refusal(Self.tool("clock", command: "ticks"))
                == "tool 'clock': namespace 'clock' is taken by the shell's own metrics and settings")
        #expect(
            Self.refusal(Self.tool("hangs"), after: [("hangs", Self.tool("hangs"))])
                == "tool 'hangs': tool name 'hangs' is taken by the tool 'hangs' (plugin 'hangs')")
        #expect(
            Self.refusal(
                Self.tool("careless", command: "watch"), after: [("hangs", Self.tool("hangs", command: "watch"))])
                == "tool 'careless': command 'watch' is taken by the tool 'hangs' (plugin 'hangs')")
        // The tool's own name is its namespace: taken when another tool has a command of that name.
        #expect(
            Self.refusal(Self.tool("watch", command: "look"), after: [("hangs", Self.tool("hangs", command: "watch"))])
                == "tool 'watch': namespace 'watch' is taken by the tool 'hangs' (plugin 'hangs')")
    }

    /// The other problems read in the same format.
    @Test func otherProblemsInTheSameFormat() {
        let twice = ToolDescriptor(
            name: "careless", abstract: "A tool.",
            commands: [CommandSpec("careless", abstract: "It.", verbs: [Self.verb, Self.verb])])
        #expect(Self.refusal(twice) == "tool 'careless': verb 'go' of 'careless' is declared twice")
        #expect(
            Self.refusal(Self.tool("careless", metrics: [MetricSpec("careless.m", .integer, abstract: "")]))
                == "tool 'careless': metric 'careless.m' has an empty abstract")
        #expect(
            Self.refusal(
                Self.tool(
                    "careless", settings: [SettingSpec("careless.n", .integer(1...10), default: "20", abstract: "It.")])
            )
                == "tool 'careless': setting 'careless.n' has a default '20' that is not valid: '20' is outside 1…10")
        let noVerb = ToolDescriptor(
            name: "careless", abstract: "A tool.",
            commands: [CommandSpec("careless", abstract: "It.", verbs: [Self.verb], defaultVerb: "stop")])
        #expect(Self.refusal(noVerb) == "tool 'careless': default verb 'stop' of 'careless' is not one of its verbs")
    }

    /// Help text is printed as declared, so it may not hold control characters: none in an
    /// abstract or a default, newlines and tabs only in a discussion or an example.
    @Test func helpTextHoldsNoControlCharacters() {
        #expect(
            Self.refusal(ToolDescriptor(name: "careless", abstract: "Rings\u{07}", commands: []))
                == "tool 'careless': tool 'careless' has a control character in its abstract")
        #expect(
            Self.refusal(
                Self.tool("careless", verb: VerbSpec("go", abstract: "Go.", examples: [Example("> go\n\u{1B}[2J")])))
                == "tool 'careless': verb 'go' of 'careless' has a control character in its examples")
        #expect(
            Self.refusal(
                Self.tool(
                    "careless",
                    verb: VerbSpec(
                        "go", abstract: "Go.", options: [OptionSpec("n", .word, abstract: "N.", default: "\r")])))
                == "tool 'careless': option 'n' of 'careless go' has a control character in its default")
        #expect(
            Self.refusal(Self.tool("careless", events: [EventSpec("careless.said", abstract: "Said\r")]))
                == "tool 'careless': event 'careless.said' has a control character in its abstract")
        let fine = ToolDescriptor(
            name: "careless", abstract: "A tool.",
            commands: [
                CommandSpec(
                    "careless", abstract: "It.", discussion: "Two\nlines,\ttabbed.",
                    verbs: [VerbSpec("go", abstract: "Go.", examples: [Example("> go\na\tb")])])
            ])
        #expect(Self.refusal(fine) == nil)
    }

    /// A refused batch registers nothing: the first tool of a plugin whose second is bad is not
    /// kept either.
    @Test func allOrNothing() throws {
        var registry = try Self.registry([Self.tool("fps")])
        #expect(throws: RegistrationError.self) {
            try registry.add(tools: [Self.tool("good"), Self.tool("Bad!")], plugin: "p")
        }
        #expect(registry.toolDescriptors.map(\.name) == ["fps"])
        #expect(registry.command(exactly: "good") == nil)
        try registry.add(tools: [Self.tool("good")], plugin: "p")
        #expect(registry.plugin(ofTool: 1) == "p" && registry.plugin(ofTool: 0) == nil)
    }

    /// The shell's own metric and setting names follow the grammar too.
    @Test func theShellsOwnNamesFollowTheGrammar() {
        #expect(throws: RegistrationError.self) {
            _ = try ToolRegistry(
                builtIns: [], shellMetrics: [MetricSpec("clock.Now", .time, abstract: "Now.")], tools: [])
        }
    }
}
