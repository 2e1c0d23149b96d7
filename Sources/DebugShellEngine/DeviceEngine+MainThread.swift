import DebugShellCore

/// The main thread driven by the engine: run-loop iterations (RL4), the items they start — which
/// call tools' callbacks and tell observers — and the ends of those items. Its state and what
/// changes that state alone are ``MainThread``'s.
extension DeviceEngine {
    // MARK: Step 6: run-loop iterations (RL4)

    /// Runs iterations while the main thread is free at `t` and has work (RL4).
    ///
    /// Every iteration starts at step 1; one that finds no ready source in step 3 ends, and the
    /// thread sleeps until there is work again, keeping its record of whether the last iteration
    /// drained the main queue.
    func runMainThread(at t: SimTime) {
        while true {
            if main.running != .none {
                if main.busyUntil > t { return }
                finishRunningItem(at: main.busyUntil)
            }
            if startNextBatchItem(at: t) { continue }
            if main.inStep3 {
                // RL4.3: service the ready source of the current mode that became ready earliest.
                main.inStep3 = false
                if let (source, readyAt) = readySource(at: t) {
                    main.lastIterationDrained = source == .mainQueue
                    beginBatch(source, readyAt: readyAt, at: t)
                } else {
                    main.lastIterationDrained = false
                }
                continue  // its batch runs; then the iteration is over
            }
            guard hasWork(at: t) else { return }
            main.iteration &+= 1
            // RL4.1: drain the main queue unless the previous iteration did; the iteration ends.
            if !main.queue.isEmpty && !main.lastIterationDrained {
                main.beginDrain()
                main.lastIterationDrained = true
                continue
            }
            main.inStep3 = true
            // RL4.2: commit a dirty UI; step 3 follows when the commit ends.
            if main.uiDirty { startCommit(at: t) }
        }
    }

    /// The most common event: a run-loop timer comes due while the main thread sleeps with
    /// nothing else to do and nothing else happens at this instant. RL4 then reduces to one
    /// iteration whose step 3 services this timer alone (T3), so its callback starts now.
    ///
    /// - Returns: false when the general path must handle the entry.
    @inline(__always)
    func runLoopTimerFiresAtOnce(_ entry: EventQueue.Entry, at t: Int64) -> Bool {
        let i = Int(EventKey.id(entry.key))
        guard !referenceMode, i < timers.count, !timers.coalescing, main.batch == .none, !main.inStep3,
            !main.uiDirty, main.queue.isEmpty, queue.isOnlyEntry(atOrBefore: t)
        else { return false }
        let r = timers.record(i)
        guard r.pointee.eventTime == entry.time, r.pointee.state == .scheduled,
            r.pointee.mode == .common || r.pointee.mode == runLoop.mode,
            main.running == .none || main.busyUntil.nanoseconds <= t
        else { return false }
        let (a, b) = runLoop.currentClasses
        guard timers.due.isEmpty(a), timers.due.isEmpty(b), timers.filledLinks.isEmpty(a), timers.filledLinks.isEmpty(b)
        else {
            return false
        }
        // A previous item that ended quietly (nothing waited for its end) is over.
        if main.running != .none {
            guard !mainItemEndMatters else { return false }
            finishRunningItem(at: main.busyUntil)
        }
        r.pointee.eventTime = Int64.max
        main.iteration &+= 1
        main.lastIterationDrained = false
        main.batchReadyAt = r.pointee.fireDate
        timers.countWakeup(app: r.pointee.isApp)
        if r.pointee.hasCallback {
            // A tool's callback may queue events: take the entry off first.
            queue.popTop()
            startTimerCallback(i, at: SimTime(nanoseconds: t))
        } else if r.pointee.fireDate.nanoseconds == t && r.pointee.repeats {
            fireOnTime(i, r, at: t)
        } else {
            startTimerCallback(i, at: SimTime(nanoseconds: t), replacingTop: true)
        }
        return true
    }

