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
    }

    /// Presents kept for `fps frames` and `fps plot`: the setting `fps.frames-kept`.
    var framesKept: Int { Int(clamping: host.setting(Self.framesKeptSetting)) }

    public func settingDidChange(_ name: String) {
        // A smaller number drops the oldest presents now; a larger one keeps more from now on.
        if name == Self.framesKeptSetting.name { frames.resize(to: framesKept) }
    }

    // MARK: - Commands

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch invocation.verb {
        case "start": return try start(invocation)
        case "stop": return try stop()
        case "reset": return try resetStatistics()
        case "frames": return try framesTable(invocation)
        case "history": return try historyTable(invocation)
        case "compare": return try compareReport()
        case "tiers": return tiers(invocation)
        case "autohide": return autohide(invocation)
        case "watch": return try watchCommand(invocation)
        case "plot": return try plot(invocation)
        default: return try showReport()
        }
    }

    /// `fps start`: adds the meter's link after the app's UI link (F2, DL5).
    private func start(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        guard link == nil else {
            throw CommandError(
                "the meter is already running (since \(since)); 'fps stop' first, or 'fps reset' to clear it")
        }
        var rateRange: FrameRateRange?
        if let text = invocation[Self.rateRange] {
            do {
                rateRange = try FrameRateRange.parse(text)
            } catch {
                throw CommandError(error.description)
            }
        }
        let config = Configuration(
            mode: invocation[Self.mode], window: invocation[Self.window], cost: invocation[Self.cost],
            label: invocation[Self.label], range: rateRange)
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
        // In a trace, the label's reading is a counter beside the presented FPS.
        if host.isTracing { host.traceCounter("label reading", MetricNumber(value), at: time) }
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

    // MARK: - Metrics

    /// Now, or when the meter stopped: the time metrics are measured at.
    var measuredAt: SimTime { stoppedAt ?? device.now }

    /// Vsyncs the meter's link skipped since start or reset (DL7).
    var skipped: Int64 {
        if stoppedAt != nil { return skippedAtStop }
        guard let id = link else { return 0 }
        return (device.timerInfo(id)?.skipped ?? 0) - skippedBase
    }

    /// The last whole second `[k s, (k+1) s)` that began at or after the start (R5), if any.
    var lastWholeSecond: Int64? {
        let k = measuredAt.nanoseconds / SecondTally.nanosecondsPerSecond - 1
        guard k >= 0, k * SecondTally.nanosecondsPerSecond >= since.nanoseconds else { return nil }
        return k
    }

    /// Frames presented in the last whole second (R5, `fps.render`).
    var renderRate: Int64? { lastWholeSecond.map { presentTally.count(inSecond: $0) } }

    /// Meter callbacks that started in the same second (`fps.callbacks`).
    var callbacksInSecond: Int64? { lastWholeSecond.map { callbackTally.count(inSecond: $0) } }

    /// Animating time since start or reset, up to now or the stop (A2).
    var animatingTime: SimDuration {
        let total = device.animatingTime(from: since)
        guard let stop = stoppedAt else { return total }
        return total - device.animatingTime(from: stop)
    }

    /// Hitch time in ms per animating second (R4); nil without animating time. The hitch time is
    /// the part of each hitch within animating time as the display shows it (R4): a frame of the
    /// animation's last ticks that is late after the animation's last expected present is a
    /// hitch, but not one of the animating seconds.
    var hitchRatio: MetricNumber? {
        let animating = animatingTime
        guard hasStarted, animating > .zero else { return nil }
        return MetricNumber(numerator: Int128(hitches.ratioTime) * 1000, denominator: Int128(animating.nanoseconds))
    }

    /// R4: the part of a hitch `(p − h, p]` that falls in animating time delayed by R3's two
    /// vsyncs — the time in which the display was to show the animation's frames.
    func animatingPart(of hitch: SimDuration, presentedAt present: SimTime) -> Int64 {
        let delay = device.framePeriod + device.framePeriod
        let end = present - delay
        let start = end - hitch
        // Animating time in [start, end): both measures run to now, which is at or after `end`.
        return (device.animatingTime(from: start) - device.animatingTime(from: end)).nanoseconds
    }

    var tier: Tier? { hitchRatio.map { tierScale.tier(for: $0) } }

    public func metric(_ name: String) -> MetricValue? {
        guard FPSMeter.descriptor.metrics.contains(where: { $0.name == name }) else { return nil }
        return hasStarted ? value(of: name) : MetricValue.none
    }

    /// A metric's value since start or reset; `none` until it has one.
    private func value(of name: String) -> MetricValue {
        func integer(_ v: Int64?) -> MetricValue { v.map { .integer($0) } ?? MetricValue.none }
        func duration(_ ns: Int64?) -> MetricValue {
            ns.map { .duration(SimDuration(nanoseconds: $0)) } ?? MetricValue.none
        }
        switch name {
        case "fps.value": return integer(reading)
        case "fps.render": return integer(renderRate)
        case "fps.callbacks": return integer(callbacksInSecond)
        case "fps.skipped": return .integer(skipped)
        case "fps.hitches": return .integer(hitches.count)
        case "fps.hitch_time": return .duration(SimDuration(nanoseconds: hitches.time))
        case "fps.hitch_ratio": return hitchRatio.map { .number($0) } ?? MetricValue.none
        case "fps.tier": return tier.map { .word($0.rawValue) } ?? MetricValue.none
        case "fps.frame_p50": return duration(intervals.percentile(50))
        case "fps.frame_p95": return duration(intervals.percentile(95))
        case "fps.frame_p99": return duration(intervals.percentile(99))
        case "fps.frame_max": return duration(intervals.maximum)
        default: return MetricValue.none
        }
    }

    // MARK: - Status line

    /// `fps 58 · render 31 · hitch 12.4 ms/s warning · ▂▃▅▇`; nil when not running or hidden.
    public func statusLine() -> StyledText? {
        guard link != nil else { return nil }
        // HyFPSLabel's autohide: hidden 2 s after the reading last changed, shown when it changes.
        if autohides, reading != nil, device.now - readingChangedAt >= FPSMeter.autohideDelay { return nil }
        let rate = Int64(device.refreshRate.hertz)
        var line = StyledText()
        line.append("fps ")
        let render = renderRate
        if let reading {
            line.append(
                String(reading), FPSMeter.readingStyle(reading, render: render, missed: missedInSecond, rate: rate))
        } else {
            line.append("—")
        }
        line.append(" · render ")
        if let render {
            // What the display showed is the number to judge by: it gets the label's hue.
            line.append(String(render), .color(FPSMeter.labelColor(render, rate: rate)))
        } else {
            line.append("—")
        }
        line.append(" · hitch ")
        if let ratio = hitchRatio {
            // The ratio as `get` and `fps show` print it: one precision for one quantity.
            line.append("\(ratio) ms/s ")
            let tier = tierScale.tier(for: ratio)
            line.append(tier.rawValue, .color(tier.color(on: tierScale)))
        } else {
            line.append("—")
        }
        // V6: on an adaptive display, the rate it runs at now and its range.
        let refresh = device.displayRefresh
        if let minimum = refresh.minimum {
            line.append(" · display \(refresh.rateText) (\(minimum)–\(refresh.maximum) Hz)")
        }
        // Scaled to the display's highest rate, as `fps history` is, so bars stay comparable
        // when an adaptive display changes its rate.
        let recent = FPSMeter.sparkline(
            (max(0, windows.count - 8)..<windows.count).lazy.map { [windows] in windows[$0].reading },
            rate: Int64(refresh.maximum))
        if !recent.isEmpty { line.append(" · \(recent)") }
        return line
    }

    /// The label's number is coloured as HyFPSLabel colours it unless it misleads: when the
    /// display missed vsyncs that expected a present in the last whole second and presented a
    /// number of frames more than 5 % of the rate away from the reading, the reading is drawn
    /// plain — a green 60 over a display that shows 30 would say "all is well" where the display
    /// says otherwise. A still screen presents little and misses nothing: its label keeps its hue.
    static func readingStyle(_ reading: Int64, render: Int64?, missed: Int64?, rate: Int64) -> StyledText.Style {
        guard let render, let missed, missed > 0, 20 * abs(reading - render) > max(1, rate) else {
            return .color(labelColor(reading, rate: rate))
        }
        return .plain
    }

    /// Vsyncs of the last whole second (R5's) that expected a present and had none (the lab's
    /// ground truth); nil before one such second.
    var missedInSecond: Int64? {
        guard let k = lastWholeSecond else { return nil }
        let one = SimDuration(nanoseconds: 1)
        let from = SimTime(nanoseconds: k * SecondTally.nanosecondsPerSecond) - one
        return ledger.span(after: from, through: from + .seconds(1)).missed
    }

    /// HyFPSLabel's hue, `(fps − 24) / 120` above 24 at 60 Hz, rescaled so that the refresh rate
    /// is green (0.3) at any rate R: `(fps − 0.4 R) / 2R`, red (0) at or below 0.4 R. Written as
    /// `(5 fps − 2R) / 10R` so that at 60 Hz it rounds exactly as the original's division.
    static func labelColor(_ fps: Int64, rate: Int64) -> RGB {
        let r = max(1, rate)
        let f = min(max(0, fps), r)
        return RGB.hue(max(0, Double(5 * f - 2 * r) / Double(10 * r)))
    }
}

