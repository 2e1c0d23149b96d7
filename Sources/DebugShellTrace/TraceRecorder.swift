import DebugShellCore

/// What a trace records: each category a set of tracks (`trace start --categories …`).
public struct TraceCategories: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Vsyncs, presents, idle stretches and hitches.
    public static let display = TraceCategories(rawValue: 1 << 0)
    /// The main thread's items and run-loop iterations.
    public static let main = TraceCategories(rawValue: 1 << 1)
    /// The render server's renders.
    public static let render = TraceCategories(rawValue: 1 << 2)
    /// Background queues' dispatch handlers.
    public static let queues = TraceCategories(rawValue: 1 << 3)
    /// Run-loop mode spans.
    public static let modes = TraceCategories(rawValue: 1 << 4)
    /// Counters: presented FPS, main-thread busy, tools' own.
    public static let counters = TraceCategories(rawValue: 1 << 5)
    /// Tools' events and slices.
    public static let tools = TraceCategories(rawValue: 1 << 6)

    public static let all: TraceCategories = [.display, .main, .render, .queues, .modes, .counters, .tools]

    /// The categories by name, in the order help lists them.
    public static let names: [(String, TraceCategories)] = [
        ("display", .display), ("main", .main), ("render", .render), ("queues", .queues), ("modes", .modes),
        ("counters", .counters), ("tools", .tools),
    ]

    /// The names of the categories in this set, in the order help lists them.
    public var words: [String] { TraceCategories.names.filter { contains($0.1) }.map(\.0) }

    /// Parses `display,main`: the categories named, comma-separated.
    ///
    /// - Throws: an unknown name, with the list and a did-you-mean.
    public static func parse(_ text: String) throws(CommandError) -> TraceCategories {
        var chosen = TraceCategories()
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let found = names.first(where: { $0.0 == word }) else {
                var message = "unknown trace category '\(word)' (categories: "
                message += names.map(\.0).joined(separator: ", ") + ")"
                if let guess = NameSuggestion.closest(to: word, in: names.map(\.0)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw CommandError(message)
            }
            chosen.insert(found.1)
        }
        return chosen
    }
}

/// Which events a full trace keeps (`trace start --keep …`), as Perfetto's buffer modes do.
public enum TraceKeep: String, Sendable, CaseIterable, CommandLineChoice {
    /// The first events up to the limit; then recording stops, and costs nothing more (Perfetto's
    /// DISCARD mode). The default: a script's trace keeps its beginning, whatever follows.
    case first
    /// The newest events: beyond the limit the oldest are dropped (Perfetto's RING_BUFFER mode).
    /// Every event is recorded, so a long run costs its whole length.
    case last
}

/// One event of a trace, packed: a slice `[start, end)`, an instant (`start == end`) or a
/// counter value, on a track, with a name and a few numbers whose meaning its kind gives.
/// Times are the trace's, which go on across a `reset`. Variable arguments (a tool's, a merged
/// group's) live beside the ring, by sequence number.
struct TraceRecord {
    enum Kind: UInt8 {
        /// A main-thread item; primary: its `MainThreadItem.Kind` index, secondary: its iteration.
        case mainItem
        /// A main-thread item that is a timer's callback or handler: primary its scheduled time,
        /// secondary its data, reference the timer, code the item's kind index × 256 + the cause
        /// of its lateness (0 none).
        case timerItem
        /// Zero-cost main-thread items of one instant, as one slice of no length (several slices
        /// of no length at one instant would nest in one another); reference: how many, the
        /// names beside the ring.
        case mergedItems
        /// A run-loop iteration enclosing its items; primary: its number.
        case iteration
        /// A background dispatch handler on its queue's track; primary: scheduled, secondary:
        /// data, reference: the timer, code: cause.
        case queueHandler
        /// A render; primary: the frame.
        case render
        /// A vsync the device processed (instant); primary: its index.
        case vsync
        /// A vsync at which a frame was presented (instant); primary: the vsync's index,
        /// secondary: the expected present, reference: the frame, code: the frames merged into it.
        case present
        /// Vsyncs nothing needed, as one span; primary: how many.
        case idle
        /// A hitch `[present − hitch, present)`; primary: the frame, secondary: expected present,
        /// reference: cause (1 commit, 2 render, 3 both).
        case hitch
        /// A run-loop mode span; primary: 0 default, 1 tracking.
        case mode
        /// A counter's value from `start` on; primary: the value in thousandths.
        case counter
        /// A tool's event (instant) or slice, arguments beside the ring.
        case toolEvent, toolSlice
        /// A `reset` (instant): a new simulation starts here; primary: its number, from 2.
        case reset
    }

