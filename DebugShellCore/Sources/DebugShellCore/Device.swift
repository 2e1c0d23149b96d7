/// A run-loop mode (RL1). `common` is the set {default, tracking}: an item added to it is
/// serviced in both. The run loop itself is only ever in `default` or `tracking`.
public enum RunLoopMode: String, Sendable, Hashable, CaseIterable {
    case `default`, tracking, common

    /// Whether an item added to `self` is serviced while the run loop runs `current`.
    @inlinable public func includes(_ current: RunLoopMode) -> Bool {
        self == .common || self == current
    }
}

/// Where a dispatch timer's handler runs (D5).
public enum DispatchQueueKind: String, Sendable, Hashable {
    /// Enqueued on the main queue, run by the main thread (RL3).
    case main
    /// Its own serial background queue: runs at its target time, costs no main-thread time.
    case background
}

/// A display link, run-loop timer or dispatch timer, numbered in creation order.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: TimerID, b: TimerID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// What kind of timer it is.
public enum TimerKind: String, Sendable, Hashable {
    case displayLink = "displaylink"
    case runLoopTimer = "nstimer"
    case dispatchTimer = "gcd"
}

/// Who made a timer: the simulated app (through the shell's commands) or a tool for itself.
public enum TimerOwner: Hashable, Sendable, CustomStringConvertible {
    /// The app's own timers: what the timer inspector lists by default.
    case app
    /// The app's UI display link that drives animations (A1).
    case system
    /// A tool's own link or timer (the FPS meter's link, the checker's link and poll timer).
    case tool(String)

    public var description: String {
        switch self {
        case .app: return "app"
        case .system: return "system"
        case .tool(let name): return name
        }
    }
}

/// The life of a timer (`timer.<name>.state`).
public enum TimerState: String, Sendable, Hashable, CaseIterable {
    case scheduled, paused, invalidated, done
}

/// Why a firing was late (K2), first match.
public enum LatenessCause: String, Sendable, Hashable {
    /// The timer's mode was not running at the scheduled time.
    case mode
    /// The main thread was busy.
    case busy
    /// Coalescing or tolerance moved it.
    case coalesced
    /// It was paused (suspended) when the grid point passed: a dispatch timer's resume delivers
    /// the targets it missed, late (D4).
    case paused
}

/// How a display link is set up (DL1–DL8).
public struct DisplayLinkConfig: Sendable {
    public var mode: RunLoopMode
    /// `preferredFramesPerSecond`; 0 means the refresh rate (DL3).
    public var preferredFramesPerSecond: Int
    /// Main-thread cost of each callback.
    public var cost: SimDuration
    /// Whether each callback dirties the UI (RL5).
    public var dirtiesUI: Bool
    public var owner: TimerOwner
    /// A name for listings and traces.
    public var label: String
    /// `preferredFrameRateRange` (V2): on an adaptive display the rate this link requests, and
    /// the cadence it fires at (V4). Nil: `preferredFramesPerSecond`, or the system default.
    public var frameRateRange: FrameRateRange?
    /// Whether the app set `preferredFramesPerSecond` (`--fps`), even to 0: on an adaptive display
    /// 0 set by the app asks for the display's native rate, where a link that sets nothing asks
    /// for the system default (V2).
    public var setsFramesPerSecond: Bool

    public init(
        mode: RunLoopMode = .common, preferredFramesPerSecond: Int = 0, cost: SimDuration = .zero,
        dirtiesUI: Bool = false, owner: TimerOwner, label: String, frameRateRange: FrameRateRange? = nil,
        setsFramesPerSecond: Bool = false
    ) {
        self.mode = mode
        self.setsFramesPerSecond = setsFramesPerSecond
        self.preferredFramesPerSecond = preferredFramesPerSecond
        self.cost = cost
        self.dirtiesUI = dirtiesUI
        self.owner = owner
        self.label = label
        self.frameRateRange = frameRateRange
    }
}

/// `CAFrameRateRange` (docs/Semantics.md V2): the rates a display link or an animation accepts, in whole hertz,
/// and the one it prefers (0: none — it asks for its minimum and accepts anything in range).
public struct FrameRateRange: Sendable, Hashable, CustomStringConvertible {
    public let minimum: Int
    public let maximum: Int
    public let preferred: Int