    /// ``startTimerCallback(_:at:replacingTop:)`` for a repeating run-loop timer without a
    /// callback that fires at its fire date, its entry still the queue's top: no lateness, no
    /// cause (K2); the next fire date is one interval on unless the callback outlasts it (T4).
    @inline(__always)
    private func fireOnTime(_ i: Int, _ r: UnsafeMutablePointer<TimerRecord>, at t: Int64) {
        let fires = r.pointee.fires &+ 1
        r.pointee.fires = fires
        let cost = r.pointee.cost
        if r.pointee.dirtiesUI { main.dirty() }
        let end = (SimTime(nanoseconds: t) + cost).nanoseconds
        r.pointee.handlerBusyUntil = SimTime(nanoseconds: end)
        let skipped = r.pointee.advanceAfterCallback(scheduled: SimTime(nanoseconds: t), end: SimTime(nanoseconds: end))
        scheduleRunLoopTimer(i, replacingTop: true)
        begin(
            .timer, index: i, kind: .timer, label: timers[i].label, start: SimTime(nanoseconds: t), cost: cost)
        // On its grid (skipping nothing) only observers of every firing hear of it.
        let kinds: ObservationKinds = skipped > 0 ? [.timerFired, .timerFiredOffGrid] : .timerFired
        if wants(kinds) {
            notify(
                kinds,
                .timerFired(
                    TimerFiring(
                        id: TimerID(rawValue: i), kind: .runLoopTimer, number: fires,
                        scheduled: SimTime(nanoseconds: t), start: SimTime(nanoseconds: t),
                        end: SimTime(nanoseconds: end), lateness: .zero, cause: nil, data: 1, skipped: skipped)))
        }
    }

    /// Work for the main thread: main-queue blocks, a dirty UI, or a ready source of the mode.
    @inline(__always) private func hasWork(at t: SimTime) -> Bool {
        if main.uiDirty || !main.queue.isEmpty { return true }
        let (a, b) = runLoop.currentClasses
        if timers.filledLinks.isEmpty(a) && timers.filledLinks.isEmpty(b) && timers.due.isEmpty(a)
            && timers.due.isEmpty(b)
        {
            return false
        }
        return readySource(at: t) != nil
    }

    private func readySource(at t: SimTime) -> (ReadySource, Int64)? {
        var best: ReadySource?
        var bestTime = Int64.max
        let (a, b) = runLoop.currentClasses
        if let w = timers.readyTime(a, b), w <= t.nanoseconds {
            best = .timers
            bestTime = w
        }
        var linkTime = Int64.max
        if let first = timers.filledLinks.first(a), let slot = timers[first].slot { linkTime = slot.time }
        if let first = timers.filledLinks.first(b), let slot = timers[first].slot, slot.time < linkTime {
            linkTime = slot.time
        }
        if linkTime < bestTime {
            best = .links
            bestTime = linkTime
        }
        if let block = main.queue.first, block.enqueuedAt.nanoseconds < bestTime {
            best = .mainQueue
            bestTime = block.enqueuedAt.nanoseconds
        }
        return best.map { ($0, bestTime) }
    }

    private func beginBatch(_ source: ReadySource, readyAt: Int64, at t: SimTime) {
        let (a, b) = runLoop.currentClasses
        switch source {
        case .mainQueue:
            // RL4.3: drain a snapshot; this counts as a drain for step 1.
            main.beginDrain()
        case .timers:
            // T3: every due timer of the mode, in fire-date order (ties in creation order).
            main.batchReadyAt = SimTime(nanoseconds: readyAt)
            main.batchRecords.removeAll()
            if timers.due.isEmpty(b) {
                timers.due.swap(a, with: &main.batchRecords)
            } else if timers.due.isEmpty(a) {
                timers.due.swap(b, with: &main.batchRecords)
            } else {
                mergeDue(a, b)
                timers.due.removeAll(a)
                timers.due.removeAll(b)
            }
            var app = false
            for k in 0..<main.batchRecords.count {
                let i = main.batchRecords[k]
                timers[i].isDue = false
                if timers[i].isApp { app = true }
            }
            timers.countWakeup(app: app)
            main.batch = .timers
            main.batchIndex = 0
        case .links:
            // DL8: one wake-up services every link of the mode with a pending callback; slots
            // empty when it starts; callbacks run in the order the links were added.
            main.batchRecords.removeAll()
            for k in 0..<timers.filledLinks.count(a) { main.batchRecords.append(timers.filledLinks.element(a, k)) }
            for k in 0..<timers.filledLinks.count(b) { main.batchRecords.append(timers.filledLinks.element(b, k)) }
            timers.filledLinks.removeAll(a)
            timers.filledLinks.removeAll(b)
            if main.batchRecords.count > 1 {
                main.batchRecords.withBuffer { buffer in
                    var records = buffer
                    records.sort()
                }
            }
            main.batchSlots.removeAll(keepingCapacity: true)
            for k in 0..<main.batchRecords.count {
                let i = main.batchRecords[k]
                main.batchSlots.append(timers[i].slot ?? firstUnprocessedVsync())
                timers[i].slot = nil
            }
            main.batch = .links
            main.batchIndex = 0
        }
    }

