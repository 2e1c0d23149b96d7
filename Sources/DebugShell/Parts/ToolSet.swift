import DebugShellCore
import DebugShellInterpreter

/// The session's tools: their types in registration order, this simulation's instances (made
/// anew by `reset`), and which of their status lines the live block shows.
final class ToolSet {
    private(set) var types: [any DebugTool.Type]
    private(set) var instances: [any DebugTool] = []
    private var hosts: [ToolHostAdapter] = []
    /// Whether the live status block shows (`status on|off`).
    var blockEnabled = true
    /// Per tool: whether its line is in the block (`status <tool> on|off`).
    var statusEnabled: [Bool]

    init(types: [any DebugTool.Type]) {
        self.types = types
        statusEnabled = Array(repeating: true, count: types.count)
    }

    /// Makes every tool anew for the session's current device.
    func makeInstances(for session: Session) {
        hosts = []
        instances = []
        makeInstances(types.indices, for: session)
    }

    /// Adds tools (a plugin's) and makes them.
    func add(_ more: [any DebugTool.Type], for session: Session) {
        let first = types.count
        types += more
        statusEnabled += Array(repeating: true, count: more.count)
        makeInstances(first..<types.count, for: session)
    }

    private func makeInstances(_ indices: Range<Int>, for session: Session) {
        for index in indices {
            let host = ToolHostAdapter(session: session, index: index)
            hosts.append(host)
            let type = types[index]
            instances.append(session.calling(.initializer, tool: index) { type.init(host: host) })
        }
    }

    /// The status lines of the tools enabled for the live block, in registration order.
    func liveStatusLines(for session: Session) -> [StyledText] {
        guard blockEnabled else { return [] }
        var lines: [StyledText] = []
        for (index, tool) in instances.enumerated() where statusEnabled[index] {
            if let line = session.calling(.statusLine, tool: index, { tool.statusLine() }) { lines.append(line) }
        }
        return lines
    }
}

/// What a tool sees of the shell: the device, settings, the event stream, where its text is
/// shown, and the trace.
final class ToolHostAdapter: ToolHost {
    unowned let session: Session
    let index: Int

    init(session: Session, index: Int) {
        self.session = session
        self.index = index
    }

    var device: any SimulatedDevice { session.engine }

    func setting(_ name: String) -> ArgumentValue? { session.settingValue(name) }

    /// Changes one of the tool's own settings, with a value of its declared kind; anything else
    /// is dropped with a warning that names the tool (docs/Plugins.md, "What the host checks").
    func setSetting(_ name: String, to value: ArgumentValue) {
        let tool = descriptor
        guard let spec = tool.settings.first(where: { $0.name == name }) else {
            let whose = session.settings.spec(name) == nil ? "which it does not declare" : "which is not its own"
            session.output.toolWarning(
                "tool '\(tool.name)' set the setting '\(name)', \(whose); dropped")
            return
        }
        if let problem = ValueParser.mismatch(value, for: spec.kind, rate: session.engine.refreshRate.hertz) {
            session.output.toolWarning(
                "tool '\(tool.name)' set its setting '\(name)' to \(problem); dropped")
            return
        }
        session.settings.set(name, value: value)
    }

    /// Prints one of the tool's declared events, stamped now; anything else is dropped with a
    /// warning that names the tool, never printed as if another tool had said it.
    func emit(_ event: ToolEvent) {
        let tool = descriptor
        let now = session.engine.now
        if !tool.events.contains(where: { $0.name == event.name }) {
            let own = session.registry.toolIndex(forNamespace: event.name) == index
            session.output.toolWarning(
                "tool '\(tool.name)' emitted an event '\(event.name)' "
                    + (own ? "it does not declare" : "outside its namespace") + "; dropped")
        } else if event.time != now {
            session.output.toolWarning(
                "tool '\(tool.name)' emitted the event '\(event.name)' stamped \(event.time) at \(now)"
                    + " (events are stamped now); dropped", once: "\(tool.name) stamped \(event.name)")
        } else {
            if !event.silent { session.output.event(event) }
            if !session.breakpoints.events.isEmpty { session.breakpoints.notice(event, session: session) }
        }
    }

    private var descriptor: ToolDescriptor { session.registry.toolDescriptors[index] }

    var display: TextDisplay { session.output.display }

    var isTracing: Bool { session.tracing.recorder?.isRecording ?? false }

    func isListening(for event: String) -> Bool { session.breakpoints.events.contains(event) }

    private var toolName: String { descriptor.name }

    func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]) {
        session.tracing.recorder?.toolSlice(tool: index, toolName: toolName, name, from: start, to: end, args: args)
    }

    func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime) {
        session.tracing.recorder?.toolCounter(toolName: toolName, name, value, at: time)
    }
}