    public init(minimum: Int, maximum: Int, preferred: Int = 0) throws(RangeError) {
        for (name, value) in [("minimum", minimum), ("maximum", maximum)] where !RefreshRate.range.contains(value) {
            throw RangeError("frame rate range: \(name) \(value) Hz is outside 1…1000 Hz")
        }
        guard minimum <= maximum else {
            throw RangeError("frame rate range: minimum \(minimum) Hz is above maximum \(maximum) Hz")
        }
        guard preferred == 0 || (minimum...maximum).contains(preferred) else {
            throw RangeError(
                "frame rate range: preferred \(preferred) Hz is outside \(minimum)…\(maximum) Hz (0: no preference)")
        }
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    /// A range known to be valid, for the API's own fallbacks.
    init(valid minimum: Int, _ maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = 0
    }

    /// `min,max[,preferred]`, each whole hertz with or without `Hz` (`80,120,120`, `10Hz,120Hz`).
    public static func parse(_ text: String) throws(RangeError) -> FrameRateRange {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingPrefixAndSuffixSpaces()
        }
        guard parts.count == 2 || parts.count == 3 else {
            throw RangeError("'\(text)' is not a frame rate range: expected min,max[,preferred] in Hz, e.g. 80,120,120")
        }
        var values: [Int] = []
        for part in parts {
            var digits = Substring(part)
            if digits.lowercased().hasSuffix("hz") { digits = digits.dropLast(2) }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 7,
                let value = Int(digits)
            else {
                throw RangeError(
                    "'\(text)' is not a frame rate range: '\(part)' is not a whole number of hertz (min,max[,preferred], e.g. 80,120,120)"
                )
            }
            values.append(value)
        }
        return try FrameRateRange(minimum: values[0], maximum: values[1], preferred: values.count == 3 ? values[2] : 0)
    }

    /// `80,120,120` (or `10,120` without a preference): what ``parse(_:)`` reads.
    public var description: String {
        preferred == 0 ? "\(minimum),\(maximum)" : "\(minimum),\(maximum),\(preferred)"
    }
}

extension Substring {
    fileprivate func trimmingPrefixAndSuffixSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

/// The display's refresh now (V1): a fixed display's rate, or an adaptive display's current
/// rate `maximum / divisor` (a rate such as 120/7 is not whole hertz) and its range.
public struct DisplayRefresh: Sendable, Hashable, CustomStringConvertible {
    /// The grid's rate: a fixed display's rate, an adaptive display's maximum, in hertz.
    public var maximum: Int
    /// The display refreshes at every `divisor`-th vsync of that grid (1 on a fixed display).
    public var divisor: Int
    /// An adaptive display's lowest rate in hertz; nil for a fixed display.
    public var minimum: Int?

    public init(maximum: Int, divisor: Int = 1, minimum: Int? = nil) {
        self.maximum = maximum
        self.divisor = max(1, divisor)
        self.minimum = minimum
    }

    public var isAdaptive: Bool { minimum != nil }

    /// The rate in thousandths of a hertz, rounded half up (17143 for 120/7).
    public var millihertz: Int64 { (Int64(maximum) * 2000 + Int64(divisor)) / (2 * Int64(divisor)) }

    /// The rate as a metric number (exact to the thousandth).
    public var number: MetricNumber { MetricNumber(thousandths: millihertz) }

    /// `60 Hz`, `17.143 Hz`.
    public var rateText: String { "\(number) Hz" }

    /// `60 Hz` for a fixed display; `adaptive 10–120 Hz, now 60 Hz` for an adaptive one.
    public var description: String {
        guard let minimum else { return rateText }
        return "adaptive \(minimum)–\(maximum) Hz, now \(rateText)"
    }
}

/// How a run-loop timer (NSTimer) is set up (T1–T8).
public struct RunLoopTimerConfig: Sendable {
    public var interval: SimDuration
    public var repeats: Bool
    public var tolerance: SimDuration
    public var mode: RunLoopMode
    public var cost: SimDuration
    public var dirtiesUI: Bool
    public var owner: TimerOwner
    public var label: String