    var start: Int64
    var end: Int64
    /// The kind's main number: a frame, an index, an iteration, a scheduled time, a counter's
    /// thousandths, a count.
    var primary: Int64
    /// Its second number: an expected present, a dispatch timer's data, an item's iteration.
    var secondary: Int64
    /// The interned name.
    var name: Int32
    var track: Int32
    /// What it refers to: a timer's id, a count of merged frames or items, a hitch's cause.
    var reference: Int32
    /// A small code: a lateness cause, with an item's kind in the high byte.
    var code: Int16
    var kind: Kind
}

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
        return open
    }
}

/// Everything a trace has recorded, and the state of what it is gathering: one value, so that an
/// observation changes it in one access.
struct TraceTimeline {
    let categories: TraceCategories
    let limit: Int
    let keep: TraceKeep
    /// Events recorded in all, kept or dropped.
    private(set) var recorded: Int64 = 0
    /// Set once the limit is reached.
    private(set) var limitReached = false
    /// A full trace that keeps its first events records nothing more.
    private(set) var stoppedFull = false
    /// When a trace that keeps its first events filled, in the trace's time.
    private(set) var fullAt: Int64?
    /// Closing what is open as a full trace stops: those few records may pass the limit.
    private var finishing = false

    private var ring: [TraceRecord] = []
    private var head = 0
    /// Arguments by record sequence number: tools' events and slices, merged items.
    private var extras: [Int64: [(String, JSONValue)]] = [:]
    /// Interned names.
    private(set) var names: [String] = []
    private var nameIndex: [String: Int32] = [:]
    /// Tracks used, with their names (for the trace's metadata).
    private(set) var trackNames: [Int32: String] = [:]

    // Per simulation.

    /// The trace's time at the current simulation's t = 0: the simulations before it, one after
    /// another.
    private(set) var offset: Int64 = 0
    /// Simulations so far (a `reset` starts another).
    private(set) var simulations = 0
    /// Where the simulation began being recorded, in its own time.
    private var simulationStart: Int64 = 0
    /// The start of the kept window, in the trace's time: where the trace began, or the end of
    /// the last event a full ring dropped.
    private(set) var windowStart: Int64 = 0
    /// Interned timer labels by timer id in this simulation, -1 unknown.
    private var timerNames: [Int32] = []
    /// Tools' slices that have not ended (handed with an end at or past the horizon), in the
    /// simulation's time: written, ending where recording ends, by ``closeOpenSpans(at:device:)``.
    private var unfinishedToolSlices: [(track: Int32, name: Int32, start: Int64, args: [(String, JSONValue)])] = []
    /// Each dispatch timer's background queue track, by timer id in this simulation: 0 not known
    /// yet, -1 not a background queue. A timer's queue never changes: the device is asked once.
    private var queueTracks: [Int32] = []
    /// Background queue tracks handed out in all: tracks of different simulations differ.
    private var queuesNamed: Int32 = 0
    /// The iteration being gathered, in the simulation's time, and its items, held until it ends so
    /// that it is written before them: a viewer nests a slice in the one written before it when
    /// both start together.
    private var iteration: (number: Int64, start: Int64, end: Int64)?
    private var iterationItems: [TraceRecord] = []
    /// The last slice of no length on the main thread, by sequence number, and its time: another
    /// at the same instant joins it.
    private var lastZeroLength: (sequence: Int64, time: Int64)?
    /// The start of the current mode's span, and the mode.
    private var modeSince: (time: Int64, mode: RunLoopMode) = (0, .default)
    /// The last vsync the device processed, in the simulation's time.
    private var lastVsync: Int64?
    /// The last present, by sequence number, and its time: its vsync comes next.
    private var lastPresent: (sequence: Int64, time: Int64)?
    /// The whole second being measured for the counters, and what was measured in it so far.
    private var second: Int64 = 0
    private var presentsInSecond: Int64 = 0
    /// Main-thread items whose seconds are not all counted yet, for the busy counter.
    private var busyItems: [(start: Int64, end: Int64)] = []
    private var busyHead = 0
    /// The last value written of each counter, to write only changes.
    private var lastBusy: Int64 = -1
    private var lastPresented: Int64 = -1
    /// The display rate last written (V6), in thousandths of a hertz; -1 before the display was
    /// first seen adaptive: a fixed display's trace has no rate counter.
    private var lastDisplayRate: Int64 = -1

