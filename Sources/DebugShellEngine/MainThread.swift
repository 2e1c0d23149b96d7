import DebugShellCore
import DequeModule

/// A block on the main queue (RL3).
struct MainBlock {
    enum Kind {
        /// `stall`, or a tool's block with its action.
        case plain((() -> Void)?)
        /// A dispatch timer's handler (D5), by timer index.
        case dispatchHandler(Int)
    }
    var kind: Kind
    var cost: SimDuration
    var dirtiesUI: Bool
    var label: String
    var enqueuedAt: SimTime
    /// The tool that queued it (-1: debugsh's own), for a trap's last words.
    var tool: Int32 = -1
}

/// The ready sources of step 3, in their tie order (RL4.3).
enum ReadySource: Int {
    case timers = 0, links, mainQueue
}

/// The main thread: what it runs now and where it is in its run-loop iteration (RL4), its main
/// queue (RL3), the UI it will commit, its busy time and hangs (RL6), and what the app's own
/// items cost (`load frame`, `load commit`).
///
/// What here changes the thread's own state is a method of this type; starting an item, which
/// calls a tool's code and tells observers, is the engine's (DeviceEngine+MainThread.swift).
struct MainThread: ~Copyable {
    enum Running {
        case none, block, commit, timer, link
    }
    enum BatchKind { case none, drain, timers, links }

    /// The end of the current item, or of the last one.
    var busyUntil = SimTime.zero
    var running = Running.none
    var isRunning: Bool { running != .none }
    /// The running timer, link or dispatch handler (its index), or the running commit's frame.
    var runningIndex = -1
    var runningFrame: FrameDraft?
    /// Between step 2 and step 3 of an iteration: step 3 comes next (after the commit, if any).
    var inStep3 = false
    /// At the start of the simulation the previous iteration counts as not having drained.
    var lastIterationDrained = false
    /// Run-loop iterations begun so far (RL4): the current one's number.
    var iteration: Int64 = 0

    var batch = BatchKind.none
    var drainRemaining = 0
    /// Timers or links of the current wake-up, reused so a wake-up allocates nothing.
    var batchRecords = PodVector<Int>()
    var batchSlots: [VsyncGrid.Position] = []
    var batchIndex = 0
    /// When the current timer wake-up's source became ready.
    var batchReadyAt = SimTime.zero

    /// The main queue (RL3).
    var queue = Deque<MainBlock>()
    /// Whether the UI changed since the last commit (RL4.2).
    var uiDirty = false
    /// V5: the highest rate asked (before caps) by what dirtied the UI since the last commit: the
    /// frame's request.
    var pendingAsk: Int64 = 0
    /// The timestamp of the newest animation tick since the last commit (R3).
    var pendingTick: SimTime?
    var busyTime = BusyTime()
    var hangs: Int64 = 0

    /// The app's costs (`load`): each tick of the UI link, and the commit's phases (R6).
    var frameCost = SimDuration.zero
    var commitCost = SimDuration.zero
    var layoutCost = SimDuration.zero
    var displayCost = SimDuration.zero
    var prepareCost = SimDuration.zero
    /// Phase costs the UI's changes since the last commit added (a view's, R6).
    var extraPhases = FramePhases.zero
    /// The newest animation tick's item since the last commit (R8's app update).
    var pendingTickSpan: (start: SimTime, end: SimTime)?

    /// R8: from the vsync of the first animation tick since the last commit, the longest other
    /// main-thread item in the frame's way; nil while no tick waits.
    var watchFrom: SimTime?
    var longestWait: FrameDelay?
    /// Whether that item is an older animation tick (the app's update of a frame merged into this one).
    var longestWaitIsTick = false
    /// How much of the watch it took.
    var longestWaitOverlap = SimDuration.zero
    /// When the running item started, and a running plain block's label (R8).
    var runningStart = SimTime.zero
    var runningBlockLabel = ""
    /// The kind of the item begun last (running or over), and how many items have begun: what
    /// a breakpoint's stop says the main thread ran, read then rather than watched (DeviceEngine+Breakpoints.swift).
    var lastItem = Running.none
    var lastItemIteration: Int64 = 0
    var itemsBegun: Int64 = 0

    init() {}

    /// The UI changed (RL5), by something that asks `ask` of an adaptive display for the frame
    /// that shows it (V5): by default the system's default rate.
    @inline(__always) mutating func dirty(asking ask: Int64 = Display.systemDefaultRate) {
        uiDirty = true
        pendingAsk = max(pendingAsk, ask)
    }