// MARK: - Observing the device

extension FPSMeter: DeviceObserver {
    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        switch observation {
        case .presented(let info): presented(info)
        case .vsync(let time, _):
            ledger.vsync(at: time, animating: device.isAnimating) { device.vsync(after: time) - time }
            if held.count > 0, let k = held.second, time.nanoseconds >= (k + 1) * SecondTally.nanosecondsPerSecond {
                emitHeldHitches(at: time)
            }
        case .modeChanged(let time, let mode):
            if mode == .tracking {
                trackingSince = time
            } else {
                closeTracking(at: time)
            }
        default: break
        }
    }

    /// Whether the run loop is tracking now, as the observed mode changes say: the hot paths ask
    /// this rather than the device.
    var isTracking: Bool { trackingSince != nil }

    func closeTracking(at time: SimTime) {
        if let start = trackingSince {
            trackingTime = trackingTime + (time - start)
            trackingSpans.append(TrackingSpan(from: start, to: time))
        }
        trackingSince = nil
    }

    /// Tracking time since start or reset, up to now or the stop.
    var trackingTimeNow: SimDuration {
        guard let start = trackingSince else { return trackingTime }
        return trackingTime + (measuredAt - start)
    }

    /// A frame reached the display: R5's count, R4's hitch, frame intervals, the ground truth.
    private func presented(_ info: PresentInfo) {
        ledger.presented(at: info.present)
        presentTally.add(at: info.present)
        if isTracking { lab.trackingPresents += 1 }
        var record = FrameRecord(info)
        if info.counted {
            // R4: only x for the first counted present since start or reset.
            let hitch = previousCountedPresent == nil ? max(.zero, info.present - info.expectedPresent) : info.hitch
            if let previous = previousCountedPresent {
                record.interval = (info.present - previous).nanoseconds
                intervals.add(record.interval)
            }
            previousCountedPresent = info.present
            record.hitch = hitch.nanoseconds
            if hitch > .zero {
                let cause = HitchCause(info)
                record.cause = cause
                hitches.add(hitch, cause: cause)
                hitches.ratioTime += animatingPart(of: hitch, presentedAt: info.present)
                let printed = watch.hitches && hitch > watch.over && watched(hitch, cause: cause, info)
                // A breakpoint on fps.hitch stops at every hitch, printed or not.
                if !printed && host.isListening(for: "fps.hitch") {
                    host.emit(hitchEvent(hitch, cause: cause, info, silent: true))
                }
            }
        }
        frames.append(record)
    }
}