    public init(
        interval: SimDuration, repeats: Bool, tolerance: SimDuration = .zero, mode: RunLoopMode = .default,
        cost: SimDuration = .zero, dirtiesUI: Bool = false, owner: TimerOwner, label: String
    ) {
        self.interval = interval
        self.repeats = repeats
        self.tolerance = tolerance
        self.mode = mode
        self.cost = cost
        self.dirtiesUI = dirtiesUI
        self.owner = owner
        self.label = label
    }
}

/// How a GCD dispatch-source timer is set up (D1–D6).
public struct DispatchTimerConfig: Sendable {
    public var interval: SimDuration
    /// Delay of the first target from now (D1).
    public var start: SimDuration
    public var leeway: SimDuration
    public var queue: DispatchQueueKind
    public var cost: SimDuration
    /// A one-shot timer: done after its first handler.
    public var once: Bool
    /// Done after this many handler invocations (the count-down button), if set.
    public var handlerLimit: Int?
    public var dirtiesUI: Bool
    public var owner: TimerOwner
    public var label: String

    public init(
        interval: SimDuration, start: SimDuration? = nil, leeway: SimDuration = .zero,
        queue: DispatchQueueKind = .main, cost: SimDuration = .zero, once: Bool = false,
        handlerLimit: Int? = nil, dirtiesUI: Bool = false, owner: TimerOwner, label: String
    ) {
        self.interval = interval
        self.start = start ?? interval
        self.leeway = leeway
        self.queue = queue
        self.cost = cost
        self.once = once
        self.handlerLimit = handlerLimit
        self.dirtiesUI = dirtiesUI
        self.owner = owner
        self.label = label
    }
}

/// A callback or handler about to run: what a tool's callback receives.
public struct TimerCallback: Sendable {
    public var id: TimerID
    public var kind: TimerKind
    /// When the callback starts (now).
    public var start: SimTime
    /// The scheduled time of the oldest grid point it covers (K2): a link's timestamp, a
    /// timer's fire date, the oldest target in a dispatch timer's data.
    public var scheduled: SimTime
    /// A display link's `timestamp` (its slot's vsync, DL2).
    public var timestamp: SimTime
    /// A display link's `targetTimestamp`: the link's next grid vsync after `timestamp` (DL2).
    public var targetTimestamp: SimTime
    /// A display link's `duration`: the refresh period at `timestamp` (DL2); a timer's interval.
    public var duration: SimDuration
    /// A dispatch timer's `data`: the grid points this invocation covers (D3); 1 otherwise.
    public var data: Int64
    /// Which invocation this is, from 1.
    public var invocation: Int64

    public init(
        id: TimerID, kind: TimerKind, start: SimTime, scheduled: SimTime, timestamp: SimTime, targetTimestamp: SimTime,
        duration: SimDuration, data: Int64, invocation: Int64
    ) {
        self.id = id
        self.kind = kind
        self.start = start
        self.scheduled = scheduled
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
        self.data = data
        self.invocation = invocation
    }
}

/// A firing: a callback or handler that has started, with its lateness (K2).
///
/// The device publishes a firing when its callback or handler starts: its lateness and cause
/// are known then (K2), and `fires` counts it from then. Its `end` is when it will return (RL2:
/// nothing pre-empts an item); `skipped` is decided by that return (T4) and is not to be shown
/// before the callback has returned.
///
/// A plain value (no references), so publishing one costs no reference counting: the timer's
/// name and owner are in ``SimulatedDevice/timerInfo(_:)``.
public struct TimerFiring: Sendable {
    public var id: TimerID
    public var kind: TimerKind
    /// Which firing of the timer this is, from 1 (its `fires` once it started).
    public var number: Int64
    /// The oldest grid point it covers.
    public var scheduled: SimTime
    public var start: SimTime
    public var end: SimTime
    /// `start − scheduled`.
    public var lateness: SimDuration
    /// Why it was late, when it was (K2).
    public var cause: LatenessCause?
    /// A dispatch timer's data; 1 for others.
    public var data: Int64
    /// A run-loop timer's grid points that this firing skips (T4): those from its scheduled
    /// point to the first grid point after `end`. Decided when the callback returns, at `end`.
    /// 0 for display links (their dropped vsyncs count as they pass, DL7) and dispatch timers.
    public var skipped: Int64

