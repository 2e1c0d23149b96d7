import DebugShellCore
import DebugShellInterpreter

/// A built-in command: its declaration, its traits and its behaviour in one type, as LLDB's
/// `CommandObject` keeps a command's syntax, help and `DoExecute` together. The registry takes
/// the declaration like any tool's (help, completion, validation and docs/Commands.md come from
/// it); the session runs the command through the same path as a tool's.
///
/// A command with verbs declares them as an enum (``ToolVerbs``): its declaration and its
/// `run` both switch over the enum, so the compiler checks that every declared verb is
/// implemented and every implemented one declared. What `--check`, completion and recording
/// need of a command beyond its declaration are its own hooks too, not a list of names
/// elsewhere. It runs on a ``CommandContext``: the parts of the shell, never the session.
///
/// Adding one: a type in the file of its family under Commands/, and a line in
/// ``BuiltInCommands/all`` (CONTRIBUTING.md).
protocol BuiltInCommand: SendableMetatype {
    /// How the command is declared.
    static var spec: CommandSpec { get }
    /// What it does besides its output: moves time, controls the session, is recorded, takes a
    /// command.
    static var traits: CommandTraits { get }
    /// Runs the command on the parts of the shell it acts on.
    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput
    /// Completes the words after the command's rest argument (the command of `after`, the
    /// condition of `expect`) of its verb (`""` for the unnamed one); nil when it completes
    /// nothing there.
    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion?
    /// The condition the command takes (`expect`, `run until`, `break when`), as words: what
    /// `--check` and scheduling check against the metrics' declarations. Nil for the others.
    static func condition(of call: BuiltInCall) -> [Word]?
    /// What `--check` does with the command beyond parsing it and its condition, running
    /// nothing: a scheduled block is checked, an alias defined, a sourced file read.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError)
    /// The file a scheduled command of this kind reads, resolved against where it was issued,
    /// which a recording writes as an absolute path (`source`, `plugin load`); nil for none.
    static func recordedPath(of arguments: ArraySlice<Word>, verb: String, issuedAt location: SourceLocation)
        -> String?
}

extension BuiltInCommand {
    static var traits: CommandTraits { [] }
    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        nil
    }
    static func condition(of call: BuiltInCall) -> [Word]? { nil }
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {}
    static func recordedPath(of arguments: ArraySlice<Word>, verb: String, issuedAt location: SourceLocation)
        -> String?
    { nil }
}

/// A built-in command as it runs: its parsed values, where it was issued, and the command it
/// takes (`after 1s <command>`).
struct BuiltInCall {
    let invocation: Invocation
    let location: SourceLocation
    /// The rest argument of a command that takes a command, as the words it came in.
    let rest: ArraySlice<Word>

    init(_ parsed: ParsedCommand, at location: SourceLocation) {
        invocation = parsed.invocation
        self.location = location
        rest = parsed.rest ?? []
    }

    subscript<Value>(_ key: OptionKey<Value>) -> Value { invocation[key] }
    subscript(_ key: FlagKey) -> Bool { invocation[key] }
    subscript<Value>(_ key: ArgumentKey<Value>) -> Value { invocation[key] }

    /// The command's name (`after`).
    var command: String { invocation.command }

    /// The verb, as the command's enum (the plugin API's ``ToolVerbs``, as every tool's). The
    /// parser only hands a command verbs it declared.
    func verb<Verb: ToolVerbs>(_ type: Verb.Type) throws(CommandError) -> Verb { try invocation.verb(type) }

    /// Whether the command's verb is `verb`.
    func `is`<Verb: ToolVerbs>(_ verb: Verb) -> Bool { invocation.verb == verb.rawValue }

    /// Whether the command was typed at the prompt, not read from a script or a sourced file.
    var isTyped: Bool { location.origin.name == nil }
}

/// The built-in commands, in the order help lists them. Adding a command is adding a line here.
enum BuiltInCommands {
    static let all: [any BuiltInCommand.Type] = [
        HelpCommand.self, AproposCommand.self, ToolsCommand.self, StatusCommand.self, ClockCommand.self,
        DeviceCommand.self, DisplayCommand.self, RunCommand.self, StepCommand.self, LoadCommand.self,
        AnimateCommand.self,
        ScrollCommand.self, StallCommand.self, AfterCommand.self, AtCommand.self, EveryCommand.self,
        GetCommand.self, MetricsCommand.self, ExpectCommand.self, BreakCommand.self, EchoCommand.self,
        SourceCommand.self, ExampleCommand.self,
        AliasCommand.self, UnaliasCommand.self, HistoryCommand.self, CommandFamilyCommand.self, SetCommand.self,
        SettingsCommand.self,
        ResetCommand.self, PlayCommand.self, PauseCommand.self, RecordCommand.self, TraceCommand.self,
        ImportCommand.self, RecordingCommand.self, ReplayCommand.self,
        PluginCommand.self, QuitCommand.self, ExitCommand.self,
    ]
}