    // Tracks. The main thread's id is the process's, as Perfetto expects of a process's main
    // thread.
    static let pid: Int64 = 1
    static let mainTrack: Int32 = 1
    static let renderTrack: Int32 = 2
    static let displayTrack: Int32 = 3
    static let hitchTrack: Int32 = 4
    static let modeTrack: Int32 = 5
    static let toolEventTrack: Int32 = 6
    /// Tools' own tracks: this plus the tool's index.
    static let toolTrackBase: Int32 = 100
    /// Background queues: this plus the order in which their first handler ran.
    static let queueTrackBase: Int32 = 1000

    static let trackTitles = ["", "Main thread", "Render server", "Display", "Hitches", "Run loop mode", "Tool events"]

    /// Names every trace has, interned first, so the hot path never hashes them.
    enum Fixed: Int32, CaseIterable {
        case iteration, defaultMode, trackingMode, vsync, render, present, hitch, commitHitch, renderHitch, bothHitch
        case presentedFPS, mainBusy, commit, idle, reset

        var text: String {
            switch self {
            case .iteration: return "run loop iteration"
            case .defaultMode: return RunLoopMode.default.rawValue
            case .trackingMode: return RunLoopMode.tracking.rawValue
            case .vsync: return "vsync"
            case .render: return "render"
            case .present: return "present"
            case .hitch: return "hitch"
            case .commitHitch: return "commit hitch"
            case .renderHitch: return "render hitch"
            case .bothHitch: return "commit+render hitch"
            case .presentedFPS: return "Presented FPS"
            case .mainBusy: return "Main thread busy"
            case .commit: return "commit"
            case .idle: return "idle"
            case .reset: return "reset"
            }
        }
    }

    static let itemKinds: [MainThreadItem.Kind] = [.block, .commit, .timer, .displayLink, .dispatchHandler]
    static let causes: [LatenessCause] = [.mode, .busy, .coalesced, .paused]

    init(categories: TraceCategories, limit: Int, keep: TraceKeep) {
        self.categories = categories
        self.limit = limit
        self.keep = keep
        ring.reserveCapacity(min(limit, 1 << 16))
        for name in Fixed.allCases { _ = intern(name.text) }
        // The process's main thread is named in every trace, so that its id always marks it.
        name(track: TraceTimeline.mainTrack)
    }

    /// What the device is asked to tell, for the categories recorded.
    var observationKinds: ObservationKinds {
        var kinds: ObservationKinds = []
        if categories.contains(.display) { kinds.formUnion([.activeVsync, .present]) }
        if categories.contains(.main) { kinds.formUnion([.mainItem, .timerFired]) }
        if categories.contains(.queues) { kinds.formUnion(.timerFired) }
        if categories.contains(.render) { kinds.formUnion(.render) }
        if categories.contains(.modes) { kinds.formUnion(.modeChange) }
        if categories.contains(.counters) { kinds.formUnion([.present, .mainItem]) }
        return kinds
    }

    // MARK: Simulations

    /// A simulation starts being recorded at `now` (its own time), in `mode`: the first, or a
    /// fresh one after a `reset`, which goes on from where the previous one stopped.
    mutating func beginSimulation(at now: Int64, mode: RunLoopMode) {
        simulations += 1
        simulationStart = now
        if simulations == 1 {
            windowStart = now
        } else {
            record(.reset, track: 0, name: Fixed.reset.rawValue, start: now, end: now, primary: Int64(simulations))
        }
        modeSince = (now, mode)
        lastVsync = nil
        second = now / 1_000_000_000
        presentsInSecond = 0
        busyItems = []
        busyHead = 0
        lastBusy = -1
        lastPresented = -1
        lastDisplayRate = -1
        timerNames = []
        queueTracks = []
        lastZeroLength = nil
        lastPresent = nil
        // Tracks the open spans of a save need, named before it writes its metadata.
        if categories.contains(.main) { name(track: TraceTimeline.mainTrack) }
        if categories.contains(.modes) { name(track: TraceTimeline.modeTrack) }
    }