    /// Merges the due timers of two mode classes into the batch by (fire date, id).
    private func mergeDue(_ a: Int, _ b: Int) {
        var i = 0
        var j = 0
        let na = timers.due.count(a)
        let nb = timers.due.count(b)
        while i < na && j < nb {
            let x = timers.due.element(a, i)
            let y = timers.due.element(b, j)
            let p = timers[x].fireDate
            let q = timers[y].fireDate
            if p < q || (p == q && x < y) {
                main.batchRecords.append(x)
                i += 1
            } else {
                main.batchRecords.append(y)
                j += 1
            }
        }
        while i < na {
            main.batchRecords.append(timers.due.element(a, i))
            i += 1
        }
        while j < nb {
            main.batchRecords.append(timers.due.element(b, j))
            j += 1
        }
    }

    /// Starts the next item of the current batch; false when the batch is over.
    private func startNextBatchItem(at t: SimTime) -> Bool {
        switch main.batch {
        case .none:
            return false
        case .drain:
            guard let block = main.nextDrainBlock() else { return false }
            startBlock(block, at: t)
            return true
        case .timers:
            guard let (i, _) = main.nextBatchRecord() else { return false }
            startTimerCallback(i, at: t)
            return true
        case .links:
            guard let (i, k) = main.nextBatchRecord() else { return false }
            startLinkCallback(i, slot: main.batchSlots[k], at: t)
            return true
        }
    }

    // MARK: Items

    /// Makes the main thread busy with an item from `start` for `cost`.
    @inline(__always)
    private func begin(
        _ item: MainThread.Running, index: Int, kind: MainThreadItem.Kind, label: @autoclosure () -> String,
        start: SimTime, cost: SimDuration
    ) {
        let end = main.occupy(item, index: index, start: start, cost: cost)
        // R8: while a frame is due, the longest other item is what delayed it.
        // The commit starting now is its own frame's (its watch is over): one noted here is an
        // older frame's, in the way of the next.
        if main.watchFrom != nil && !(item == .link && index == uiLink) {
            main.noteWait(
                FrameDelay(
                    kind: FrameDelay.Kind(kind),
                    label: item == .commit ? main.runningFrame.map { "\($0.id)" } ?? "" : label(), start: start,
                    end: end), start: start, end: end)
        }
        if wants(.mainItem) {
            notify(
                .mainItem,
                .mainItem(
                    MainThreadItem(kind: kind, label: label(), start: start, end: end, iteration: main.iteration)))
        }
    }

    private func startBlock(_ block: MainBlock, at t: SimTime) {
        switch block.kind {
        case .plain(let action):
            if let action {
                let saved = enter(.mainBlock, tool: block.tool, detail: -1, at: t)
                action()
                leave(saved)
            }
            if block.dirtiesUI { main.dirty() }
            main.runningBlockLabel = block.label
            begin(.block, index: -1, kind: .block, label: block.label, start: t, cost: block.cost)
        case .dispatchHandler(let i):
            timers[i].handlerEnqueued = false
            // A cancelled or suspended source runs no handler (D4, D6).
            guard timers[i].state == .scheduled, timers[i].pendingData > 0 else { return }
            timers[i].handlerRunning = true
            let firing = invokeDispatchHandler(i, at: t)
            begin(.block, index: i, kind: .dispatchHandler, label: timers[i].label, start: t, cost: firing.cost)
            publish(firing)
        }
    }

