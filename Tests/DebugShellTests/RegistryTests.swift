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
                == .badName(kind: "tool", name: "Bad", owner: "tool 'Bad'"))
        let badVerb = ToolDescriptor(
            name: "t", abstract: "a",
            commands: [CommandSpec("t", abstract: "a", verbs: [VerbSpec("Go!", abstract: "a")])])
        #expect(register(badVerb) == .badName(kind: "verb", name: "t Go!", owner: "tool 't'"))
        let badOption = ToolDescriptor(
            name: "t", abstract: "a",
            commands: [
                CommandSpec(
                    "t", abstract: "a",
                    verbs: [VerbSpec("go", abstract: "a", options: [OptionSpec("--x", abstract: "a")])])
            ])
        #expect(register(badOption) == .badName(kind: "option", name: "----x of 't go'", owner: "tool 't'"))
    }

    @Test func emptyAbstractsAreRefused() {
        #expect(
            register(ToolDescriptor(name: "t", abstract: "", commands: []))
                == .emptyAbstract(kind: "tool", name: "t", owner: "tool 't'"))
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", abstract: "a", verbs: [VerbSpec("go", abstract: "")])]
        )
        #expect(register(d) == .emptyAbstract(kind: "verb", name: "t go", owner: "tool 't'"))
        let m = ToolDescriptor(
            name: "t", abstract: "a", commands: [], metrics: [MetricSpec("t.m", .integer, abstract: "")])
        #expect(register(m) == .emptyAbstract(kind: "metric", name: "t.m", owner: "tool 't'"))
    }

    @Test func duplicatesAreRefused() {
        #expect(
            register(CounterTool.descriptor)
                == .taken(kind: "tool name", name: "counter", tool: "counter", by: "a tool already registered"))
        let twoVerbs = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", abstract: "a", verbs: [Self.verb, Self.verb])])
        #expect(register(twoVerbs) == .duplicate(kind: "verb", name: "t go", owner: "tool 't'"))
        let aliasClash = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("t", aliases: ["ctr"], abstract: "a", verbs: [Self.verb])])
        #expect(register(aliasClash) == .taken(kind: "command", name: "ctr", tool: "t", by: "the tool 'counter'"))
        let twoMetrics = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            metrics: [MetricSpec("t.m", .integer, abstract: "a"), MetricSpec("t.m", .word, abstract: "b")])
        #expect(register(twoMetrics) == .duplicate(kind: "metric", name: "t.m", owner: "tool 't'"))
    }

    @Test func builtInsCannotBeTaken() {
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [CommandSpec("run", abstract: "a", verbs: [Self.verb])])
        #expect(register(d) == .clashesWithBuiltIn(command: "run", tool: "t"))
        let ns = ToolDescriptor(name: "clock", abstract: "a", commands: [])
        #expect(register(ns) == .clashesWithBuiltIn(command: "clock", tool: "clock"))
    }

    @Test func metricsAndSettingsLiveInTheToolsNamespace() {
        let m = ToolDescriptor(
            name: "t", abstract: "a", commands: [], metrics: [MetricSpec("fps.value", .integer, abstract: "a")])
        #expect(register(m) == .outsideNamespace(kind: "metric", name: "fps.value", tool: "t"))
        let s = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            settings: [SettingSpec("shell.x", .boolean, default: "on", abstract: "a")])
        #expect(register(s) == .outsideNamespace(kind: "setting", name: "shell.x", tool: "t"))
    }

    @Test func aSettingsDefaultMustParseAsItsKind() {
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [],
            settings: [SettingSpec("t.limit", .integer(1...10), default: "20", abstract: "a")])
        guard case .badDefault(let setting, let value, _, _)? = register(d) else {
            Issue.record("a default outside its range registered")
            return
        }
        #expect(setting == "t.limit" && value == "20")
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
                "alias", "unalias", "source", "plugin",
            ])
        #expect(names { !$0.isSchedulable } == ["run", "step", "reset", "exit", "quit", "play", "pause"])
        #expect(names { $0.contains(.takesCommand) } == ["after", "at", "every"])
    }

    @Test func theShellsOwnSettingDefaultsParse() throws {
        for spec in Session.shellSettings {
            _ = try ValueParser.parse(spec.defaultValue, as: spec.kind, rate: 60)
        }
    }

    @Test func errorsReadWell() {
        #expect(
            RegistrationError.clashesWithBuiltIn(command: "run", tool: "t").description
                == "t: command 'run' clashes with a built-in command")
    }

    @Test func sessionRefusesABadTool() {
        DeclaredTool.declared = ToolDescriptor(name: "Nope", abstract: "a", commands: [])
        #expect(throws: RegistrationError.self) { _ = try Session(tools: [DeclaredTool.self], sink: MemorySink()) }
    }
}