    /// The simulation stops being recorded at `now` (its own time): what is open is written as
    /// it stands (``closeOpenSpans(at:device:)``), and the next simulation starts at the trace's
    /// time this one reached.
    mutating func endSimulation(at now: Int64, device: any SimulatedDevice) {
        guard simulations > 0 else { return }
        closeOpenSpans(at: now, device: device)
        offset += now
    }

    /// Writes what is open at `now` as it stands — the iteration and its items, the mode span, the
    /// idle stretch, the counters' second — when recording ends (a reset, `trace stop`, a full
    /// trace) or a save reads it.
    mutating func closeOpenSpans(at now: Int64, device: any SimulatedDevice) {
        guard simulations > 0 else { return }
        finishing = stoppedFull
        defer { finishing = false }
        closeIteration()
        for slice in unfinishedToolSlices {
            record(
                .toolSlice, track: slice.track, name: slice.name, start: slice.start, end: max(slice.start, now),
                extra: slice.args + [("unfinished", .bool(true))])
        }
        unfinishedToolSlices.removeAll()
        if categories.contains(.modes), now > modeSince.time {
            record(
                .mode, track: TraceTimeline.modeTrack, name: modeName(modeSince.mode), start: modeSince.time, end: now,
                primary: modeSince.mode == .tracking ? 1 : 0)
            modeSince = (now, modeSince.mode)
        }
        if categories.contains(.display) { idle(before: now, device: device, endingAt: now) }
        if categories.contains(.counters) { countSeconds(upTo: now, partial: true) }
    }

    // MARK: Recording

    /// Keeps a record; false when a full trace keeps no more.
    @inline(__always) @discardableResult
    private mutating func append(_ record: TraceRecord, extra: [(String, JSONValue)]? = nil) -> Bool {
        guard !stoppedFull || finishing else { return false }
        let sequence = recorded
        if ring.count < limit || finishing {
            ring.append(record)
        } else if keep == .first {
            limitReached = true
            stoppedFull = true
            fullAt = record.start
            return false
        } else {
            limitReached = true
            let old = ring[head]
            extras.removeValue(forKey: sequence - Int64(limit))
            windowStart = max(windowStart, old.end)
            ring[head] = record
            head = head + 1 == limit ? 0 : head + 1
        }
        recorded += 1
        if let extra { extras[sequence] = extra }
        return true
    }

    /// The interned index of a name.
    @inline(__always)
    mutating func intern(_ text: String) -> Int32 {
        if let index = nameIndex[text] { return index }
        let index = Int32(names.count)
        names.append(text)
        nameIndex[text] = index
        return index
    }

    /// Names one of the fixed tracks, once.
    @inline(__always)
    private mutating func name(track: Int32) {
        if trackNames[track] == nil { trackNames[track] = TraceTimeline.trackTitles[Int(track)] }
    }

    /// The interned name of a timer's label, by its id: one hash per timer, not per firing.
    @inline(__always)
    private mutating func timerName(_ id: TimerID, device: any SimulatedDevice) -> Int32 {
        let i = id.rawValue
        if i < timerNames.count, timerNames[i] >= 0 { return timerNames[i] }
        if i >= timerNames.count { timerNames += Array(repeating: -1, count: i + 1 - timerNames.count) }
        let index = intern(label(id, device: device))
        timerNames[i] = index
        return index
    }

    /// A timer's label, from the device's public timer info.
    private func label(_ id: TimerID, device: any SimulatedDevice) -> String {
        device.timerInfo(id)?.label ?? "timer \(id.rawValue)"
    }

    /// Records an event whose times are the simulation's: the trace's are offset by the
    /// simulations before it. False when a full trace keeps no more.
    @discardableResult
    private mutating func record(
        _ kind: TraceRecord.Kind, track: Int32, name: Int32, start: Int64, end: Int64, primary: Int64 = 0,
        secondary: Int64 = 0, reference: Int32 = 0, code: Int16 = 0, extra: [(String, JSONValue)]? = nil
    ) -> Bool {
        append(
            TraceRecord(
                start: start + offset, end: end + offset, primary: primary, secondary: secondary, name: name,
                track: track, reference: reference, code: code, kind: kind),
            extra: extra)
    }

