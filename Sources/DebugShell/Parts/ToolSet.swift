import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// The session's tools: their types in registration order, this simulation's instances (made
/// anew by `reset`), the plugin libraries some came from, which of their status lines the live
/// block shows, and the one way the shell calls into a tool's code (``calling(_:tool:label:_:)``).
public final class ToolSet {
    private(set) var types: [any DebugTool.Type]
    /// The tools, in registration order; made anew by `reset`.
    public private(set) var instances: [any DebugTool] = []
    private var hosts: [ToolHostAdapter] = []
    /// Whether the live status block shows (`status on|off`).
    public var blockEnabled = true
    /// Per tool: whether its line is in the block (`status <tool> on|off`).
    public var statusEnabled: [Bool]
    /// The plugin libraries loaded so far (`plugin load`), in load order.
    public internal(set) var plugins: [LoadedPlugin] = []
    /// The plugin library `plugin load` is loading, until it is loaded or refused: a trap in its
    /// code meanwhile names it, and the rescue's recording has the load.
    var loading: PluginLoad?
    /// The plugin whose tools are being made, while `plugin load` makes them.
    var loadingPlugin: String? { loading?.name }
    /// The tool type whose `descriptor` is being read (``descriptor(of:)``).
    private(set) var describing: (any DebugTool.Type)?
    /// What the tool's code that runs now was asked about (a metric, a setting), for a trap's
    /// last words.
    private(set) var callLabel: String?
    private let simulation: Simulation
    private let vocabulary: Vocabulary

    init(types: [any DebugTool.Type], simulation: Simulation, vocabulary: Vocabulary) {
        self.types = types
        statusEnabled = Array(repeating: true, count: types.count)
        self.simulation = simulation
        self.vocabulary = vocabulary
    }

    /// Makes every tool anew for the session's current device. The tools made before are let go
    /// first, one at a time, each as a call into its code (its `deinit`); both are noted at
    /// `time`, the time of the `reset` (the new device's clock reads 0).
    func makeInstances(for session: Session, replacingAt time: SimTime = .zero) {
        var old: [(any DebugTool)?] = instances.map { $0 }
        instances = []
        for index in old.indices {
            calling(.deinitAtReset, tool: index, at: time) { old[index] = nil }
        }
        hosts = []
        makeInstances(types.indices, for: session, at: time)
    }

    /// A tool type's declaration, read as a call into its code (a plugin's `descriptor` is): once,
    /// at registration; the registry keeps what it said.
    func descriptor(of type: any DebugTool.Type) -> ToolDescriptor {
        let saved = describing
        describing = type
        defer { describing = saved }
        return calling(.descriptor, tool: -1) { type.descriptor }
    }

    /// Adds tools (a plugin's) and makes them.
    func add(_ more: [any DebugTool.Type], for session: Session) {
        let first = types.count
        types += more
        statusEnabled += Array(repeating: true, count: more.count)
        makeInstances(first..<types.count, for: session)
    }

    private func makeInstances(_ indices: Range<Int>, for session: Session, at time: SimTime? = nil) {
        for index in indices {
            let host = ToolHostAdapter(session: session, index: index)
            hosts.append(host)
            let type = types[index]
            instances.append(calling(.initializer, tool: index, at: time) { type.init(host: host) })
        }
    }

    /// Runs `body`, a call into the code of the tool at `tool`, noting it on the device (and
    /// `label`, the name the call is about: a metric, a setting) for a trap's last words; what the
    /// tool registers meanwhile is its own.
    @inline(__always)
    func calling<T, E: Error>(
        _ kind: RunningCode.Kind, tool: Int, label: String? = nil, at time: SimTime? = nil,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        let device = simulation.engine
        let saved = device.running
        device.running = RunningCode(kind: kind, tool: Int32(truncatingIfNeeded: tool), time: time ?? device.now)
        let savedLabel = callLabel
        if let label { callLabel = label }
        defer {
            device.running = saved
            callLabel = savedLabel
        }
        return try body()
    }

    /// Runs `body`, which shows a command's result: a tool's JSON result (under `--json`) and
    /// streamed output are its code, run after `run(_:)` returned, so a trap there names it.
    func showing(_ result: CommandOutput, of owner: CommandOwner, json: Bool, _ body: () -> Void) {
        guard case .tool(let index) = owner, json || result.streamed != nil else { return body() }
        calling(json ? .jsonResult : .streamedOutput, tool: index, body)
    }

    /// The status lines of the tools enabled for the live block, in registration order, each
    /// cut to ``TextCap/statusLine`` characters.
    func liveStatusLines() -> [StyledText] {
        guard blockEnabled else { return [] }
        var lines: [StyledText] = []
        for index in instances.indices where statusEnabled[index] {
            if let line = statusLine(of: index) { lines.append(line) }
        }
        return lines
    }

