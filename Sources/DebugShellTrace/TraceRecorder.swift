import DebugShellCore

/// What a trace records: each category a set of tracks (`trace start --categories …`).
public struct TraceCategories: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Vsyncs, presents and hitches.
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

    public var words: [String] { TraceCategories.names.filter { contains($0.1) }.map(\.0) }
}

/// One event of a trace, packed: a slice `[start, end)`, an instant (`start == end`) or a
/// counter value, on a track of a simulation, with a name and a few numbers whose meaning its
/// kind gives. Variable arguments (a tool's) live beside the ring, by sequence number.
struct TraceRecord {
    enum Kind: UInt8 {
        /// A main-thread item; primary: its `MainThreadItem.Kind` index, secondary: its iteration.
        case mainItem
        /// A main-thread item that is a timer's callback or handler: primary its scheduled time,
        /// secondary its data, reference the timer, code the item's kind index × 256 + the cause
        /// of its lateness (0 none).
        case timerItem
        /// A run-loop iteration enclosing its items; primary: its number.
        case iteration
        /// A background dispatch handler on its queue's track; primary: scheduled, secondary:
        /// data, reference: the timer, code: cause.
        case queueHandler
        /// A render; primary: the frame.
        case render
        /// A present (instant); primary: the frame, secondary: the expected present, reference:
        /// merged frames.
        case present
        /// A hitch `[present − hitch, present)`; primary: the frame, secondary: expected present,
        /// reference: cause (1 commit, 2 render, 3 both).
        case hitch
        /// A vsync (instant); primary: its index.
        case vsync
        /// A run-loop mode span; primary: 0 default, 1 tracking.
        case mode
        /// A counter value at `start`; primary: the value in thousandths.
        case counter
        /// A tool's event (instant) or slice, arguments beside the ring.
        case toolEvent, toolSlice
    }

    var start: Int64
    var end: Int64
    /// The kind's main number: a frame, an index, an iteration, a scheduled time, a counter's
    /// thousandths.
    var primary: Int64
    /// Its second number: an expected present, a dispatch timer's data, an item's iteration.
    var secondary: Int64
    /// The interned name.
    var name: Int32
    var track: Int32
    /// What it refers to: a timer's id, a count of merged frames, a hitch's cause.
    var reference: Int32
    /// A small code: a lateness cause, with an item's kind in the high byte.
    var code: Int16
    var kind: Kind
    /// Which simulation (a `reset` starts another): the trace's process id.
    var process: UInt8
}

/// Records the simulated timeline for a Chrome trace (`trace start`, `--trace`): the display,
/// the main thread, the render server, background queues, run-loop modes, counters and the
/// tools' events, as the device's observations arrive.
///
/// An observer of the public device API (``SimulatedDevice``): a timer's label and queue come
/// from ``SimulatedDevice/timerInfo(_:)``, asked once per timer.
///
/// Bounded: it keeps the newest ``limit`` events in a ring, dropping the oldest once full (as
/// Perfetto's ring-buffer mode does), and says so. Per event it does a constant amount of work —
/// a 48-byte record and, for a name seen before, a dictionary lookup; strings and JSON are built
/// only when the trace is saved. Everything it records is one value, ``TraceTimeline``, changed
/// in one access per observation: Swift checks exclusive access to a class's stored properties at
/// run time, once per access, and a struct's fields inside a mutating method not at all.
public final class TraceRecorder: DeviceObserver {
    /// The default bound, in events (about 48 MB of records).
    public static let defaultLimit = 1_000_000

    /// What it records.
    public var categories: TraceCategories { timeline.categories }
    /// The most events it keeps.
    public var limit: Int { timeline.limit }
    /// Events recorded in all, kept or dropped.
    public var recorded: Int64 { timeline.recorded }
    /// Whether it still records (`trace stop` ends that; the events stay for `trace save`).
    public private(set) var isRecording = true
    /// Set once the ring is full and starts dropping: the session reports it once.
    public var limitReached: Bool { timeline.limitReached }
    /// When it started, in the first simulation.
    public let startedAt: SimTime

