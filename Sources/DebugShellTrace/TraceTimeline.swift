import DebugShellCore

/// Everything a trace has recorded, and the state of what it is gathering: one value, so that an
/// observation changes it in one access.
///
/// Here are its state, the simulations, the ring and its names; what it records of each part of
/// the device is in an extension of its own — `TraceTimeline+Display.swift`,
/// `+MainThread.swift`, `+Counters.swift`, `+Tools.swift` — which is why the state they change is
/// internal to the module rather than private.
struct TraceTimeline {
    let categories: TraceCategories
    let limit: Int
    let keep: TraceKeep
    /// Events recorded in all, kept or dropped.
    private(set) var recorded: Int64 = 0
    /// The recorder's steps beyond a constant few per observation — records kept, an iteration's
    /// items written, items of no length joined, background lanes looked at, seconds counted, busy
    /// items looked at or moved — so that a test can see its cost grow with what happened, not
    /// with its square (thirty thousand timers firing at one instant once took minutes).
    private(set) var work: Int64 = 0
    /// Set once the limit is reached.
    private(set) var limitReached = false
    /// A full trace that keeps its first events records nothing more.
    private(set) var stoppedFull = false
    /// When a trace that keeps its first events filled, in the trace's time.
    private(set) var fullAt: Int64?
    /// Closing what is open as a full trace stops: those few records may pass the limit.
    private var finishing = false

    var ring: TraceRecordStore
    private var head = 0
    /// Arguments by record sequence number: tools' events and slices.
    var extras: [Int64: [(String, JSONValue)]] = [:]
    /// The items a merged record (``TraceRecord/Kind/mergedItems``) holds, by its sequence number,
    /// each as it would have been written alone (on the trace's clock): its arguments, name and
    /// whether it is a commit or late are built from them when the trace is saved.
    var mergedItems: [Int64: [TraceRecord]] = [:]
    /// Interned names.
    private(set) var names: [String] = []
    private var nameIndex: [String: Int32] = [:]
    /// Tracks used, with their names (for the trace's metadata).
    var trackNames: [Int32: String] = [:]
    /// The fixed tracks named so far, a bit each (``name(track:)``): most events name theirs
    /// again, and a bit costs less than a lookup.
    private var namedTracks: UInt32 = 0
    /// What each actual frame's record stands for beyond its times (verdict, type, stages, what
    /// delayed it), by its sequence number.
    var frameDetails: [Int64: FrameDetail] = [:]
    /// Where the last frame on each lane of the Expected and Actual frames tracks ends, on the
    /// trace's clock (``frameLane(expected:from:to:)``).
    var expectedLaneEnds: [Int64] = []
    var actualLaneEnds: [Int64] = []
    /// The most lanes of each frames track: a frame that finds all busy shares the last.
    static let maxFrameLanes = 64
    /// The main-thread items that delayed a frame, on the trace's clock: each begins a flow to the
    /// frame's marker, written on its slice when the trace is saved.
    var delaySources: [(start: Int64, end: Int64)] = []
    var delaySourcesPruneAt = 1024
    /// Why recording stopped where the trace ends, as the session noted it, and when (the trace's
    /// clock): written as a marker when the trace ends there.
    var stop: (reason: TraceStop, time: Int64)?
    /// Where the trace ends, on its clock: where a full trace stopped, else now (or where
    /// recording stopped). Set on the snapshot a save writes.
    var end: Int64 = 0

    // Per simulation.

