import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// How a session reports and stops.
public struct SessionOptions: Sendable {
    /// JSON lines on stdout (docs/JSON.md).
    public var json = false
    /// Print each script command before running it.
    public var echo = false
    /// Continue after a failed command; exit 1 at the end.
    public var keepGoing = false
    /// Width for help text and charts: the terminal's in the interactive session, 80 otherwise.
    public var width = 80
    /// Whether command output may carry colour (the interactive session, unless NO_COLOR).
    public var color = false

    public init(json: Bool = false, echo: Bool = false, keepGoing: Bool = false, width: Int = 80, color: Bool = false) {
        self.json = json
        self.echo = echo
        self.keepGoing = keepGoing
        self.width = width
        self.color = color
    }
}

/// How running some commands ended.
public enum ScriptOutcome: Equatable, Sendable {
    /// Every command ran (some may have failed under --keep-going).
    case finished
    /// A command failed and the script stopped there.
    case failed
    /// `exit` or `quit` asked to leave with this status.
    case exited(Int32)
    /// Ctrl-C stopped time.
    case interrupted
}

/// The shell: the simulated device, the command language, the tools, and the state a user
/// builds up (settings, aliases, history, schedules, a recording, a trace). It composes the
/// rooms — the engine (``DeviceEngine``), the interpreter (registry, parser, help), the trace
/// recorder — and runs commands through one path (``execute(_:text:as:)``); everything it
/// prints leaves through its ``OutputRouter``.
///
/// Its state is kept in parts, each with its own rules: ``ToolSet``, ``SettingsStore``,
/// ``AliasTable``, ``CommandHistory``, ``CommandScheduler``, ``ScriptNesting``, ``PlayClock``,
/// ``SessionRecorder`` and ``TraceSession``. The built-in commands (Commands/) act on them.
public final class Session {
    /// Every command, metric and setting namespace the shell knows.
    public private(set) var registry: ToolRegistry
    /// The simulated device; replaced by `reset`.
    public private(set) var engine: DeviceEngine
    /// The tools' types and this simulation's instances.
    let toolSet: ToolSet
    /// Where everything the session prints goes.
    public let output: OutputRouter
    public var options: SessionOptions {
        didSet { output.apply(options) }
    }
    var settings: SettingsStore
    var aliases: AliasTable
    var commandHistory = CommandHistory()
    var scheduler = CommandScheduler()
    var nesting = ScriptNesting()
    var playClock = PlayClock()
    var recorder = SessionRecorder()
    var tracing = TraceSession()
    /// `break when`, `break on`, and what a breakpoint stopped (`c`).
    let breakpoints = Breakpoints()
    /// The plugin libraries loaded so far (`plugin load`), in load order.
    public internal(set) var plugins: [LoadedPlugin] = []
    /// Commands that failed so far.
    public internal(set) var failures = 0
    /// `debugsh test`'s child: a failed `expect` is reported and the script goes on; a command
    /// that errors still ends it (docs/Testing.md).
    public var continuesAfterFailedExpectations = false
    /// The condition and the values of the `expect` failing now, for ``observeFailures(_:)``.
    var failedExpectation: (condition: String, values: String)?
    /// Where queued `stall` blocks end at the earliest, to refuse one that would end beyond the
    /// horizon.
    var stallsEndNoEarlierThan = SimTime.zero
    /// The commands running now, innermost last (a scheduled one inside a `run`, a sourced
    /// file's inside `source`), for a trap's last words.
    var runningCommands: [RunningCommand] = []
    /// What the tool's code that runs now was asked about (a metric, a setting), for the same.
    var toolCallLabel: String?
    /// The plugin whose tools are being made, while `plugin load` makes them.
    var loadingPlugin: String?

    /// Polled between commands, between the lines of long output, and between events while time
    /// runs: an interrupt (Ctrl-C, SIGINT) stops whatever runs.
    public var isInterrupted: () -> Bool = { false } {
        didSet { output.isInterrupted = isInterrupted }
    }
    /// Called after time moved (the live front end redraws its status block).
    public var timeDidMove: () -> Void = {}
    /// Set by the interactive front end: a `run` or `step` typed at its prompt prints where time
    /// stopped (`now 1.25s`). Transcripts and examples leave it off, so they show only what the
    /// commands themselves print.
    public var saysWhereTimeStops = false

    /// The deepest `source` nesting (README, Limits).
    public static let maxSourceDepth = ScriptNesting.maxDepth
    /// How many commands `history` keeps; older ones are let go, numbers go on.
    public static let historyLimit = CommandHistory.limit
    /// How many commands scheduled commands may schedule for the instant they run in, per
    /// instant: a command that schedules itself there again would otherwise never let time move.
    public static let maxSameInstantCommands = CommandScheduler.maxSameInstantCommands
    /// How many scheduled commands may wait at once (about 500 MB of them).
    public static let maxPendingCommands = CommandScheduler.maxPendingCommands