    public init(
        id: TimerID, kind: TimerKind, number: Int64, scheduled: SimTime, start: SimTime, end: SimTime,
        lateness: SimDuration, cause: LatenessCause?, data: Int64, skipped: Int64
    ) {
        self.id = id
        self.kind = kind
        self.number = number
        self.scheduled = scheduled
        self.start = start
        self.end = end
        self.lateness = lateness
        self.cause = cause
        self.data = data
        self.skipped = skipped
    }
}

/// The display's refresh rate from a time on (S2): a change takes effect at a vsync.
public struct RefreshRateChange: Sendable, Hashable {
    /// When the rate took effect: a vsync, or the start of the span asked about.
    public var time: SimTime
    public var rate: RefreshRate

    public init(time: SimTime, rate: RefreshRate) {
        self.time = time
        self.rate = rate
    }
}

/// A snapshot of one timer, for the inspector's tables.
public struct TimerInfo: Sendable {
    public var id: TimerID
    public var kind: TimerKind
    public var owner: TimerOwner
    public var label: String
    public var state: TimerState
    /// A display link's or run-loop timer's mode.
    public var mode: RunLoopMode?
    /// A dispatch timer's queue.
    public var queue: DispatchQueueKind?
    /// The interval; a display link's is its grid step at the current rate.
    public var interval: SimDuration
    public var repeats: Bool
    /// A run-loop timer's tolerance or a dispatch timer's leeway (after clamping).
    public var slack: SimDuration
    public var cost: SimDuration
    public var dirtiesUI: Bool
    /// A display link's preferred frames per second (0 = the refresh rate).
    public var preferredFramesPerSecond: Int
    /// Callbacks or handlers that have started (K2: a firing counts from its start).
    public var fires: Int64
    /// Grid points or vsyncs passed without a callback (T4, T8, DL7), as decided at now: a
    /// run-loop timer's skips count once the callback that decides them has returned.
    public var skipped: Int64
    /// The largest lateness of a firing that has started (K2).
    public var maxLateness: SimDuration
    public var lastData: Int64
    public var totalData: Int64
    /// The next scheduled firing: fire date, target, or the link's next grid vsync. Nil while a
    /// run-loop timer's callback runs: its next fire date is decided when the callback returns
    /// (T4).
    public var nextFire: SimTime?
    /// Whether its callback or handler has started and not yet returned at now.
    public var inCallback: Bool
    /// A display link's `preferredFrameRateRange` (V2), if it set one.
    public var frameRateRange: FrameRateRange?
    /// Whether a display link's app set `preferredFramesPerSecond`, even to 0 (V2: the native rate).
    public var setsFramesPerSecond: Bool

    public init(
        id: TimerID, kind: TimerKind, owner: TimerOwner, label: String, state: TimerState, mode: RunLoopMode?,
        queue: DispatchQueueKind?, interval: SimDuration, repeats: Bool, slack: SimDuration, cost: SimDuration,
        dirtiesUI: Bool, preferredFramesPerSecond: Int, fires: Int64, skipped: Int64, maxLateness: SimDuration,
        lastData: Int64, totalData: Int64, nextFire: SimTime?, inCallback: Bool = false,
        frameRateRange: FrameRateRange? = nil, setsFramesPerSecond: Bool = false
    ) {
        self.setsFramesPerSecond = setsFramesPerSecond
        self.id = id
        self.kind = kind
        self.owner = owner
        self.label = label
        self.state = state
        self.mode = mode
        self.queue = queue
        self.interval = interval
        self.repeats = repeats
        self.slack = slack
        self.cost = cost
        self.dirtiesUI = dirtiesUI
        self.preferredFramesPerSecond = preferredFramesPerSecond
        self.fires = fires
        self.skipped = skipped
        self.maxLateness = maxLateness
        self.lastData = lastData
        self.totalData = totalData
        self.nextFire = nextFire
        self.inCallback = inCallback
        self.frameRateRange = frameRateRange
    }
}

/// A piece of main-thread work that ran (for traces and busy accounting).
public struct MainThreadItem: Sendable {
    public enum Kind: String, Sendable {
        case block, commit, timer, displayLink = "displaylink", dispatchHandler = "dispatch"
    }
    public var kind: Kind
    public var label: String
    public var start: SimTime
    public var end: SimTime
    /// The run-loop iteration it belongs to (RL4), numbered from 1: the items of one wake-up —
    /// a commit and the batch after it, or a drain — share it.
    public var iteration: Int64

