import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// A tool whose declaration is whatever the test sets, to check the registry's validation.
final class DeclaredTool: DebugTool {
    nonisolated(unsafe) static var declared = ToolDescriptor(name: "x", abstract: "x", commands: [])
    static var descriptor: ToolDescriptor { declared }
    init(host: any ToolHost) {}
    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }
    func metric(_ name: String) -> MetricValue? { nil }
}

@Suite(.serialized) struct RegistryTests {
    func register(_ d: ToolDescriptor) -> RegistrationError? {
        do {
            _ = try Session.makeRegistry(tools: [CounterTool.descriptor, d])
            return nil
        } catch {
            return error
        }
    }

    static let verb = VerbSpec("go", abstract: "Go.", examples: [])

    @Test func goodDeclarationsRegister() throws {
        let registry = try Session.makeRegistry(tools: [CounterTool.descriptor])
        #expect(registry.command(exactly: "ctr")?.spec.name == "counter")
        #expect(registry.toolIndex(forNamespace: "counter.total") == 0)
        #expect(registry.metricSpec("counter.red.hits")?.type == .integer)
        #expect(registry.metricSpec("counter.red.misses") == nil)
    }

    @Test func badNamesAreRefused() {
        #expect(
            register(ToolDescriptor(name: "Bad", abstract: "a", commands: []))
                == RegistrationError(
                    owner: "tool 'Bad'", kind: "tool name", name: "Bad", .notAName(rule: NameGrammar.nameRule)))
        let badVerb = ToolDescriptor(
            name: "t", abstract: "a",
            commands: [CommandSpec("t", abstract: "a", verbs: [VerbSpec("Go!", abstract: "a")])])
        #expect(
            register(badVerb)
                == RegistrationError(
                    owner: "tool 't'", kind: "verb", name: "Go!", place: "'t'", .notAName(rule: NameGrammar.nameRule)))
        let badOption = ToolDescriptor(
            name: "t", abstract: "a",
            commands: [
                CommandSpec(
                    "t", abstract: "a",
                    verbs: [VerbSpec("go", abstract: "a", options: [OptionSpec("--x", abstract: "a")])])
            ])
        #expect(
            register(badOption)
                == RegistrationError(
                    owner: "tool 't'", kind: "option", name: "--x", place: "'t go'",
                    .notAName(rule: NameGrammar.nameRule)))
    }

    @Test func emptyAbstractsAreRefused() {
        #expect(
            register(ToolDescriptor(name: "t", abstract: "", commands: []))
                == RegistrationError(owner: "tool 't'", kind: "tool", name: "t", .emptyAbstract))
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", abstract: "a", verbs: [VerbSpec("go", abstract: "")])]
        )
        #expect(
            register(d) == RegistrationError(owner: "tool 't'", kind: "verb", name: "go", place: "'t'", .emptyAbstract))
        let m = ToolDescriptor(
            name: "t", abstract: "a", commands: [], metrics: [MetricSpec("t.m", .integer, abstract: "")])
        #expect(register(m) == RegistrationError(owner: "tool 't'", kind: "metric", name: "t.m", .emptyAbstract))
    }

    @Test func duplicatesAreRefused() {
        #expect(
            register(CounterTool.descriptor)
                == RegistrationError(
                    owner: "tool 'counter'", kind: "tool name", name: "counter",
                    .taken(by: .tool("counter", plugin: nil))))
        let twoVerbs = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", abstract: "a", verbs: [Self.verb, Self.verb])])
        #expect(
            register(twoVerbs)
                == RegistrationError(owner: "tool 't'", kind: "verb", name: "go", place: "'t'", .declaredTwice))
        let aliasClash = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", aliases: ["ctr"], abstract: "a", verbs: [Self.verb])])
        #expect(
            register(aliasClash)
                == RegistrationError(
                    owner: "tool 't'", kind: "command", name: "ctr", .taken(by: .tool("counter", plugin: nil))))
        let twoMetrics = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            metrics: [MetricSpec("t.m", .integer, abstract: "a"), MetricSpec("t.m", .word(["b"]), abstract: "b")])
        #expect(
            register(twoMetrics) == RegistrationError(owner: "tool 't'", kind: "metric", name: "t.m", .declaredTwice))
    }

    @Test func builtInsCannotBeTaken() {
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("run", abstract: "a", verbs: [Self.verb])])
        #expect(
            register(d)
                == RegistrationError(owner: "tool 't'", kind: "command", name: "run", .taken(by: .builtInCommand)))
        let ns = ToolDescriptor(name: "clock", abstract: "a", commands: [])
        #expect(
            register(ns)
                == RegistrationError(owner: "tool 'clock'", kind: "namespace", name: "clock", .taken(by: .shell)))
    }

    @Test func metricsAndSettingsLiveInTheToolsNamespace() {
        let m = ToolDescriptor(
            name: "t", abstract: "a", commands: [], metrics: [MetricSpec("fps.value", .integer, abstract: "a")])
        #expect(
            register(m)
                == RegistrationError(owner: "tool 't'", kind: "metric", name: "fps.value", .outsideNamespace(["t"])))
        let s = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            settings: [SettingSpec("shell.x", .boolean, default: "on", abstract: "a")])
        #expect(
            register(s)
                == RegistrationError(owner: "tool 't'", kind: "setting", name: "shell.x", .outsideNamespace(["t"])))
    }

    @Test func aSettingsDefaultMustParseAsItsKind() {
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            settings: [SettingSpec("t.limit", .integer(1...10), default: "20", abstract: "a")])
        guard let error = register(d), case .badDefault(let value, _) = error.problem else {
            Issue.record("a default outside its range registered")
            return
        }
        #expect(error.name == "t.limit" && error.kind == "setting" && value == "20")
        let good = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            settings: [SettingSpec("t.limit", .integer(1...10), default: "7", abstract: "a")])
        #expect(register(good) == nil)
    }

    /// Each built-in's traits, declared with it, decide what a scheduled command may be and what
    /// `record` writes: these are the rules docs/Decisions.md states (Recording, Scheduling).
    @Test func theBuiltInsTraitsSayWhatIsScheduledAndRecorded() throws {
        let builtIns = try Session.makeRegistry(tools: []).commands.filter(\.owner.isBuiltIn)
        func names(_ keep: (CommandTraits) -> Bool) -> Set<String> {
            Set(builtIns.filter { keep($0.traits) }.map(\.spec.name))
        }
        #expect(
            names { !$0.isRecorded } == [
                "run", "step", "play", "pause", "record", "quit", "exit", "reset", "history", "help", "apropos",
                "tools",
                "alias", "unalias", "source", "plugin", "command", "example", "import",
                // `replay` moves time (`replay run`) and logs `replay start` itself, after its reset.
                "replay",
            ])
        #expect(names { !$0.isSchedulable } == ["run", "step", "reset", "exit", "quit", "play", "pause", "replay"])
        #expect(names { $0.contains(.takesCommand) } == ["after", "at", "every"])
    }

    @Test func theShellsOwnSettingDefaultsParse() throws {
        for spec in Session.shellSettings {
            _ = try ValueParser.parse(spec.defaultValue, as: spec.kind, rate: 60)
        }
    }

    @Test func errorsReadWell() {
        #expect(
            RegistrationError(owner: "tool 't'", kind: "command", name: "run", .taken(by: .builtInCommand)).description
                == "tool 't': command 'run' is taken by a built-in command")
    }

    @Test func sessionRefusesABadTool() {
        DeclaredTool.declared = ToolDescriptor(name: "Nope", abstract: "a", commands: [])
        #expect(throws: RegistrationError.self) { _ = try Session(tools: [DeclaredTool.self], sink: MemorySink()) }
    }
}
