import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace
import DequeModule

/// How a session reports and stops.
public struct SessionOptions: Sendable {
    /// JSON lines on stdout (docs/JSON.md).
    public var json = false
    /// Print each script command before running it.
    public var echo = false
    /// Continue after a failed command; exit 1 at the end.
    public var keepGoing = false
    /// Errors without `file:line:` for typed commands.
    public var interactive = false
    /// Width for help text and charts: the terminal's in the interactive session, 80 otherwise.
    public var width = 80
    /// Whether command output may carry colour (the interactive session, unless NO_COLOR).
    public var color = false

    public init(
        json: Bool = false, echo: Bool = false, keepGoing: Bool = false, interactive: Bool = false, width: Int = 80,
        color: Bool = false
    ) {
        self.json = json
        self.echo = echo
        self.keepGoing = keepGoing
        self.interactive = interactive
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

/// Where commands come from: a file, `<command-line>`, `<stdin>`, or typed (no name).
public struct ScriptOrigin: Sendable {
    /// The name errors use; nil for typed commands (`error: message`).
    public var name: String?
    /// Where relative `source` paths resolve.
    public var directory: String
    /// The `file:line` of each `source` that led here, innermost first.
    public var includedFrom: [String] = []

    public init(name: String?, directory: String = ".", includedFrom: [String] = []) {
        self.name = name
        self.directory = directory
        self.includedFrom = includedFrom
    }

    public static let typed = ScriptOrigin(name: nil)
}

/// A place in a script, for messages.
struct SourceLocation {
    var origin: ScriptOrigin
    var line: Int

    var text: String? { origin.name.map { "\($0):\(line)" } }

    /// `file:line: error: ` (or `error: ` for typed commands); the suffix names the sources.
    func prefix(_ severity: String) -> String {
        if let text { return "\(text): \(severity): " }
        return "\(severity): "
    }

    /// ` (sourced from b.dsh:2, a.dsh:7)`; a place repeated in a row is named once with a count
    /// (`loop.dsh:1 ×64`), so a script that sources itself reads as what it is.
    var suffix: String {
        guard !origin.includedFrom.isEmpty else { return "" }
        var places: [String] = []
        var previous: String?
        var repeats = 0
        func flush() {
            if let previous { places.append(repeats > 1 ? "\(previous) ×\(repeats)" : previous) }
        }
        for place in origin.includedFrom {
            if place == previous {
                repeats += 1
                continue
            }
            flush()
            previous = place
            repeats = 1
        }
        flush()
        return " (sourced from \(places.joined(separator: ", ")))"
    }
}

/// An alias (`alias name = expansion`): the user's, or one of the built-in one-letter ones.
struct UserAlias {
    var expansion: String
    /// When it was first defined: `alias` lists in this order.
    var order: Int
    /// One of ``Session/builtInAliases``, not redefined since.
    var builtIn = false
}

/// The same-instant chain a scheduled command belongs to: commands that scheduled commands for
/// the instant they ran in, one after the other (`alias z = after 0s z`).
struct SameInstantChain {
    /// The first few commands of the chain, for the message that ends it.
    var head: [String]
    /// How many commands the chain has.
    var length: Int
}

/// A command failed and its error has already been printed (a failed `source`).
let alreadyReported = CommandError("")

/// The interpreter and its simulation: the registry, the device, the tools, settings,
/// aliases and history; it runs scripts and lines and writes only to its sink.
public final class Session {
    public private(set) var registry: ToolRegistry
    private(set) var toolTypes: [any DebugTool.Type]
    /// The plugin libraries loaded so far (`plugin load`), in load order.
    public internal(set) var plugins: [LoadedPlugin] = []
    /// The simulated device; replaced by `reset`.
    public private(set) var engine: DeviceEngine
    /// The tools, in registration order; made anew by `reset`.
    public private(set) var tools: [any DebugTool] = []
    private var hosts: [ToolHostAdapter] = []
    var settings: SettingsStore
    /// User aliases by name: looking one up costs the same however many there are.
    var aliases: [String: UserAlias] = [:]
    var nextAliasOrder = 0
    /// The last ``historyLimit`` commands, and how many older ones were let go (numbers go on).
    var historyEntries = Deque<String>()
    var historyDropped = 0
    /// Whether the live status block shows (`status on|off`).
    public var statusBlockEnabled = true
    /// Per tool: whether its line is in the block (`status <tool> on|off`).
    public var toolStatusEnabled: [Bool]
    let sink: any OutputSink
    public var options: SessionOptions
    /// Polled between commands, between the lines of long output, and between events while time
    /// runs: an interrupt (Ctrl-C, SIGINT) stops whatever runs.
    public var isInterrupted: () -> Bool = { false }
    /// Commands that failed so far.
    public internal(set) var failures = 0
    var sourceDepth = 0
    /// The source nesting at which the current scheduled command started.
    var sourceBaseDepth = 0
    /// A `source` passed the nesting limit: every `source` above the base depth stops, whatever
    /// `--keep-going` says, so a script that sources itself fails once (SPEC §13).
    var abandoningSources = false
    /// Running a scheduled command: time may not advance and the simulation may not reset.
    var scheduledContext = false
    /// The same-instant chain of the scheduled command running now, if it started one.
    var runningChain: SameInstantChain?
    /// The instant of `sameInstantCount`, and how many commands scheduled commands running at
    /// it have scheduled for it.
    var sameInstantTime = SimTime(nanoseconds: -1)
    var sameInstantCount = 0
    /// Scheduled commands waiting to run (`after`, `at`, `every`), and how many may.
    var pendingScheduled = 0
    var pendingLimit = Session.maxPendingCommands
    /// Scheduled commands an interrupt kept from running; scheduled again where time stopped.
    var heldByInterrupt: [() -> Void] = []
    /// Where queued `stall` blocks end at the earliest, to refuse one that would end beyond the
    /// horizon.
    var stallsEndNoEarlierThan = SimTime.zero
    /// Scheduled commands that failed during the current `run`.
    var scheduledFailures = 0
    /// Events printed during the current command.
    var eventsPrinted = 0
    /// Called after time moved (the live front end redraws its status block).
    public var timeDidMove: () -> Void = {}
    /// Set by a front end where virtual time can follow the wall clock (`play`).
    public var supportsPlay = false
    /// Set by the interactive front end: a `run` or `step` typed at its prompt prints where time
    /// stopped (`now 1.25s`). Transcripts and examples leave it off, so they show only what the
    /// commands themselves print.
    public var saysWhereTimeStops = false
    /// The speed of `play` (× real time), or nil when time does not follow the wall clock.
    public internal(set) var playSpeed: Double?
    /// Nanoseconds of virtual time owed to `play` but not yet whole.
    var playRemainder = 0.0
    /// While `play` cannot keep up: how fast virtual time moves (× real time), measured over the
    /// last half second of wall time; nil while it keeps up.
    public internal(set) var playPace: Double?
    /// Wall and virtual nanoseconds of the current pace measurement.
    var paceWindow: (wall: Int64, virtual: Int64) = (0, 0)
    /// The commands since the start or the last `reset`, each at the instant it was issued, for
    /// `record`.
    var recording = Recording()
    /// The file `record` writes, while recording.
    public internal(set) var recordingPath: String?
    /// The trace of the simulated timeline (`trace start`), recording or stopped.
    public internal(set) var trace: TraceRecorder?
    /// Whether the session said that the trace reached its limit.
    var traceLimitReported = false
    /// The size of the recording's log when the file was last written.
    var recordingWrittenAt = 0

    /// The deepest `source` nesting (README, Limits).
    public static let maxSourceDepth = 64
    /// The deepest alias expansion.
    static let maxAliasDepth = 16
    /// The one-letter aliases LLDB users type without thinking, defined at the start like the
    /// user's own: `alias` lists them, `alias r = …` replaces one, `unalias r` removes it.
    static let builtInAliases: [(name: String, expansion: String, lldb: String)] = [
        ("c", "play", "continue: time runs on, with the wall clock, until 'pause' or Ctrl-C"),
        ("p", "get", "print: one metric, as 'name = value'"),
        ("q", "quit", "quit"),
        ("r", "run", "run"),
        ("s", "step", "step: to the next vsync"),
    ]
    /// How many commands `history` keeps; older ones are let go, numbers go on.
    public static let historyLimit = 10_000
    /// How many commands scheduled commands may schedule for the instant they run in, per
    /// instant: a command that schedules itself there again would otherwise never let time move.
    public static let maxSameInstantCommands = 10_000
    /// How many scheduled commands may wait at once (about 500 MB of them).
    public static let maxPendingCommands = 1_000_000

    /// Makes a session with the given tools.
    ///
    /// - Throws: ``RegistrationError`` when a tool's declaration is invalid.
    public init(tools: [any DebugTool.Type], options: SessionOptions = SessionOptions(), sink: any OutputSink)
        throws(RegistrationError)
    {
        registry = try ToolRegistry(builtIns: Session.builtInSpecs, tools: tools.map { $0.descriptor })
        toolTypes = tools
        var settingSpecs = SettingsStore.shellSettings
        for d in registry.toolDescriptors { settingSpecs += d.settings }
        settings = SettingsStore(specs: settingSpecs)
        toolStatusEnabled = Array(repeating: true, count: tools.count)
        self.sink = sink
        self.options = options
        engine = DeviceEngine()
        for (name, expansion, _) in Session.builtInAliases {
            aliases[name] = UserAlias(expansion: expansion, order: nextAliasOrder, builtIn: true)
            nextAliasOrder += 1
        }
        if options.keepGoing { settings.set("shell.stop-on-error", value: .boolean(false)) }
        if options.echo { settings.set("shell.echo", value: .boolean(true)) }
        makeTools()
    }

    /// A fresh simulation: a new device at the current rate, new tool instances (`reset`).
    func resetSimulation() {
        // The display rate survives a reset, a change still waiting for its vsync included.
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        engine.tearDown()
        engine = DeviceEngine(rate: rate)
        pendingScheduled = 0
        heldByInterrupt.removeAll()
        stallsEndNoEarlierThan = .zero
        sameInstantTime = SimTime(nanoseconds: -1)
        recording = Recording(preamble: recordingPreamble())
        // A trace goes on across a reset: the fresh simulation is a new process in it.
        trace?.attach(engine)
        playSpeed = nil
        makeTools()
    }

    private func makeTools() {
        engine.coalescing = settings.boolean("runloop.coalescing")
        hosts = []
        tools = []
        makeTools(toolTypes.indices)
    }

    /// Makes the tools at `indices` of `toolTypes`, each with its host.
    private func makeTools(_ indices: Range<Int>) {
        for index in indices {
            let host = ToolHostAdapter(session: self, index: index)
            hosts.append(host)
            tools.append(toolTypes[index].init(host: host))
        }
    }

    /// Adds tools while the session runs (a plugin's): all of them or, when a declaration is
    /// wrong or a name is taken, none — nothing half-registered.
    ///
    /// - Throws: ``RegistrationError`` naming the first problem.
    public func addTools(_ types: [any DebugTool.Type]) throws(RegistrationError) {
        try registry.add(tools: types.map { $0.descriptor })
        let first = toolTypes.count
        toolTypes += types
        for type in types { settings.add(type.descriptor.settings) }
        toolStatusEnabled += Array(repeating: true, count: types.count)
        makeTools(first..<toolTypes.count)
    }

    /// The tool named `name`.
    public func tool(named name: String) -> (any DebugTool)? {
        registry.toolDescriptors.firstIndex { $0.name == name }.map { tools[$0] }
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
                for command in commands {
                    let location = SourceLocation(origin: origin, line: command.line)
                    if isInterrupted() {
                        // Ctrl-C between commands: the script stops before this one.
                        reportInterrupt(command: command.text, at: location)
                        outcome = .interrupted
                        return false
                    }
                    switch execute(command, at: location) {
                    case .finished: continue
                    case .failed:
                        if stopOnError || abandoningSources {
                            outcome = .failed
                            return false
                        }
                    case let other:
                        outcome = other
                        return false
                    }
                }
            case .failure(let error):
                reportError(error.message, command: nil, at: SourceLocation(origin: origin, line: error.line))
                if stopOnError {
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

    var stopOnError: Bool { settings.boolean("shell.stop-on-error") }

    /// The current value of a setting (`shell.history-size` for the front end), or nil for an
    /// unknown name.
    public func settingValue(_ name: String) -> ArgumentValue? { settings.value(name) }

    /// Whether a failure stops a script (`shell.stop-on-error`, off with --keep-going).
    public var stopsOnError: Bool { stopOnError }

    /// Reports an error found outside a command (a bad line of piped input) at a script line.
    public func reportScriptError(_ message: String, origin: ScriptOrigin, line: Int) {
        reportError(message, command: nil, at: SourceLocation(origin: origin, line: line))
    }

    /// Reports a typed line that is not UTF-8 text: it does not run, and the error shows its
    /// bytes escaped (`'run\xff'`).
    public func rejectTypedLine(_ bytes: [UInt8]) {
        reportError(
            "not UTF-8 text: '\(VisibleText.escaped(bytes: bytes))' (debugsh reads UTF-8; the line did not run)",
            command: nil, at: SourceLocation(origin: .typed, line: 1))
    }

    /// Reports an interrupt that stopped reading a script (piped input) before a line.
    public func reportInterrupt(origin: ScriptOrigin, line: Int) {
        reportInterrupt(command: nil, at: SourceLocation(origin: origin, line: line))
    }

    /// The session's commands that `history` still keeps, oldest first.
    public var history: [String] { Array(historyEntries) }

    /// Runs one lexed command; `.failed` when it failed (reported already).
    func execute(_ command: LexedCommand, at location: SourceLocation) -> ScriptOutcome {
        if settings.boolean("shell.echo") && !scheduledContext {
            // With --json, stdout carries JSON lines only.
            sink.write("> \(command.text)\n", to: options.json ? .standardError : .standardOutput)
        }
        let topLevel = sourceDepth == 0 && !scheduledContext
        if topLevel { remember(command.text) }
        do {
            let words = try expandAliases(command.words[...])
            if words.isEmpty { return .finished }
            let parsed = try parse(words, text: command.text)
            let issuedAt = (time: engine.now, done: engine.instantDone, advances: engine.instantsProcessed)
            let output = try run(parsed, at: location)
            try writeFiles(output.files)
            if !scheduledContext {
                logForReplay(parsed, words: words, issuedAt: issuedAt, typed: location.origin.name == nil)
            }
            render(output, command: command.text, at: location)
            if isInterrupted() {
                // Ctrl-C while the command ran or wrote: what it wrote stays, the rest stops.
                reportInterrupt(command: command.text, at: location)
                return .interrupted
            }
            return .finished
        } catch let error as CommandError {
            if error.message.isEmpty {
                failures += 1
                return .failed
            }
            // Inside a sourced file that a scheduled command runs, say when (SPEC §8).
            let message = scheduledContext ? "at \(engine.now): \(error.message)" : error.message
            reportError(message, command: command.text, at: location)
            return .failed
        } catch let control as ControlFlow {
            switch control {
            case .exit(let status): return .exited(status)
            case .interrupted(let reported):
                if !reported { reportInterrupt(command: command.text, at: location) }
                return .interrupted
            }
        } catch {
            reportError("\(error)", command: command.text, at: location)
            return .failed
        }
    }

    /// Keeps a command for `history`: the last ``historyLimit`` of them.
    private func remember(_ text: String) {
        historyEntries.append(text)
        if historyEntries.count > Session.historyLimit {
            historyEntries.removeFirst()
            historyDropped += 1
        }
    }

    /// Leaving or stopping, thrown through nested sources.
    enum ControlFlow: Error {
        case exit(Int32)
        /// Ctrl-C; `reported` once a message named where it stopped (an inner `source`).
        case interrupted(reported: Bool)
    }

    var parser: CommandParser { CommandParser(registry: registry, rate: engine.refreshRate.hertz) }

    /// The built-ins whose rest argument is a command: it stays a slice of the words it came in,
    /// so that `after 1ns after 1ns … echo` costs time in proportion to its length, not its square.
    static let schedulingCommands: Set<String> = ["after", "at", "every"]

    /// Parses a command, keeping the command of `after`, `at` and `every` as a slice.
    func parse(_ words: ArraySlice<Word>, text: String) throws(CommandError) -> ParsedCommand {
        try parser.parse(words, text: text, keepingRestOf: Session.schedulingCommands)
    }

    private func run(_ parsed: ParsedCommand, at location: SourceLocation) throws -> CommandOutput {
        if parsed.asksForHelp { return helpAsked(by: parsed) }
        switch parsed.command.owner {
        case .builtIn:
            return try runBuiltIn(parsed, at: location)
        case .tool(let index):
            let before = engine.now
            let output = try tools[index].run(parsed.invocation)
            if engine.now != before { timeDidMove() }
            return output
        }
    }

    // MARK: - Aliases

    /// Expands a user alias in the command position (`%1`…`%9`, `%*`; extra words appended).
    func expandAliases(_ words: ArraySlice<Word>) throws(CommandError) -> ArraySlice<Word> {
        var words = words
        var chain: [String] = []
        // A command's own name wins over an alias (a plugin may bring a command 'r').
        while let first = words.first, !first.quoted, let alias = aliases[first.text],
            registry.command(exactly: first.text) == nil
        {
            if chain.contains(first.text) {
                throw CommandError(
                    "alias '\(first.text)' expands to itself (\((chain + [first.text]).joined(separator: " → ")))")
            }
            guard chain.count < Session.maxAliasDepth else {
                throw CommandError(
                    "aliases nest at most \(Session.maxAliasDepth) deep: '\(chain[0])' goes deeper (\((chain + [first.text]).joined(separator: " → ")))"
                )
            }
            chain.append(first.text)
            let name = first.text
            let args = words.dropFirst()
            var used = 0
            var usesAll = false
            var text = ""
            var scalars = Array(alias.expansion.unicodeScalars)[...]
            while let c = scalars.popFirst() {
                if c == "%", let d = scalars.first {
                    if d == "*" {
                        scalars.removeFirst()
                        usesAll = true
                        text += args.map { Lexer.quote($0.text) }.joined(separator: " ")
                        continue
                    }
                    if let n = Int(String(d)), n >= 1 {
                        scalars.removeFirst()
                        guard n <= args.count else {
                            throw CommandError("alias '\(name)' needs \(n) argument\(n == 1 ? "" : "s") (%\(n))")
                        }
                        used = max(used, n)
                        text += Lexer.quote(args[args.startIndex + n - 1].text)
                        continue
                    }
                }
                text.unicodeScalars.append(c)
            }
            if !usesAll && args.count > used {
                text += " " + args.dropFirst(used).map { Lexer.quote($0.text) }.joined(separator: " ")
            }
            let lexed: [LexedCommand]
            do {
                lexed = try Lexer.lexLine(text, line: 1)
            } catch {
                throw CommandError("alias '\(name)': \(error.message)")
            }
            guard lexed.count <= 1 else {
                throw CommandError("alias '\(name)' expands to more than one command")
            }
            words = (lexed.first?.words ?? [])[...]
        }
        return words
    }

    /// The aliases in the order they were first defined.
    var aliasesInOrder: [(name: String, expansion: String)] {
        aliases.sorted { $0.value.order < $1.value.order }.map { ($0.key, $0.value.expansion) }
    }

    // MARK: - Output

    /// Writes the files a command returned, atomically and in order (``OutputFile``).
    ///
    /// - Throws: ``CommandError`` `cannot write '<path>': <reason>` for the first that fails.
    func writeFiles(_ files: [OutputFile]) throws(CommandError) {
        for file in files {
            do {
                try FileIO.writeAtomically(file.contents, to: file.path)
            } catch {
                throw CommandError(error.message)
            }
        }
    }

    func render(
        _ output: CommandOutput, command: @autoclosure () -> String, at location: SourceLocation,
        extra: [(String, JSONValue)] = []
    ) {
        for warning in output.warnings {
            let line = "\(location.prefix("warning"))\(warning)\(location.suffix)"
            sink.write(VisibleText.escaped(line) + "\n", to: .standardError)
        }
        if options.json {
            let result = output.json
            let line = JSONValue.object(
                [("command", .string(command())), ("ok", .bool(true)), ("result", result)] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        } else if let streamed = output.streamed {
            // Each line goes out as it is made; an interrupt stops the listing.
            streamed.writeText { line in
                sink.write(line + "\n", to: .standardOutput)
                return !isInterrupted()
            }
        } else if !output.text.isEmpty {
            sink.write(output.text.hasSuffix("\n") ? output.text : output.text + "\n", to: .standardOutput)
        }
    }

    func reportError(
        _ message: String, command: @autoclosure () -> String?, at location: SourceLocation,
        extra: [(String, JSONValue)] = []
    ) {
        failures += 1
        if options.json, let command = command() {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        // The user's words in a message never reach the terminal raw (`unknown command 'run\x01'`).
        let line = "\(location.prefix("error"))\(message)\(location.suffix)"
        sink.write(VisibleText.escaped(line) + "\n", to: .standardError)
    }

    func reportInterrupt(command: String?, at location: SourceLocation) {
        let message = "interrupted at \(engine.now)"
        if options.json, let command {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))])
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        sink.write("\(location.prefix("error"))\(message)\(location.suffix)\n", to: .standardError)
    }

    /// A tool's event: printed as it happens (docs/JSON.md).
    func emit(_ event: ToolEvent) {
        trace?.toolEvent(event)
        eventsPrinted += 1
        if options.json {
            sink.write(event.json.serialized + "\n", to: .standardOutput)
        } else {
            sink.write(event.text + "\n", to: .standardOutput)
        }
    }

    // MARK: - Status lines

    /// The status lines of the tools enabled for the live block, in registration order.
    public func liveStatusLines() -> [StyledText] {
        guard statusBlockEnabled else { return [] }
        var lines: [StyledText] = []
        for (index, tool) in tools.enumerated() where toolStatusEnabled[index] {
            if let line = tool.statusLine() { lines.append(line) }
        }
        return lines
    }
}

/// What a tool sees of the shell.
final class ToolHostAdapter: ToolHost {
    unowned let session: Session
    let index: Int

    init(session: Session, index: Int) {
        self.session = session
        self.index = index
    }

    var device: any SimulatedDevice { session.engine }

    func setting(_ name: String) -> ArgumentValue? { session.settings.value(name) }

    func setSetting(_ name: String, to value: ArgumentValue) {
        session.settings.set(name, value: value)
    }

    func emit(_ event: ToolEvent) { session.emit(event) }

    var display: TextDisplay {
        TextDisplay(columns: session.options.width, color: session.options.color && !session.options.json)
    }

    var isTracing: Bool { session.trace?.isRecording ?? false }

    func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]) {
        session.trace?.toolSlice(
            tool: index, toolName: session.registry.toolDescriptors[index].name, name, from: start, to: end, args: args)
    }

    func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime) {
        session.trace?.toolCounter(toolName: session.registry.toolDescriptors[index].name, name, value, at: time)
    }
}