    public init(kind: Kind, label: String, start: SimTime, end: SimTime, iteration: Int64 = 0) {
        self.kind = kind
        self.label = label
        self.start = start
        self.end = end
        self.iteration = iteration
    }
}

/// Everything the device lets observers see, as it happens.
///
/// The stream is general enough for a trace exporter: every main-thread item, every render,
/// present, vsync, mode change, timer firing and animation tick.
public enum DeviceObservation: Sendable {
    case vsync(time: SimTime, index: Int64)
    case modeChanged(time: SimTime, mode: RunLoopMode)
    case timerFired(TimerFiring)
    case mainItem(MainThreadItem)
    case commit(frame: Int64, start: SimTime, end: SimTime, newestTick: SimTime?)
    case renderStarted(frame: Int64, start: SimTime, end: SimTime)
    /// A frame reached the display. Boxed: every observation is as large as its largest case,
    /// and the others (a timer's firing) are the hot ones.
    case presented(PresentInfo)
    /// An animation tick of the app's UI link (A1): its slot's vsync and when it ran.
    case animationTick(timestamp: SimTime, start: SimTime)
}

/// Which observations an observer wants; the device builds none that nobody asked for.
@frozen public struct ObservationKinds: OptionSet, Sendable, Hashable {
    public var rawValue: UInt32
    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Every vsync. Costs a little per vsync even when nothing else listens: ask only if needed.
    @inlinable public static var vsync: ObservationKinds { ObservationKinds(rawValue: 1 << 0) }
    @inlinable public static var modeChange: ObservationKinds { ObservationKinds(rawValue: 1 << 1) }
    @inlinable public static var timerFired: ObservationKinds { ObservationKinds(rawValue: 1 << 2) }
    @inlinable public static var mainItem: ObservationKinds { ObservationKinds(rawValue: 1 << 3) }
    @inlinable public static var commit: ObservationKinds { ObservationKinds(rawValue: 1 << 4) }
    @inlinable public static var render: ObservationKinds { ObservationKinds(rawValue: 1 << 5) }
    @inlinable public static var present: ObservationKinds { ObservationKinds(rawValue: 1 << 6) }
    @inlinable public static var animationTick: ObservationKinds { ObservationKinds(rawValue: 1 << 7) }
    /// Only the firings that are not plain on-grid ones: run-loop and dispatch timers' firings
    /// that are late, skip grid points (T4) or cover more than one (D3), and every display-link
    /// firing. An observer that keeps history can hold the plain ones as counts: the n-th
    /// on-grid firing after a known one is at a known grid point. Published as `.timerFired`.
    @inlinable public static var timerFiredOffGrid: ObservationKinds { ObservationKinds(rawValue: 1 << 8) }
    /// Only the vsyncs the device processes for its own sake — a display link's slot, an
    /// animation tick, a frame in the render pipeline — published as `.vsync`. Unlike
    /// ``vsync``, asking for them keeps idle time free: an idle stretch has none.
    @inlinable public static var activeVsync: ObservationKinds { ObservationKinds(rawValue: 1 << 9) }
    @inlinable public static var all: ObservationKinds { ObservationKinds(rawValue: 0x3FF) }
}

/// Something that watches the device.
public protocol DeviceObserver: AnyObject {
    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation)
}

/// A handle on a registered observer.
public struct ObserverToken: Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// A handle on an animation that can be ended (`view spin`, a `view animate` until its last tick).
public struct AnimationToken: Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// A display link's callback: returns extra main-thread cost beyond the link's fixed cost.
public typealias TimerCallbackHandler = (TimerCallback) -> SimDuration