    /// A tool's status line now, or nil when it is idle; cut to ``TextCap/statusLine``
    /// characters with a visible `…`, so a long one costs the shell no more than a short one.
    func statusLine(of index: Int) -> StyledText? {
        let tool = instances[index]
        return calling(.statusLine, tool: index) { tool.statusLine() }.map(TextCap.cut)
    }

    /// The names every tool offers for a kind of value (completion).
    func candidates(for domain: NameDomain) -> [String] {
        instances.enumerated().flatMap { index, tool in
            calling(.candidates, tool: index) { tool.candidates(for: domain) }
        }
    }

    /// Tells the tool that owns a setting that it changed.
    func settingDidChange(_ name: String) {
        let registry = vocabulary.registry
        if let index = registry.toolIndex(forNamespace: name),
            registry.toolDescriptors[index].settings.contains(where: { $0.name == name })
        {
            let tool = instances[index]
            calling(.settingChange, tool: index, label: name) { tool.settingDidChange(name) }
        }
    }
}

/// A plugin library being loaded (`plugin load`, `plugin require --from`), from the moment its
/// file is known until it is loaded or refused.
struct PluginLoad {
    /// The path as given, and the file it resolved to.
    var path: String
    var resolvedPath: String
    /// The plugin's name, once its manifest is read.
    var name: String?
    /// Where the recording has the load, should its code trap before it is done (the rescue
    /// writes it there); nil for a load the log has otherwise (a scheduled command's).
    var issuedAt: SessionRecorder.Position?

    /// The line that loads it in a replay: `plugin require <name> --from <file>` once its name is
    /// known (as a load that succeeded is written), else `plugin load <file>`.
    var recordedWords: [Word] {
        let file = Word(
            text: resolvedPath, raw: Lexer.quote(resolvedPath), quoted: Lexer.quote(resolvedPath) != resolvedPath)
        if let name { return ["plugin", "require", name, "--from"].map { Word($0) } + [file] }
        return [Word("plugin"), Word("load"), file]
    }
}

/// What a tool sees of the shell: the device, settings, the event stream, where its text is
/// shown, and the trace.
final class ToolHostAdapter: ToolHost {
    unowned let session: Session
    let index: Int

    /// The device as this tool sees it: the engine, with the host's rules (``ToolDevice``).
    let device: any SimulatedDevice

    init(session: Session, index: Int) {
        self.session = session
        self.index = index
        device = ToolDevice(session: session, tool: index)
    }

    func setting(_ name: String) -> ArgumentValue? { session.vocabulary.value(name) }

    /// Changes one of the tool's own settings, with a value of its declared kind; anything else
    /// is dropped with a warning that names the tool (docs/Plugins.md, "What the host checks").
    func setSetting(_ name: String, to value: ArgumentValue) {
        let tool = descriptor
        let vocabulary = session.vocabulary
        guard let spec = tool.settings.first(where: { $0.name == name }) else {
            let whose = vocabulary.settings.spec(name) == nil ? "which it does not declare" : "which is not its own"
            session.output.toolWarning(
                "tool '\(tool.name)' set the setting '\(name)', \(whose); dropped")
            return
        }
        if let problem = ValueParser.mismatch(value, for: spec.kind, rate: vocabulary.rate) {
            session.output.toolWarning(
                "tool '\(tool.name)' set its setting '\(name)' to \(problem); dropped")
            return
        }
        vocabulary.settings.set(name, value: value)
    }

    /// Prints one of the tool's declared events, stamped now; anything else is dropped with a
    /// warning that names the tool, never printed as if another tool had said it.
    func emit(_ event: ToolEvent) {
        let tool = descriptor
        let engine = session.simulation.engine
        let now = engine.now
        if !tool.events.contains(where: { $0.name == event.name }) {
            let own = session.vocabulary.registry.toolIndex(forNamespace: event.name) == index
            session.output.toolWarning(
                "tool '\(tool.name)' emitted an event '\(event.name)' "
                    + (own ? "it does not declare" : "outside its namespace") + "; dropped")
        } else if event.time != now {
            session.output.toolWarning(
                "tool '\(tool.name)' emitted the event '\(event.name)' stamped \(event.time) at \(now)"
                    + " (events are stamped now); dropped", once: "\(tool.name) stamped \(event.name)")
        } else {
            if !event.silent { session.output.event(event) }
            let breakpoints = session.time.breakpoints
            if !breakpoints.events.isEmpty { breakpoints.notice(event, on: engine) }
        }
    }

    private var descriptor: ToolDescriptor { session.vocabulary.registry.toolDescriptors[index] }

    var display: TextDisplay { session.output.display }

    var isTracing: Bool { session.tracing.recorder?.isRecording ?? false }

    var recording: RecordedTimeline? { session.imported.timeline }

    func isListening(for event: String) -> Bool { session.time.breakpoints.events.contains(event) }

    private var toolName: String { descriptor.name }

    func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]) {
        session.tracing.recorder?.toolSlice(tool: index, toolName: toolName, name, from: start, to: end, args: args)
    }

    func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime) {
        session.tracing.recorder?.toolCounter(toolName: toolName, name, value, at: time)
    }
}