    /// Makes a session with the given tools, printing through `output`.
    ///
    /// - Throws: ``RegistrationError`` when a tool's declaration is invalid.
    public init(tools: [any DebugTool.Type], options: SessionOptions = SessionOptions(), output: OutputRouter)
        throws(RegistrationError)
    {
        registry = try Session.makeRegistry(tools: tools.map { $0.descriptor })
        var settingSpecs = ShellSettings.all.map(\.settingSpec)
        for d in registry.toolDescriptors { settingSpecs += d.settings }
        settings = SettingsStore(specs: settingSpecs)
        aliases = AliasTable(builtIns: AliasCommand.builtIns.map { ($0.name, $0.expansion) })
        toolSet = ToolSet(types: tools)
        self.output = output
        self.options = options
        output.apply(options)
        engine = DeviceEngine()
        if options.keepGoing { settings.set(ShellSettings.stopOnError, to: false) }
        if options.echo { settings.set(ShellSettings.echo, to: true) }
        makeTools()
    }

    /// Makes a session with the given tools, writing to `sink`.
    ///
    /// - Throws: ``RegistrationError`` when a tool's declaration is invalid.
    public convenience init(
        tools: [any DebugTool.Type], options: SessionOptions = SessionOptions(), sink: any OutputSink
    ) throws(RegistrationError) {
        try self.init(tools: tools, options: options, output: OutputRouter(sink: sink))
    }

    /// The registry of the built-in commands, the shell's metrics and settings, and `tools`.
    public static func makeRegistry(tools: [ToolDescriptor]) throws(RegistrationError) -> ToolRegistry {
        try ToolRegistry(
            builtIns: BuiltInCommands.all.map { ($0.spec, $0.traits) }, shellMetrics: ShellMetrics.all.map(\.spec),
            shellSettings: ShellSettings.all.map(\.settingSpec), tools: tools)
    }

    /// The built-in commands' declarations, in the order help lists them.
    public static var builtInCommandSpecs: [CommandSpec] { BuiltInCommands.all.map { $0.spec } }

    /// The shell's own settings, in the order `settings` lists them.
    public static var shellSettings: [SettingSpec] { ShellSettings.all.map(\.settingSpec) }

    /// A fresh simulation: a new device at the current rate, new tool instances (`reset`).
    func resetSimulation() {
        // The display rate survives a reset, a change still waiting for its vsync included.
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        // So does an adaptive display, with its range (V1).
        let adaptive = engine.adaptiveRange
        engine.tearDown()
        engine = DeviceEngine(rate: adaptive?.maximum ?? rate)
        if let adaptive { engine.setAdaptive(minimum: adaptive.minimum, maximum: adaptive.maximum) }
        scheduler.resetSimulation()
        stallsEndNoEarlierThan = .zero
        recorder.restart(preamble: recordingPreamble())
        // A trace goes on across a reset: the fresh simulation is a new process in it.
        tracing.recorder?.attach(engine)
        playClock.stop()
        breakpoints.stopped = nil
        breakpoints.playUntil = nil
        makeTools()
    }

    private func makeTools() {
        applyEngineSettings()
        toolSet.makeInstances(for: self)
    }

    /// Adds tools while the session runs (a plugin's): all of them or, when a declaration is
    /// wrong or a name is taken, none — nothing half-registered.
    ///
    /// - Parameter plugin: The plugin the tools come from, named when a later tool's names
    ///   clash with theirs; nil for tools compiled into debugsh.
    /// - Throws: ``RegistrationError`` naming the first problem.
    public func addTools(_ types: [any DebugTool.Type], plugin: String? = nil) throws(RegistrationError) {
        try registry.add(tools: types.map { $0.descriptor }, plugin: plugin)
        for type in types { settings.add(type.descriptor.settings) }
        toolSet.add(types, for: self)
    }

    /// The tools, in registration order; made anew by `reset`.
    public var tools: [any DebugTool] { toolSet.instances }

    /// The tool named `name`.
    public func tool(named name: String) -> (any DebugTool)? {
        registry.toolDescriptors.firstIndex { $0.name == name }.map { toolSet.instances[$0] }
    }

    // MARK: - Running commands

