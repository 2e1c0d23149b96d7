import DebugShellCore

/// How a session reports and stops.
public struct SessionOptions: Sendable {
    /// JSON lines on stdout (SPEC §8).
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

    var suffix: String {
        origin.includedFrom.isEmpty ? "" : " (sourced from \(origin.includedFrom.joined(separator: ", ")))"
    }
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
    var aliases: [(name: String, expansion: String)] = []
    public private(set) var history: [String] = []
    /// Whether the live status block shows (`status on|off`).
    public var statusBlockEnabled = true
    /// Per tool: whether its line is in the block (`status <tool> on|off`).
    public var toolStatusEnabled: [Bool]
    let sink: any OutputSink
    public var options: SessionOptions
    /// Polled between events while time runs: an interrupt (Ctrl-C) stops it.
    public var isInterrupted: () -> Bool = { false }
    /// Commands that failed so far.
    public internal(set) var failures = 0
    var sourceDepth = 0
    /// Running a scheduled command: time may not advance and the simulation may not reset.
    var scheduledContext = false
    /// Scheduled commands that failed during the current `run`.
    var scheduledFailures = 0
    /// Events printed during the current command.
    var eventsPrinted = 0
    /// Called after time moved (the live front end redraws its status block).
    public var timeDidMove: () -> Void = {}
    /// Set by a front end where virtual time can follow the wall clock (`play`, SPEC §10).
    public var supportsPlay = false
    /// The speed of `play` (× real time), or nil when time does not follow the wall clock.
    public internal(set) var playSpeed: Double?
    /// Nanoseconds of virtual time owed to `play` but not yet whole.
    var playRemainder = 0.0
    /// The commands since the start or the last `reset`, each at the instant it was issued, for
    /// `record`.
    var recording = Recording()
    /// The file `record` writes, while recording.
    public internal(set) var recordingPath: String?
    /// The size of the recording's log when the file was last written.
    var recordingWrittenAt = 0

    /// The deepest `source` nesting (SPEC §13).
    public static let maxSourceDepth = 64
    /// The deepest alias expansion.
    static let maxAliasDepth = 16

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
        if options.keepGoing { settings.set("shell.stop-on-error", value: .boolean(false)) }
        if options.echo { settings.set("shell.echo", value: .boolean(true)) }
        makeTools()
    }

    /// A fresh simulation: a new device at the current rate, new tool instances (SPEC §4 `reset`).
    func resetSimulation() {
        // The display rate survives a reset, a change still waiting for its vsync included.
        let rate = engine.pendingRate?.rate ?? engine.refreshRate
        engine.tearDown()
        engine = DeviceEngine(rate: rate)
        recording = Recording(preamble: recordingPreamble())
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

    /// Runs a script's text. Stops at the first failure unless stop-on-error is off.
    public func runScript(_ text: String, origin: ScriptOrigin, firstLine: Int = 1) -> ScriptOutcome {
        var outcome = ScriptOutcome.finished
        // One logical line at a time: a long script never holds all its commands at once.
        Lexer.forEachLogicalLine(text, firstLine: firstLine) { result in
            switch result {
            case .success(let commands):
                for command in commands {
                    switch execute(command, at: SourceLocation(origin: origin, line: command.line)) {
                    case .finished: continue
                    case .failed:
                        if stopOnError {
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

    /// Runs one lexed command; `.failed` when it failed (reported already).
    func execute(_ command: LexedCommand, at location: SourceLocation) -> ScriptOutcome {
        if settings.boolean("shell.echo") && !scheduledContext {
            // With --json, stdout carries JSON lines only.
            sink.write("> \(command.text)\n", to: options.json ? .standardError : .standardOutput)
        }
        let topLevel = sourceDepth == 0 && !scheduledContext
        if topLevel { history.append(command.text) }
        do {
            let words = try expandAliases(command.words)
            if words.isEmpty { return .finished }
            let parsed = try parser.parse(words, text: command.text)
            let issuedAt = (time: engine.now, done: engine.instantDone, advances: engine.instantsProcessed)
            let output = try run(parsed, at: location)
            try writeFiles(output.files)
            if !scheduledContext {
                logForReplay(parsed, words: words, issuedAt: issuedAt, typed: location.origin.name == nil)
            }
            render(output, command: command.text, at: location)
            return .finished
        } catch let error as CommandError {
            if error.message.isEmpty {
                failures += 1
                return .failed
            }
            reportError(error.message, command: command.text, at: location)
            return .failed
        } catch let control as ControlFlow {
            switch control {
            case .exit(let status): return .exited(status)
            case .interrupted:
                reportInterrupt(command: command.text, at: location)
                return .interrupted
            }
        } catch {
            reportError("\(error)", command: command.text, at: location)
            return .failed
        }
    }

    /// Leaving or stopping, thrown through nested sources.
    enum ControlFlow: Error {
        case exit(Int32)
        case interrupted
    }

    var parser: CommandParser { CommandParser(registry: registry, rate: engine.refreshRate.hertz) }

    private func run(_ parsed: ParsedCommand, at location: SourceLocation) throws -> CommandOutput {
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
    func expandAliases(_ words: [Word]) throws(CommandError) -> [Word] {
        var words = words
        var depth = 0
        var seen: [String] = []
        while let first = words.first, !first.quoted, let alias = aliases.first(where: { $0.name == first.text }) {
            depth += 1
            guard depth <= Session.maxAliasDepth, !seen.contains(alias.name) else {
                throw CommandError(
                    "alias '\(alias.name)' expands to itself (\((seen + [alias.name]).joined(separator: " → ")))")
            }
            seen.append(alias.name)
            let args = Array(words.dropFirst())
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
                            throw CommandError("alias '\(alias.name)' needs \(n) argument\(n == 1 ? "" : "s") (%\(n))")
                        }
                        used = max(used, n)
                        text += Lexer.quote(args[n - 1].text)
                        continue
                    }
                }
                text.unicodeScalars.append(c)
            }
            if !usesAll && args.count > used {
                text += " " + args[used...].map { Lexer.quote($0.text) }.joined(separator: " ")
            }
            let lexed: [LexedCommand]
            do {
                lexed = try Lexer.lexLine(text, line: 1)
            } catch {
                throw CommandError("alias '\(alias.name)': \(error.message)")
            }
            guard lexed.count <= 1 else {
                throw CommandError("alias '\(alias.name)' expands to more than one command")
            }
            words = lexed.first?.words ?? []
        }
        return words
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
        _ output: CommandOutput, command: String, at location: SourceLocation, extra: [(String, JSONValue)] = []
    ) {
        for warning in output.warnings {
            sink.write("\(location.prefix("warning"))\(warning)\(location.suffix)\n", to: .standardError)
        }
        if options.json {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(true)), ("result", output.json)] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        } else if !output.text.isEmpty {
            sink.write(output.text.hasSuffix("\n") ? output.text : output.text + "\n", to: .standardOutput)
        }
    }

    func reportError(
        _ message: String, command: String?, at location: SourceLocation, extra: [(String, JSONValue)] = []
    ) {
        failures += 1
        if options.json, let command {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        sink.write("\(location.prefix("error"))\(message)\(location.suffix)\n", to: .standardError)
    }

    private func reportInterrupt(command: String, at location: SourceLocation) {
        let message = "interrupted at \(engine.now)"
        if options.json {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))])
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        sink.write("\(location.prefix("error"))\(message)\(location.suffix)\n", to: .standardError)
    }

    /// A tool's event: printed as it happens (SPEC §8).
    func emit(_ event: ToolEvent) {
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
}