    /// Everything recorded so far.
    private(set) var timeline: TraceTimeline
    /// The device of the current simulation, while attached.
    private weak var device: (any SimulatedDevice)?
    private var token: ObserverToken?

    public init(categories: TraceCategories = .all, limit: Int = TraceRecorder.defaultLimit, at time: SimTime) {
        timeline = TraceTimeline(categories: categories, limit: max(1, limit))
        startedAt = time
    }

    /// Records the device's timeline from now on: a fresh simulation is a new process.
    public func attach(_ device: any SimulatedDevice) {
        detach()
        guard isRecording else { return }
        self.device = device
        timeline.beginProcess(now: device.now.nanoseconds, mode: device.mode)
        token = device.addObserver(self, kinds: timeline.observationKinds)
    }

    /// Stops observing the current device (a `reset` replaces it, or `trace stop`).
    func detach() {
        if let device { timeline.closeOpenSpans(now: device.now.nanoseconds) }
        if let token, let device { device.removeObserver(token) }
        token = nil
        device = nil
    }

    /// `trace stop`: no more events; what was recorded stays.
    public func stop() {
        detach()
        isRecording = false
    }

    /// Events kept now.
    public var kept: Int { timeline.kept }

    /// Bytes the trace holds: its records (at least the first reservation), names and tool
    /// arguments, roughly — computed from counts, so the same trace reports the same figure.
    public var memoryBytes: Int { timeline.memoryBytes }

    /// Events dropped because the ring was full.
    public var dropped: Int64 { timeline.dropped }

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        timeline.observe(observation, device: device)
    }

    // MARK: Tools

    /// A tool's event: an instant on the tools' track, its fields as arguments.
    public func toolEvent(_ event: ToolEvent) {
        guard isRecording else { return }
        timeline.toolEvent(event)
    }

    /// A tool's slice on its own track.
    public func toolSlice(
        tool: Int, toolName: String, _ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]
    ) {
        guard isRecording else { return }
        timeline.toolSlice(tool: tool, toolName: toolName, name, from: start, to: end, args: args)
    }

    /// A tool's counter.
    public func toolCounter(toolName: String, _ name: String, _ value: MetricNumber, at time: SimTime) {
        guard isRecording else { return }
        timeline.toolCounter(toolName: toolName, name, value, at: time)
    }

    // MARK: Reading

    /// The kept records, oldest first, each with its sequence number; then, while recording,
    /// the spans still open at now — the current run-loop iteration and mode — as they stand.
    func forEachRecord(_ body: (Int64, TraceRecord) throws -> Void) rethrows {
        try timeline.forEachRecord(openAt: device?.now.nanoseconds, body)
    }

    /// Records what is final by now before the trace is read: the busy ratio of every whole
    /// second that has ended.
    func flush() {
        if let device { timeline.reportBusy(before: device.now.nanoseconds) }
    }

    var names: [String] { timeline.names }
    var trackNames: [UInt8: [Int32: String]] { timeline.trackNames }
    func extra(_ sequence: Int64) -> [(String, JSONValue)]? { timeline.extra(sequence) }
}

/// Everything a trace has recorded, and the state of the spans it is gathering: one value, so
/// that an observation changes it in one access.
struct TraceTimeline {
    let categories: TraceCategories
    let limit: Int
    /// Events recorded in all, kept or dropped.
    private(set) var recorded: Int64 = 0
    /// Set once the ring is full and starts dropping.
    private(set) var limitReached = false

    private var ring: [TraceRecord] = []
    private var head = 0
    /// Tool arguments by record sequence number (only tool events and slices have them).
    private var extras: [Int64: [(String, JSONValue)]] = [:]
    /// Interned names, escaped for JSON once.
    private(set) var names: [String] = []
    private var nameIndex: [String: Int32] = [:]

