import DebugShellCore

/// Records the simulated timeline for a Chrome trace (`trace start`, `--trace`): the display,
/// the main thread, the render server, background queues, run-loop modes, counters and the
/// tools' events, as the device's observations arrive.
///
/// An observer of the public device API (``SimulatedDevice``): a timer's label and queue come
/// from ``SimulatedDevice/timerInfo(_:)``, asked once per timer. It asks only for the vsyncs the
/// device processes anyway (``ObservationKinds/activeVsync``), so idle time stays free, and shows
/// an idle stretch as one span with its count.
///
/// Bounded: it keeps at most ``limit`` events — the first ones (``TraceKeep/first``: it then stops
/// observing) or the newest (``TraceKeep/last``) — and says so. Per event it does a constant amount
/// of work; strings and JSON are built only when the trace is saved. Everything it records is one
/// value, ``TraceTimeline``, changed in one access per observation: Swift checks exclusive access
/// to a class's stored properties at run time, once per access, and a struct's fields inside a
/// mutating method not at all.
public final class TraceRecorder: DeviceObserver {
    /// The default bound, in events (about 48 MB of records).
    public static let defaultLimit = 1_000_000

    /// What it records.
    public var categories: TraceCategories { timeline.categories }
    /// The most events it keeps.
    public var limit: Int { timeline.limit }
    /// Which events a full trace keeps.
    public var keep: TraceKeep { timeline.keep }
    /// Events recorded in all, kept or dropped.
    public var recorded: Int64 { timeline.recorded }
    /// Whether it still records (`trace stop`, or a full trace that keeps its first events, ends
    /// that; the events stay for `trace save`).
    public var isRecording: Bool { attached && !timeline.stoppedFull }
    /// Whether `trace stop` ended it.
    public var isStopped: Bool { !attached }
    /// Set once the limit is reached: the session reports it once.
    public var limitReached: Bool { timeline.limitReached }
    /// When the limit was reached, in the simulation's time, if it was.
    public var limitReachedAt: SimTime? { timeline.fullAt.map { SimTime(nanoseconds: $0 - timeline.offset) } }
    /// When it started, in the first simulation.
    public let startedAt: SimTime

    /// Everything recorded so far.
    private(set) var timeline: TraceTimeline
    /// Whether it observes a device (`trace stop` ends that for good).
    private var attached = true
    /// The device of the current simulation, while attached.
    private weak var device: (any SimulatedDevice)?
    private var token: ObserverToken?

    public init(
        categories: TraceCategories = .all, limit: Int = TraceRecorder.defaultLimit, keep: TraceKeep = .first,
        at time: SimTime
    ) {
        timeline = TraceTimeline(categories: categories, limit: max(1, limit), keep: keep)
        startedAt = time
    }

    /// Records the device's timeline from now on. A fresh simulation (after a `reset`) goes on
    /// where the previous one stopped: the trace's time does not start again at 0.
    public func attach(_ device: any SimulatedDevice) {
        detach()
        guard attached, !timeline.stoppedFull else { return }
        self.device = device
        timeline.beginSimulation(at: device.now.nanoseconds, mode: device.mode)
        token = device.addObserver(self, kinds: timeline.observationKinds)
    }

    /// Stops observing the current device (a `reset` replaces it, or `trace stop`).
    private func detach() {
        if let device {
            timeline.endSimulation(at: device.now.nanoseconds, device: device)
            if let token { device.removeObserver(token) }
        }
        token = nil
        device = nil
    }

    /// `trace stop`: no more events; what was recorded stays.
    public func stop() {
        detach()
        attached = false
    }

    /// Events a save writes now: those kept, and what is open at now as it stands.
    public var kept: Int { snapshot().kept }

    /// Bytes the trace holds: its records (at least the first reservation), names and
    /// arguments, roughly — computed from counts, so the same trace reports the same figure.
    public var memoryBytes: Int { timeline.memoryBytes }

    /// Events dropped because the ring was full (``TraceKeep/last``).
    public var dropped: Int64 { timeline.dropped }

    /// The span of the simulation's time the kept events cover, in the current simulation's time:
    /// what a full trace keeps.
    public var window: (from: SimTime, to: SimTime?) {
        (
            SimTime(nanoseconds: max(0, timeline.windowStart - timeline.offset)),
            timeline.fullAt.map { SimTime(nanoseconds: $0 - timeline.offset) }
        )
    }

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        timeline.observe(observation, device: device)
        if timeline.stoppedFull { stopObservingWhenFull(device) }
    }

    /// A trace that keeps its first events stops observing once it is full: the rest of the run
    /// costs what it costs untraced.
    private func stopObservingWhenFull(_ device: any SimulatedDevice) {
        guard let token else { return }
        timeline.closeOpenSpans(at: device.now.nanoseconds, device: device)
        device.removeObserver(token)
        self.token = nil
    }

    // MARK: Tools

    /// A tool's event: an instant on the tools' track, its fields as arguments.
    public func toolEvent(_ event: ToolEvent) {
        guard isRecording else { return }
        timeline.toolEvent(event)
    }

    /// A tool's slice on its own track, clamped to what the trace can show (``TraceTimeline/toolSlice(tool:toolName:_:from:to:args:now:)``).
    public func toolSlice(
        tool: Int, toolName: String, _ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]
    ) {
        guard isRecording else { return }
        let now = device?.now ?? start
        timeline.toolSlice(tool: tool, toolName: toolName, name, from: start, to: end, args: args, now: now)
    }

    /// A tool's counter.
    public func toolCounter(toolName: String, _ name: String, _ value: MetricNumber, at time: SimTime) {
        guard isRecording else { return }
        timeline.toolCounter(toolName: toolName, name, value, at: time)
    }

    // MARK: Where the trace ends

    /// Notes why time stopped now — a breakpoint's stop, an interrupt, a signal, a trap — so that
    /// a trace that ends here says so: a saved trace whose end is this instant gets a marker (a
    /// global instant) with the reason. Time moving on makes the note stale: a trace that ends
    /// later ends for no reason but its save.
    public func noteStop(_ reason: TraceStop) {
        guard isRecording, let device else { return }
        timeline.stop = (reason, device.now.nanoseconds + timeline.offset)
    }

    // MARK: Reading

    /// The kept records, oldest first, each with its sequence number; then what is still open
    /// at now (or where a full trace stopped) — the current iteration and its items, the mode
    /// span, the idle stretch, the counters' current second — as it stands.
    func forEachRecord(_ body: (Int64, TraceRecord) throws -> Void) rethrows {
        try snapshot().forEachRecord(body)
    }

    /// The timeline with what is still open written as it stands at now: what a save reads.
    func snapshot() -> TraceTimeline {
        var open = timeline
        if let device, token != nil { open.closeOpenSpans(at: device.now.nanoseconds, device: device) }
        open.end = timeline.fullAt ?? (device.map { $0.now.nanoseconds + timeline.offset } ?? timeline.offset)
        return open
    }
}

/// Why a trace ends where it does, when something other than its save ended it: written as a
/// marker at the trace's end (docs/Trace.md, "Where a trace ends").
public struct TraceStop: Sendable, Equatable {
    /// `breakpoint`, `interrupt`, `signal`, `trap` (and `limit`, which the trace notes itself).
    public var reason: String
    /// The marker's name after `trace ends: ` — `breakpoint 1`, `SIGTERM`.
    public var title: String
    /// What the session said of it: the breakpoint's stop line, the trap's last words.
    public var detail: String

    public init(reason: String, title: String, detail: String) {
        self.reason = reason
        self.title = title
        self.detail = detail
    }
}