    /// Starts a run-loop timer's callback. With `replacingTop`, the timer's due entry is still the
    /// queue's top (the caller checked that no callback can push before it is replaced).
    func startTimerCallback(_ i: Int, at t: SimTime, replacingTop: Bool = false) {
        guard timers[i].state == .scheduled else {
            if replacingTop { queue.popTop() }
            return
        }
        let scheduled = timers[i].fireDate
        let lateness = t - scheduled
        var cause: LatenessCause?
        if lateness > .zero {
            // K2, first match: mode, busy, coalesced.
            if !timers[i].mode.includes(mode(at: scheduled)) {
                cause = .mode
            } else if !timers.coalescing || t > main.batchReadyAt {
                cause = .busy
            } else {
                cause = .coalesced
            }
            if lateness > timers[i].maxLateness { timers[i].maxLateness = lateness }
        }
        timers[i].fires += 1
        var cost = timers[i].cost
        if timers[i].hasCallback, let callback = timers[i].callback {
            let saved = enter(.runLoopTimer, tool: timers[i].tool, detail: i, at: t)
            cost =
                cost
                + callback(
                    TimerCallback(
                        id: TimerID(rawValue: i), kind: .runLoopTimer, start: t, scheduled: scheduled,
                        timestamp: scheduled,
                        targetTimestamp: scheduled, duration: timers[i].interval, data: 1,
                        invocation: timers[i].fires))
            leave(saved)
        }
        if timers[i].dirtiesUI { main.dirty() }
        // T4: the next fire date is the first grid point strictly after the callback returns,
        // which is known now; points passed without a callback are skipped. T6: a one-shot is done.
        let end = t + cost
        timers[i].handlerBusyUntil = end
        var skipped: Int64 = 0
        if timers[i].state == .scheduled {
            if timers[i].repeats {
                skipped = timers[i].advanceAfterCallback(scheduled: scheduled, end: end)
                scheduleRunLoopTimer(i, replacingTop: replacingTop)
            } else {
                timers[i].state = .done
                timers[i].fireDate = .never
                if replacingTop { queue.popTop() }
            }
        } else if replacingTop {
            queue.popTop()
        }
        begin(.timer, index: i, kind: .timer, label: timers[i].label, start: t, cost: cost)
        // On its grid (on time, skipping nothing) only observers of every firing hear of it.
        let kinds: ObservationKinds = lateness > .zero || skipped > 0 ? [.timerFired, .timerFiredOffGrid] : .timerFired
        if wants(kinds) {
            notify(
                kinds,
                .timerFired(
                    TimerFiring(
                        id: TimerID(rawValue: i), kind: .runLoopTimer, number: timers[i].fires, scheduled: scheduled,
                        start: t, end: end, lateness: lateness, cause: cause, data: 1, skipped: skipped)))
        }
    }

    private func startLinkCallback(_ i: Int, slot: VsyncGrid.Position, at t: SimTime) {
        guard timers[i].state == .scheduled else { return }
        let timestamp = SimTime(nanoseconds: slot.time)
        var cost = timers[i].cost
        let isUILink = i == uiLink
        if isUILink {
            // A1: a tick that runs after its own animation ended (a stale slot) does nothing, even
            // while a later animation runs: the stretch of animating time that holds its timestamp
            // must still hold now.
            guard runLoop.animations.covers(from: timestamp.nanoseconds, through: t.nanoseconds) else { return }
            cost = main.frameCost
            if script.isActive {
                // A replay: the tick carries a recorded frame's costs, or does nothing.
                guard let frame = script.frame(at: t, period: framePeriod) else {
                    main.endWatchIfNoFrameIsDue()
                    return
                }
                cost = cost + frame.update
                main.extraPhases.commit = main.extraPhases.commit + frame.commit
                main.extraPhases.gpu = main.extraPhases.gpu + frame.render
            }
            // V5: its frame asks what the animations ticking it ask.
            main.dirty(asking: animationAsk(at: timestamp.nanoseconds))
            main.noteTick(timestamp)
            // R8: an older tick of the same frame is other work in its way.
            if let older = main.pendingTickSpan {
                main.noteWait(
                    FrameDelay(kind: .displayLink, label: timers[i].label, start: older.start, end: older.end),
                    start: older.start, end: older.end, isTick: true)
            }
            main.pendingTickSpan = (t, t + cost)
            if wants(.animationTick) { notify(.animationTick, .animationTick(timestamp: timestamp, start: t)) }
        }
        let lateness = t - timestamp
        var cause: LatenessCause?
        if lateness > .zero {
            cause = timers[i].mode.includes(mode(at: timestamp)) ? .busy : .mode
            if lateness > timers[i].maxLateness { timers[i].maxLateness = lateness }
        }
        timers[i].fires += 1
        if !isUILink {
            if timers[i].hasCallback, let callback = timers[i].callback {
                let target = display.grid.nextOnGrid(after: slot, step: timers[i].gridStep)
                let saved = enter(.displayLink, tool: timers[i].tool, detail: i, at: t)
                cost =
                    cost
                    + callback(
                        TimerCallback(
                            id: TimerID(rawValue: i), kind: .displayLink, start: t, scheduled: timestamp,
                            timestamp: timestamp,
                            targetTimestamp: SimTime(nanoseconds: target.time),
                            duration: display.grid.period(segment: slot.segment), data: 1,
                            invocation: timers[i].fires))
                leave(saved)
            }
            // V5: a frame whose content a link's callback changed asks what the link asks.
            if timers[i].dirtiesUI { main.dirty(asking: linkAsk(i)) }
        }
        begin(.link, index: i, kind: .displayLink, label: timers[i].label, start: t, cost: cost)
        if wants([.timerFired, .timerFiredOffGrid]) {
            notify(
                [.timerFired, .timerFiredOffGrid],
                .timerFired(
                    TimerFiring(
                        id: TimerID(rawValue: i), kind: .displayLink, number: timers[i].fires, scheduled: timestamp,
                        start: t, end: t + cost, lateness: lateness, cause: cause, data: 1, skipped: 0)))
        }
    }