    mutating func observe(_ observation: DeviceObservation, device: any SimulatedDevice) {
        switch observation {
        case .vsync(let time, let index):
            vsync(at: time.nanoseconds, index: index, device: device)
        case .mainItem(let item):
            mainItem(item)
        case .timerFired(let firing):
            timerFired(firing, device: device)
        case .renderStarted(let frame, let start, let end):
            name(track: TraceTimeline.renderTrack)
            record(
                .render, track: TraceTimeline.renderTrack, name: Fixed.render.rawValue, start: start.nanoseconds,
                end: end.nanoseconds, primary: frame)
        case .presented(let info):
            presented(info, device: device)
        case .modeChanged(let time, let mode):
            let t = time.nanoseconds
            if t > modeSince.time {
                name(track: TraceTimeline.modeTrack)
                record(
                    .mode, track: TraceTimeline.modeTrack, name: modeName(modeSince.mode), start: modeSince.time,
                    end: t, primary: modeSince.mode == .tracking ? 1 : 0)
            }
            modeSince = (t, mode)
        case .commit, .animationTick:
            break
        }
    }

    // MARK: The display

    /// A vsync the device processed: the idle stretch before it, if any, then the vsync.
    private mutating func vsync(at t: Int64, index: Int64, device: any SimulatedDevice) {
        if categories.contains(.counters) {
            countSeconds(upTo: t, partial: false)
            displayRate(at: t, device: device)
        }
        guard categories.contains(.display) else { return }
        idle(before: t, device: device, endingAt: t)
        lastVsync = t
        if let present = lastPresent, present.time == t, let i = ringIndex(of: present.sequence) {
            ring[i].primary = index
            return
        }
        name(track: TraceTimeline.displayTrack)
        record(.vsync, track: TraceTimeline.displayTrack, name: Fixed.vsync.rawValue, start: t, end: t, primary: index)
    }

    /// The vsyncs nothing needed since the last processed one (or since the simulation began
    /// being recorded), up to `t`, as one span with their count.
    private mutating func idle(before t: Int64, device: any SimulatedDevice, endingAt end: Int64) {
        let from: SimTime =
            lastVsync.map { device.vsync(after: SimTime(nanoseconds: $0)) }
            ?? device.vsync(atOrAfter: SimTime(nanoseconds: simulationStart))
        guard from.nanoseconds < t else { return }
        let count = device.vsyncs(from: from, to: SimTime(nanoseconds: t))
        guard count > 0 else { return }
        name(track: TraceTimeline.displayTrack)
        record(
            .idle, track: TraceTimeline.displayTrack, name: Fixed.idle.rawValue, start: from.nanoseconds, end: end,
            primary: count)
    }

    private mutating func presented(_ p: PresentInfo, device: any SimulatedDevice) {
        let t = p.present.nanoseconds
        if categories.contains(.counters) {
            countSeconds(upTo: t, partial: false)
            presentsInSecond += 1
        }
        guard categories.contains(.display) else { return }
        // A present is at a vsync (R2), published before the vsync itself: the vsync's instant
        // is the present's (the vsync fills in its index), so that two instants never share one
        // moment of the display's track.
        name(track: TraceTimeline.displayTrack)
        let kept = record(
            .present, track: TraceTimeline.displayTrack, name: Fixed.present.rawValue, start: t, end: t,
            primary: -1, secondary: p.expectedPresent.nanoseconds + offset, reference: Int32(clamping: p.frame),
            code: Int16(clamping: p.mergedFrames))
        lastPresent = kept ? (recorded - 1, t) : nil
        if p.counted && p.hitch > .zero {
            name(track: TraceTimeline.hitchTrack)
            let cause: Int32 = (p.commitLate ? 1 : 0) | (p.renderLate ? 2 : 0)
            record(
                .hitch, track: TraceTimeline.hitchTrack, name: Fixed.hitch.rawValue + cause,
                start: t - p.hitch.nanoseconds, end: t, primary: p.frame, secondary: p.expectedPresent.nanoseconds,
                reference: cause)
        }
    }

    /// Where the ring's oldest record is: it wraps only when it keeps the newest.
    private var ringStart: Int { keep == .first || ring.count < limit ? 0 : head }

    // MARK: The main thread

