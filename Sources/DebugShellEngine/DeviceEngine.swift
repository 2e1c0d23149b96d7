import DebugShellCore
import DequeModule

/// The simulated device: vsync, the main thread and its run loop, display links, timers,
/// Core Animation commits and the render server, in virtual time (docs/Semantics.md).
///
/// One isolation domain owns it; time moves only through ``advance(to:)`` and its siblings,
/// which the shell's time commands call. Tools get it as a ``SimulatedDevice``.
///
/// Its state is in sub-models, each a struct of its own file held in one stored property:
/// ``EngineClock`` (now and the advance), the ``EventQueue``, ``Display`` (the vsync grid and the
/// adaptive rate), ``RunLoopState`` (modes, scrolls, animations), ``Timers``, ``MainThread``,
/// ``RenderPipeline``, ``Callouts`` (observers, whose code runs) and ``FrameScript`` (a replay's
/// frames, docs/Replay.md). A sub-model's methods
/// change that sub-model alone and never call a tool; what crosses sub-models or calls out is
/// the engine's, in the extensions named after the sub-model they drive.
///
/// Its stored properties are `@exclusivity(unchecked)`: the hot loop touches them millions of
/// times a second, their accesses never overlap by construction (one isolation domain, no
/// `inout` across a callback: no sub-model's method calls out), and the runtime's checks were
/// about 40% of the loop's instructions. The attribute does per property what a compiler flag
/// would do per target, which a package that others depend on may not use.
///
/// Two rules keep the sub-models as fast as the flat properties they replace (measured with
/// callgrind). Each is `~Copyable`: a copyable one is copied whole, every array in it retained,
/// to call a method on it through the class (2.6 times the instructions). And a non-mutating
/// method the hot loop calls is `@inline(__always)`: one that is not inlined gets its sub-model
/// by value, too large for registers, so a copy of its bytes per call; a mutating one gets its
/// address.
public final class DeviceEngine: SimulatedDevice {
    // MARK: The sub-models

    /// Now, the advance in progress, the driver's scheduled commands.
    @exclusivity(unchecked) var clock = EngineClock()
    /// Every event to come, of every sub-model, in the order of S4 (EventKey).
    @exclusivity(unchecked) var queue = EventQueue()
    /// The vsync grid, the adaptive rate and its caps.
    @exclusivity(unchecked) var display: Display
    /// The run loop's mode, scrolls and animations.
    @exclusivity(unchecked) var runLoop = RunLoopState()
    /// Links and timers, their due lists and wake-ups.
    @exclusivity(unchecked) var timers = Timers()
    /// The main thread, its queue, the dirty UI, busy time and hangs.
    @exclusivity(unchecked) var main = MainThread()
    /// Commits, the render server, presents.
    @exclusivity(unchecked) var render = RenderPipeline()
    /// Observers, and whose code runs.
    @exclusivity(unchecked) var callouts = Callouts()
    /// A replay's frames, when one runs (docs/Replay.md).
    @exclusivity(unchecked) var script = FrameScript()
    /// Turns every shortcut of the hot loop off: every main-thread item's end is an instant of
    /// its own, due timers always go through the run loop's due lists and batches, dispatch
    /// targets through the general path. Differential tests check that both ways give the same
    /// simulation.
    @exclusivity(unchecked) var referenceMode = false

    // MARK: What the driver reads and sets

    public var now: SimTime { clock.now }
    /// Whether the events at `now` have been processed (after `step` and `run until`).
    public var instantDone: Bool { clock.instantDone }
    /// Instants processed since the start (EngineClock).
    public var instantsProcessed: Int { clock.instantsProcessed }
    /// How often an advance polls its `interrupted` closure (EngineClock).
    public var interruptPollMask: Int {
        get { clock.interruptPollMask }
        set { clock.interruptPollMask = newValue }
    }
    /// `app.high_frame_rates` and `system.low_power` (V2), as the session sets them.
    public var highFrameRates: Bool { display.highFrameRates }
    public var lowPower: Bool { display.lowPower }
    /// Whether `display adaptive` ever ran (V6: `clock.refreshes` is listed from then).
    public var hasBeenAdaptive: Bool { display.hasBeenAdaptive }
    /// `runloop.coalescing` (T5, D2).
    public var coalescing: Bool {
        get { timers.coalescing }
        set { timers.coalescing = newValue }
    }