    private func startCommit(at t: SimTime) {
        let id = render.nextFrameID()
        let tick = main.pendingTickSpan
        let cost = main.takeFrame(id: id, at: t, counted: runLoop.animations.contains(t.nanoseconds))
        // R8: a tick already waits (its slot filled while this frame's work ran): its frame is due
        // from that vsync, and this frame's tick and commit are in its way.
        if let slot = timers[uiLink].slot {
            watchFrameWait(from: SimTime(nanoseconds: slot.time))
            if let tick {
                main.noteWait(
                    FrameDelay(kind: .displayLink, label: timers[uiLink].label, start: tick.start, end: tick.end),
                    start: tick.start, end: tick.end, isTick: true)
            }
        }
        begin(.commit, index: -1, kind: .commit, label: "commit", start: t, cost: cost)
    }

    /// The end of the current item: what happens when it returns.
    func finishRunningItem(at end: SimTime) {
        let running = main.running
        let i = main.runningIndex
        main.running = .none
        switch running {
        case .none:
            break
        case .block:
            guard i >= 0 else { break }
            timers[i].handlerRunning = false
            // D4: it runs again as soon as it returns if data is pending.
            if timers[i].state == .scheduled && timers[i].pendingData > 0 { enqueueHandler(i) }
        case .commit:
            guard let frame = main.runningFrame else { break }
            main.runningFrame = nil
            frame.commitEnd = end
            render.commits += 1
            if wants(.commit) {
                notify(
                    .commit, .commit(frame: frame.id, start: frame.commitStart, end: end, newestTick: frame.newestTick))
            }
            handToRenderServer(frame)
        case .timer, .link:
            break
        }
    }

    /// R8: a frame is due from the vsync `v` of its first animation tick: the item running then
    /// is the first in its way.
    func watchFrameWait(from v: SimTime) {
        guard main.watchFrom == nil else { return }
        main.watchFrom = v
        guard main.running != .none, main.busyUntil > v else { return }
        let i = main.runningIndex
        let item: FrameDelay
        switch main.running {
        case .none: return
        case .commit:
            item = FrameDelay(
                kind: .commit, label: main.runningFrame.map { "\($0.id)" } ?? "", start: main.runningStart,
                end: main.busyUntil)
        case .block:
            item =
                i >= 0
                ? FrameDelay(
                    kind: .dispatchHandler, label: timers[i].label, start: main.runningStart, end: main.busyUntil)
                : FrameDelay(kind: .block, label: main.runningBlockLabel, start: main.runningStart, end: main.busyUntil)
        case .timer:
            item = FrameDelay(kind: .timer, label: timers[i].label, start: main.runningStart, end: main.busyUntil)
        case .link:
            item = FrameDelay(kind: .displayLink, label: timers[i].label, start: main.runningStart, end: main.busyUntil)
        }
        main.noteWait(item, start: item.start, end: item.end, isTick: main.running == .link && i == uiLink)
    }

    // MARK: The main queue

    func enqueue(_ block: MainBlock) {
        main.queue.append(block)
    }

    func enqueueHandler(_ i: Int) {
        timers[i].handlerEnqueued = true
        enqueue(
            MainBlock(kind: .dispatchHandler(i), cost: timers[i].cost, dirtiesUI: false, label: "", enqueuedAt: now))
    }
}
