import DebugShellCore
import DebugShellEngine

/// The device as one tool sees it (`ToolHost.device`): the engine, with the host's rules applied
/// to what the tool asks of it (docs/Plugins.md, "A plugin is a guest"):
///
/// - **Its own things only.** A tool pauses, resumes and invalidates the timers and links it made,
///   and changes and removes the observers it added; another's (a tool's, the app's, the
///   shell's) are left alone, with a warning naming both.
/// - **Reads change nothing.** While the shell reads a tool (`metric`, `metricNames`,
///   `statusLine`, `candidates`, `isSaying`, a command's JSON or streamed output), every call
///   that would schedule or change work is refused: a read that scheduled a timer made a
///   recording replay differently from the session.
/// - **The shell's limits.** A repeating timer's interval is at least 1 µs, a cost is in
///   [0, the 2^62 ns horizon), and the session keeps at most 10,000,000 timers, as for the
///   commands (docs/Limits.md).
///
/// A refused timer's id is `-1`, which every later call ignores. Each warning is said once per
/// tool and kind of call.
final class ToolDevice: SimulatedDevice {
    private unowned let session: Session
    let tool: Int
    /// The device of the simulation the tool was made for: a tool made anew by `reset` gets the
    /// new one, and an old tool's last calls (its `deinit`) reach the old one, not the new.
    private let engine: DeviceEngine
    /// The observers this tool added, by token.
    private var observerTokens: Set<Int> = []

    /// The session's timer limit (docs/Limits.md), the inspector's too.
    static let timerLimit = 10_000_000

    init(session: Session, tool: Int) {
        self.session = session
        self.tool = tool
        engine = session.simulation.engine
    }

    private var toolName: String {
        let descriptors = session.vocabulary.registry.toolDescriptors
        return tool < descriptors.count ? descriptors[tool].name : "#\(tool)"
    }

    private func refuse(_ what: String, because why: String, key: String) {
        session.output.toolWarning("tool '\(toolName)' \(what): \(why); refused", once: "guest.\(tool).\(key)")
    }

    /// Whether the shell is reading the tool now, when nothing may change.
    private func mayChange(_ what: String) -> Bool {
        switch engine.running.kind {
        case .metric, .metricNames, .statusLine, .candidates, .isSaying, .jsonResult, .streamedOutput:
            refuse(
                what, because: "a read (metric, status line, completion, output) must not change the device",
                key: "read.\(what)")
            return false
        default:
            return true
        }
    }

    /// Whether `id` is a timer this tool made.
    private func owns(_ id: TimerID, _ what: String) -> Bool {
        guard let maker = engine.makerTool(of: id) else { return true }  // not a timer: a no-op
        guard maker != Int32(truncatingIfNeeded: tool) else { return true }
        let descriptors = session.vocabulary.registry.toolDescriptors
        let whose = maker >= 0 && Int(maker) < descriptors.count ? "tool '\(descriptors[Int(maker)].name)'" : "debugsh"
        refuse("\(what) timer \(id), which \(whose) made", because: "a tool changes only its own", key: "own.\(what)")
        return false
    }

    private func costFits(_ cost: SimDuration, _ what: String) -> Bool {
        guard cost >= .zero, cost.nanoseconds < SimTime.horizon.nanoseconds else {
            refuse(
                "\(what) with a cost of \(cost)", because: "a cost is in [0, the 2^62 ns horizon)", key: "cost.\(what)")
            return false
        }
        return true
    }

    private func canAddTimer(_ what: String, cost: SimDuration, interval: SimDuration?) -> Bool {
        guard mayChange(what), costFits(cost, what) else { return false }
        if let interval, interval < .minimumRepeatInterval {
            refuse(
                "\(what) repeating every \(interval)", because: "a repeating interval is at least 1us",
                key: "interval.\(what)")
            return false
        }
        guard engine.timerCount < Self.timerLimit else {
            refuse(what, because: "a session keeps at most 10,000,000 timers", key: "limit")
            return false
        }
        return true
    }

    static let refused = TimerID(rawValue: -1)

    // MARK: Reads: the engine's