    // The app's costs (`load`).
    public var frameCost: SimDuration {
        get { main.frameCost }
        set { main.frameCost = newValue }
    }
    public var commitCost: SimDuration {
        get { main.commitCost }
        set { main.commitCost = newValue }
    }
    public var gpuCost: SimDuration {
        get { render.gpuCost }
        set { render.gpuCost = newValue }
    }
    /// The commit's other phases and the render server's (R6).
    public var layoutCost: SimDuration {
        get { main.layoutCost }
        set { main.layoutCost = newValue }
    }
    public var displayCost: SimDuration {
        get { main.displayCost }
        set { main.displayCost = newValue }
    }
    public var prepareCost: SimDuration {
        get { main.prepareCost }
        set { main.prepareCost = newValue }
    }
    public var renderPrepareCost: SimDuration {
        get { render.renderPrepareCost }
        set { render.renderPrepareCost = newValue }
    }
    /// Offscreen passes per frame and each one's GPU cost (R6).
    public func setOffscreen(passes: Int, each cost: SimDuration) {
        render.offscreenPasses = max(0, passes)
        render.offscreenPassCost = cost
    }
    /// What a frame's stages cost now (`load`, R6); `update` is `load frame`.
    public var framePhases: FramePhases {
        FramePhases(
            update: main.frameCost, layout: main.layoutCost, display: main.displayCost, prepare: main.prepareCost,
            commit: main.commitCost, renderPrepare: render.renderPrepareCost, gpu: render.gpuCost,
            offscreenPasses: render.offscreenPasses, offscreenPass: render.offscreenPassCost)
    }
    /// The buffers the render server uses for the renders it starts from now (R7): 2 or 3.
    public var bufferCount: Int {
        get { render.buffers }
        set { render.buffers = min(3, max(2, newValue)) }
    }

    public var hangs: Int64 { main.hangs }
    public var commits: Int64 { render.commits }
    public var presents: Int64 { render.presents }
    /// Run-loop and dispatch wake-ups that fired timers; and those that fired an app timer.
    public var timerWakeups: Int64 { timers.wakeups }
    public var appTimerWakeups: Int64 { timers.appWakeups }

    public func timerWakeups(appOnly: Bool) -> Int64 { appOnly ? timers.appWakeups : timers.wakeups }

    /// Whose code runs now: a tool's callback (the engine notes it around each call) or the
    /// session's call into a tool (the session notes it). What a tool registers while its code
    /// runs is its own; a trap's last words say whose code it was (docs/Plugins.md).
    public var running: RunningCode {
        get { callouts.running(at: clock.now) }
        set {
            callouts.watch.noteChange(from: callouts.running.tool, to: newValue.tool, first: callouts.firstWatched)
            callouts.running = newValue
        }
    }

    /// Notes that a tool's callback starts; returns what ran before, to put back after it.
    @inline(__always)
    func enter(_ kind: RunningCode.Kind, tool: Int32, detail: Int, at time: SimTime) -> RunningCode {
        let saved = callouts.running
        callouts.watch.noteChange(from: saved.tool, to: tool, first: callouts.firstWatched)
        callouts.running = RunningCode(kind: kind, tool: tool, detail: detail, time: time)
        return saved
    }

    /// Notes that the callback ``enter(_:tool:detail:at:)`` announced returned.
    @inline(__always)
    func leave(_ saved: RunningCode) {
        callouts.watch.noteChange(from: callouts.running.tool, to: saved.tool, first: callouts.firstWatched)
        callouts.running = saved
    }

    /// Makes a device at t = 0 with the given refresh rate and nothing running.
    public init(rate: RefreshRate = .sixty) {
        display = Display(rate: rate.hertz)
        var link = TimerRecord(kind: .displayLink, owner: .system, label: "UI", cost: .zero, dirtiesUI: false)
        link.mode = .common
        link.isUILink = true
        _ = timers.append(link)
    }

