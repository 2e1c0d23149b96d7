import DebugShellCore

/// A block on the main queue (RL3).
struct MainBlock {
    enum Kind {
        /// `stall`, or a tool's block with its action.
        case plain((() -> Void)?)
        /// A dispatch timer's handler (D5).
        case dispatchHandler(TimerRecord)
    }
    var kind: Kind
    var cost: SimDuration
    var dirtiesUI: Bool
    var label: String
    var enqueuedAt: SimTime
}

/// A frame on its way from a commit to the display (R1–R3).
struct FrameDraft {
    var id: Int64
    var commitStart: SimTime
    var commitEnd = SimTime.zero
    var newestTick: SimTime?
    /// The commit started during animating time (A2).
    var counted: Bool
    var merged = 1
}

/// The main thread: what it runs now and where it is in its run-loop iteration (RL4).
struct MainThreadState {
    enum Running {
        case none
        case block(MainBlock)
        case commit(FrameDraft)
        case timer(TimerRecord)
        case link(TimerRecord)
    }
    enum BatchKind { case none, drain, timers, links }

    /// The end of the current item, or of the last one.
    var busyUntil = SimTime.zero
    var running = Running.none
    var isRunning = false
    /// At the start of an iteration (steps 1–2 ahead), or in step 3.
    var atIterationStart = true
    /// At the start of the simulation the previous iteration counts as not having drained.
    var lastIterationDrained = false

    var batch = BatchKind.none
    var drainRemaining = 0
    /// Timers or links of the current wake-up, reused so a wake-up allocates nothing.
    var batchRecords: [TimerRecord] = []
    var batchSlots: [VsyncGrid.Position] = []
    var batchIndex = 0
    /// When the current timer wake-up's source became ready.
    var batchReadyAt = SimTime.zero
    /// A firing waiting for its item to end, for observers.
    var pendingFiring: TimerFiring?
}

/// The render server: a waiting frame and the one being rendered (R1, R2).
struct RenderServerState {
    var waiting: FrameDraft?
    var inFlight: (frame: FrameDraft, start: SimTime, end: SimTime)?
}

/// The ready sources of step 3, in their tie order (RL4.3).
enum ReadySource: Int {
    case timers = 0, links, mainQueue
}

extension DeviceEngine {
    // MARK: Step 6: run-loop iterations (RL4)

    /// Runs iterations while the main thread is free at `t` and has work.
    func runMainThread(at t: SimTime) {
        while true {
            if main.isRunning {
                if main.busyUntil > t { return }
                finishRunningItem(at: main.busyUntil)
            }
            if startNextBatchItem(at: t) { continue }
            if main.atIterationStart {
                // RL4.1: drain the main queue unless the previous iteration did.
                if !mainQueue.isEmpty && !main.lastIterationDrained {
                    main.batch = .drain
                    main.drainRemaining = mainQueue.count
                    main.lastIterationDrained = true
                    continue
                }
                main.atIterationStart = false
                // RL4.2: commit a dirty UI.
                if uiDirty {
                    startCommit(at: t)
                    continue
                }
            }
            // RL4.3: service the ready source of the current mode that became ready earliest.
            if let source = readySource(at: t) {
                main.atIterationStart = true
                main.lastIterationDrained = source == .mainQueue
                beginBatch(source, at: t)
                continue
            }
            // Asleep in step 3; a dirty UI (a command, a background handler) starts an iteration.
            if uiDirty {
                main.atIterationStart = true
                main.lastIterationDrained = false
                continue
            }
            return
        }
    }

    /// The mode classes serviced in the current mode: its own and `common` (RL1).
    @inline(__always) private var currentClasses: (Int, Int) {
        currentMode == .tracking ? (1, 2) : (0, 2)
    }

    private func readySource(at t: SimTime) -> ReadySource? {
        var best: ReadySource?
        var bestTime = Int64.max
        let (a, b) = currentClasses
        if let w = timerReadyTime(a, b), w <= t.nanoseconds {
            best = .timers
            bestTime = w
        }
        var linkTime = Int64.max
        if let first = filledLinks[a].first?.slot { linkTime = first.time }
        if let first = filledLinks[b].first?.slot, first.time < linkTime { linkTime = first.time }
        if linkTime < bestTime {
            best = .links
            bestTime = linkTime
        }
        if let block = mainQueue.first, block.enqueuedAt.nanoseconds < bestTime {
            best = .mainQueue
        }
        return best
    }