    /// The current simulation's process number (1, then 2 after a `reset`…).
    private(set) var process: UInt8 = 0
    /// Tracks used, per process, with their names (for the trace's metadata).
    private(set) var trackNames: [UInt8: [Int32: String]] = [:]
    /// Which fixed tracks (by bit) and background queues (by timer id) this process has named.
    private var namedTracks: UInt64 = 0
    private var namedQueues: [Bool] = []
    /// Interned timer labels by timer id in this process, -1 unknown.
    private var timerNames: [Int32] = []
    /// Whether each dispatch timer runs on a background queue, by timer id in this process:
    /// 0 not known yet, 1 no, 2 yes. A timer's queue never changes, so the device is asked once.
    private var timerOnBackground: [UInt8] = []
    /// The iteration being gathered: its number, start and end.
    private var iteration: (number: Int64, start: Int64, end: Int64)?
    /// The start of the current mode's span, and the mode.
    private var modeSince: (time: Int64, mode: RunLoopMode) = (0, .default)
    /// Presents of the last second, for the presented-FPS counter.
    private var recentPresents: [Int64] = []
    private var recentHead = 0
    /// Main-thread items whose seconds are not all reported yet, for the busy counter.
    private var busyItems: [(start: Int64, end: Int64)] = []
    private var busyHead = 0
    /// The next whole second whose busy ratio is to be reported, and the last value reported.
    private var busySecond: Int64 = 0
    private var lastBusy: Int64 = -1

    // Track numbers within a process.
    static let mainTrack: Int32 = 1
    static let renderTrack: Int32 = 2
    static let displayTrack: Int32 = 3
    static let hitchTrack: Int32 = 4
    static let modeTrack: Int32 = 5
    static let toolEventTrack: Int32 = 6
    /// Tools' own tracks: this plus the tool's index.
    static let toolTrackBase: Int32 = 100
    /// Background queues: this plus the timer's id.
    static let queueTrackBase: Int32 = 1000