    var now: SimTime { engine.now }
    var refreshRate: RefreshRate { engine.refreshRate }
    var framePeriod: SimDuration { engine.framePeriod }
    func refreshRates(from: SimTime, to: SimTime) -> [RefreshRateChange] { engine.refreshRates(from: from, to: to) }
    var mode: RunLoopMode { engine.mode }
    var vsyncCount: Int64 { engine.vsyncCount }
    func vsync(atOrAfter time: SimTime) -> SimTime { engine.vsync(atOrAfter: time) }
    func vsync(after time: SimTime) -> SimTime { engine.vsync(after: time) }
    func vsyncs(from: SimTime, to: SimTime) -> Int64 { engine.vsyncs(from: from, to: to) }
    var isAnimating: Bool { engine.isAnimating }
    func animatingTime(from: SimTime) -> SimDuration { engine.animatingTime(from: from) }
    func timerWakeups(appOnly: Bool) -> Int64 { engine.timerWakeups(appOnly: appOnly) }
    func timerInfo(_ id: TimerID) -> TimerInfo? { engine.timerInfo(id) }
    func allTimers() -> [TimerInfo] { engine.allTimers() }
    var frameCost: SimDuration { engine.frameCost }
    var commitCost: SimDuration { engine.commitCost }
    var gpuCost: SimDuration { engine.gpuCost }
    var framePhases: FramePhases { engine.framePhases }
    var bufferCount: Int { engine.bufferCount }
    var lastFrameID: Int64 { engine.lastFrameID }
    func rateCap(request: Int) -> RateCap? { engine.rateCap(request: request) }
    var deviceKind: DeviceKind { engine.deviceKind }
    var displayRefresh: DisplayRefresh { engine.displayRefresh }
    func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)] {
        engine.displayRefreshes(from: from, to: to)
    }

    // MARK: Changes: checked

    func animate(for duration: SimDuration) {
        guard mayChange("animated") else { return }
        engine.animate(for: duration)
    }

    func beginAnimation() -> AnimationToken {
        guard mayChange("began an animation") else { return AnimationToken(rawValue: -1) }
        return engine.beginAnimation()
    }

    func beginAnimation(for duration: SimDuration) -> AnimationToken {
        guard mayChange("began an animation") else { return AnimationToken(rawValue: -1) }
        return engine.beginAnimation(for: duration)
    }

    func endAnimation(_ token: AnimationToken) {
        guard token.rawValue >= 0, mayChange("ended an animation") else { return }
        engine.endAnimation(token)
    }

    func addDisplayLink(_ config: DisplayLinkConfig, callback: TimerCallbackHandler?) -> TimerID {
        guard canAddTimer("added a display link", cost: config.cost, interval: nil) else { return Self.refused }
        return engine.addDisplayLink(config, callback: callback)
    }

    func addRunLoopTimer(_ config: RunLoopTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        guard canAddTimer("added a run-loop timer", cost: config.cost, interval: config.repeats ? config.interval : nil)
        else { return Self.refused }
        return engine.addRunLoopTimer(config, callback: callback)
    }

    func addDispatchTimer(_ config: DispatchTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        guard canAddTimer("added a dispatch timer", cost: config.cost, interval: config.once ? nil : config.interval)
        else { return Self.refused }
        return engine.addDispatchTimer(config, callback: callback)
    }

    func pause(_ id: TimerID) {
        guard mayChange("paused a timer"), owns(id, "paused") else { return }
        engine.pause(id)
    }

    func resume(_ id: TimerID) {
        guard mayChange("resumed a timer"), owns(id, "resumed") else { return }
        engine.resume(id)
    }

    func invalidate(_ id: TimerID) {
        guard mayChange("invalidated a timer"), owns(id, "invalidated") else { return }
        engine.invalidate(id)
    }

    func enqueueMainBlock(cost: SimDuration, dirtiesUI: Bool, label: String, action: (() -> Void)?) {
        guard mayChange("enqueued a main-queue block"), costFits(cost, "enqueued a main-queue block") else { return }
        engine.enqueueMainBlock(cost: cost, dirtiesUI: dirtiesUI, label: label, action: action)
    }

    func markUIDirty() {
        guard mayChange("marked the UI dirty") else { return }
        engine.markUIDirty()
    }

    func markUIDirty(extra: FramePhases) {
        guard mayChange("marked the UI dirty"),
            [extra.layout, extra.display, extra.prepare, extra.commit, extra.gpu].allSatisfy({
                costFits($0, "marked the UI dirty")
            })
        else { return }
        engine.markUIDirty(extra: extra)
    }

    // MARK: Observers: its own

    /// A plugin's observer is called with this device, so that what it asks from its callback
    /// meets the rules above too; a built-in tool's (the timer inspector sees every firing) is
    /// called with the engine, as it needs no guard.
    func addObserver(_ observer: any DeviceObserver, kinds: ObservationKinds) -> ObserverToken {
        let isGuest = session.vocabulary.registry.plugin(ofTool: tool) != nil
        let token = engine.addObserver(isGuest ? GuestObserver(observer, device: self) : observer, kinds: kinds)
        observerTokens.insert(token.rawValue)
        return token
    }

    private func ownsObserver(_ token: ObserverToken, _ what: String) -> Bool {
        guard observerTokens.contains(token.rawValue) else {
            refuse(
                "\(what) observer \(token.rawValue), which it did not add", because: "a tool changes only its own",
                key: "observer.\(what)")
            return false
        }
        return true
    }

    func changeObserver(_ token: ObserverToken, kinds: ObservationKinds) {
        guard ownsObserver(token, "changed") else { return }
        engine.changeObserver(token, kinds: kinds)
    }

    func removeObserver(_ token: ObserverToken) {
        guard ownsObserver(token, "removed") else { return }
        observerTokens.remove(token.rawValue)
        engine.removeObserver(token)
    }
}

/// A plugin's observer as the engine holds it: called with the plugin's ``ToolDevice`` instead of
/// the engine, so that a callback cannot reach past the host's rules (another tool's timers, the
/// limits). The device is held weakly: it holds the tool, which holds the observer.
private final class GuestObserver: DeviceObserver {
    private let observer: any DeviceObserver
    private weak var guestDevice: ToolDevice?

    init(_ observer: any DeviceObserver, device: ToolDevice) {
        self.observer = observer
        guestDevice = device
    }

    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        observer.device(guestDevice ?? device, observed: observation)
    }
}