    /// The app's UI display link (A1): the first link, added at the start.
    @inline(__always) var uiLink: Int { 0 }

    // MARK: - Reading time (SimulatedDevice)

    public var refreshRate: RefreshRate { Display.wholeHertz(displayRefresh) }

    public var framePeriod: SimDuration {
        display.grid.period(segment: display.grid.segmentIndex(at: clock.now.nanoseconds))
    }

    public func refreshRates(from: SimTime, to: SimTime) -> [RefreshRateChange] {
        display.refreshRates(from: from, to: to)
    }

    public var mode: RunLoopMode { runLoop.mode }

    /// The panel's vsyncs since the start: on an adaptive display every vsync of the grid of its
    /// maximum, refreshing or not (V1); ``refreshCount`` counts the refreshes.
    public var vsyncCount: Int64 { display.grid.vsyncCount(before: clock.firstOpenTime) }

    /// The first time in `(now, end]` after whose instant ``vsyncCount`` is at least `count`, if
    /// any: where a condition on `clock.vsyncs` can change on an idle device (a binary search
    /// over the grid's count, which only grows).
    public func timeWhenVsyncCount(reaches count: Int64, by end: SimTime) -> SimTime? {
        let grid = display.grid
        func counted(after t: Int64) -> Int64 { grid.vsyncCount(before: t &+ 1) }
        var lo = clock.now.nanoseconds
        var hi = end.nanoseconds
        guard hi > lo, counted(after: hi) >= count, counted(after: lo) < count else { return nil }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if counted(after: mid) >= count { hi = mid } else { lo = mid }
        }
        return SimTime(nanoseconds: hi)
    }

    public func vsync(atOrAfter time: SimTime) -> SimTime {
        SimTime(nanoseconds: display.grid.first(atOrAfter: time.nanoseconds).time)
    }

    public func vsync(after time: SimTime) -> SimTime {
        SimTime(nanoseconds: display.grid.first(after: time.nanoseconds).time)
    }

    public func vsyncs(from: SimTime, to: SimTime) -> Int64 {
        guard to > from else { return 0 }
        return display.grid.count(before: to.nanoseconds) - display.grid.count(before: from.nanoseconds)
    }

    /// The run-loop mode in force at `time`, after that instant's mode changes (S4.2).
    func mode(at time: SimTime) -> RunLoopMode { runLoop.mode(at: time) }

    /// The end of the current main-thread item, or of the last one.
    public var busyUntil: SimTime { main.busyUntil }

    /// Busy time in the last whole second, or nil before one has passed (RL6).
    public func busyRatio() -> MetricNumber? { main.busyRatio(at: clock.now) }

    // MARK: - Animations and scrolls (A1, A2)

    public var isAnimating: Bool { runLoop.animations.contains(clock.now.nanoseconds) }

    public func animatingTime(from: SimTime) -> SimDuration {
        SimDuration(nanoseconds: runLoop.animations.measure(from: from.nanoseconds, to: clock.now.nanoseconds))
    }

    public func animate(for duration: SimDuration) {
        let end = clock.now + duration
        runLoop.animate(from: clock.now.nanoseconds, to: end.nanoseconds)
        ensureVsync()
    }

    public func beginAnimation() -> AnimationToken {
        let token = runLoop.beginAnimation(at: clock.now.nanoseconds)
        ensureVsync()
        return AnimationToken(rawValue: token)
    }

    /// An animation over `[now, now + duration)` that ``endAnimation(_:)`` can end early: it then
    /// animates no longer than what else animates (A2, L1: a spin replaced, stopped or removed).
    public func beginAnimation(for duration: SimDuration) -> AnimationToken {
        let token = runLoop.beginAnimation(at: clock.now.nanoseconds, until: (clock.now + duration).nanoseconds)
        ensureVsync()
        return AnimationToken(rawValue: token)
    }

    public func endAnimation(_ token: AnimationToken) {
        runLoop.endAnimation(token.rawValue, at: clock.now.nanoseconds)
        requestsChanged()
    }

    /// `scroll d`: tracking mode over `[now, now + d)` (A1, mode changes at both ends, S4.2),
    /// and the app animates; the touch raises an adaptive display at once (V15).
    public func scroll(for duration: SimDuration) {
        guard duration > .zero else { return }
        let end = clock.now + duration
        touchBoost()
        runLoop.scrolls.add(start: clock.now.nanoseconds, end: end.nanoseconds)
        scheduleModeChange(at: clock.now)
        scheduleModeChange(at: end)
        animate(for: duration)
    }

    // MARK: - The app's work

    /// `stall d [--ui]`: one main-queue block of that cost.
    public func stall(_ cost: SimDuration, dirtiesUI: Bool) {
        enqueue(
            MainBlock(
                kind: .plain(nil), cost: cost, dirtiesUI: dirtiesUI, label: "stall \(cost)", enqueuedAt: clock.now))
    }

    public func enqueueMainBlock(cost: SimDuration, dirtiesUI: Bool, label: String, action: (() -> Void)?) {
        enqueue(
            MainBlock(
                kind: .plain(action), cost: cost, dirtiesUI: dirtiesUI, label: label, enqueuedAt: clock.now,
                tool: running.tool))
    }

    public func markUIDirty() { main.dirty(asking: callerAsk) }

    /// V2: why a link asking for `request` Hz runs at 60 on this adaptive display, if it does.
    public func rateCap(request: Int) -> RateCap? {
        // V2: a cap holds a link only where the display could go higher (a display whose
        // maximum is 60 Hz holds it there itself, V3: nothing to fix).
        let refresh = displayRefresh
        guard refresh.isAdaptive, request > 60, refresh.maximum > 60 else { return nil }
        if display.lowPower { return .lowPower }
        // V12: an iPad's app has no cap.
        return display.highFrameRates || display.kind == .ipad ? nil : .noHighFrameRates
    }

    /// A replay (docs/Replay.md): from now on the app's animation ticks take their costs from
    /// these frames, in tick order, on top of `load`'s.
    public func setFrameScript(_ frames: [ScriptedFrame]) {
        script = FrameScript()
        script.frames = frames
    }

    /// A replay's frames that no tick took, and ticks that repeated the frame before.
    public var scriptedFramesSkipped: Int64 { script.skipped }
    public var scriptedFramesRepeated: Int64 { script.repeated }

    /// The id of the last frame whose commit started (R6: per-commit costs).
    public var lastFrameID: Int64 { render.lastFrameID }

    /// Marks the UI dirty with changes that cost the next commit more (a view's layout, R6), and
    /// its render more (a replayed commit's GPU work, docs/Replay.md).
    public func markUIDirty(extra: FramePhases) {
        main.dirty(asking: callerAsk)
        main.extraPhases.layout = main.extraPhases.layout + extra.layout
        main.extraPhases.display = main.extraPhases.display + extra.display
        main.extraPhases.prepare = main.extraPhases.prepare + extra.prepare
        main.extraPhases.commit = main.extraPhases.commit + extra.commit
        main.extraPhases.gpu = main.extraPhases.gpu + extra.gpu
    }

    /// Changes the refresh rate at the first vsync at or after now (S2) that is still to come: a
    /// vsync at now whose instant is done (after `step`) happened at the old rate.
    public func setRefreshRate(_ rate: RefreshRate) {
        display.grid.changeRate(to: rate.hertz, at: max(clock.now.nanoseconds, display.lastProcessedVsync + 1))
        if display.nextVsync != nil {
            display.nextVsync = firstUnprocessedVsync()
        }
    }

    /// The refresh rate a pending change will set, if one is waiting for its vsync.
    public var pendingRate: (rate: RefreshRate, at: SimTime)? { display.pendingRate(after: clock.now) }

    // MARK: - Scheduled commands (S4.1)

    /// Stops time after the instant being processed: the driver saw an interrupt while one of
    /// its scheduled actions ran, and time should not run on to the next poll.
    public func stopAfterThisInstant() { clock.stopAfterInstant = true }

    /// Schedules `action` at `time`, after everything already scheduled for that time.
    public func schedule(at time: SimTime, _ action: @escaping () -> Void) {
        let seq = clock.nextSequence()
        clock.scheduled[seq] = action
        queue.push(time: time.nanoseconds, key: EventKey.command(seq))
    }

    // MARK: - Observers

    public func addObserver(_ observer: any DeviceObserver, kinds: ObservationKinds) -> ObserverToken {
        let tool = running.tool
        let token = callouts.add(observer, kinds: kinds, tool: tool)
        if kinds.contains(.vsync) { ensureVsync() }
        return ObserverToken(rawValue: token)
    }

    public func changeObserver(_ token: ObserverToken, kinds: ObservationKinds) {
        guard callouts.change(token.rawValue, kinds: kinds) else { return }
        if kinds.contains(.vsync) { ensureVsync() }
    }

    /// Lets go of everything that could hold tools or the session: observers, callbacks and
    /// scheduled commands. The session calls it when `reset` replaces the device, so no cycle
    /// through a tool (tool → device → observer → tool) keeps the old simulation alive.
    ///
    /// What it lets go of may be the last reference to a tool's object, whose `deinit` is the
    /// tool's code: each observer, callback and block goes with its owner noted
    /// (``RunningCode/Kind/deinitAtReset``, at the time the device stood at), so that a trap
    /// there names the tool.
    public func tearDown() {
        let saved = callouts.running
        defer { callouts.running = saved }
        let now = clock.now
        for observer in callouts.observers {
            let tool = callouts.calls.firstTool(of: observer.token)
            callouts.running = RunningCode(kind: .deinitAtReset, tool: tool, time: now)
            removeObserver(ObserverToken(rawValue: observer.token))
        }
        callouts.running = RunningCode(kind: .deinitAtReset, tool: -1, time: now)
        clock.scheduled.removeAll()
        for i in timers.indices {
            // Taken out first: the closure's context goes once this access to the table is over.
            guard let callback = timers[i].callback else { continue }
            timers[i].callback = nil
            callouts.running = RunningCode(kind: .deinitAtReset, tool: timers[i].tool, time: now)
            _ = consume callback
        }
        while let block = main.queue.popFirst() {
            callouts.running = RunningCode(kind: .deinitAtReset, tool: block.tool, time: now)
            _ = consume block
        }
    }

    public func removeObserver(_ token: ObserverToken) {
        // The observer goes once the access to the lists is over: its deinit is a tool's code.
        _ = callouts.remove(token.rawValue)
    }

    /// Whether an observer wants any of `kinds`.
    @inline(__always) func wants(_ kinds: ObservationKinds) -> Bool { callouts.wants(kinds) }

    /// Calls the observers of any of `kinds` in the order they were added. One added during the
    /// notification is not called for it; one removed is not called after its removal.
    func notify(_ kinds: ObservationKinds, _ observation: DeviceObservation) {
        callouts.notifying += 1
        let outer = callouts.delivering
        let n = callouts.calls.count
        let firstWatched = callouts.firstWatched
        var c = 0
        while c < n {
            let call = callouts.calls[c]
            if !call.kinds.isDisjoint(with: kinds) {
                callouts.delivering = c
                if call.tool >= firstWatched {
                    // A plugin's observer: noted for the watchdog, and the note before it put back.
                    let watch = callouts.watch
                    let wasWatched = watch.inWatchedCode
                    watch.note(inWatchedCode: true)
                    deliver(call.type, call.object, observation)
                    watch.note(inWatchedCode: wasWatched)
                } else {
                    deliver(call.type, call.object, observation)
                }
            }
            c += 1
        }
        callouts.delivering = outer
        callouts.notifying -= 1
        if callouts.notifying == 0 && !callouts.retired.isEmpty { callouts.dropRetired() }
    }

    /// Calls an observer of a known type through its unretained reference: the observer is kept
    /// alive by `callouts.observers` or `callouts.retired` for as long as the call lasts.
    private func deliver<O: DeviceObserver>(_ type: O.Type, _ object: UnsafeRawPointer, _ o: DeviceObservation) {
        Unmanaged<O>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.device(self, observed: o) }
    }
}

