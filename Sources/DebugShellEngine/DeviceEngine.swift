import DebugShellCore
import DequeModule

/// The simulated device: vsync, the main thread and its run loop, display links, timers,
/// Core Animation commits and the render server, in virtual time (docs/Semantics.md).
///
/// One isolation domain owns it; time moves only through ``advance(to:)`` and its siblings,
/// which the shell's time commands call. Tools get it as a ``SimulatedDevice``.
///
/// Its stored properties are `@exclusivity(unchecked)`: the hot loop touches them millions of
/// times a second, their accesses never overlap by construction (one isolation domain, no
/// `inout` across a callback), and the runtime's checks were about 40% of the loop's
/// instructions. The attribute does per property what a compiler flag would do per target,
/// which a package that others depend on may not use.
public final class DeviceEngine: SimulatedDevice {
    // MARK: Time and the grid

    @exclusivity(unchecked) public internal(set) var now: SimTime = .zero
    /// Whether the events at `now` have been processed (after `step` and `run until`).
    @exclusivity(unchecked) public internal(set) var instantDone = false
    /// Set when the driver saw an interrupt during an instant (in a scheduled command): time
    /// stops after that instant rather than at the next poll, 256 instants on.
    @exclusivity(unchecked) var stopAfterInstant = false
    /// Instants processed since the start, each time an advance went through one (an instant
    /// already done is processed again by the next advance that starts there).
    @exclusivity(unchecked) public internal(set) var instantsProcessed = 0
    /// How often an advance polls its `interrupted` closure: after the instants whose count
    /// since the advance began, masked with this (a power of two less one), is zero — every 256
    /// instants by default. The mask is read again after each poll, so a driver that bounds
    /// each slice of time in wall time (`play`, a progress line) lowers it from inside the
    /// closure while instants are heavy, down to 0, every instant. It changes when the driver
    /// looks, never what is computed.
    @exclusivity(unchecked) public var interruptPollMask = 255
    @exclusivity(unchecked) var grid: VsyncGrid
    @exclusivity(unchecked) var queue = EventQueue()
    /// While time advances: the first time it may not reach (events before it are processed),
    /// and whether a condition is checked after each instant (`run until`).
    @exclusivity(unchecked) var advanceEnd = Int64.max
    @exclusivity(unchecked) var advanceChecks = false
    /// The next vsync to process, or nil while nothing needs vsyncs (idle time is free).
    @exclusivity(unchecked) var nextVsync: VsyncGrid.Position?
    /// Vsyncs at or before this time are past: the latest vsync processed, or the latest instant
    /// whose vsync step (S4.3) is over, whether a vsync was due then or not.
    @exclusivity(unchecked) var lastProcessedVsync: Int64 = -1

    // MARK: The run loop

    @exclusivity(unchecked) var currentMode: RunLoopMode = .default
    @exclusivity(unchecked) var modeHistory: [(time: Int64, mode: RunLoopMode)] = [(0, .default)]
    @exclusivity(unchecked) var scrolls = SpanUnion()
    @exclusivity(unchecked) var animations = SpanUnion()
    /// The animations that request the system default (V2): every one but `animate --range`.
    @exclusivity(unchecked) var plainAnimations = SpanUnion()
    /// `plainAnimations`' token for each token of `animations` handed out.
    @exclusivity(unchecked) var plainTokens: [Int: Int] = [:]
    /// `animate d --range`: its end and the range it requests (V2).
    @exclusivity(unchecked) var rangedAnimations: [(end: Int64, range: FrameRateRange)] = []
    /// `app.high_frame_rates` and `system.low_power` (V2), as the session sets them.
    @exclusivity(unchecked) public internal(set) var highFrameRates = false
    @exclusivity(unchecked) public internal(set) var lowPower = false
    /// Whether `display adaptive` ever ran (V6: `clock.refreshes` is listed from then).
    @exclusivity(unchecked) public internal(set) var hasBeenAdaptive = false
    /// `runloop.coalescing` (T5, D2).
    @exclusivity(unchecked) public var coalescing = false
    /// Turns every shortcut of the hot loop off: every main-thread item's end is an instant of
    /// its own, due timers always go through the run loop's due lists and batches, dispatch
    /// targets through the general path. Differential tests check that both ways give the same
    /// simulation.
    @exclusivity(unchecked) var referenceMode = false