    /// When the timer source of the mode classes became ready: the earliest fire date of a due
    /// timer, or with coalescing the earliest fire date + tolerance (T5).
    private func timerReadyTime(_ a: Int, _ b: Int) -> Int64? {
        if dueTimers[a].isEmpty && dueTimers[b].isEmpty { return nil }
        var w = Int64.max
        if coalescing {
            for r in dueTimers[a] { w = min(w, (r.fireDate + r.slack).nanoseconds) }
            for r in dueTimers[b] { w = min(w, (r.fireDate + r.slack).nanoseconds) }
        } else {
            if let r = dueTimers[a].first { w = r.fireDate.nanoseconds }
            if let r = dueTimers[b].first { w = min(w, r.fireDate.nanoseconds) }
        }
        return w
    }

    private func beginBatch(_ source: ReadySource, at t: SimTime) {
        let (a, b) = currentClasses
        switch source {
        case .mainQueue:
            // RL4.3: drain a snapshot; this counts as a drain for step 1.
            main.batch = .drain
            main.drainRemaining = mainQueue.count
        case .timers:
            // T3: every due timer of the mode, in fire-date order (ties in creation order).
            main.batchReadyAt = SimTime(nanoseconds: timerReadyTime(a, b) ?? t.nanoseconds)
            main.batchRecords.removeAll(keepingCapacity: true)
            mergeDue(dueTimers[a], dueTimers[b], into: &main.batchRecords)
            dueTimers[a].removeAll(keepingCapacity: true)
            dueTimers[b].removeAll(keepingCapacity: true)
            var app = false
            for r in main.batchRecords {
                r.isDue = false
                if r.owner == .app { app = true }
            }
            countTimerWakeup(app: app)
            main.batch = .timers
            main.batchIndex = 0
        case .links:
            // DL8: one wake-up services every link of the mode with a pending callback; slots
            // empty when it starts; callbacks run in the order the links were added.
            main.batchRecords.removeAll(keepingCapacity: true)
            main.batchRecords.append(contentsOf: filledLinks[a])
            main.batchRecords.append(contentsOf: filledLinks[b])
            filledLinks[a].removeAll(keepingCapacity: true)
            filledLinks[b].removeAll(keepingCapacity: true)
            if main.batchRecords.count > 1 { main.batchRecords.sort { $0.id < $1.id } }
            main.batchSlots.removeAll(keepingCapacity: true)
            for r in main.batchRecords {
                main.batchSlots.append(r.slot ?? firstUnprocessedVsync())
                r.slot = nil
            }
            main.batch = .links
            main.batchIndex = 0
        }
    }