    // MARK: Items

    /// Makes the thread busy with an item from `start` for `cost`; returns its end.
    @inline(__always)
    mutating func occupy(_ item: Running, index: Int, start: SimTime, cost: SimDuration) -> SimTime {
        let end = start + cost
        running = item
        runningIndex = index
        runningStart = start
        busyUntil = end
        lastItem = item
        lastItemIteration = iteration
        itemsBegun &+= 1
        if cost.nanoseconds >= 250_000_000 { hangs += 1 }  // RL6: Apple's hang threshold
        busyTime.add(start: start.nanoseconds, end: end.nanoseconds)
        return end
    }

    /// The animation tick at `timestamp` will be in the next commit (R3: its newest tick).
    mutating func noteTick(_ timestamp: SimTime) {
        if let tick = pendingTick { pendingTick = max(tick, timestamp) } else { pendingTick = timestamp }
    }

    /// R8: the tick the watch waited for does nothing (a replay's tick with no recorded frame):
    /// no frame is due from it, so nothing is in its way.
    mutating func endWatchIfNoFrameIsDue() {
        guard pendingTick == nil else { return }
        watchFrom = nil
        longestWait = nil
        longestWaitIsTick = false
        longestWaitOverlap = .zero
    }

    /// RL4.2: the frame a commit starting at `t` carries; the UI is clean again.
    mutating func takeFrame(id: Int64, at t: SimTime, counted: Bool) -> SimDuration {
        let frame = FrameDraft(id: id, commitStart: t, newestTick: pendingTick, counted: counted)
        if pendingAsk > 0 { frame.ask = pendingAsk }
        pendingAsk = 0
        frame.phases = FramePhases(
            update: pendingTickSpan.map { $0.end - $0.start } ?? .zero,
            layout: layoutCost + extraPhases.layout, display: displayCost + extraPhases.display,
            prepare: prepareCost + extraPhases.prepare, commit: commitCost + extraPhases.commit,
            gpu: extraPhases.gpu)
        frame.tickSpan = pendingTickSpan
        frame.waitedFor = longestWait
        frame.waitedForIsTick = longestWaitIsTick
        runningFrame = frame
        uiDirty = false
        pendingTick = nil
        pendingTickSpan = nil
        extraPhases = .zero
        watchFrom = nil
        longestWait = nil
        longestWaitOverlap = .zero
        return frame.phases.commitItem
    }

    /// R8: an item other than the frame's tick and commit ran from `start` to `end` while a frame
    /// was due: the longest is what delayed it.
    @inline(__always) mutating func noteWait(
        _ item: @autoclosure () -> FrameDelay, start: SimTime, end: SimTime, isTick: Bool = false
    ) {
        guard let from = watchFrom else { return }
        let overlap = end - max(start, from)
        if overlap > longestWaitOverlap {
            longestWait = item()
            longestWaitIsTick = isTick
            longestWaitOverlap = overlap
        }
    }

    /// Busy time in the last whole second before `now`, or nil before one has passed (RL6).
    func busyRatio(at now: SimTime) -> MetricNumber? {
        let second: Int64 = 1_000_000_000
        let k = now.nanoseconds / second
        guard k >= 1 else { return nil }
        let busy = busyTime.busy(from: (k - 1) * second, to: k * second)
        return MetricNumber(numerator: Int128(busy), denominator: Int128(second))
    }

    // MARK: Batches

    /// Drains a snapshot of the main queue: the blocks in it now, not those they add.
    mutating func beginDrain() {
        batch = .drain
        drainRemaining = queue.count
    }

    /// The next block of the drain; nil when it is over.
    mutating func nextDrainBlock() -> MainBlock? {
        guard drainRemaining > 0, let block = queue.popFirst() else {
            batch = .none
            return nil
        }
        drainRemaining -= 1
        if drainRemaining == 0 { batch = .none }
        return block
    }

    /// The next record of a timer or link batch, with its index in the batch; nil when the batch
    /// is over. The batch is over once its last record is taken.
    mutating func nextBatchRecord() -> (record: Int, position: Int)? {
        guard batchIndex < batchRecords.count else {
            batch = .none
            batchRecords.removeAll()
            return nil
        }
        let position = batchIndex
        let i = batchRecords[position]
        batchIndex += 1
        if batchIndex == batchRecords.count {
            // The last of the batch: the batch is over once it starts.
            batch = .none
            batchRecords.removeAll()
        }
        return (i, position)
    }
}