    // MARK: The app's costs (`load`)

    @exclusivity(unchecked) public var frameCost = SimDuration.zero
    @exclusivity(unchecked) public var commitCost = SimDuration.zero
    @exclusivity(unchecked) public var gpuCost = SimDuration.zero

    // MARK: Timers and links

    /// Every link and timer, by ``TimerID`` (index 0 is the app's UI link).
    @exclusivity(unchecked) var timers = TimerTable()
    /// Active display links other than the UI link, in creation order (DL7 fill order).
    @exclusivity(unchecked) var activeLinks: [Int] = []
    /// Due run-loop timers per mode class (default, tracking, common), in (fire date, id) order.
    @exclusivity(unchecked) var dueTimers = ClassLists()
    /// Display links with a filled slot per mode class, in fill order.
    @exclusivity(unchecked) var filledLinks = ClassLists()
    /// Due dispatch timers per queue kind (background, main), while coalescing (D2).
    @exclusivity(unchecked) var dueDispatch = ClassLists()
    /// A reused buffer for a coalesced dispatch wake-up's due timers.
    @exclusivity(unchecked) var dispatchScratch: [Int] = []
    /// The last instant a dispatch wake-up was counted per queue kind (background, main).
    @exclusivity(unchecked) var lastBackgroundWake = Int64.min
    @exclusivity(unchecked) var lastMainWake = Int64.min
    @exclusivity(unchecked) var lastBackgroundAppWake = Int64.min
    @exclusivity(unchecked) var lastMainAppWake = Int64.min

    // MARK: The main thread

    @exclusivity(unchecked) var main = MainThreadState()
    @exclusivity(unchecked) var mainQueue = Deque<MainBlock>()
    @exclusivity(unchecked) var uiDirty = false
    /// The timestamp of the newest animation tick since the last commit (R3).
    @exclusivity(unchecked) var pendingTick: SimTime?
    @exclusivity(unchecked) var busyTime = BusyTime()
    @exclusivity(unchecked) public internal(set) var hangs: Int64 = 0

    // MARK: The render server

    @exclusivity(unchecked) var render = RenderServerState()
    @exclusivity(unchecked) public internal(set) var commits: Int64 = 0
    @exclusivity(unchecked) public internal(set) var presents: Int64 = 0
    @exclusivity(unchecked) var nextFrameID: Int64 = 0
    /// The last present of a frame counted for hitch metrics (A2, R4).
    @exclusivity(unchecked) var lastCountedPresent: SimTime?

    // MARK: Scheduled commands, observers, counters

    @exclusivity(unchecked) var scheduled: [UInt64: () -> Void] = [:]
    @exclusivity(unchecked) var nextScheduleSeq: UInt64 = 0
    @exclusivity(unchecked) var observers: [(token: Int, kinds: ObservationKinds, observer: any DeviceObserver)] = []
    /// The observers again, for calls: unretained, so a notification does no reference counting
    /// (an atomic operation costs more than the rest of a delivery here). `observers` holds them
    /// strongly; one removed during a notification is kept alive in `retiredObservers` until
    /// the notification is over.
    @exclusivity(unchecked) var observerCalls = PodVector<ObserverCall>(capacity: 8)
    /// Whose code runs now: a tool's callback (the engine notes it around each call) or the
    /// session's call into a tool (the session notes it). What a tool registers while its code
    /// runs is its own; a trap's last words say whose code it was (docs/Plugins.md).
    public var running: RunningCode {
        get {
            // An observer's call is noted by its index alone (one store per call: it is made for
            // every firing the inspector watches).
            notifying > 0
                ? RunningCode(kind: .observer, tool: observerCalls[delivering].tool, time: now) : runningCall
        }
        set { runningCall = newValue }
    }
    @exclusivity(unchecked) private var runningCall = RunningCode.shell
    /// The index in `observerCalls` of the observer being called, while `notifying`.
    @exclusivity(unchecked) var delivering = 0

