/// A debug tool: a plug-in that adds commands, metrics, settings, events and a status line.
///
/// A tool sees only this module: the device through ``ToolHost/device``, its settings and the
/// event stream. It never prints and never advances time; its commands return values that the
/// session renders. The shell makes a fresh instance at start and on `reset`.
public protocol DebugTool: AnyObject {
    /// The tool's declaration; the registry validates it at registration.
    static var descriptor: ToolDescriptor { get }

    /// Makes the tool for a fresh simulation.
    init(host: any ToolHost)

    /// Runs one of the tool's commands.
    ///
    /// - Throws: ``CommandError`` with a message that carries the user's words back.
    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput

    /// The value of one of the tool's metrics; `nil` when the tool has no metric of that name.
    func metric(_ name: String) -> MetricValue?

    /// Names of the metrics the tool has now, dynamic ones (`timer.poll.fires`) included.
    func metricNames() -> [String]

    /// The tool's live status line; `nil` to show none (not started, hidden).
    func statusLine() -> StyledText?

    /// Names the tool knows in a domain (views, timers, objects), for completion.
    func candidates(for domain: NameDomain) -> [String]

    /// Called after one of the tool's settings changed.
    func settingDidChange(_ name: String)

    /// Whether the tool says `event` now, when time runs: false for one it says only while a watch
    /// is on and the watch is off (`break on` then says what turns it on).
    func isSaying(_ event: String) -> Bool
}

extension DebugTool {
    public func metricNames() -> [String] {
        Self.descriptor.metrics.map(\.name).filter { !$0.contains("*") }
    }
    public func statusLine() -> StyledText? { nil }
    public func candidates(for domain: NameDomain) -> [String] { [] }
    public func settingDidChange(_ name: String) {}
    public func isSaying(_ event: String) -> Bool { true }
}

/// What the shell gives a tool: the device, settings and the event stream.
public protocol ToolHost: AnyObject {
    /// The simulated device the tool observes and schedules on.
    var device: any SimulatedDevice { get }

    /// The current value of a setting (the tool's own, or a shell setting).
    func setting(_ name: String) -> ArgumentValue?

    /// Changes one of the tool's own settings (a command like `fps tiers` is a setting).
    func setSetting(_ name: String, to value: ArgumentValue)

    /// Reports an event: printed during `run` and `play` as `[t] tool: message`. While a trace
    /// records (`trace start`), the event is also in it, with its fields as arguments.
    func emit(_ event: ToolEvent)

    /// Whether a breakpoint waits for the event (`break on fps.hitch`): a tool that says an event
    /// only while it is watched (`fps watch hitches`) emits it then too, as a `silent` event, so
    /// that the breakpoint stops at it without printing it.
    func isListening(for event: String) -> Bool

    /// Where the command's text is shown: its width and whether it may use colour.
    var display: TextDisplay { get }

    /// Whether a trace of the simulation is recording (`trace start`, `--trace`): a tool can skip
    /// building what it would add to it.
    var isTracing: Bool { get }

    /// Adds a slice `[start, end)` to the tool's own track of the trace, when one records: work
    /// the tool did or a span it watched (the checker's settle wait, a watchdog's hang).
    func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)])

    /// Sets one of the tool's counters in the trace at `time`, when one records (the FPS label's
    /// reading): a counter track named `<tool>: <name>`.
    func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime)

    /// The recording the user imported (`import xctrace|csv|chrome`), beside the simulated
    /// device, or nil: what a real device recorded, for a tool to read as it reads the device
    /// (`fps compare --recording` runs the FPS labels on its display-link callbacks).
    var recording: RecordedTimeline? { get }
}

extension ToolHost {
    /// 80 columns without colour, for hosts that do not say (a test's own host).
    public var display: TextDisplay { .script }
    /// No recording, for hosts that import none (a test's own host).
    public var recording: RecordedTimeline? { nil }
    public var isTracing: Bool { false }
    public func isListening(for event: String) -> Bool { false }
    public func traceSlice(_ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]) {}
    public func traceCounter(_ name: String, _ value: MetricNumber, at time: SimTime) {}
}