// MARK: - Watching hitches

extension FPSMeter {
    /// A hitch longer than `--over`: printed in full, or held for its second's summary line.
    /// Returns whether the hitch was printed in full.
    func watched(_ hitch: SimDuration, cause: HitchCause, _ info: PresentInfo) -> Bool {
        let k = info.present.nanoseconds / SecondTally.nanosecondsPerSecond
        if k != held.second {
            if held.count > 0, let second = held.second {
                emitHeldHitches(at: SimTime(nanoseconds: (second + 1) * SecondTally.nanosecondsPerSecond))
            }
            // A second follows a busy one only when it comes right after a summarised second.
            let busy = held.busy && held.second.map { $0 + 1 == k } == true
            held = HeldHitches(second: k, busy: busy)
        }
        guard watch.all || (!held.printed && !held.busy) else {
            held.count += 1
            held.time += hitch.nanoseconds
            switch cause {
            case .commit: held.commit += 1
            case .render: held.render += 1
            case .both: held.both += 1
            }
            held.longest = max(held.longest, hitch.nanoseconds)
            return false
        }
        held.printed = true
        host.emit(hitchEvent(hitch, cause: cause, info))
        return true
    }

    /// The event `fps.hitch` for one hitch.
    func hitchEvent(_ hitch: SimDuration, cause: HitchCause, _ info: PresentInfo, silent: Bool = false) -> ToolEvent {
        ToolEvent(
            name: "fps.hitch", time: info.present,
            message:
                "hitch \(FPSMeter.readable(hitch)) (\(cause.rawValue)), frame \(info.frame) expected at \(FPSMeter.readable(info.expectedPresent))",
            fields: [
                ("frame", .int(info.frame)), ("hitch_ns", JSONValue(hitch)),
                ("cause", .string(cause.rawValue)),
                ("present_ns", JSONValue(info.present)),
                ("expected_ns", JSONValue(info.expectedPresent)),
            ], silent: silent)
    }

