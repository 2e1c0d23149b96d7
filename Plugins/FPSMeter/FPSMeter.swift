import DebugShellCore

/// The FPS meter (`fps`): the CADisplayLink frame counter of the classic FPS labels, and beside it
/// what such a label cannot see — frames actually presented, hitches and their causes, the hitch
/// time ratio and frame-time percentiles (docs/FPSMeter.md; rules F1–F3, R3–R5 of docs/Semantics.md).
///
/// The meter adds one display link (F2) whose callback runs the seed algorithm (F1) and feeds the
/// estimator lab; it observes presents (R4, R5), vsyncs (the lab's ground truth) and mode changes
/// (DXFPSLabel's tracking time). Everything it does per callback, present or vsync is O(1) and
/// allocation-free once running: bounded rings, no growing arrays.
public final class FPSMeter: DebugTool {
    let host: any ToolHost
    /// The device of this simulation; the shell makes a new meter with each new device (`reset`).
    unowned let device: any SimulatedDevice

    // MARK: Configuration

    /// How `fps start` set the meter up: its options' defaults until then.
    struct Configuration {
        var mode = FPSMeter.mode.defaultValue
        var window = FPSMeter.window.defaultValue
        var cost = FPSMeter.cost.defaultValue
        var label = FPSMeter.label.defaultValue
        /// `--range` (V2): the link's preferredFrameRateRange.
        var range: FrameRateRange?
    }

    /// What `fps watch` prints as events during `run`.
    struct Watch {
        var hitches = false
        var over = SimDuration.zero
        /// Every hitch in full (`--all`), rather than a line a second with a count.
        var all = false
        /// Whether a summary line has said how to see every hitch.
        var hinted = false
        var windows = false
    }

    /// The hitches `fps watch hitches` holds back in the current second [k s, (k + 1) s), to
    /// print as one line at its end.
    struct HeldHitches {
        /// The second the held hitches are in; nil before the first watched hitch.
        var second: Int64?
        /// Whether a hitch of this second was printed in full.
        var printed = false
        /// Whether the previous second ended with a summary: then this one prints none in full.
        var busy = false
        var count: Int64 = 0
        var time: Int64 = 0
        var commit: Int64 = 0
        var render: Int64 = 0
        var both: Int64 = 0
        var longest: Int64 = 0
    }

    var configuration = Configuration()
    var watch = Watch()
    var held = HeldHitches()

    // MARK: Life (F2)

    var link: TimerID?
    var observer: ObserverToken?
    /// When statistics start: `fps start` or `fps reset`.
    var since = SimTime.zero
    /// When the meter was stopped; metrics then stay as they were at that time.
    var stoppedAt: SimTime?
    var hasStarted = false
    /// The link's skipped count at `fps reset`, and its final count at `fps stop` (DL7).
    var skippedBase: Int64 = 0
    var skippedAtStop: Int64 = 0

    // MARK: The reading (F1)

    var counter = WindowCounter()
    var reading: Int64?
    /// When the reading last took a different value: HyFPSLabel's autohide clock.
    var readingChangedAt = SimTime.zero
    /// Completed windows, the last 3,600 (README, Limits).
    var windows = Ring(capacity: FPSMeter.historyLimit, filler: WindowRecord.zero)

    // MARK: Ground truth (R4, R5)

    var callbackTally = SecondTally()
    var presentTally = SecondTally()
    var hitches = HitchTally()
    var intervals = IntervalHistogram()
    var frames = Ring(capacity: FPSMeter.frameLimit, filler: FrameRecord.zero)
    /// The hitches among them, with their types (R8): as many kept as presents.
    var hitchLog = Ring(capacity: FPSMeter.frameLimit, filler: HitchRecord.zero)
    /// The previous counted present since start or reset (R4's p_{i−1}).
    var previousCountedPresent: SimTime?
    var ledger = VsyncLedger()
    var lab = EstimatorLab()
    /// Time spent in tracking mode since start or reset, and the start of the current stretch.
    var trackingTime = SimDuration.zero
    var trackingSince: SimTime?
    /// The last stretches of tracking mode that ended, for `fps plot`'s shading.
    var trackingSpans = Ring(capacity: FPSMeter.trackingSpanLimit, filler: TrackingSpan.zero)

    /// `fps history` keeps this many windows (README, Limits).
    static let historyLimit = 3600
    /// `fps frames` and `fps plot` keep this many presents by default (the setting
    /// `fps.frames-kept`), and at most `frameLimitMaximum` (docs/Limits.md).
    static let frameLimit = 1000
    static let frameLimitMaximum: Int64 = 100_000
    /// `fps plot` shades this many tracking stretches at most.
    static let trackingSpanLimit = 1000
    /// HyFPSLabel hides its label this long after the reading last changed.
    static let autohideDelay = SimDuration.seconds(2)