/// Whose code runs on the simulated device's main thread: debugsh's own, a call the session makes
/// into a tool, or a tool's callback the engine makes.
public struct RunningCode: Sendable {
    public enum Kind: Sendable {
        case shell
        // The session's calls into a tool.
        case initializer, command, metric, metricNames, statusLine, candidates, settingChange
        // The engine's calls into a tool's callbacks.
        case runLoopTimer, dispatchTimer, displayLink, mainBlock, observer
        // The session's calls into a plugin while `plugin load` loads it (its tool not known
        // yet: ``RunningCode/tool`` is -1): the dynamic linker running its initializers, its two
        // entry points, a tool type's `descriptor`.
        case libraryLoad, versionEntryPoint, manifestEntryPoint, descriptor
        // The session's other calls into a tool: `isSaying(_:)` (`break on`), a command's JSON
        // result and streamed output (made after `run(_:)` returned), and what a tool's objects
        // run as `reset` lets go of them (its `deinit`).
        case isSaying, jsonResult, streamedOutput, deinitAtReset

        /// A callback, made while time moves.
        public var isCallback: Bool {
            switch self {
            case .runLoopTimer, .dispatchTimer, .displayLink, .mainBlock, .observer: return true
            default: return false
            }
        }
    }

    public var kind: Kind
    /// The tool whose code it is, by registration order; -1 for debugsh's own.
    public var tool: Int32
    /// The timer's index, for a timer's or link's callback; -1 otherwise.
    public var detail: Int
    /// When it started.
    public var time: SimTime