    /// Notes that a tool's callback starts; returns what ran before, to put back after it.
    @inline(__always)
    func enter(_ kind: RunningCode.Kind, tool: Int32, detail: Int, at time: SimTime) -> RunningCode {
        let saved = runningCall
        runningCall = RunningCode(kind: kind, tool: tool, detail: detail, time: time)
        return saved
    }

    /// Notes that the callback ``enter(_:tool:detail:at:)`` announced returned.
    @inline(__always)
    func leave(_ saved: RunningCode) { runningCall = saved }
    /// Notifications in progress (an observer's call can lead to another).
    @exclusivity(unchecked) var notifying = 0
    @exclusivity(unchecked) var retiredObservers: [any DeviceObserver] = []
    @exclusivity(unchecked) var observedKinds = ObservationKinds()
    @exclusivity(unchecked) var nextObserverToken = 0
    /// Run-loop and dispatch wake-ups that fired timers; and those that fired an app timer.
    @exclusivity(unchecked) public internal(set) var timerWakeups: Int64 = 0
    @exclusivity(unchecked) public internal(set) var appTimerWakeups: Int64 = 0

    public func timerWakeups(appOnly: Bool) -> Int64 { appOnly ? appTimerWakeups : timerWakeups }

    /// Makes a device at t = 0 with the given refresh rate and nothing running.
    public init(rate: RefreshRate = .sixty) {
        grid = VsyncGrid(rate: rate.hertz)
        var link = TimerRecord(kind: .displayLink, owner: .system, label: "UI", cost: .zero, dirtiesUI: false)
        link.mode = .common
        link.isUILink = true
        timers.append(link)
    }

    /// The app's UI display link (A1): the first link, added at the start.
    let uiLink = 0

    // MARK: - Reading time (SimulatedDevice)

    public var refreshRate: RefreshRate { DeviceEngine.wholeHertz(displayRefresh) }

    public var framePeriod: SimDuration { grid.period(segment: grid.segmentIndex(at: now.nanoseconds)) }

    public func refreshRates(from: SimTime, to: SimTime) -> [RefreshRateChange] {
        func rate(_ s: Int) -> RefreshRate { DeviceEngine.wholeHertz(refresh(atSegment: s)) }
        var s = grid.segmentIndex(at: from.nanoseconds)
        var rates = [RefreshRateChange(time: from, rate: rate(s))]
        s += 1
        while s < grid.segments.count, grid.segments[s].start < to.nanoseconds {
            // An adaptive display's change to the same whole-hertz rate is no change here.
            if rate(s) != rates[rates.count - 1].rate || !grid.segments[s].isAdaptive {
                rates.append(RefreshRateChange(time: SimTime(nanoseconds: grid.segments[s].start), rate: rate(s)))
            }
            s += 1
        }
        return rates
    }

    public var mode: RunLoopMode { currentMode }

    /// The panel's vsyncs since the start: on an adaptive display every vsync of the grid of its
    /// maximum, refreshing or not (V1); ``refreshCount`` counts the refreshes.
    public var vsyncCount: Int64 {
        grid.vsyncCount(before: instantDone ? now.nanoseconds + 1 : now.nanoseconds)
    }

    public func vsync(atOrAfter time: SimTime) -> SimTime {
        SimTime(nanoseconds: grid.first(atOrAfter: time.nanoseconds).time)
    }

    public func vsync(after time: SimTime) -> SimTime {
        SimTime(nanoseconds: grid.first(after: time.nanoseconds).time)
    }

    public func vsyncs(from: SimTime, to: SimTime) -> Int64 {
        guard to > from else { return 0 }
        return grid.count(before: to.nanoseconds) - grid.count(before: from.nanoseconds)
    }