    /// Runs a script's text. Stops at the first failure unless stop-on-error is off, and at an
    /// interrupt.
    public func runScript(_ text: String, origin: ScriptOrigin, firstLine: Int = 1) -> ScriptOutcome {
        var outcome = ScriptOutcome.finished
        // One logical line at a time: a long script never holds all its commands at once.
        Lexer.forEachLogicalLine(text, firstLine: firstLine) { result in
            switch result {
            case .success(let commands):
                if commands.count > 1 { warnAboutSemicolonsAfterScheduling(commands, origin: origin) }
                for command in commands {
                    let location = SourceLocation(origin: origin, line: command.line)
                    if isInterrupted() {
                        // Ctrl-C between commands: the script stops before this one.
                        output.interrupted(at: engine.now, command: command.text, location: location)
                        outcome = .interrupted
                        return false
                    }
                    switch execute(command.words[...], text: command.text, as: .issued(at: location)) {
                    case .finished: continue
                    case .failed:
                        if stopsOnError || nesting.abandoning {
                            outcome = .failed
                            return false
                        }
                    case let other:
                        outcome = other
                        return false
                    }
                }
            case .failure(let error):
                failed(error.message, command: nil, at: SourceLocation(origin: origin, line: error.line))
                if stopsOnError {
                    outcome = .failed
                    return false
                }
            }
            return true
        }
        return outcome
    }

    /// Runs one typed line (interactive): errors as `error: message`.
    public func runLine(_ line: String) -> ScriptOutcome {
        let outcome = runScript(line, origin: .typed)
        return outcome == .failed ? .finished : outcome
    }

    /// The current value of a setting (`shell.history-size` for the front end), or nil for an
    /// unknown name.
    public func settingValue(_ name: String) -> ArgumentValue? {
        settings.value(name, rate: engine.refreshRate.hertz)
    }

    /// Whether a failure stops a script (`shell.stop-on-error`, off with --keep-going).
    public var stopsOnError: Bool { settings.value(ShellSettings.stopOnError, rate: engine.refreshRate.hertz) }

    /// Reports an error found outside a command (a bad line of piped input) at a script line.
    public func reportScriptError(_ message: String, origin: ScriptOrigin, line: Int) {
        failed(message, command: nil, at: SourceLocation(origin: origin, line: line))
    }

    /// Reports a typed line that is not UTF-8 text: it does not run, and the error shows its
    /// bytes escaped (`'run\xff'`).
    public func rejectTypedLine(_ bytes: [UInt8]) {
        failed(
            "not UTF-8 text: '\(VisibleText.escaped(bytes: bytes))' (debugsh reads UTF-8; the line did not run)",
            command: nil, at: SourceLocation(origin: .typed, line: 1))
    }

    /// Reports an interrupt that stopped reading a script (piped input) before a line.
    public func reportInterrupt(origin: ScriptOrigin, line: Int) {
        output.interrupted(at: engine.now, command: nil, location: SourceLocation(origin: origin, line: line))
    }

    /// A failure reported outside a command's own error (a script's bad line, an unreadable
    /// sourced file): printed, and counted.
    func failed(_ message: String, command: String?, at location: SourceLocation) {
        failures += 1
        output.error(message, command: command, location: location)
    }

    /// The session's commands that `history` still keeps, oldest first.
    public var history: [String] { commandHistory.kept }

    /// The parser, at the rate `<n>f` durations are read at now.
    var parser: CommandParser { CommandParser(registry: registry, rate: engine.refreshRate.hertz) }

    // MARK: - Status lines and completion

    /// Whether the live status block shows (`status on|off`).
    public var statusBlockEnabled: Bool {
        get { toolSet.blockEnabled }
        set { toolSet.blockEnabled = newValue }
    }

    /// Per tool: whether its line is in the block (`status <tool> on|off`).
    public var toolStatusEnabled: [Bool] {
        get { toolSet.statusEnabled }
        set { toolSet.statusEnabled = newValue }
    }

    /// The status lines of the tools enabled for the live block, in registration order.
    public func liveStatusLines() -> [StyledText] { toolSet.liveStatusLines(for: self) }

    /// Completion candidates for the word at the end of `text` (the line up to the cursor):
    /// commands, verbs, options, option values, and names that tools supply.
    public func complete(_ text: String) -> Completion {
        let completer = Completer(
            registry: registry, aliases: aliases, settings: settings,
            metricNames: { [unowned self] in allMetricNames() },
            toolCandidates: { [unowned self] domain in
                toolSet.instances.enumerated().flatMap { index, tool in
                    calling(.candidates, tool: index) { tool.candidates(for: domain) }
                }
            },
            restCompletion: { [registry] label, words, current, completer in
                guard let command = registry.command(exactly: String(label.split(separator: " ")[0])),
                    case .builtIn(let index) = command.owner
                else { return nil }
                return BuiltInCommands.all[index].completeRest(
                    label: label, words: words, current: current, completer: completer)
            })
        return completer.complete(text)
    }

    /// What `help` knows, at the width help is wrapped to.
    var helpTopics: HelpTopics {
        HelpTopics(registry: registry, settings: settings, aliases: aliases, width: options.width)
    }

    /// The text `help <topic>` prints, for generated docs.
    public func helpTextForDocs(_ topic: String) -> String { helpTopics.text(of: topic) }
}