    /// The trace's time at the current simulation's t = 0: the simulations before it, one after
    /// another.
    private(set) var offset: Int64 = 0
    /// Simulations so far (a `reset` starts another).
    private(set) var simulations = 0
    /// Where the simulation began being recorded, in its own time.
    private(set) var simulationStart: Int64 = 0
    /// The start of the kept window, in the trace's time: where the trace began, or the end of
    /// the last event a full ring dropped.
    private(set) var windowStart: Int64 = 0
    /// Interned timer labels by timer id in this simulation, -1 unknown.
    private var timerNames: [Int32] = []
    /// Tools' slices that have not ended (handed with an end at or past the horizon), in the
    /// simulation's time: written, ending where recording ends, by ``closeOpenSpans(at:device:)``.
    var unfinishedToolSlices: [(track: Int32, name: Int32, start: Int64, args: [(String, JSONValue)])] = []
    /// Whether each dispatch timer runs on a background queue, by timer id in this simulation: 0
    /// not known yet, 1 background, -1 not. A timer's queue never changes: the device is asked once.
    var queueTracks: [Int32] = []
    /// Where the last handler on each background lane ends, on the trace's clock: a handler goes
    /// on the first lane free at its start, so handlers that overlap get lanes of their own and a
    /// hundred thousand timers' handlers take as many tracks as ever ran at once (docs/Trace.md).
    var laneEnds: [Int64] = []
    /// Each lane's last handler of no length, if it was the lane's last handler: another of no
    /// length at the same instant joins it, as the main thread's zero-cost items are one slice
    /// (Perfetto stacks slices of no length at one instant into a staircase).
    var laneZeroLength: [(sequence: Int64, time: Int64)?] = []
    /// The most background lanes: a handler that finds every lane busy shares the last.
    static let maxLanes = 64
    /// The iteration being gathered, in the simulation's time, and its items, held until it ends so
    /// that it is written before them: a viewer nests a slice in the one written before it when
    /// both start together.
    var iteration: (number: Int64, start: Int64, end: Int64)?
    /// Its items are the first `iterationCount` of `iterationItems`, whose room is reused from one
    /// iteration to the next.
    var iterationItems: [TraceRecord] = []
    var iterationCount = 0
    /// The last slice of no length on the main thread, by sequence number, and its time (the
    /// trace's): another at the same instant joins it.
    var lastZeroLength: (sequence: Int64, time: Int64)?
    /// The run-loop iteration of no length written last on the main thread, at this time (the
    /// trace's): the items of no length at an iteration's end gather in it, so that a viewer nests
    /// them in an iteration rather than beside it or in a sibling.
    var zeroLengthIteration: (sequence: Int64, time: Int64)?
    /// The start of the current mode's span, and the mode.
    private var modeSince: (time: Int64, mode: RunLoopMode) = (0, .default)
    /// The last vsync the device processed, in the simulation's time.
    var lastVsync: Int64?
    /// The last present, by sequence number, and its time: its vsync comes next.
    var lastPresent: (sequence: Int64, time: Int64)?
    /// The whole second being measured for the counters, and what was measured in it so far.
    var second: Int64 = 0
    var presentsInSecond: Int64 = 0
    /// Main-thread items whose seconds are not all counted yet, for the busy counter.
    var busyItems: [(start: Int64, end: Int64)] = []
    var busyHead = 0
    /// The last value written of each counter, to write only changes.
    var lastBusy: Int64 = -1
    var lastPresented: Int64 = -1
    /// The tools' counters' last values, by interned name: those not 0 drop to 0 when the
    /// simulation ends.
    var toolCounterValues: [Int32: Int64] = [:]
    /// The display rate last written (V6), in thousandths of a hertz; -1 before the display was
    /// first seen adaptive: a fixed display's trace has no rate counter.
    var lastDisplayRate: Int64 = -1
    /// Commits seen and not yet presented or merged, in frame order from `pendingHead`.
    var pendingCommits: [PendingCommit] = []
    var pendingHead = 0
    /// The last renders' frames and the flows they carry, eight at most (a ring): a render that
    /// delayed a later frame is one of them.
    var renderChains: [(frame: Int64, chain: UInt64)] = Array(repeating: (-1, 0), count: 8)
    var renderChainNext = 0
    /// Where the last render ended, in the simulation's time: the GPU runs one at a time (R7.2).
    var lastRenderEnd: Int64 = 0

    // Tracks. The main thread's id is the process's, as Perfetto expects of a process's main
    // thread.
    static let pid: Int64 = 1
    static let mainTrack: Int32 = 1
    static let renderTrack: Int32 = 2
    static let displayTrack: Int32 = 3
    static let hitchTrack: Int32 = 4
    static let modeTrack: Int32 = 5
    static let toolEventTrack: Int32 = 6
    static let hangTrack: Int32 = 7
    /// Tools' own tracks: this plus the tool's index.
    static let toolTrackBase: Int32 = 100
    /// The lanes of the Expected and Actual frames tracks (async tracks: no thread, no metadata):
    /// this plus the lane.
    static let expectedLaneBase: Int32 = 200
    static let actualLaneBase: Int32 = 300
    /// How a render's record carries its frame's flow (its code): on from the commit, or begun.
    static let flowStep: Int16 = 1
    static let flowBegin: Int16 = 2
    /// Background queues: this plus the order in which their first handler ran.
    static let queueTrackBase: Int32 = 1000

    static let trackTitles = [
        "", "Main thread", "Render server", "Display", "Hitches", "Run loop mode", "Tool events", "Hangs",
    ]

