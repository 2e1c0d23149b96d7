import DebugShellCore

/// One view's change in one checker frame, for `layout diff`.
struct ViewChange: Sendable {
    /// Its name when it was removed; a live view's name is looked up by slot and serial.
    var name: String?
    var serial: UInt64
    var kinds: ChangeKinds
    /// Its properties before the frame's first change; nil when it was added in the frame.
    var before: ViewProperties?
    /// Its properties when the checker looked; nil when it was removed.
    var after: ViewProperties?
    /// Where it lives while the frame is open; −1 once removed.
    var slot: ViewSlot
    /// Its parent when the checker looked, for a view that moved.
    var parentName: String?
}

/// What one checker frame saw: the changes since the previous checker callback.
struct FrameChanges: Sendable {
    var time: SimTime
    /// Distinct views that changed.
    var views: Int
    /// The first ``SettleWatch/diffLimit`` of them, in the order they first changed.
    var changes: [ViewChange]
}

/// How often one view changed during a watch (the timeout diagnosis, L4).
struct ViewChangeStats: Sendable {
    var slot: ViewSlot
    var serial: UInt64
    /// Its name once it was removed.
    var name: String?
    var removed = false
    /// Checker frames in which it changed.
    var frames: Int64 = 0
    var kinds: ChangeKinds = []
    var first: SimTime
    var last: SimTime
}

/// Why a watch did not settle, as `layout show` and the `layout.timeout` event tell it.
struct Diagnosis: Sendable {
    struct Culprit: Sendable {
        var name: String
        var frames: Int64
        var kinds: ChangeKinds
        var last: SimTime
        /// What keeps changing it, when the tool knows (a spin, an animation).
        var cause: String?
        var removed: Bool
    }
    var culprits: [Culprit]
    /// Views that changed during the watch, in all.
    var changedViews: Int
    var callbacks: Int64
    var changedCallbacks: Int64
    var longestStill: SimDuration
    var states: StateSummary
}

/// Whether the subtree went back to earlier states: an oscillation or a cycle (a spinner's
/// twelve positions), counted over the digests the checker saw.
struct StateSummary: Sendable {
    var distinct: Int
    /// Whether more distinct states were seen than are tracked.
    var overflow: Bool
    /// Checker frames that found the subtree in a state it had been in before.
    var recurrences: Int64
    /// Frames between the last recurrence and the earlier sighting of that state.
    var lastPeriod: Int64?

    /// A phrase: `cycles through 12 states (a state recurs every 12 frames)`.
    var text: String {
        if recurrences > 0 && !overflow && distinct <= SettleWatch.fewStates {
            let period = lastPeriod.map { ", a state recurs every \($0) frame\($0 == 1 ? "" : "s")" } ?? ""
            return distinct == 2
                ? "oscillates between 2 states\(period)" : "cycles through \(distinct) states\(period)"
        }
        let states = "\(overflow ? "more than " : "")\(distinct) distinct state\(distinct == 1 && !overflow ? "" : "s")"
        if recurrences > 0 { return "revisits earlier states but takes \(states)" }
        return "does not repeat: \(states)"
    }

    /// Whether it is a small cycle.
    var oscillates: Bool { recurrences > 0 && !overflow && distinct <= SettleWatch.fewStates }
}

/// One `layout watch`: the checker's configuration, its link and poll timer, and what it saw.
final class SettleWatch {
    enum Mode: String, CommandLineChoice { case quiet, seed }
    enum State: String, CaseIterable { case settling, settled, timeout, stopped }

    /// Changes per frame kept for `layout diff`.
    static let diffLimit = 1_000
    /// Distinct subtree states remembered for the oscillation test.
    static let stateLimit = 4_096
    /// Up to this many distinct states, a tree that revisits states "oscillates".
    static let fewStates = 16

    let root: ViewSlot
    let rootName: String
    let mode: Mode
    let quiet: SimDuration
    let timeout: SimDuration
    let poll: SimDuration
    let leeway: SimDuration
    /// L3's per-view figure: per view of the subtree (seed) or per changed view (quiet).
    let costPerView: SimDuration
    let start: SimTime

    var state = State.settling
    var link: TimerID?
    var pollTimer: TimerID?
    /// When the watch ended: settled, timed out or stopped.
    var settledAt: SimTime?
    var endedAt: SimTime?
    /// Why it stopped early, if it did (its root was removed).
    var stopReason: String?
    /// Its root was removed: nothing is watched any more.
    var detached = false

    // What the checker saw.
    var lastChange: SimTime
    var lastChangedName: String?
    var longestStill = SimDuration.zero
    var callbacks: Int64 = 0
    var changedCallbacks: Int64 = 0
    var totalCost = SimDuration.zero
    var lastFrame: FrameChanges?
    /// Where each view of `lastFrame` stands in its list.
    var lastFrameIndex: [ViewSlot: Int] = [:]

    // The changes since the previous checker callback.
    var pendingViews = 0
    var pendingChanges: [ViewChange] = []
    var pendingIndex: [ViewSlot: Int] = [:]

    // Per view, for the diagnosis.
    /// One entry per view that changed during the watch, removed ones included.
    var stats: [ViewChangeStats] = []
    /// The entry of each live view in `stats`.
    var statsIndex: [ViewSlot: Int32] = [:]
    var changedViews: Int { stats.count }

    // L2: the seed's stored snapshot and sticky flag.
    var snapshot: UInt64?
    var flag = false
    var flagSetAt: SimTime?

    // Subtree states at changed frames.
    var states: [UInt64: Int64] = [:]
    var statesOverflow = false
    var recurrences: Int64 = 0
    var lastPeriod: Int64?

    // Changes after the watch ended (a seed checker that settled too early).
    var lateChanges: Int64 = 0
    var lateLast: SimTime?
    var lateName: String?