    private func mergeDue(_ x: [TimerRecord], _ y: [TimerRecord], into out: inout [TimerRecord]) {
        if y.isEmpty {
            out.append(contentsOf: x)
            return
        }
        if x.isEmpty {
            out.append(contentsOf: y)
            return
        }
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            let p = x[i]
            let q = y[j]
            if p.fireDate < q.fireDate || (p.fireDate == q.fireDate && p.id < q.id) {
                out.append(p)
                i += 1
            } else {
                out.append(q)
                j += 1
            }
        }
        out.append(contentsOf: x[i...])
        out.append(contentsOf: y[j...])
    }

    /// Starts the next item of the current batch; false when the batch is over.
    private func startNextBatchItem(at t: SimTime) -> Bool {
        switch main.batch {
        case .none:
            return false
        case .drain:
            guard main.drainRemaining > 0, let block = mainQueue.popFirst() else {
                main.batch = .none
                return false
            }
            main.drainRemaining -= 1
            if main.drainRemaining == 0 { main.batch = .none }
            startBlock(block, at: t)
            return true
        case .timers:
            guard main.batchIndex < main.batchRecords.count else {
                main.batch = .none
                main.batchRecords.removeAll(keepingCapacity: true)
                return false
            }
            let r = main.batchRecords[main.batchIndex]
            main.batchIndex += 1
            startTimerCallback(r, at: t)
            return true
        case .links:
            guard main.batchIndex < main.batchRecords.count else {
                main.batch = .none
                main.batchRecords.removeAll(keepingCapacity: true)
                return false
            }
            let r = main.batchRecords[main.batchIndex]
            let slot = main.batchSlots[main.batchIndex]
            main.batchIndex += 1
            startLinkCallback(r, slot: slot, at: t)
            return true
        }
    }

    // MARK: Items

    /// Makes the main thread busy with an item from `start` for `cost`.
    private func begin(_ item: MainThreadState.Running, kind: MainThreadItem.Kind, label: String, start: SimTime, cost: SimDuration) {
        let end = start + cost
        main.running = item
        main.isRunning = true
        main.busyUntil = end
        if cost.nanoseconds >= 250_000_000 { hangs += 1 }  // RL6: Apple's hang threshold
        busySpans.add(start: start.nanoseconds, end: end.nanoseconds)
        if wants(.mainItem) {
            notify(.mainItem, .mainItem(MainThreadItem(kind: kind, label: label, start: start, end: end)))
        }
    }

    private func startBlock(_ block: MainBlock, at t: SimTime) {
        switch block.kind {
        case .plain(let action):
            action?()
            if block.dirtiesUI { uiDirty = true }
            begin(.block(block), kind: .block, label: block.label, start: t, cost: block.cost)
        case .dispatchHandler(let r):
            r.handlerEnqueued = false
            // A cancelled or suspended source runs no handler (D4, D6).
            guard r.isActive, r.pendingData > 0 else { return }
            r.handlerRunning = true
            let (cost, firing) = invokeDispatchHandler(r, at: t)
            main.pendingFiring = firing
            begin(.block(block), kind: .dispatchHandler, label: r.label, start: t, cost: cost)
        }
    }

    private func startTimerCallback(_ r: TimerRecord, at t: SimTime) {
        guard r.isActive else { return }
        let scheduled = r.fireDate
        let lateness = t - scheduled
        var cause: LatenessCause?
        if lateness > .zero {
            // K2, first match: mode, busy, coalesced.
            if !r.mode.includes(mode(at: scheduled)) {
                cause = .mode
            } else if !coalescing || t > main.batchReadyAt {
                cause = .busy
            } else {
                cause = .coalesced
            }
        }
        r.fires += 1
        r.lastData = 1
        r.totalData += 1
        if lateness > r.maxLateness { r.maxLateness = lateness }
        var cost = r.cost
        if let callback = r.callback {
            cost = cost + callback(
                TimerCallback(
                    id: r.id, kind: .runLoopTimer, start: t, scheduled: scheduled, timestamp: scheduled,
                    targetTimestamp: scheduled, data: 1, invocation: r.fires))
        }
        if r.dirtiesUI { uiDirty = true }
        main.pendingFiring = nil
        if wants(.timerFired) {
            main.pendingFiring = TimerFiring(
            id: r.id, kind: .runLoopTimer, owner: r.owner, label: r.label, scheduled: scheduled, start: t,
            end: t + cost, lateness: lateness, cause: cause, data: 1, skipped: 0)
        }
        begin(.timer(r), kind: .timer, label: r.label, start: t, cost: cost)
    }

    private func startLinkCallback(_ r: TimerRecord, slot: VsyncGrid.Position, at t: SimTime) {
        guard r.isActive else { return }
        let timestamp = SimTime(nanoseconds: slot.time)
        var cost = r.cost
        if r.isUILink {
            // A1: a tick after the animation ended (a stale slot) does nothing.
            guard animations.contains(t.nanoseconds) else { return }
            cost = frameCost
            uiDirty = true
            if let tick = pendingTick { pendingTick = max(tick, timestamp) } else { pendingTick = timestamp }
            if wants(.animationTick) { notify(.animationTick, .animationTick(timestamp: timestamp, start: t)) }
        }
        let lateness = t - timestamp
        var cause: LatenessCause?
        if lateness > .zero {
            cause = r.mode.includes(mode(at: timestamp)) ? .busy : .mode
        }
        r.fires += 1
        r.lastData = 1
        r.totalData += 1
        if lateness > r.maxLateness { r.maxLateness = lateness }
        if !r.isUILink {
            if let callback = r.callback {
                let target = grid.nextOnGrid(after: slot, step: r.gridStep)
                cost = cost + callback(
                    TimerCallback(
                        id: r.id, kind: .displayLink, start: t, scheduled: timestamp, timestamp: timestamp,
                        targetTimestamp: SimTime(nanoseconds: target.time), data: 1, invocation: r.fires))
            }
            if r.dirtiesUI { uiDirty = true }
        }
        if wants(.timerFired) {
            main.pendingFiring = TimerFiring(
                id: r.id, kind: .displayLink, owner: r.owner, label: r.label, scheduled: timestamp, start: t,
                end: t + cost, lateness: lateness, cause: cause, data: 1, skipped: 0)
        }
        begin(.link(r), kind: .displayLink, label: r.label, start: t, cost: cost)
    }

    private func startCommit(at t: SimTime) {
        nextFrameID += 1
        let frame = FrameDraft(
            id: nextFrameID, commitStart: t, newestTick: pendingTick, counted: animations.contains(t.nanoseconds))
        uiDirty = false
        pendingTick = nil
        begin(.commit(frame), kind: .commit, label: "commit", start: t, cost: commitCost)
    }

    /// The end of the current item: what happens when it returns.
    private func finishRunningItem(at end: SimTime) {
        let running = main.running
        main.running = .none
        main.isRunning = false
        switch running {
        case .none:
            break
        case .block(let block):
            if case .dispatchHandler(let r) = block.kind {
                r.handlerRunning = false
                publishFiring()
                // D4: it runs again as soon as it returns if data is pending.
                if r.isActive && r.pendingData > 0 { enqueueHandler(r) }
            }
        case .commit(var frame):
            frame.commitEnd = end
            commits += 1
            if wants(.commit) {
                notify(.commit, .commit(frame: frame.id, start: frame.commitStart, end: end, newestTick: frame.newestTick))
            }
            handToRenderServer(frame)
        case .timer(let r):
            if r.state == .scheduled {
                if r.repeats {
                    // T4: the next fire date is the first grid point strictly after the callback
                    // returned; the points passed without a callback are skipped.
                    let next = r.gridPoint(after: end)
                    let skipped = max(0, r.gridPoints(after: r.fireDate, through: next) - 1)
                    r.skipped += skipped
                    main.pendingFiring?.skipped = skipped
                    r.fireDate = next
                    scheduleRunLoopTimer(r)
                } else {
                    r.state = .done  // T6
                    r.fireDate = .never
                }
            }
            publishFiring()
        case .link:
            publishFiring()
        }
    }

    private func publishFiring() {
        if let firing = main.pendingFiring {
            main.pendingFiring = nil
            if wants(.timerFired) { notify(.timerFired, .timerFired(firing)) }
        }
    }

    // MARK: The main queue

    func enqueue(_ block: MainBlock) {
        mainQueue.append(block)
    }

    func enqueueHandler(_ r: TimerRecord) {
        r.handlerEnqueued = true
        enqueue(MainBlock(kind: .dispatchHandler(r), cost: r.cost, dirtiesUI: r.dirtiesUI, label: r.label, enqueuedAt: now))
    }

    // MARK: The render server (R1–R3)

    private func handToRenderServer(_ frame: FrameDraft) {
        var frame = frame
        if let older = render.waiting {
            // R1: older waiting frames are merged into the newest.
            frame.merged += older.merged
            if let tick = older.newestTick { frame.newestTick = max(frame.newestTick ?? tick, tick) }
            frame.counted = frame.counted || older.counted
        }
        render.waiting = frame
        ensureVsync()
    }

    /// At a vsync: present the frame due (R2), then start a render if a frame waits (R1).
    func renderServerVsync(at t: SimTime) {
        if let flight = render.inFlight, t > flight.start, t >= flight.end {
            render.inFlight = nil
            present(flight.frame, start: flight.start, end: flight.end, at: t)
        }
        if render.inFlight == nil, let frame = render.waiting, frame.commitEnd < t {
            render.waiting = nil
            let end = t + gpuCost
            render.inFlight = (frame, t, end)
            if wants(.render) { notify(.render, .renderStarted(frame: frame.id, start: t, end: end)) }
        }
    }

    private func present(_ frame: FrameDraft, start s: SimTime, end e: SimTime, at p: SimTime) {
        presents += 1
        guard wants(.present) else { return }
        // R3: the expected present.
        let expected: SimTime
        var commitLate = false
        if let v = frame.newestTick {
            let vNext = vsync(after: v)
            expected = vsync(after: vNext)
            commitLate = frame.commitEnd >= vNext
        } else {
            expected = vsync(after: vsync(after: frame.commitEnd))
        }
        let info = PresentInfo(
            frame: frame.id, commitStart: frame.commitStart, commitEnd: frame.commitEnd, newestTick: frame.newestTick,
            renderStart: s, renderEnd: e, present: p, expectedPresent: expected, counted: frame.counted,
            commitLate: commitLate, renderLate: e > vsync(after: s), mergedFrames: frame.merged)
        notify(.present, .presented(info))
    }
}