    /// Names every trace has, interned first, so the hot path never hashes them.
    enum Fixed: Int32, CaseIterable {
        case iteration, defaultMode, trackingMode, vsync, render, present, hitch, commitHitch, renderHitch, bothHitch
        case presentedFPS, mainBusy, commit, idle, reset, hang

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
            case .hang: return "Hang"
            }
        }
    }

    /// An item's kind is recorded as its index here, a lateness cause as its index here plus one.
    static let itemKinds: [MainThreadItem.Kind] = [.block, .commit, .timer, .displayLink, .dispatchHandler]
    static let causes: [LatenessCause] = [.mode, .busy, .coalesced, .paused]

    /// A kind's index in ``itemKinds``, without searching it (once per item).
    static func index(of kind: MainThreadItem.Kind) -> Int64 {
        switch kind {
        case .block: return 0
        case .commit: return 1
        case .timer: return 2
        case .displayLink: return 3
        case .dispatchHandler: return 4
        }
    }

    /// A lateness cause's code: its index in ``causes`` plus one; 0 for none.
    static func code(of cause: LatenessCause?) -> Int16 {
        switch cause {
        case nil: return 0
        case .mode: return 1
        case .busy: return 2
        case .coalesced: return 3
        case .paused: return 4
        }
    }

    init(categories: TraceCategories, limit: Int, keep: TraceKeep) {
        self.categories = categories
        self.limit = limit
        self.keep = keep
        ring = TraceRecordStore(capacity: limit)
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
        if categories.contains(.frames) { kinds.formUnion([.present, .commit]) }
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
        zeroLengthIteration = nil
        lastPresent = nil
        pendingCommits = []
        pendingHead = 0
        renderChains = Array(repeating: (-1, 0), count: 8)
        lastRenderEnd = 0
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
        endToolCounters(at: now)
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

    /// Counts `steps` of work (``work``).
    @inline(__always)
    mutating func tally(_ steps: Int) { work &+= Int64(steps) }

    /// Keeps a record; false when a full trace keeps no more.
    @inline(__always) @discardableResult
    private mutating func append(_ record: TraceRecord, extra: [(String, JSONValue)]? = nil) -> Bool {
        guard !stoppedFull || finishing else { return false }
        work &+= 1
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
            if !extras.isEmpty { extras.removeValue(forKey: sequence - Int64(limit)) }
            if old.kind == .actualFrame { frameDetails.removeValue(forKey: sequence - Int64(limit)) }
            if old.kind == .mergedItems { mergedItems.removeValue(forKey: sequence - Int64(limit)) }
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
    mutating func name(track: Int32) {
        let bit: UInt32 = 1 << UInt32(track)
        guard namedTracks & bit == 0 else { return }
        namedTracks |= bit
        if trackNames[track] == nil { trackNames[track] = TraceTimeline.trackTitles[Int(track)] }
    }

    /// The interned name of a timer's label, by its id: one hash per timer, not per firing.
    @inline(__always)
    mutating func timerName(_ id: TimerID, device: any SimulatedDevice) -> Int32 {
        let i = id.rawValue
        if i < timerNames.count, timerNames[i] >= 0 { return timerNames[i] }
        if i >= timerNames.count { timerNames.append(contentsOf: repeatElement(-1, count: i + 1 - timerNames.count)) }
        let index = intern(label(id, device: device))
        timerNames[i] = index
        return index
    }

    /// A timer's label, from the device's public timer info.
    func label(_ id: TimerID, device: any SimulatedDevice) -> String {
        device.timerInfo(id)?.label ?? "timer \(id.rawValue)"
    }

    /// Records an event whose times are the simulation's: the trace's are offset by the
    /// simulations before it. False when a full trace keeps no more.
    @discardableResult
    mutating func record(
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
            renderStarted(frame: frame, start: start, end: end)
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
        case .commit(let frame, let start, let end, let newestTick):
            committed(frame: frame, start: start, end: end, newestTick: newestTick)
        case .animationTick:
            break
        }
    }

    /// Where the ring's oldest record is: it wraps only when it keeps the newest.
    var ringStart: Int { keep == .first || ring.count < limit ? 0 : head }

    private func modeName(_ mode: RunLoopMode) -> Int32 {
        mode == .tracking ? Fixed.trackingMode.rawValue : Fixed.defaultMode.rawValue
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
            + mergedItems.values.reduce(0) { $0 + 32 + $1.count * MemoryLayout<TraceRecord>.stride }
            + frameDetails.count * (MemoryLayout<FrameDetail>.stride + 32) + delaySources.count * 16
            + (pendingCommits.count - pendingHead) * MemoryLayout<PendingCommit>.stride
    }

    /// The kept records, oldest first, each with its sequence number.
    func forEachRecord(_ body: (Int64, TraceRecord) throws -> Void) rethrows {
        let first = recorded - Int64(ring.count)
        try ring.forEach(from: ringStart) { k, record in try body(first + Int64(k), record) }
    }

    func extra(_ sequence: Int64) -> [(String, JSONValue)]? { extras[sequence] }
}