    private mutating func mainItem(_ item: MainThreadItem) {
        let start = item.start.nanoseconds
        let end = item.end.nanoseconds
        if categories.contains(.counters) {
            countSeconds(upTo: start, partial: false)
            if end > start { busyItems.append((start, end)) }
        }
        guard categories.contains(.main) else { return }
        if let current = iteration, current.number != item.iteration { closeIteration() }
        if let current = iteration {
            iteration = (current.number, current.start, max(current.end, end))
        } else {
            iteration = (item.iteration, start, end)
        }
        // A timer's, link's or handler's item is named by the firing that follows it (by timer id,
        // without hashing its label); a block by its label; a commit is a commit.
        let name: Int32
        switch item.kind {
        case .commit: name = Fixed.commit.rawValue
        case .block: name = intern(item.label.isEmpty ? "block" : item.label)
        case .timer, .displayLink, .dispatchHandler: name = -1
        }
        iterationItems.append(
            TraceRecord(
                start: start, end: end, primary: Int64(TraceTimeline.itemKinds.firstIndex(of: item.kind) ?? 0),
                secondary: item.iteration, name: name, track: TraceTimeline.mainTrack, reference: 0, code: 0,
                kind: .mainItem))
    }

    /// Writes the iteration gathered so far, then its items: the iteration first, so that a
    /// viewer nests the items in it even when the first starts with it and ends with it. An
    /// iteration of no length is not written (it would nest in its own items), and items of no
    /// length at one instant become one slice.
    private mutating func closeIteration() {
        guard let current = iteration else { return }
        iteration = nil
        name(track: TraceTimeline.mainTrack)
        if current.end > current.start {
            record(
                .iteration, track: TraceTimeline.mainTrack, name: Fixed.iteration.rawValue, start: current.start,
                end: current.end, primary: current.number)
            lastZeroLength = nil
        }
        for item in iterationItems {
            if item.end > item.start {
                record(
                    item.kind, track: item.track, name: item.name, start: item.start, end: item.end,
                    primary: item.primary, secondary: item.secondary, reference: item.reference, code: item.code)
                lastZeroLength = nil
            } else {
                zeroLengthItem(item)
            }
        }
        iterationItems.removeAll(keepingCapacity: true)
    }

    /// An item of no length: a slice of its own, unless another of no length was just written at
    /// the same instant — then both are one slice that names them (`2 zero-cost items`).
    private mutating func zeroLengthItem(_ item: TraceRecord) {
        let t = item.start + offset
        if let last = lastZeroLength, last.time == t, let index = ringIndex(of: last.sequence) {
            let merged = ring[index]
            var items: [JSONValue]
            if merged.kind == .mergedItems {
                if case .array(let list)? = extras[last.sequence]?.first?.1 { items = list } else { items = [] }
            } else {
                items = [.string(displayName(merged))]
            }
            items.append(.string(displayName(item)))
            ring[index].kind = .mergedItems
            ring[index].reference = Int32(items.count)
            ring[index].name = intern("\(items.count) zero-cost items")
            extras[last.sequence] = [("items", .array(items))]
            return
        }
        let kept = record(
            item.kind, track: item.track, name: item.name, start: item.start, end: item.end, primary: item.primary,
            secondary: item.secondary, reference: item.reference, code: item.code)
        lastZeroLength = kept ? (recorded - 1, t) : nil
    }

    /// The ring's index of a kept record's sequence number.
    private func ringIndex(of sequence: Int64) -> Int? {
        let first = recorded - Int64(ring.count)
        guard sequence >= first, sequence < recorded else { return nil }
        return (ringStart + Int(sequence - first)) % ring.count
    }

    /// A main-thread item's name as a viewer shows it.
    private func displayName(_ r: TraceRecord) -> String {
        r.name >= 0 && Int(r.name) < names.count ? names[Int(r.name)] : "item"
    }