    /// Names every trace has, interned first, so the hot path never hashes them.
    enum Fixed: Int32, CaseIterable {
        case iteration, defaultMode, trackingMode, vsync, render, present, hitch, commitHitch, renderHitch, bothHitch
        case presentedFPS, mainBusy, commit

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
            }
        }
    }

    init(categories: TraceCategories, limit: Int) {
        self.categories = categories
        self.limit = limit
        ring.reserveCapacity(min(limit, 1 << 16))
        for name in Fixed.allCases { _ = intern(name.text) }
    }

    /// What the device is asked to tell, for the categories recorded.
    var observationKinds: ObservationKinds {
        var kinds: ObservationKinds = []
        if categories.contains(.display) { kinds.formUnion([.vsync, .present]) }
        if categories.contains(.main) { kinds.formUnion([.mainItem, .timerFired]) }
        if categories.contains(.queues) { kinds.formUnion(.timerFired) }
        if categories.contains(.render) { kinds.formUnion(.render) }
        if categories.contains(.modes) { kinds.formUnion(.modeChange) }
        if categories.contains(.counters) { kinds.formUnion([.present, .mainItem]) }
        return kinds
    }

    /// A fresh simulation starts at `now` in `mode`: a new process of the trace.
    mutating func beginProcess(now: Int64, mode: RunLoopMode) {
        process &+= 1
        iteration = nil
        modeSince = (now, mode)
        recentPresents = []
        recentHead = 0
        busyItems = []
        busyHead = 0
        busySecond = now / 1_000_000_000
        lastBusy = -1
        namedTracks = 0
        namedQueues = []
        timerNames = []
        timerOnBackground = []
        // Tracks the open spans of a save need, named before it writes its metadata.
        if categories.contains(.main) { name(track: TraceTimeline.mainTrack) }
        if categories.contains(.modes) { name(track: TraceTimeline.modeTrack) }
    }

    /// Events kept now.
    var kept: Int { ring.count }

    /// Bytes the trace holds, roughly (see ``TraceRecorder/memoryBytes``).
    var memoryBytes: Int {
        max(ring.count, min(limit, 1 << 16)) * MemoryLayout<TraceRecord>.stride
            + names.reduce(0) { $0 + $1.utf8.count + 16 } + extras.count * 96
    }

    // MARK: Recording

    @inline(__always)
    private mutating func append(_ record: TraceRecord, extra: [(String, JSONValue)]? = nil) {
        let sequence = recorded
        recorded += 1
        if ring.count < limit {
            ring.append(record)
        } else {
            if !limitReached { limitReached = true }
            extras.removeValue(forKey: sequence - Int64(limit))
            ring[head] = record
            head = head + 1 == limit ? 0 : head + 1
        }
        if let extra { extras[sequence] = extra }
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

    /// Names one of the fixed tracks in this process, once.
    @inline(__always)
    private mutating func name(track: Int32) {
        guard namedTracks & (1 << UInt64(track)) == 0 else { return }
        namedTracks |= 1 << UInt64(track)
        trackNames[process, default: [:]][track] = TraceTimeline.trackTitles[Int(track)]
    }

    static let trackTitles = ["", "Main thread", "Render server", "Display", "Hitches", "Run loop mode", "Tool events"]

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

    private mutating func record(
        _ kind: TraceRecord.Kind, track: Int32, name: Int32, start: Int64, end: Int64, primary: Int64 = 0,
        secondary: Int64 = 0,
        reference: Int32 = 0, code: Int16 = 0, extra: [(String, JSONValue)]? = nil
    ) {
        append(
            TraceRecord(
                start: start, end: end, primary: primary, secondary: secondary, name: name, track: track,
                reference: reference, code: code, kind: kind, process: process),
            extra: extra)
    }

    mutating func observe(_ observation: DeviceObservation, device: any SimulatedDevice) {
        switch observation {
        case .vsync(let time, let index):
            reportBusy(before: time.nanoseconds)
            guard categories.contains(.display) else { return }
            name(track: TraceTimeline.displayTrack)
            record(
                .vsync, track: TraceTimeline.displayTrack, name: Fixed.vsync.rawValue, start: time.nanoseconds,
                end: time.nanoseconds, primary: index)
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
            presented(info)
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

    private mutating func mainItem(_ item: MainThreadItem) {
        let start = item.start.nanoseconds
        let end = item.end.nanoseconds
        reportBusy(before: start)
        if categories.contains(.counters) && end > start { busyItems.append((start, end)) }
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
        record(
            .mainItem, track: TraceTimeline.mainTrack, name: name, start: start, end: end,
            primary: Int64(TraceTimeline.itemKinds.firstIndex(of: item.kind) ?? 0), secondary: item.iteration)
    }

    static let itemKinds: [MainThreadItem.Kind] = [.block, .commit, .timer, .displayLink, .dispatchHandler]

    private mutating func closeIteration() {
        guard let current = iteration else { return }
        iteration = nil
        record(
            .iteration, track: TraceTimeline.mainTrack, name: Fixed.iteration.rawValue, start: current.start,
            end: current.end, primary: current.number)
    }

    private mutating func timerFired(_ f: TimerFiring, device: any SimulatedDevice) {
        let cause = Int16(f.cause.map { TraceTimeline.causes.firstIndex(of: $0).map { $0 + 1 } ?? 0 } ?? 0)
        if f.kind == .dispatchTimer, isBackground(f, device: device) {
            guard categories.contains(.queues) else { return }
            let id = f.id.rawValue
            let track = TraceTimeline.queueTrackBase + Int32(truncatingIfNeeded: id)
            if id >= namedQueues.count || !namedQueues[id] {
                if id >= namedQueues.count { namedQueues += Array(repeating: false, count: id + 1 - namedQueues.count) }
                namedQueues[id] = true
                trackNames[process, default: [:]][track] = "Queue \(label(f.id, device: device))"
            }
            record(
                .queueHandler, track: track, name: timerName(f.id, device: device), start: f.start.nanoseconds,
                end: f.end.nanoseconds,
                primary: f.scheduled.nanoseconds, secondary: f.data,
                reference: Int32(truncatingIfNeeded: f.id.rawValue), code: cause)
            return
        }
        // A main-thread firing: its item was just recorded; it gains the timer's arguments.
        guard categories.contains(.main), let last = lastIndex, ring[last].kind == .mainItem,
            ring[last].start == f.start.nanoseconds, ring[last].process == process
        else { return }
        let itemKind = Int16(truncatingIfNeeded: ring[last].primary)
        ring[last].name = timerName(f.id, device: device)
        ring[last].kind = .timerItem
        ring[last].primary = f.scheduled.nanoseconds
        ring[last].secondary = f.data
        ring[last].reference = Int32(truncatingIfNeeded: f.id.rawValue)
        ring[last].code = itemKind << 8 | cause
    }

    static let causes: [LatenessCause] = [.mode, .busy, .coalesced, .paused]

    /// Whether a dispatch firing ran on a background queue: its device record says.
    private mutating func isBackground(_ f: TimerFiring, device: any SimulatedDevice) -> Bool {
        let i = f.id.rawValue
        if i < timerOnBackground.count, timerOnBackground[i] != 0 { return timerOnBackground[i] == 2 }
        guard i >= 0 else { return false }
        if i >= timerOnBackground.count {
            timerOnBackground += Array(repeating: 0, count: i + 1 - timerOnBackground.count)
        }
        let background = device.timerInfo(f.id)?.queue == .background
        timerOnBackground[i] = background ? 2 : 1
        return background
    }

    private var lastIndex: Int? {
        guard !ring.isEmpty else { return nil }
        return ring.count < limit ? ring.count - 1 : (head == 0 ? limit - 1 : head - 1)
    }

    private mutating func presented(_ p: PresentInfo) {
        let t = p.present.nanoseconds
        reportBusy(before: t)
        if categories.contains(.display) {
            name(track: TraceTimeline.displayTrack)
            record(
                .present, track: TraceTimeline.displayTrack, name: Fixed.present.rawValue, start: t, end: t,
                primary: p.frame,
                secondary: p.expectedPresent.nanoseconds, reference: Int32(clamping: p.mergedFrames))
            if p.counted && p.hitch > .zero {
                name(track: TraceTimeline.hitchTrack)
                let cause: Int32 = (p.commitLate ? 1 : 0) | (p.renderLate ? 2 : 0)
                record(
                    .hitch, track: TraceTimeline.hitchTrack, name: Fixed.hitch.rawValue + cause,
                    start: t - p.hitch.nanoseconds,
                    end: t, primary: p.frame, secondary: p.expectedPresent.nanoseconds, reference: cause)
            }
        }
        if categories.contains(.counters) {
            // Presented FPS: presents in the second that ends at this one.
            recentPresents.append(t)
            while recentHead < recentPresents.count, recentPresents[recentHead] <= t - 1_000_000_000 {
                recentHead += 1
            }
            if recentHead > 1024 {
                recentPresents.removeFirst(recentHead)
                recentHead = 0
            }
            counter(Fixed.presentedFPS.rawValue, MetricNumber(Int64(recentPresents.count - recentHead)), at: t)
        }
    }

    /// Reports the main thread's busy ratio (RL6's measure) for every whole second that ended
    /// by `t`, as a counter at the end of that second, when it changed. Seconds wholly idle or
    /// wholly inside one item are passed in one step, so idle time and long stalls cost nothing.
    mutating func reportBusy(before t: Int64) {
        let second: Int64 = 1_000_000_000
        guard categories.contains(.counters), t >= (busySecond + 1) * second else { return }
        let last = t / second  // seconds before `last` are over
        var s = busySecond
        while s < last {
            let lo = s * second
            let hi = lo + second
            while busyHead < busyItems.count, busyItems[busyHead].end <= lo { busyHead += 1 }
            if busyHead == busyItems.count || busyItems[busyHead].start >= hi {
                setBusy(0, at: hi)
                let nextBusy = busyHead < busyItems.count ? busyItems[busyHead].start / second : last
                s = max(s + 1, min(nextBusy, last))
                continue
            }
            let first = busyItems[busyHead]
            if first.start <= lo && first.end >= hi {
                setBusy(1000, at: hi)
                s = max(s + 1, min(first.end / second, last))
                continue
            }
            var busy: Int64 = 0
            var k = busyHead
            while k < busyItems.count, busyItems[k].start < hi {
                busy += min(busyItems[k].end, hi) - max(busyItems[k].start, lo)
                k += 1
            }
            setBusy(MetricNumber(numerator: Int128(busy), denominator: Int128(second)).thousandths, at: hi)
            s += 1
        }
        busySecond = last
        if busyHead > 1024 {
            busyItems.removeFirst(busyHead)
            busyHead = 0
        }
    }

    private mutating func setBusy(_ thousandths: Int64, at t: Int64) {
        guard thousandths != lastBusy else { return }
        lastBusy = thousandths
        counter(Fixed.mainBusy.rawValue, MetricNumber(thousandths: thousandths), at: t)
    }

    private mutating func counter(_ name: Int32, _ value: MetricNumber, at t: Int64) {
        record(.counter, track: 0, name: name, start: t, end: t, primary: value.thousandths)
    }

    private func modeName(_ mode: RunLoopMode) -> Int32 {
        mode == .tracking ? Fixed.trackingMode.rawValue : Fixed.defaultMode.rawValue
    }

    /// Spans still open when observation ends at `now`: the last iteration, the current mode.
    mutating func closeOpenSpans(now: Int64) {
        closeIteration()
        reportBusy(before: now)
        if categories.contains(.modes), now > modeSince.time {
            name(track: TraceTimeline.modeTrack)
            record(
                .mode, track: TraceTimeline.modeTrack, name: modeName(modeSince.mode), start: modeSince.time,
                end: now, primary: modeSince.mode == .tracking ? 1 : 0)
            modeSince = (now, modeSince.mode)
        }
    }

    // MARK: Tools

    /// A tool's event: an instant on the tools' track, its fields as arguments.
    mutating func toolEvent(_ event: ToolEvent) {
        guard categories.contains(.tools) else { return }
        name(track: TraceTimeline.toolEventTrack)
        let t = event.time.nanoseconds
        record(
            .toolEvent, track: TraceTimeline.toolEventTrack, name: intern(event.name), start: t, end: t,
            extra: [("message", .string(event.message))] + event.fields)
    }

    /// A tool's slice on its own track.
    mutating func toolSlice(
        tool: Int, toolName: String, _ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)]
    ) {
        guard categories.contains(.tools) else { return }
        let track = TraceTimeline.toolTrackBase + Int32(tool)
        if trackNames[process]?[track] == nil { trackNames[process, default: [:]][track] = "Tool \(toolName)" }
        record(
            .toolSlice, track: track, name: intern(name), start: start.nanoseconds,
            end: max(start, end).nanoseconds, extra: args)
    }

    /// A tool's counter.
    mutating func toolCounter(toolName: String, _ name: String, _ value: MetricNumber, at time: SimTime) {
        guard categories.contains(.counters) else { return }
        counter(intern("\(toolName): \(name)"), value, at: time.nanoseconds)
    }

    // MARK: Reading

    /// The kept records, oldest first, each with its sequence number; then, when `now` is given
    /// (a device is attached), the spans still open at now — the current run-loop iteration and
    /// mode — as they stand.
    func forEachRecord(openAt now: Int64?, _ body: (Int64, TraceRecord) throws -> Void) rethrows {
        let first = recorded - Int64(ring.count)
        let start = ring.count < limit ? 0 : head
        for k in 0..<ring.count {
            try body(first + Int64(k), ring[(start + k) % ring.count])
        }
        guard let now else { return }
        if let current = iteration {
            try body(
                -1,
                TraceRecord(
                    start: current.start, end: current.end, primary: current.number, secondary: 0,
                    name: Fixed.iteration.rawValue,
                    track: TraceTimeline.mainTrack, reference: 0, code: 0, kind: .iteration, process: process))
        }
        if categories.contains(.modes), now > modeSince.time {
            try body(
                -1,
                TraceRecord(
                    start: modeSince.time, end: now, primary: modeSince.mode == .tracking ? 1 : 0, secondary: 0,
                    name: modeName(modeSince.mode), track: TraceTimeline.modeTrack, reference: 0, code: 0, kind: .mode,
                    process: process))
        }
    }

    func extra(_ sequence: Int64) -> [(String, JSONValue)]? { extras[sequence] }

    /// Events dropped because the ring was full.
    public var dropped: Int64 { recorded - Int64(ring.count) }
}