/// The read-and-schedule view of the simulated device that tools get.
///
/// Tools read time and state, add and control links and timers, enqueue main-queue work, mark
/// the UI dirty and observe what happens. They never advance time: only the shell's time
/// commands do (S3).
public protocol SimulatedDevice: AnyObject {
    /// Now (S1).
    var now: SimTime { get }
    var refreshRate: RefreshRate { get }
    /// The refresh period in force now: one second over ``refreshRate``, rounded to the nearest
    /// nanosecond (16.666667ms at 60 Hz, 8.333333ms at 120 Hz) — a display link's `duration`
    /// (DL2). A rate change still waiting for its vsync is not in force yet (S2). The grid is
    /// not built by adding it: vsync k is at `anchor + floor(k · 1e9 / R)`, so vsyncs are this far
    /// apart to within a nanosecond, without drift.
    var framePeriod: SimDuration { get }
    /// The refresh rates in force over `[from, to)` (S2), in time order: the first is the rate at
    /// `from` (its `time` is `from`), each next one a change that took effect at its vsync before
    /// `to`. Never empty; one element when the rate did not change. A change still waiting for its
    /// vsync is not in force before that vsync. What a chart's budget lines follow.
    func refreshRates(from: SimTime, to: SimTime) -> [RefreshRateChange]
    /// The run loop's current mode: `default` or `tracking` (RL1).
    var mode: RunLoopMode { get }
    /// Vsyncs that have happened since the start.
    var vsyncCount: Int64 { get }
    /// The first vsync at or after `time` (S2), on the grid in force at that time.
    func vsync(atOrAfter time: SimTime) -> SimTime
    /// The first vsync strictly after `time`.
    func vsync(after time: SimTime) -> SimTime
    /// The number of vsyncs in `[from, to)`.
    func vsyncs(from: SimTime, to: SimTime) -> Int64

    /// Whether the app is animating now (A2).
    var isAnimating: Bool { get }
    /// Animating time within `[from, now)` (A2).
    func animatingTime(from: SimTime) -> SimDuration
    /// The app animates from now for `duration` (A1): ticks at every vsync in `[now, now + d)`.
    func animate(for duration: SimDuration)
    /// An animation that lasts until ``endAnimation(_:)`` (`view spin`, `view animate`).
    func beginAnimation() -> AnimationToken
    /// An animation over `[now, now + duration)`, as ``animate(for:)``, that ``endAnimation(_:)``
    /// can end early (`view spin --for` replaced, stopped or removed): from then on only what
    /// else animates keeps the app's UI link ticking (A1, A2).
    func beginAnimation(for duration: SimDuration) -> AnimationToken
    /// Ends an animation now: one of ``beginAnimation()``, or one of
    /// ``beginAnimation(for:)`` before its end (after its end, nothing changes).
    func endAnimation(_ token: AnimationToken)

    /// Run-loop and dispatch wake-ups that fired timers (T5, D2); with `appOnly`, those that
    /// fired at least one app timer.
    func timerWakeups(appOnly: Bool) -> Int64

    /// Adds a display link; its first slot is its first grid vsync at or after now (DL5).
    func addDisplayLink(_ config: DisplayLinkConfig, callback: TimerCallbackHandler?) -> TimerID
    /// Schedules a run-loop timer (T1): first fire date now + interval.
    func addRunLoopTimer(_ config: RunLoopTimerConfig, callback: TimerCallbackHandler?) -> TimerID
    /// Schedules a dispatch-source timer (D1): first target now + start.
    func addDispatchTimer(_ config: DispatchTimerConfig, callback: TimerCallbackHandler?) -> TimerID
    /// Pauses a timer or link (T8, D4, DL4).
    func pause(_ id: TimerID)
    /// Resumes it (T8, D4, DL4).
    func resume(_ id: TimerID)
    /// Invalidates it (DL6); no callback follows.
    func invalidate(_ id: TimerID)
    func timerInfo(_ id: TimerID) -> TimerInfo?
    /// Every timer, link and dispatch timer ever added, in creation order.
    func allTimers() -> [TimerInfo]

    /// Enqueues a block on the main queue (RL3); `action` runs when it starts.
    func enqueueMainBlock(cost: SimDuration, dirtiesUI: Bool, label: String, action: (() -> Void)?)
    /// Marks the UI dirty, so a commit follows (RL5).
    func markUIDirty()