    /// The held hitches of a second that has ended, as one line; the next second is then busy.
    func emitHeldHitches(at time: SimTime) {
        guard let k = held.second, held.count > 0 else { return }
        let h = held
        let from = SimTime(nanoseconds: k * SecondTally.nanosecondsPerSecond)
        let to = SimTime(nanoseconds: (k + 1) * SecondTally.nanosecondsPerSecond)
        let causes = [("commit", h.commit), ("render", h.render), ("both", h.both)].filter { $0.1 > 0 }
            .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        // The first summary says how to see each hitch; later ones stay short.
        let hint = watch.hinted ? "" : "; --all lists each"
        watch.hinted = true
        let what =
            h.printed
            ? (h.count == 1 ? "1 more hitch" : "\(h.count) more hitches")
            : (h.count == 1 ? "1 hitch" : "\(h.count) hitches")
        host.emit(
            ToolEvent(
                name: "fps.hitches", time: time,
                message:
                    "\(what) in [\(FPSMeter.readable(from)), \(FPSMeter.readable(to))): \(SimFormat.readable(h.time)) (\(causes)), longest \(SimFormat.readable(h.longest))\(hint)",
                fields: [
                    ("count", .int(h.count)), ("time_ns", .int(h.time)), ("commit", .int(h.commit)),
                    ("render", .int(h.render)), ("both", .int(h.both)), ("longest_ns", .int(h.longest)),
                    ("from_ns", JSONValue(from)), ("to_ns", JSONValue(to)),
                ]))
        held = HeldHitches(second: k, printed: true, busy: true)
    }
}

// MARK: - Records

/// One completed window of the reading (F1).
struct WindowRecord {
    /// When the closing callback ran.
    var closedAt: SimTime
    /// The window's first and last timestamps.
    var from: SimTime
    var to: SimTime
    var callbacks: Int64
    var reading: Int64
    /// Frames presented in `(from, to]`: what the display showed over the same span.
    var presents: Int64

    static let zero = WindowRecord(closedAt: .zero, from: .zero, to: .zero, callbacks: 0, reading: 0, presents: 0)
}

/// A stretch of time the run loop spent in tracking mode (a scroll), from the meter's mode-change
/// observations.
struct TrackingSpan {
    var from: SimTime
    var to: SimTime

    static let zero = TrackingSpan(from: .zero, to: .zero)
}

/// Why a frame was late (R4).
enum HitchCause: String, CaseIterable {
    /// The commit ended at or after the vsync after its newest tick: it missed its render vsync.
    case commit
    /// The render ended after the vsync after its start, or the frame waited for the render
    /// server to finish an earlier one.
    case render
    case both

    init(_ info: PresentInfo) {
        switch (info.commitLate, info.renderLate) {
        case (true, true): self = .both
        case (true, false): self = .commit
        default: self = .render
        }
    }
}

/// Hitches since start or reset (R4).
struct HitchTally {
    var count: Int64 = 0
    var commit: Int64 = 0
    var render: Int64 = 0
    var both: Int64 = 0
    /// Total hitch time in ns.
    var time: Int64 = 0
    /// The part of it within animating time as the display shows it: the hitch ratio's (R4).
    var ratioTime: Int64 = 0

    mutating func add(_ hitch: SimDuration, cause: HitchCause) {
        count += 1
        time += hitch.nanoseconds
        switch cause {
        case .commit: commit += 1
        case .render: render += 1
        case .both: both += 1
        }
    }
}

/// One presented frame, for `fps frames`.
struct FrameRecord {
    var frame: Int64
    var commitEnd: SimTime
    var renderStart: SimTime
    var renderEnd: SimTime
    var present: SimTime
    var expected: SimTime
    /// Whether the frame counts for hitch metrics (A2).
    var counted: Bool
    /// Its hitch in ns (R4); 0 when on time or not counted.
    var hitch: Int64 = 0
    /// The time since the previous counted present in ns, for a counted present that has one;
    /// 0 otherwise (`fps plot`'s frame time).
    var interval: Int64 = 0
    var cause: HitchCause?

    init(_ info: PresentInfo) {
        frame = info.frame
        commitEnd = info.commitEnd
        renderStart = info.renderStart
        renderEnd = info.renderEnd
        present = info.present
        expected = info.expectedPresent
        counted = info.counted
    }

    private init() {
        frame = 0
        commitEnd = .zero
        renderStart = .zero
        renderEnd = .zero
        present = .zero
        expected = .zero
        counted = false
    }

    static let zero = FrameRecord()
}