    var diagnosis: Diagnosis?

    init(
        root: ViewSlot, rootName: String, mode: Mode, quiet: SimDuration, timeout: SimDuration, poll: SimDuration,
        leeway: SimDuration, costPerView: SimDuration, start: SimTime, digest: UInt64
    ) {
        self.root = root
        self.rootName = rootName
        self.mode = mode
        self.quiet = quiet
        self.timeout = timeout
        self.poll = poll
        self.leeway = leeway
        self.costPerView = costPerView
        self.start = start
        // L4: the last change starts at the watch time.
        self.lastChange = start
        states[digest] = 0
    }

    /// The fixed part of a quiet-mode callback's cost (L3).
    static let quietBaseCost = SimDuration.nanoseconds(200)
    static let quietPerChangedView = SimDuration.nanoseconds(50)
    static let seedPerView = SimDuration.nanoseconds(500)

    // MARK: - Recording changes

    /// Whether ``note(_:serial:name:kinds:before:first:at:)`` needs the view's name: only for a
    /// removed view or a change after settling. Live views are named when shown, so the checker's
    /// frames make no strings.
    func needsName(kinds: ChangeKinds) -> Bool {
        switch state {
        case .settling: return kinds.contains(.removed)
        case .settled: return true
        case .timeout, .stopped: return false
        }
    }

    /// Notes one L1 change of a view in the watched subtree at `time`.
    ///
    /// - Parameters:
    ///   - name: the view's name when ``needsName(kinds:first:)`` says so.
    ///   - first: whether it is the view's first change since the last checker callback.
    ///   - before: its properties before the change (nil for an added view).
    func note(
        _ slot: ViewSlot, serial: UInt64, name: String?, kinds: ChangeKinds, before: ViewProperties?, first: Bool,
        at time: SimTime
    ) {
        guard state == .settling else {
            // Only a settled watch cares: a change after it reported is a false "settled".
            guard state == .settled else { return }
            lateChanges += 1
            lateLast = time
            lateName = name
            return
        }
        // L4: the last change moves; the longest still period is the gap it closes.
        longestStill = max(longestStill, time - lastChange)
        lastChange = time
        // The statistics live in an array: a dictionary's in-place modify is far slower here.
        let entry: Int
        if let index = statsIndex[slot] {
            entry = Int(index)
        } else {
            entry = stats.count
            statsIndex[slot] = Int32(entry)
            stats.append(ViewChangeStats(slot: slot, serial: serial, first: time, last: time))
        }
        stats[entry].kinds.formUnion(kinds)
        stats[entry].last = time
        if first {
            pendingViews += 1
            stats[entry].frames += 1
            if pendingChanges.count < SettleWatch.diffLimit {
                pendingIndex[slot] = pendingChanges.count
                pendingChanges.append(
                    ViewChange(name: name, serial: serial, kinds: kinds, before: before, after: nil, slot: slot))
            }
        } else if let index = pendingIndex[slot] {
            pendingChanges[index].kinds.formUnion(kinds)
        }
        if kinds.contains(.removed) {
            if let index = pendingIndex.removeValue(forKey: slot) {
                pendingChanges[index].slot = -1
                pendingChanges[index].name = name
            }
            statsIndex.removeValue(forKey: slot)
            stats[entry].removed = true
            stats[entry].name = name
        }
        lastChangedSlot = slot
        lastChangedName = kinds.contains(.removed) ? name : nil
    }

    /// The slot of the view that changed last; its name is looked up when shown, unless it was
    /// removed (then ``lastChangedName`` holds it).
    var lastChangedSlot: ViewSlot = -1

    /// Keeps the name of a view that goes away where the watch still refers to it by slot.
    func viewWillGo(_ slot: ViewSlot, name: () -> String) {
        if let entry = statsIndex.removeValue(forKey: slot) {
            stats[Int(entry)].removed = true
            stats[Int(entry)].name = stats[Int(entry)].name ?? name()
        }
        if lastChangedSlot == slot && lastChangedName == nil { lastChangedName = name() }
        if let index = lastFrameIndex.removeValue(forKey: slot), lastFrame?.changes[index].name == nil {
            lastFrame?.changes[index].name = name()
        }
    }

    /// The name of the view that changed last, if any changed.
    func lastChangedView(in tree: ViewTree) -> String? {
        if let lastChangedName { return lastChangedName }
        return tree.isAlive(lastChangedSlot) ? tree.name(lastChangedSlot) : nil
    }

    /// Closes the frame at a checker callback: returns the distinct views that changed. The
    /// caller has filled in the pending changes' `after` values.
    func closeFrame(at time: SimTime, digest: UInt64) -> Int {
        callbacks += 1
        let changed = pendingViews
        guard changed > 0 else { return 0 }
        // The frame's list becomes `lastFrame`; the previous one's storage is reused.
        var spare = lastFrame?.changes ?? []
        lastFrame = nil
        spare.removeAll(keepingCapacity: true)
        swap(&spare, &pendingChanges)
        lastFrame = FrameChanges(time: time, views: changed, changes: spare)
        swap(&lastFrameIndex, &pendingIndex)
        pendingViews = 0
        pendingIndex.removeAll(keepingCapacity: true)
        recordState(digest)
        return changed
    }

    private func recordState(_ digest: UInt64) {
        let index = callbacks
        if let seen = states[digest] {
            recurrences += 1
            lastPeriod = index - seen
            states[digest] = index
        } else if states.count < SettleWatch.stateLimit {
            states[digest] = index
        } else {
            statesOverflow = true
        }
    }

    var stateSummary: StateSummary {
        StateSummary(distinct: states.count, overflow: statesOverflow, recurrences: recurrences, lastPeriod: lastPeriod)
    }
}