    private mutating func timerFired(_ f: TimerFiring, device: any SimulatedDevice) {
        let cause = Int16(f.cause.map { TraceTimeline.causes.firstIndex(of: $0).map { $0 + 1 } ?? 0 } ?? 0)
        if f.kind == .dispatchTimer, let track = queueTrack(f.id, device: device) {
            guard categories.contains(.queues) else { return }
            record(
                .queueHandler, track: track, name: timerName(f.id, device: device), start: f.start.nanoseconds,
                end: f.end.nanoseconds, primary: f.scheduled.nanoseconds, secondary: f.data,
                reference: Int32(truncatingIfNeeded: f.id.rawValue), code: cause)
            return
        }
        // A main-thread firing: its item was just gathered; it gains the timer's arguments.
        guard categories.contains(.main), let last = iterationItems.indices.last,
            iterationItems[last].kind == .mainItem, iterationItems[last].start == f.start.nanoseconds
        else { return }
        let itemKind = Int16(truncatingIfNeeded: iterationItems[last].primary)
        iterationItems[last].name = timerName(f.id, device: device)
        iterationItems[last].kind = .timerItem
        iterationItems[last].primary = f.scheduled.nanoseconds
        iterationItems[last].secondary = f.data
        iterationItems[last].reference = Int32(truncatingIfNeeded: f.id.rawValue)
        iterationItems[last].code = itemKind << 8 | cause
    }

    /// The track of a dispatch timer's background queue, named at its first handler; nil for a
    /// timer on the main queue.
    private mutating func queueTrack(_ id: TimerID, device: any SimulatedDevice) -> Int32? {
        let i = id.rawValue
        guard i >= 0 else { return nil }
        if i < queueTracks.count, queueTracks[i] != 0 { return queueTracks[i] > 0 ? queueTracks[i] : nil }
        if i >= queueTracks.count { queueTracks += Array(repeating: 0, count: i + 1 - queueTracks.count) }
        guard device.timerInfo(id)?.queue == .background else {
            queueTracks[i] = -1
            return nil
        }
        let track = TraceTimeline.queueTrackBase + queuesNamed
        queuesNamed += 1
        queueTracks[i] = track
        if categories.contains(.queues) { trackNames[track] = "Queue \(label(id, device: device))" }
        return track
    }

    // MARK: Counters

    /// Counts every whole second that ended by `t` (of the simulation): its presented frames and
    /// the main thread's busy time in it, each written at the second's start, as a viewer reads a
    /// counter — the value from its time to the next — and only when it changed. A second the
    /// recording began in is measured over its part recorded, as a rate. Seconds wholly idle are
    /// passed in one step. With `partial`, the second running at `t` is written too, measured
    /// over its part so far (the end of a recording).
    private mutating func countSeconds(upTo t: Int64, partial: Bool) {
        let length: Int64 = 1_000_000_000
        while (second + 1) * length <= t {
            let hi = (second + 1) * length
            let lo = max(second * length, simulationStart)
            writeSecond(from: lo, to: hi)
            second += 1
            // A stretch with nothing presented and the thread idle reads the same every second:
            // skip to its end.
            if presentsInSecond == 0, lastBusy == 0, lastPresented == 0 {
                let (_, idleUntil) = busyTime(from: second * length, to: (second + 1) * length)
                if let idleUntil { second = max(second, min(idleUntil, t) / length) }
            }
        }
        if partial, t > max(second * length, simulationStart) {
            writeSecond(from: max(second * length, simulationStart), to: t)
        }
        if busyHead > 1024 {
            busyItems.removeFirst(busyHead)
            busyHead = 0
        }
    }

    /// Writes the counters of `[lo, hi)`, at `lo`: frames presented per second, and the main
    /// thread's busy time over the time (RL6's measure).
    private mutating func writeSecond(from lo: Int64, to hi: Int64) {
        let elapsed = Int128(hi - lo)
        setPresented(MetricNumber(numerator: Int128(presentsInSecond) * 1_000_000_000, denominator: elapsed), at: lo)
        presentsInSecond = 0
        let (busy, _) = busyTime(from: lo, to: hi)
        setBusy(MetricNumber(numerator: Int128(busy), denominator: elapsed), at: lo)
    }

    /// The main thread's busy time in `[lo, hi)`, and — when it was idle or busy all that time
    /// and will read the same until some later time — that time.
    private mutating func busyTime(from lo: Int64, to hi: Int64) -> (Int64, Int64?) {
        while busyHead < busyItems.count, busyItems[busyHead].end <= lo { busyHead += 1 }
        if busyHead == busyItems.count { return (0, Int64.max) }
        let first = busyItems[busyHead]
        if first.start >= hi { return (0, first.start) }
        if first.start <= lo && first.end >= hi { return (hi - lo, nil) }
        var busy: Int64 = 0
        var k = busyHead
        while k < busyItems.count, busyItems[k].start < hi {
            busy += min(busyItems[k].end, hi) - max(busyItems[k].start, lo)
            k += 1
        }
        return (busy, nil)
    }