    /// The app's costs (`load`): main-thread work per animation tick, per commit, GPU per frame.
    var frameCost: SimDuration { get }
    var commitCost: SimDuration { get }
    var gpuCost: SimDuration { get }
    /// What a frame's stages cost now (R6).
    var framePhases: FramePhases { get }
    /// The buffers the render server uses (R7): 2 or 3.
    var bufferCount: Int { get }
    /// Marks the UI dirty with changes that cost the next commit more (a view's layout, R6).
    func markUIDirty(extra: FramePhases)
    /// The id of the last frame whose commit started (0 before the first): a tool that charges a
    /// cost once per commit compares it with the one it charged at.
    var lastFrameID: Int64 { get }
    /// Why an app's link asking for `request` Hz runs at 60 Hz on this adaptive display, if it
    /// does (V2): Low Power Mode, or the missing Info.plist key.
    func rateCap(request: Int) -> RateCap?
    /// The device: an iPhone (the default) or an iPad, whose rules differ where Apple documents
    /// them (V12).
    var deviceKind: DeviceKind { get }

    func addObserver(_ observer: any DeviceObserver, kinds: ObservationKinds) -> ObserverToken
    /// Changes what an observer is told of, keeping its turn among the observers.
    func changeObserver(_ token: ObserverToken, kinds: ObservationKinds)
    func removeObserver(_ token: ObserverToken)

    /// The display's refresh now: fixed, or adaptive with its current rate and range (V1).
    var displayRefresh: DisplayRefresh { get }
    /// The display's refreshes over `[from, to)`, exact where a rate is not whole hertz (V1).
    func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)]
}

extension SimulatedDevice {
    /// A device without phases: `load frame`, `load commit` and `load gpu` alone.
    public var framePhases: FramePhases { FramePhases(update: frameCost, commit: commitCost, gpu: gpuCost) }
    /// A device without a third buffer.
    public var bufferCount: Int { 2 }
    /// A device without phases marks the UI dirty.
    public func markUIDirty(extra: FramePhases) { markUIDirty() }
    /// A device that does not number its frames.
    public var lastFrameID: Int64 { 0 }
    /// A device without an adaptive display caps nothing.
    public func rateCap(request: Int) -> RateCap? { nil }

    /// The display's refresh now (V1): on a fixed display, ``refreshRate`` with divisor 1. The
    /// engine answers for an adaptive display; a device that has none need not implement it.
    public var displayRefresh: DisplayRefresh { DisplayRefresh(maximum: refreshRate.hertz) }

    /// The display's refreshes over `[from, to)` (V1), as ``refreshRates(from:to:)`` but exact for
    /// rates that are not whole hertz; one element while it did not change.
    public func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)] {
        refreshRates(from: from, to: to).map { ($0.time, DisplayRefresh(maximum: $0.rate.hertz)) }
    }
}

/// The simulated device (`device iphone|ipad`, V12): an iPhone caps an app's requests at the
/// system default without CADisableMinimumFrameDurationOnPhone, and its ProMotion display runs
/// 10–120 Hz; an iPad has no such cap, and its display runs 24–120 Hz.
public enum DeviceKind: String, CommandLineChoice {
    case iphone
    case ipad

    /// `iPhone`, `iPad`.
    public var name: String { self == .iphone ? "iPhone" : "iPad" }
    /// The lowest rate of its ProMotion display (V1, V12), what `display adaptive` takes without
    /// `--min`.
    public var promotionMinimum: Int { self == .iphone ? 10 : 24 }
}

extension SimulatedDevice {
    public var deviceKind: DeviceKind { .iphone }
}

/// What keeps an app's display link at 60 Hz on an adaptive display (V2), and its fix.
public enum RateCap: Sendable, Equatable {
    /// Low Power Mode caps every request at 60 Hz.
    case lowPower
    /// An iPhone app without CADisableMinimumFrameDurationOnPhone is capped at 60 Hz.
    case noHighFrameRates

    /// Why, in a clause: `Low Power Mode caps every link at 60 Hz`.
    public var reason: String {
        switch self {
        case .lowPower: return "Low Power Mode caps every link at 60 Hz"
        case .noHighFrameRates:
            return
                "without CADisableMinimumFrameDurationOnPhone in its Info.plist an iPhone app's link is capped at 60 Hz"
        }
    }

    /// The command that lifts it.
    public var fix: String {
        switch self {
        case .lowPower: return "set system.low_power off"
        case .noHighFrameRates: return "set app.high_frame_rates on"
        }
    }
}
