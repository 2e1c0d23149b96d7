import DebugShellCore

extension DeviceEngine {
    // MARK: Creating timers and links

    private func makeRecord(_ kind: TimerKind, owner: TimerOwner, label: String, cost: SimDuration, dirtiesUI: Bool)
        -> TimerRecord
    {
        let r = TimerRecord(
            id: TimerID(rawValue: timers.count), kind: kind, owner: owner, label: label, cost: max(.zero, cost),
            dirtiesUI: dirtiesUI)
        timers.append(r)
        return r
    }

    public func addDisplayLink(_ config: DisplayLinkConfig, callback: TimerCallbackHandler?) -> TimerID {
        let r = makeRecord(.displayLink, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        r.mode = config.mode
        r.preferredFramesPerSecond = max(0, config.preferredFramesPerSecond)
        r.callback = callback
        // DL5: its first slot is its first grid vsync at or after now.
        activeLinks.append(r)
        ensureVsync()
        return r.id
    }

    public func addRunLoopTimer(_ config: RunLoopTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        let r = makeRecord(.runLoopTimer, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        r.mode = config.mode
        r.interval = max(SimDuration(nanoseconds: 1), config.interval)
        r.repeats = config.repeats
        // T5: tolerance is clamped to half the interval for repeating timers.
        let limit = config.repeats ? SimDuration(nanoseconds: r.interval.nanoseconds / 2) : r.interval
        r.slack = min(max(.zero, config.tolerance), limit)
        r.callback = callback
        // T1: the first fire date is now + interval.
        r.gridOrigin = now + r.interval
        r.fireDate = r.gridOrigin
        scheduleRunLoopTimer(r)
        return r.id
    }

    public func addDispatchTimer(_ config: DispatchTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        let r = makeRecord(.dispatchTimer, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        r.queue = config.queue
        r.interval = max(SimDuration(nanoseconds: 1), config.interval)
        r.repeats = !config.once
        // D2: leeway is clamped to half the interval for repeating timers.
        r.slack = r.repeats ? min(max(.zero, config.leeway), SimDuration(nanoseconds: r.interval.nanoseconds / 2)) : max(.zero, config.leeway)
        r.handlerLimit = config.once ? 1 : Int64(config.handlerLimit ?? Int.max)
        r.callback = callback
        // D1: the first target is now + start, then every interval on a fixed grid.
        r.gridOrigin = now + max(.zero, config.start)
        r.fireDate = r.gridOrigin
        r.lastCountedTarget = r.gridOrigin - SimDuration(nanoseconds: 1)
        scheduleDispatchTarget(r)
        return r.id
    }

    func scheduleRunLoopTimer(_ r: TimerRecord) {
        guard r.fireDate < .horizon else {
            r.eventTime = Int64.max
            return
        }
        r.eventTime = max(r.fireDate, now).nanoseconds
        queue.push(time: r.eventTime, key: EventKey.runLoopTimer(r.id.rawValue))
    }

    private func scheduleDispatchTarget(_ r: TimerRecord) {
        guard r.fireDate < .horizon else {
            r.eventTime = Int64.max
            return
        }
        r.eventTime = max(r.fireDate, now).nanoseconds
        queue.push(time: r.eventTime, key: EventKey.dispatchTarget(r.id.rawValue, queue: r.queue))
    }

    // MARK: Pause, resume, invalidate (T8, D4, DL4, DL6)

    public func pause(_ id: TimerID) {
        guard let r = record(id), r.state == .scheduled, !r.isUILink else { return }
        r.state = .paused
        r.eventTime = Int64.max
        removeFromDue(r)
        if r.kind == .displayLink {
            // DL4: a paused link fills no slot; its pending slot is dropped.
            r.slot = nil
            activeLinks.removeAll { $0 === r }
        }
    }

    public func resume(_ id: TimerID) {
        guard let r = record(id), r.state == .paused else { return }
        r.state = .scheduled
        switch r.kind {
        case .displayLink:
            // DL4: the next callback is at its next grid vsync, with a fresh timestamp.
            let index = activeLinks.firstIndex { $0.id > r.id } ?? activeLinks.endIndex
            activeLinks.insert(r, at: index)
            ensureVsync()
        case .runLoopTimer:
            // T8: the next fire date is the first grid point after now; those passed are skipped.
            if r.fireDate <= now {
                r.skipped += r.gridPoints(after: r.fireDate - SimDuration(nanoseconds: 1), through: now)
                r.fireDate = r.gridPoint(after: now)
            }
            scheduleRunLoopTimer(r)
        case .dispatchTimer:
            // D4: targets passed while suspended are delivered in one invocation.
            countTargets(r, through: now)
            if r.pendingData > 0 && r.oldestPending < now { r.releasedWhilePaused = true }
            r.fireDate = r.repeats ? r.gridPoint(after: now) : (r.fireDate > now ? r.fireDate : .never)
            scheduleDispatchTarget(r)
            if r.pendingData > 0 { deliver(r, at: now) }
        }
    }

    public func invalidate(_ id: TimerID) {
        guard let r = record(id), r.isLive, !r.isUILink else { return }
        r.state = .invalidated
        r.eventTime = Int64.max
        r.fireDate = .never
        removeFromDue(r)
        if r.kind == .displayLink {
            r.slot = nil  // DL6
            activeLinks.removeAll { $0 === r }
        }
    }

    /// Marks a dispatch timer done (a count-down that cancelled itself, a one-shot that fired).
    func finish(_ r: TimerRecord) {
        r.state = .done
        r.eventTime = Int64.max
        r.fireDate = .never
        removeFromDue(r)
    }

    private func removeFromDue(_ r: TimerRecord) {
        switch r.kind {
        case .displayLink:
            let c = modeClass(r.mode)
            if r.slot != nil { filledLinks[c].removeAll { $0 === r } }
        case .runLoopTimer:
            if r.isDue {
                dueTimers[modeClass(r.mode)].removeAll { $0 === r }
                r.isDue = false
            }
        case .dispatchTimer:
            if r.isDue {
                dueDispatch[r.queue == .background ? 0 : 1].removeAll { $0 === r }
                r.isDue = false
            }
        }
    }

    func record(_ id: TimerID) -> TimerRecord? {
        id.rawValue >= 0 && id.rawValue < timers.count ? timers[id.rawValue] : nil
    }

    // MARK: Run-loop timers become ready (S4.4, T2)

    func runLoopTimerDue(_ r: TimerRecord, entryTime: Int64) {
        guard r.state == .scheduled, r.eventTime == entryTime, !r.isDue else { return }
        r.eventTime = Int64.max
        r.isDue = true
        let c = modeClass(r.mode)
        dueTimers[c].append(r)
        if coalescing {
            // T5: the mode's timer wake-up is at the smallest fire date + tolerance.
            let deadline = (r.fireDate + r.slack).nanoseconds
            if deadline > now.nanoseconds { queue.push(time: deadline, key: EventKey.runLoopWake(c)) }
        }
    }

    func countTimerWakeup(app: Bool) {
        timerWakeups += 1
        if app { appTimerWakeups += 1 }
    }

    // MARK: Dispatch timers (D1–D6)

    func dispatchTargetReached(_ r: TimerRecord, entryTime: Int64, at t: SimTime) {
        guard r.state == .scheduled, r.eventTime == entryTime else { return }
        r.eventTime = Int64.max
        if coalescing {
            // D2: T5's rule for the dispatch timers of one queue kind.
            let k = r.queue == .background ? 0 : 1
            if !r.isDue {
                r.isDue = true
                dueDispatch[k].append(r)
            }
            let deadline = r.fireDate + r.slack
            if deadline > t {
                queue.push(time: deadline.nanoseconds, key: EventKey.dispatchWake(r.queue))
            } else {
                flushDueDispatch(r.queue, at: t)
            }
            return
        }
        countDispatchWakeup(r.queue, app: r.owner == .app, at: t)
        release(r, at: t)
    }

    /// A coalesced dispatch wake-up: if the earliest deadline has come, every due timer of the
    /// queue kind fires (D2).
    func flushDueDispatch(_ kind: DispatchQueueKind, at t: SimTime) {
        let k = kind == .background ? 0 : 1
        guard !dueDispatch[k].isEmpty else { return }
        var deadline = SimTime.never
        for r in dueDispatch[k] { deadline = min(deadline, r.fireDate + r.slack) }
        guard deadline <= t else { return }
        var due = dueDispatch[k]
        dueDispatch[k].removeAll(keepingCapacity: true)
        due.sort { $0.id < $1.id }
        countDispatchWakeup(kind, app: due.contains { $0.owner == .app }, at: t)
        for r in due {
            r.isDue = false
            if r.state == .scheduled { release(r, at: t) }
        }
    }

    private func countDispatchWakeup(_ kind: DispatchQueueKind, app: Bool, at t: SimTime) {
        let k = kind == .background ? 0 : 1
        if lastDispatchWake[k] != t.nanoseconds {
            lastDispatchWake[k] = t.nanoseconds
            lastDispatchAppWake[k] = Int64.min
            timerWakeups += 1
        }
        if app, lastDispatchAppWake[k] != t.nanoseconds {
            lastDispatchAppWake[k] = t.nanoseconds
            appTimerWakeups += 1
        }
    }

    /// D3: the grid points passed are added to the pending data; the next target is the first
    /// grid point after now. Then the handler is delivered to its queue.
    func release(_ r: TimerRecord, at t: SimTime) {
        countTargets(r, through: t)
        r.fireDate = r.repeats ? r.gridPoint(after: t) : .never
        scheduleDispatchTarget(r)
        if r.pendingData > 0 { deliver(r, at: t) }
    }

    /// Adds the grid points in (last counted, t] to the pending data.
    func countTargets(_ r: TimerRecord, through t: SimTime) {
        var points = r.gridPoints(after: r.lastCountedTarget, through: t)
        if !r.repeats { points = min(points, r.lastCountedTarget < r.gridOrigin ? 1 : 0) }
        guard points > 0 else { return }
        let oldest = r.lastCountedTarget < r.gridOrigin ? r.gridOrigin : r.gridPoint(after: r.lastCountedTarget)
        if r.pendingData == 0 {
            r.oldestPending = oldest
            r.releasedAt = t
        }
        r.pendingData += points
        r.lastCountedTarget = t
    }

    /// Hands pending data to the handler's queue (D4, D5).
    func deliver(_ r: TimerRecord, at t: SimTime) {
        switch r.queue {
        case .background:
            if r.handlerBusyUntil > t {
                // D4: never concurrently with itself; it runs again when it returns.
                if !r.returnEventQueued {
                    r.returnEventQueued = true
                    queue.push(time: r.handlerBusyUntil.nanoseconds, key: EventKey.backgroundReturn(r.id.rawValue))
                }
            } else {
                runBackgroundHandler(r, at: t)
            }
        case .main:
            // D5: enqueued once; while it waits further targets only add to data.
            if !r.handlerEnqueued && !r.handlerRunning { enqueueHandler(r) }
        }
    }

    func backgroundReturn(_ r: TimerRecord, at t: SimTime) {
        r.returnEventQueued = false
        if r.state == .scheduled, r.pendingData > 0 { runBackgroundHandler(r, at: t) }
    }

    private func runBackgroundHandler(_ r: TimerRecord, at t: SimTime) {
        let (cost, firing) = invokeDispatchHandler(r, at: t)
        r.handlerBusyUntil = t + cost
        if let firing { notify(.timerFired, .timerFired(firing)) }
    }

    /// A handler invocation takes all pending data (D3); returns its cost and, when someone
    /// observes firings, the firing to publish once it ends.
    func invokeDispatchHandler(_ r: TimerRecord, at t: SimTime) -> (SimDuration, TimerFiring?) {
        let data = r.pendingData
        let scheduled = r.oldestPending
        let lateness = max(.zero, t - scheduled)
        var cause: LatenessCause?
        if lateness > .zero {
            if r.releasedAt > scheduled && r.releasedWhilePaused {
                cause = .paused
            } else {
                cause = t > r.releasedAt ? .busy : .coalesced
            }
        }
        r.pendingData = 0
        r.oldestPending = .never
        r.releasedWhilePaused = false
        r.fires += 1
        r.lastData = data
        r.totalData += data
        if lateness > r.maxLateness { r.maxLateness = lateness }
        var cost = r.cost
        if let callback = r.callback {
            cost = cost + callback(
                TimerCallback(
                    id: r.id, kind: .dispatchTimer, start: t, scheduled: scheduled, timestamp: scheduled,
                    targetTimestamp: r.fireDate, data: data, invocation: r.fires))
        }
        if r.dirtiesUI { uiDirty = true }
        if r.fires >= r.handlerLimit && r.state == .scheduled { finish(r) }
        guard wants(.timerFired) else { return (cost, nil) }
        let firing = TimerFiring(
            id: r.id, kind: .dispatchTimer, owner: r.owner, label: r.label, scheduled: scheduled, start: t,
            end: t + cost, lateness: lateness, cause: cause, data: data, skipped: 0)
        return (cost, firing)
    }

    // MARK: Reading timers

    public func timerInfo(_ id: TimerID) -> TimerInfo? {
        guard let r = record(id) else { return nil }
        return info(r)
    }

    public func allTimers() -> [TimerInfo] { timers.map(info) }

    /// Timers that are live (scheduled or paused).
    public var liveTimerCount: Int { timers.lazy.filter { $0.isLive && !$0.isUILink }.count }

    private func info(_ r: TimerRecord) -> TimerInfo {
        var interval = r.interval
        var next: SimTime? = r.isActive && r.fireDate < .horizon ? r.fireDate : nil
        if r.kind == .displayLink {
            let p = firstUnprocessedVsync()
            let step = DeviceEngine.gridStep(rate: grid.segments[p.segment].rate, fps: r.preferredFramesPerSecond)
            let gridNext = grid.firstOnGrid(atOrAfter: p, step: step)
            let after = grid.nextOnGrid(after: gridNext, step: step)
            interval = SimDuration(nanoseconds: after.time - gridNext.time)
            let active = r.isUILink ? animations.contains(gridNext.time) : r.isActive
            next = active ? SimTime(nanoseconds: gridNext.time) : nil
        }
        return TimerInfo(
            id: r.id, kind: r.kind, owner: r.owner, label: r.label, state: r.state,
            mode: r.kind == .dispatchTimer ? nil : r.mode, queue: r.kind == .dispatchTimer ? r.queue : nil,
            interval: interval, repeats: r.repeats, slack: r.slack, cost: r.cost, dirtiesUI: r.dirtiesUI,
            preferredFramesPerSecond: r.preferredFramesPerSecond, fires: r.fires, skipped: r.skipped,
            maxLateness: r.maxLateness, lastData: r.lastData, totalData: r.totalData, nextFire: next)
    }
}