    private mutating func setBusy(_ value: MetricNumber, at t: Int64) {
        guard value.thousandths != lastBusy else { return }
        lastBusy = value.thousandths
        record(.counter, track: 0, name: Fixed.mainBusy.rawValue, start: t, end: t, primary: value.thousandths)
    }

    /// V6: the display's rate from the refresh at which it took effect, written when it changes,
    /// once the display has been adaptive (a fixed display's trace is unchanged).
    private mutating func displayRate(at t: Int64, device: any SimulatedDevice) {
        let refresh = device.displayRefresh
        guard refresh.isAdaptive || lastDisplayRate >= 0 else { return }
        let value = refresh.millihertz
        guard value != lastDisplayRate else { return }
        lastDisplayRate = value
        record(.counter, track: 0, name: intern("Display rate"), start: t, end: t, primary: value)
    }

    private mutating func setPresented(_ value: MetricNumber, at t: Int64) {
        guard value.thousandths != lastPresented else { return }
        lastPresented = value.thousandths
        record(.counter, track: 0, name: Fixed.presentedFPS.rawValue, start: t, end: t, primary: value.thousandths)
    }

    private func modeName(_ mode: RunLoopMode) -> Int32 {
        mode == .tracking ? Fixed.trackingMode.rawValue : Fixed.defaultMode.rawValue
    }

    // MARK: Tools

    mutating func toolEvent(_ event: ToolEvent) {
        guard categories.contains(.tools) else { return }
        name(track: TraceTimeline.toolEventTrack)
        let t = event.time.nanoseconds
        record(
            .toolEvent, track: TraceTimeline.toolEventTrack, name: intern(event.name), start: t, end: t,
            extra: [("message", .string(event.message))] + event.fields)
    }

    /// A tool's slice, as the host clamps it (docs/Trace.md, "For tool authors"): it starts
    /// within its simulation, at or after t = 0 and at or before now (a slice is handed when it
    /// has begun); it ends at or after its start; an end at or past the horizon (S1: `.never`, a
    /// slice that has not ended) is an unfinished slice, which ends where recording ends — now
    /// when a trace is saved, the reset or `trace stop` that ends its simulation, the moment a
    /// full trace stopped — with the argument `unfinished`. So no time a plugin hands can overflow
    /// the trace's arithmetic (S1), and no slice stretches the axis past what happened.
    mutating func toolSlice(
        tool: Int, toolName: String, _ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)],
        now: SimTime
    ) {
        guard categories.contains(.tools) else { return }
        let track = TraceTimeline.toolTrackBase + Int32(tool)
        if trackNames[track] == nil { trackNames[track] = "Tool \(toolName)" }
        let from = min(max(start.nanoseconds, 0), max(now.nanoseconds, 0))
        guard end < .horizon else {
            unfinishedToolSlices.append((track, intern(name), from, args))
            return
        }
        record(.toolSlice, track: track, name: intern(name), start: from, end: max(from, end.nanoseconds), extra: args)
    }

    mutating func toolCounter(toolName: String, _ name: String, _ value: MetricNumber, at time: SimTime) {
        guard categories.contains(.counters) else { return }
        record(
            .counter, track: 0, name: intern("\(toolName): \(name)"), start: time.nanoseconds,
            end: time.nanoseconds, primary: value.thousandths)
    }

    // MARK: Reading

    /// Events kept now.
    var kept: Int { ring.count }

    /// Events dropped because the ring was full.
    var dropped: Int64 { recorded - Int64(ring.count) }

    /// Bytes the trace holds, roughly (see ``TraceRecorder/memoryBytes``).
    var memoryBytes: Int {
        max(ring.count, min(limit, 1 << 16)) * MemoryLayout<TraceRecord>.stride
            + names.reduce(0) { $0 + $1.utf8.count + 16 } + extras.count * 96
    }

    /// The kept records, oldest first, each with its sequence number.
    func forEachRecord(_ body: (Int64, TraceRecord) throws -> Void) rethrows {
        let first = recorded - Int64(ring.count)
        let start = ringStart
        for k in 0..<ring.count {
            try body(first + Int64(k), ring[(start + k) % ring.count])
        }
    }

    func extra(_ sequence: Int64) -> [(String, JSONValue)]? { extras[sequence] }
}
