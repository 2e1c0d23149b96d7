import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// The shell: it composes the rooms — the engine, the interpreter, the trace recorder, the
/// tools — and runs commands through one path (``execute(_:text:as:)``); everything it prints
/// leaves through its ``OutputRouter``.
///
/// What it knows lives in parts, each owning its behaviour: the device (``Simulation``), the
/// words and settings (``Vocabulary``), the tools and their plugins (``ToolSet``), the time
/// driver with the breakpoints (``TimeDriver``), the scheduled commands (``CommandScheduler``),
/// the recording (``SessionRecorder``), the trace (``TraceSession``), where scripts nest
/// (``ScriptNesting``) and the history. A built-in command gets the parts it acts on as a
/// ``CommandContext``, never the session.
public final class Session {
    /// Where everything the session prints goes.
    public let output: OutputRouter
    /// The simulated device; `reset` makes a new one.
    public let simulation: Simulation
    /// What the words mean now: commands, metrics, settings, aliases.
    public let vocabulary: Vocabulary
    /// The tools, the plugins they came from, and the calls into their code.
    public let tools: ToolSet
    /// The one way time moves.
    public let time: TimeDriver
    /// `record`.
    public let recorder: SessionRecorder
    /// `trace`, `--trace`.
    public let tracing: TraceSession
    /// The recording imported (`import`), beside the simulation.
    public let imported: ImportedTimeline
    let scheduler: CommandScheduler
    let nesting: ScriptNesting
    var commandHistory = CommandHistory()
    /// Commands that failed so far.
    public internal(set) var failures = 0

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
    public init(tools types: [any DebugTool.Type], options: SessionOptions = SessionOptions(), output: OutputRouter)
        throws(RegistrationError)
    {
        self.output = output
        output.options = options
        let simulation = Simulation()
        let vocabulary = try Vocabulary(tools: types.map { $0.descriptor }, simulation: simulation)
        let tools = ToolSet(types: types, simulation: simulation, vocabulary: vocabulary)
        let nesting = ScriptNesting()
        let scheduler = CommandScheduler(simulation: simulation, nesting: nesting, output: output)
        let recorder = SessionRecorder(
            simulation: simulation, vocabulary: vocabulary, tools: tools, nesting: nesting, output: output)
        let tracing = TraceSession(simulation: simulation, output: output)
        let imported = ImportedTimeline()
        time = TimeDriver(
            simulation: simulation, nesting: nesting, output: output, scheduler: scheduler, recorder: recorder,
            tracing: tracing,
            metrics: MetricReader(
                vocabulary: vocabulary, tools: tools, simulation: simulation, imported: imported, output: output))
        recorder.breakpointDefinitions = { [unowned time] in time.breakpoints.definitions() }
        recorder.openRecording = { [unowned imported] in imported.timeline == nil ? [] : imported.importWords }
        self.simulation = simulation
        self.vocabulary = vocabulary
        self.tools = tools
        self.nesting = nesting
        self.scheduler = scheduler
        self.recorder = recorder
        self.tracing = tracing
        self.imported = imported
        scheduler.execute = { [unowned self] words, issue in
            _ = execute(words, text: words.commandText, as: issue)
        }
        time.runStopCommands = { [unowned self] in
            if let due = time.breakpoints.takeDue() { _ = runBreakpointCommands(due) }
        }
        if options.keepGoing { vocabulary.settings.set(ShellSettings.stopOnError, to: false) }
        if options.echo { vocabulary.settings.set(ShellSettings.echo, to: true) }
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

    /// The simulated device now.
    public var engine: DeviceEngine { simulation.engine }

    /// Where the script ended: its `exit` (or `quit`), else its last command; nil before any.
    /// `debugsh test` places an `exit N` and a moved baseline there (docs/Testing.md).
    public var endPlace: (file: String?, line: Int)? {
        (nesting.exitPlace ?? nesting.lastPlace).map { ($0.origin.name, $0.line) }
    }

    /// Every command, metric and setting namespace the shell knows.
    public var registry: ToolRegistry { vocabulary.registry }

    /// How the session reports and stops.
    public var options: SessionOptions {
        get { output.options }
        set { output.options = newValue }
    }

    /// Polled between commands, between the lines of long output, and between events while time
    /// runs: an interrupt (Ctrl-C, SIGINT) stops whatever runs.
    public var isInterrupted: () -> Bool {
        get { output.isInterrupted }
        set { output.isInterrupted = newValue }
    }

    /// The registry of the built-in commands, the shell's metrics and settings, and `tools`.
    public static func makeRegistry(tools: [ToolDescriptor]) throws(RegistrationError) -> ToolRegistry {
        try Vocabulary.makeRegistry(tools: tools)
    }

    /// The built-in commands' declarations, in the order help lists them.
    public static var builtInCommandSpecs: [CommandSpec] { BuiltInCommands.all.map { $0.spec } }

    /// The shell's own settings, in the order `settings` lists them.
    public static var shellSettings: [SettingSpec] { ShellSettings.all.map(\.settingSpec) }

    /// What a built-in command gets of the session: its parts.
    var context: CommandContext {
        CommandContext(
            simulation: simulation, vocabulary: vocabulary, tools: tools, scheduler: scheduler, recorder: recorder,
            tracing: tracing, imported: imported, time: time, nesting: nesting, output: output,
            history: commandHistory, shell: self)
    }

    /// Reads metrics and the conditions written over them.
    var metrics: MetricReader {
        MetricReader(vocabulary: vocabulary, tools: tools, simulation: simulation, imported: imported, output: output)
    }

    // MARK: - Tools

    /// Makes the tools for the device; after a `reset` (at `time`), the old ones go first.
    private func makeTools(replacingAt time: SimTime = .zero) {
        simulation.apply(vocabulary.settings)
        tools.makeInstances(for: self, replacingAt: time)
    }

    /// Adds tools while the session runs (a plugin's): all of them or, when a declaration is
    /// wrong or a name is taken, none — nothing half-registered.
    ///
    /// - Parameter plugin: The plugin the tools come from, named when a later tool's names
    ///   clash with theirs; nil for tools compiled into debugsh.
    /// - Throws: ``RegistrationError`` naming the first problem.
    public func addTools(_ types: [any DebugTool.Type], plugin: String? = nil) throws(RegistrationError) {
        try vocabulary.add(types.map { tools.descriptor(of: $0) }, plugin: plugin)
        tools.add(types, for: self)
    }

    /// The tool named `name`.
    public func tool(named name: String) -> (any DebugTool)? {
        registry.toolDescriptors.firstIndex { $0.name == name }.map { tools.instances[$0] }
    }

    /// `plugin load <path>`: loads a plugin library and registers its tools, all or none.
    ///
    /// `~` and `~/…` in `path` stand for the home folder (`$HOME`).
    @discardableResult
    public func loadPlugin(_ path: String) throws(CommandError) -> LoadedPlugin {
        try loadPlugin(path, named: nil)
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
                if commands.count > 1 { scheduler.warnAboutSemicolons(commands, origin: origin) }
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
    public func settingValue(_ name: String) -> ArgumentValue? { vocabulary.value(name) }

    /// Whether a failure stops a script (`shell.stop-on-error`, off with --keep-going).
    public var stopsOnError: Bool { vocabulary.value(ShellSettings.stopOnError) }

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

    // MARK: - What the front end asks

    /// The status lines of the tools enabled for the live block, in registration order.
    public func liveStatusLines() -> [StyledText] { tools.liveStatusLines() }

    /// Completion candidates for the word at the end of `text` (the line up to the cursor):
    /// commands, verbs, options, option values, and names that tools supply.
    public func complete(_ text: String) -> Completion {
        let completer = Completer(
            registry: registry, aliases: vocabulary.aliases, settings: vocabulary.settings,
            metricNames: { [metrics] in metrics.allNames() },
            toolCandidates: { [tools] domain in tools.candidates(for: domain) },
            restCompletion: { [registry] label, words, current, completer in
                let parts = label.split(separator: " ", maxSplits: 1).map(String.init)
                guard let command = registry.command(exactly: parts[0]), case .builtIn(let index) = command.owner
                else { return nil }
                return BuiltInCommands.all[index].completeRest(
                    verb: parts.count > 1 ? parts[1] : "", words: words, current: current, completer: completer)
            })
        return completer.complete(text)
    }

    /// The text `help <topic>` prints, for generated docs.
    public func helpTextForDocs(_ topic: String) -> String {
        vocabulary.helpTopics(width: options.width).text(of: topic)
    }

    /// The start of the last words when code ends the process: who, `verb` (`trapped` for a trap's
    /// `signal`, `did not return`, `called exit(3)`), in what, when, during what (``LastWords``).
    public func lastWords(
        _ verb: String? = nil, signal: Int32 = 0, from: Bool = false, nobody: String? = nil, thread: Bool = false
    ) -> String {
        LastWords(engine: engine, registry: registry, tools: tools, running: nesting.running)
            .description(verb ?? LastWords.verb(signal), from: from, nobody: nobody, thread: thread)
    }

    /// Every metric name now: the shell's, then each tool's in registration order.
    public func allMetricNames() -> [String] { metrics.allNames() }

    /// A metric's value, or `none` for an unknown one.
    public func metricValueOrNone(_ name: String) -> MetricValue { metrics.valueOrNone(name) }

    /// Calls `body` for each error, failed `expect` and interrupt as it is printed, with where and
    /// when (`debugsh test`'s child writes them to the runner's report).
    public func observeFailures(_ body: @escaping (ReportedFailure) -> Void) {
        output.failureObserver = { [unowned self] message, location, interrupted, expectation in
            body(
                ReportedFailure(
                    kind: interrupted ? .interrupted : expectation != nil ? .expectation : .error,
                    file: location.origin.name, line: location.line, message: message,
                    condition: expectation?.condition, values: expectation?.values, time: engine.now,
                    sourcedFrom: location.origin.includedFrom))
        }
    }

    /// Every metric the session knows now and its value as `get` prints it, with its type: a
    /// test's final metrics, for baselines. At most `limit` of them, in `metrics`' order.
    public func finalMetrics(limit: Int = 10_000) -> [(name: String, type: String, text: String)] {
        metrics.finalValues(limit: limit)
    }
}

extension Session: CommandShell {
    /// A fresh simulation: a new device at the current rate, new tool instances (`reset`); a trap
    /// meanwhile is rescued into the log from before it (``SessionRecorder/beginReset()``).
    func resetSimulation() {
        recorder.beginReset()
        defer { recorder.endReset() }
        resetSimulation(display: nil)
    }

    func resetSimulation(display: (rate: RefreshRate, buffers: Int)?) {
        let time = engine.now
        imported.endReplay()
        simulation.reset(display: display)
        scheduler.resetSimulation()
        recorder.restart()
        // A trace goes on across a reset: the fresh simulation is a new process in it.
        tracing.attachToNewDevice()
        self.time.resetSimulation()
        makeTools(replacingAt: time)
    }

    /// Loads a plugin library and registers its tools, all or none; with `expected`, only if
    /// the library's plugin has that name (`plugin require <name> --from <path>`).
    func loadPlugin(_ path: String, named expected: String?) throws(CommandError) -> LoadedPlugin {
        let plugin = try PluginLibrary.load(path, named: expected, into: self)
        recorder.logPluginLoaded(plugin)
        return plugin
    }
}