    public init(kind: Kind, tool: Int32, detail: Int = -1, time: SimTime) {
        self.kind = kind
        self.tool = tool
        self.detail = detail
        self.time = time
    }

    /// Nothing of a tool's.
    public static let shell = RunningCode(kind: .shell, tool: -1, time: .zero)
}

/// Keys of queue entries: the S4 step in the top bits, then the order within the step, which
/// also names the target.
enum EventKey {
    static let stepShift: UInt64 = 60
    static let subShift: UInt64 = 57
    static let idMask: UInt64 = (1 << 57) - 1
    /// Ids at and above this are coalesced wake-ups, not timers.
    static let wakeBase: UInt64 = 1 << 56

    public static func command(_ seq: UInt64) -> UInt64 { 1 << stepShift | seq }
    static func modeChange(_ seq: UInt64) -> UInt64 { 2 << stepShift | seq }
    static func runLoopTimer(_ id: Int) -> UInt64 { 4 << stepShift | UInt64(id) }
    static func runLoopWake(_ modeClass: Int) -> UInt64 { 4 << stepShift | (wakeBase + UInt64(modeClass)) }
    /// Dispatch targets: background timers first (sub 0), then main (sub 1); then the returns
    /// of background handlers with data pending (sub 2), D4.
    static func dispatchTarget(_ id: Int, queue: DispatchQueueKind) -> UInt64 {
        5 << stepShift | (queue == .background ? 0 : 1) << subShift | UInt64(id)
    }
    static func dispatchWake(_ queue: DispatchQueueKind) -> UInt64 {
        5 << stepShift | (queue == .background ? 0 : 1) << subShift | (wakeBase + 1)
    }
    static func backgroundReturn(_ id: Int) -> UInt64 { 5 << stepShift | 2 << subShift | UInt64(id) }

    @inline(__always) static func step(_ key: UInt64) -> UInt64 { key >> stepShift }
    @inline(__always) static func sub(_ key: UInt64) -> UInt64 { (key >> subShift) & 7 }
    @inline(__always) public static func id(_ key: UInt64) -> UInt64 { key & idMask }
}

/// The index of a mode's class in per-mode lists: default, tracking, common.
@inline(__always) func modeClass(_ mode: RunLoopMode) -> Int {
    switch mode {
    case .default: return 0
    case .tracking: return 1
    case .common: return 2
    }
}