    public init(host: any ToolHost) {
        self.host = host
        self.device = host.device
        frames.resize(to: framesKept)
        hitchLog.resize(to: framesKept)
    }

    /// Presents kept for `fps frames` and `fps plot`: the setting `fps.frames-kept`.
    var framesKept: Int { Int(clamping: host.setting(Self.framesKeptSetting)) }

    /// fps.hitch while the meter runs; the others while their watch is on too.
    public func isSaying(_ event: String) -> Bool {
        switch event {
        case "fps.hitch": return link != nil
        case "fps.hitches": return link != nil && watch.hitches
        case "fps.window": return link != nil && watch.windows
        default: return true
        }
    }

    public func settingDidChange(_ name: String) {
        // A smaller number drops the oldest presents now; a larger one keeps more from now on.
        if name == Self.framesKeptSetting.name {
            frames.resize(to: framesKept)
            hitchLog.resize(to: framesKept)
        }
    }

    // MARK: - Commands

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.verb(Verb.self) {
        case .show: return try showReport()
        case .start: return try start(invocation)
        case .stop: return try stop()
        case .reset: return try resetStatistics()
        case .frames: return try framesTable(invocation)
        case .hitches: return try hitchesTable(invocation)
        case .history: return try historyTable(invocation)
        case .plot: return try plot(invocation)
        case .compare: return try compareReport(recording: invocation[Self.fromRecording])
        case .tiers: return tiers(invocation)
        case .autohide: return autohide(invocation)
        case .watch: return try watchCommand(invocation)
        }
    }

    /// `fps start`: adds the meter's link after the app's UI link (F2, DL5).
    private func start(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        guard link == nil else {
            throw CommandError(
                "the meter is already running (since \(since)); 'fps stop' first, or 'fps reset' to clear it")
        }
        let config = Configuration(
            mode: invocation[Self.mode], window: invocation[Self.window], cost: invocation[Self.cost],
            label: invocation[Self.label], range: invocation[Self.rateRange])
        guard config.window > .zero else { throw CommandError("--window must be positive (got \(config.window))") }
        configuration = config
        clearStatistics()
        skippedBase = 0
        stoppedAt = nil
        hasStarted = true
        link = device.addDisplayLink(
            DisplayLinkConfig(
                mode: config.mode, cost: config.cost, owner: .tool("fps"), label: "fps meter",
                frameRateRange: config.range)
        ) { [unowned self] callback in
            linkFired(callback)
            return .zero
        }
        observer = device.addObserver(self, kinds: [.present, .vsync, .modeChange])
        return CommandOutput(json: self.configurationJSON())
    }

    /// `fps stop`: removes the link (DL6); the metrics keep their values as of now.
    private func stop() throws(CommandError) -> CommandOutput {
        guard let id = link else { throw notRunning() }
        skippedAtStop = skipped
        closeTracking(at: device.now)
        // No reading from now on: the trace's counter drops to 0 rather than hold the last.
        if host.isTracing { host.traceCounter("label reading", MetricNumber(0), at: device.now) }
        device.invalidate(id)
        if let token = observer { device.removeObserver(token) }
        link = nil
        observer = nil
        stoppedAt = device.now
        return CommandOutput(
            json: .fields(["stopped_ns": JSONValue(self.device.now), "reading": self.reading.map { .int($0) } ?? .null])
        )
    }

    /// `fps reset`: clears readings and statistics, keeping the link and its pending slot (F2).
    private func resetStatistics() throws(CommandError) -> CommandOutput {
        guard let id = link else { throw notRunning() }
        if host.isTracing, reading != nil { host.traceCounter("label reading", MetricNumber(0), at: device.now) }
        clearStatistics()
        skippedBase = device.timerInfo(id)?.skipped ?? 0
        return CommandOutput(json: .fields(["since_ns": JSONValue(self.since)]))
    }

    private func clearStatistics() {
        since = device.now
        counter = WindowCounter()
        reading = nil
        readingChangedAt = device.now
        windows.removeAll()
        callbackTally = SecondTally()
        presentTally = SecondTally()
        hitches = HitchTally()
        intervals.removeAll()
        frames.removeAll()
        hitchLog.removeAll()
        previousCountedPresent = nil
        ledger.start(animating: device.isAnimating)
        lab = EstimatorLab()
        trackingTime = .zero
        trackingSince = device.mode == .tracking ? device.now : nil
        trackingSpans.removeAll()
        held = HeldHitches()
    }

    func notRunning() -> CommandError {
        if hasStarted {
            return CommandError(
                "the meter is not running (it stopped at \(stoppedAt ?? since)); 'fps start' runs it again")
        }
        return CommandError("the meter is not running; start it with 'fps start'")
    }

    func requireStarted() throws(CommandError) {
        guard hasStarted else { throw CommandError("the meter has not been started; start it with 'fps start'") }
    }

    /// `fps tiers [apple|wwdc20]`: the hitch-ratio scale, kept as the setting `fps.tiers`.
    private func tiers(_ invocation: Invocation) -> CommandOutput {
        if let scale = invocation[Self.scale] {
            host.setSetting(Self.tiersSetting, to: scale)
            return CommandOutput(json: self.tiersJSON())
        }
        return CommandOutput(text: tierScale.summary, json: self.tiersJSON())
    }

    private func tiersJSON() -> JSONValue {
        .fields(["tiers": .string(tierScale.rawValue), "tier": JSONValue(tier?.rawValue)])
    }

    /// `fps autohide [on|off]`, kept as the setting `fps.autohide`.
    private func autohide(_ invocation: Invocation) -> CommandOutput {
        if let on = invocation[Self.autohideState] {
            host.setSetting(Self.autohideSetting, to: on)
            return CommandOutput(json: .fields(["autohide": .bool(on)]))
        }
        let text = "autohide \(autohides ? "on" : "off") (the status line hides 2s after the reading last changed)"
        return CommandOutput(text: text, json: .fields(["autohide": .bool(self.autohides)]))
    }

    /// `fps watch hitches [--over d] | windows | off`.
    private func watchCommand(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let events = invocation[Self.watchedEvents] ?? .off
        held = HeldHitches()
        if invocation.has(Self.hitchesOver) && events != .hitches {
            throw CommandError("--over applies to 'fps watch hitches' only")
        }
        if invocation[Self.hitchesAll] && events != .hitches {
            throw CommandError("--all applies to 'fps watch hitches' only")
        }
        switch events {
        case .hitches:
            watch.hitches = true
            watch.over = invocation[Self.hitchesOver]
            watch.all = invocation[Self.hitchesAll]
        case .windows:
            watch.windows = true
        case .off:
            watch = Watch()
        }
        return CommandOutput(
            json: .fields([
                "hitches": .bool(self.watch.hitches), "over_ns": JSONValue(self.watch.over),
                "all": .bool(self.watch.all), "windows": .bool(self.watch.windows),
            ]))
    }

    var tierScale: TierScale { host.setting(Self.tiersSetting) }

    var autohides: Bool { host.setting(Self.autohideSetting) }

    // MARK: - The link (F1, F3)

    /// The meter's callback: the seed algorithm (F1), the label (F3) and the estimator lab.
    private func linkFired(_ callback: TimerCallback) {
        callbackTally.add(at: callback.start)
        if let closed = counter.feed(callback.timestamp, window: configuration.window) {
            closeWindow(closed, at: callback.start)
        }
        lab.feed(callback, tracking: isTracking) { from, to in
            ledger.span(after: from, through: to).presents
        }
    }

    /// A window closed: the reading becomes `min(round(count / span), R)` (F1).
    private func closeWindow(_ closed: WindowCounter.Closed, at time: SimTime) {
        // F1 on an adaptive display (V6): the clamp is the highest rate it could have shown.
        let value = min(closed.rate, Int64(device.displayRefresh.maximum))
        if value != reading { readingChangedAt = time }
        reading = value
        let presents = ledger.span(after: closed.from, through: closed.to).presents
        windows.append(
            WindowRecord(
                closedAt: time, from: closed.from, to: closed.to, callbacks: closed.callbacks, reading: value,
                presents: presents))
        // F3: setting the label's text dirties the UI, so a commit follows.
        if configuration.label { device.markUIDirty() }
        // In a trace, the label's reading is a counter beside the presented FPS, written when its
        // window closes at the window's start, as the presented FPS of a second is at the
        // second's: the two measure the same span side by side (docs/Trace.md, "Counters").
        if host.isTracing { host.traceCounter("label reading", MetricNumber(value), at: closed.from) }
        if watch.windows {
            host.emit(
                ToolEvent(
                    name: "fps.window", time: time,
                    message:
                        "\(value) fps (\(closed.callbacks) callbacks in \(FPSMeter.readable(closed.span)), \(presents) presented)",
                    fields: [
                        ("reading", .int(value)), ("callbacks", .int(closed.callbacks)), ("presents", .int(presents)),
                        ("from_ns", JSONValue(closed.from)), ("to_ns", JSONValue(closed.to)),
                    ]))
        }
    }
}
