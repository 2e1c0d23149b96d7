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

    func setSetting(_ name: String, to value: ArgumentValue) {
        session.settings.set(name, value: value)
    }

    func emit(_ event: ToolEvent) { session.output.event(event) }

    var display: TextDisplay { session.output.display }

    var isTracing: Bool { session.tracing.recorder?.isRecording ?? false }

    private var toolName: String { session.registry.toolDescriptors[index].name }

    func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]) {
        session.tracing.recorder?.toolSlice(tool: index, toolName: toolName, name, from: start, to: end, args: args)
    }

    func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime) {
        session.tracing.recorder?.toolCounter(toolName: toolName, name, value, at: time)
    }
}