    /// The run-loop mode in force at `time`, after that instant's mode changes (S4.2).
    func mode(at time: SimTime) -> RunLoopMode {
        var lo = 0
        var hi = modeHistory.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if modeHistory[mid].time <= time.nanoseconds { lo = mid } else { hi = mid - 1 }
        }
        return modeHistory[lo].mode
    }

    /// The end of the current main-thread item, or of the last one.
    public var busyUntil: SimTime { main.busyUntil }

    /// Busy time in the last whole second, or nil before one has passed (RL6).
    public func busyRatio() -> MetricNumber? {
        let second: Int64 = 1_000_000_000
        let k = now.nanoseconds / second
        guard k >= 1 else { return nil }
        let busy = busyTime.busy(from: (k - 1) * second, to: k * second)
        return MetricNumber(numerator: Int128(busy), denominator: Int128(second))
    }

    // MARK: - Animations and scrolls (A1, A2)

    public var isAnimating: Bool { animations.contains(now.nanoseconds) }

    public func animatingTime(from: SimTime) -> SimDuration {
        SimDuration(nanoseconds: animations.measure(from: from.nanoseconds, to: now.nanoseconds))
    }

    public func animate(for duration: SimDuration) {
        let end = now + duration
        animations.add(start: now.nanoseconds, end: end.nanoseconds)
        plainAnimations.add(start: now.nanoseconds, end: end.nanoseconds)
        ensureVsync()
    }

    public func beginAnimation() -> AnimationToken {
        let token = animations.begin(at: now.nanoseconds)
        plainTokens[token] = plainAnimations.begin(at: now.nanoseconds)
        ensureVsync()
        return AnimationToken(rawValue: token)
    }

    /// An animation over `[now, now + duration)` that ``endAnimation(_:)`` can end early: it then
    /// animates no longer than what else animates (A2, L1: a spin replaced, stopped or removed).
    public func beginAnimation(for duration: SimDuration) -> AnimationToken {
        let token = animations.begin(at: now.nanoseconds, until: (now + duration).nanoseconds)
        plainTokens[token] = plainAnimations.begin(at: now.nanoseconds, until: (now + duration).nanoseconds)
        ensureVsync()
        return AnimationToken(rawValue: token)
    }

    public func endAnimation(_ token: AnimationToken) {
        animations.end(token.rawValue, at: now.nanoseconds)
        if let plain = plainTokens.removeValue(forKey: token.rawValue) {
            plainAnimations.end(plain, at: now.nanoseconds)
        }
        requestsChanged()
    }

    /// `scroll d`: tracking mode over `[now, now + d)` (A1, mode changes at both ends, S4.2),
    /// and the app animates.
    public func scroll(for duration: SimDuration) {
        guard duration > .zero else { return }
        let end = now + duration
        scrolls.add(start: now.nanoseconds, end: end.nanoseconds)
        scheduleModeChange(at: now)
        scheduleModeChange(at: end)
        animate(for: duration)
    }

    // MARK: - The app's work

    /// `stall d [--ui]`: one main-queue block of that cost.
    public func stall(_ cost: SimDuration, dirtiesUI: Bool) {
        enqueue(MainBlock(kind: .plain(nil), cost: cost, dirtiesUI: dirtiesUI, label: "stall \(cost)", enqueuedAt: now))
    }

    public func enqueueMainBlock(cost: SimDuration, dirtiesUI: Bool, label: String, action: (() -> Void)?) {
        enqueue(
            MainBlock(
                kind: .plain(action), cost: cost, dirtiesUI: dirtiesUI, label: label, enqueuedAt: now,
                tool: running.tool))
    }

    public func markUIDirty() { uiDirty = true }

    /// Changes the refresh rate at the first vsync at or after now (S2) that is still to come: a
    /// vsync at now whose instant is done (after `step`) happened at the old rate.
    public func setRefreshRate(_ rate: RefreshRate) {
        grid.changeRate(to: rate.hertz, at: max(now.nanoseconds, lastProcessedVsync + 1))
        if nextVsync != nil {
            nextVsync = firstUnprocessedVsync()
        }
    }

    /// The refresh rate a pending change will set, if one is waiting for its vsync.
    public var pendingRate: (rate: RefreshRate, at: SimTime)? {
        guard let last = grid.segments.last, last.start > now.nanoseconds,
            let rate = try? RefreshRate(hertz: Int(last.rate))
        else { return nil }
        return (rate, SimTime(nanoseconds: last.start))
    }

    // MARK: - Scheduled commands (S4.1)

    /// Stops time after the instant being processed: the driver saw an interrupt while one of
    /// its scheduled actions ran, and time should not run on to the next poll.
    public func stopAfterThisInstant() { stopAfterInstant = true }

    /// Schedules `action` at `time`, after everything already scheduled for that time.
    public func schedule(at time: SimTime, _ action: @escaping () -> Void) {
        nextScheduleSeq += 1
        scheduled[nextScheduleSeq] = action
        queue.push(time: time.nanoseconds, key: EventKey.command(nextScheduleSeq))
    }

    // MARK: - Observers

    public func addObserver(_ observer: any DeviceObserver, kinds: ObservationKinds) -> ObserverToken {
        nextObserverToken += 1
        observers.append((nextObserverToken, kinds, observer))
        observerCalls.append(ObserverCall(observer, kinds: kinds, token: nextObserverToken, tool: running.tool))
        observedKinds.formUnion(kinds)
        if kinds.contains(.vsync) { ensureVsync() }
        return ObserverToken(rawValue: nextObserverToken)
    }

    public func changeObserver(_ token: ObserverToken, kinds: ObservationKinds) {
        guard let k = observers.firstIndex(where: { $0.token == token.rawValue }) else { return }
        observers[k].kinds = kinds
        let n = observerCalls.count
        for c in 0..<n where observerCalls[c].token == token.rawValue { observerCalls[c].kinds = kinds }
        observedKinds = observers.reduce(into: ObservationKinds()) { $0.formUnion($1.kinds) }
        if kinds.contains(.vsync) { ensureVsync() }
    }

    /// Lets go of everything that could hold tools or the session: observers, callbacks and
    /// scheduled commands. The session calls it when `reset` replaces the device, so no cycle
    /// through a tool (tool → device → observer → tool) keeps the old simulation alive.
    public func tearDown() {
        for observer in observers { removeObserver(ObserverToken(rawValue: observer.token)) }
        scheduled.removeAll()
        for i in timers.indices { timers[i].callback = nil }
        mainQueue.removeAll()
    }

    public func removeObserver(_ token: ObserverToken) {
        guard let k = observers.firstIndex(where: { $0.token == token.rawValue }) else { return }
        let removed = observers.remove(at: k)
        observedKinds = observers.reduce(into: ObservationKinds()) { $0.formUnion($1.kinds) }
        if notifying > 0 {
            // Mid-notification: the call list is being walked, so the entry only goes quiet, and
            // the observer (perhaps the one being called) stays alive until the walk is over.
            retiredObservers.append(removed.observer)
            let n = observerCalls.count
            for c in 0..<n where observerCalls[c].token == token.rawValue { observerCalls[c].kinds = [] }
        } else {
            observerCalls.removeAll { $0.token == token.rawValue }
        }
    }

    /// Whether an observer wants any of `kinds`.
    @inline(__always) func wants(_ kinds: ObservationKinds) -> Bool { !observedKinds.isDisjoint(with: kinds) }

    /// Calls the observers of any of `kinds` in the order they were added. One added during the
    /// notification is not called for it; one removed is not called after its removal.
    func notify(_ kinds: ObservationKinds, _ observation: DeviceObservation) {
        notifying += 1
        let outer = delivering
        let n = observerCalls.count
        var c = 0
        while c < n {
            let call = observerCalls[c]
            if !call.kinds.isDisjoint(with: kinds) {
                delivering = c
                deliver(call.type, call.object, observation)
            }
            c += 1
        }
        delivering = outer
        notifying -= 1
        if notifying == 0 && !retiredObservers.isEmpty {
            observerCalls.removeAll { $0.kinds.isEmpty }
            retiredObservers.removeAll()
        }
    }

    /// Calls an observer of a known type through its unretained reference: the observer is kept
    /// alive by `observers` or `retiredObservers` for as long as the call lasts.
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

/// An observer as the hot loop calls it: its object unretained and its dynamic type, so a call
/// needs no reference counting.
struct ObserverCall {
    var kinds: ObservationKinds
    let object: UnsafeRawPointer
    let type: any DeviceObserver.Type
    let token: Int
    /// The tool that added it (-1: debugsh's own, the trace), for a trap's last words.
    let tool: Int32

    init(_ observer: any DeviceObserver, kinds: ObservationKinds, token: Int, tool: Int32) {
        self.kinds = kinds
        object = UnsafeRawPointer(Unmanaged.passUnretained(observer as AnyObject).toOpaque())
        type = Swift.type(of: observer)
        self.token = token
        self.tool = tool
    }
}
