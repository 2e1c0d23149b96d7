import DebugShellCore

/// Timers and links driven by the engine: creating them, pausing and ending them, their events
/// in the queue, and dispatch timers' targets and handlers (T1–T8, D1–D6, DL4–DL6). Their records
/// and lists, and what changes those alone, are ``Timers``'s.
extension DeviceEngine {
    // MARK: Creating timers and links

    private func makeRecord(_ kind: TimerKind, owner: TimerOwner, label: String, cost: SimDuration, dirtiesUI: Bool)
        -> Int
    {
        let record = TimerRecord(
            kind: kind, owner: owner, label: label, cost: max(.zero, cost), dirtiesUI: dirtiesUI, tool: running.tool)
        return timers.append(record)
    }

    public func addDisplayLink(_ config: DisplayLinkConfig, callback: TimerCallbackHandler?) -> TimerID {
        let i = makeRecord(
            .displayLink, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        timers[i].mode = config.mode
        let fps = max(0, config.preferredFramesPerSecond)
        // V2: 0 set by the app is the native rate; 0 not set, the system default.
        timers[i].preferredFramesPerSecond = fps == 0 && config.setsFramesPerSecond ? Display.nativeRate : fps
        timers[i].frameRateRange = config.frameRateRange
        timers[i].callback = callback
        timers[i].hasCallback = callback != nil
        // DL5: its first slot is its first grid vsync at or after now.
        timers.activeLinks.append(i)
        ensureVsync()
        return TimerID(rawValue: i)
    }

    public func addRunLoopTimer(_ config: RunLoopTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        let i = makeRecord(
            .runLoopTimer, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        let interval = max(SimDuration(nanoseconds: 1), config.interval)
        timers[i].mode = config.mode
        timers[i].interval = interval
        timers[i].repeats = config.repeats
        // T5: tolerance is clamped to half the interval for repeating timers.
        let limit = config.repeats ? SimDuration(nanoseconds: interval.nanoseconds / 2) : interval
        timers[i].slack = min(max(.zero, config.tolerance), limit)
        timers[i].callback = callback
        timers[i].hasCallback = callback != nil
        // T1: the first fire date is now + interval.
        timers[i].gridOrigin = now + interval
        timers[i].fireDate = timers[i].gridOrigin
        scheduleRunLoopTimer(i)
        return TimerID(rawValue: i)
    }

    public func addDispatchTimer(_ config: DispatchTimerConfig, callback: TimerCallbackHandler?) -> TimerID {
        let i = makeRecord(
            .dispatchTimer, owner: config.owner, label: config.label, cost: config.cost, dirtiesUI: config.dirtiesUI)
        let interval = max(SimDuration(nanoseconds: 1), config.interval)
        timers[i].queue = config.queue
        timers[i].interval = interval
        timers[i].repeats = !config.once
        // D2: leeway is clamped to half the interval for repeating timers.
        let leeway = max(.zero, config.leeway)
        timers[i].slack = config.once ? leeway : min(leeway, SimDuration(nanoseconds: interval.nanoseconds / 2))
        timers[i].handlerLimit = config.once ? 1 : Int64(config.handlerLimit ?? Int.max)
        timers[i].callback = callback
        timers[i].hasCallback = callback != nil
        // D1: the first target is now + start, then every interval on a fixed grid.
        timers[i].gridOrigin = now + max(.zero, config.start)
        timers[i].fireDate = timers[i].gridOrigin
        scheduleDispatchTarget(i)
        return TimerID(rawValue: i)
    }

    /// Queues a run-loop timer's next fire date. With `replacingTop`, its old entry is still the
    /// queue's top and is replaced in one sift (or removed when there is no next fire).
    @inline(__always) func scheduleRunLoopTimer(_ i: Int, replacingTop: Bool = false) {
        let fireDate = timers[i].fireDate
        guard fireDate < .horizon else {
            timers[i].eventTime = Int64.max
            if replacingTop { queue.popTop() }
            return
        }
        let time = max(fireDate, now).nanoseconds
        timers[i].eventTime = time
        if replacingTop {
            queue.replaceTop(time: time, key: EventKey.runLoopTimer(i))
        } else {
            queue.push(time: time, key: EventKey.runLoopTimer(i))
        }
    }

    @inline(__always) private func scheduleDispatchTarget(_ i: Int) {
        let fireDate = timers[i].fireDate
        guard fireDate < .horizon else {
            timers[i].eventTime = Int64.max
            return
        }
        let time = max(fireDate, now).nanoseconds
        timers[i].eventTime = time
        queue.push(time: time, key: EventKey.dispatchTarget(i, queue: timers[i].queue))
    }

    // MARK: Pause, resume, invalidate (T8, D4, DL4, DL6)

    public func pause(_ id: TimerID) {
        guard let i = timers.index(id), timers[i].state == .scheduled, i != uiLink else { return }
        timers[i].state = .paused
        timers[i].eventTime = Int64.max
        timers.removeFromDue(i)
        if timers[i].kind == .displayLink {
            // DL4: a paused link fills no slot; its pending slot is dropped.
            timers[i].slot = nil
            timers.activeLinks.removeAll { $0 == i }
            requestsChanged()
        }
    }

    public func resume(_ id: TimerID) {
        guard let i = timers.index(id), timers[i].state == .paused else { return }
        timers[i].state = .scheduled
        switch timers[i].kind {
        case .displayLink:
            // DL4: the next callback is at its next grid vsync, with a fresh timestamp.
            let at = timers.activeLinks.firstIndex { $0 > i } ?? timers.activeLinks.endIndex
            timers.activeLinks.insert(i, at: at)
            ensureVsync()
        case .runLoopTimer:
            // T8: the next fire date is the first grid point after now; those passed are skipped.
            if timers[i].fireDate <= now {
                timers[i].skipped += timers[i].gridPoints(
                    after: timers[i].fireDate - SimDuration(nanoseconds: 1), through: now)
                timers[i].fireDate = timers[i].gridPoint(after: now)
            }
            scheduleRunLoopTimer(i)
        case .dispatchTimer:
            // D4: targets passed while suspended are delivered in one invocation.
            timers.countTargets(i, through: now)
            if timers[i].pendingData > 0 && timers[i].oldestPending < now { timers[i].releasedWhilePaused = true }
            if timers[i].repeats {
                timers[i].fireDate = timers[i].gridPoint(after: now)
            } else if timers[i].fireDate <= now {
                timers[i].fireDate = .never
            }
            scheduleDispatchTarget(i)
            if timers[i].pendingData > 0 { deliver(i, at: now) }
        }
    }

    public func invalidate(_ id: TimerID) {
        guard let i = timers.index(id), timers[i].isLive, i != uiLink else { return }
        if timers[i].kind == .runLoopTimer && isInCallback(i) && timers[i].lastSkippedEnd == timers[i].handlerBusyUntil
        {
            // T4: invalidated during its callback, it gets no next fire date and skips nothing.
            timers[i].skipped -= timers[i].lastSkipped
            timers[i].lastSkipped = 0
        }
        timers[i].state = .invalidated
        timers[i].eventTime = Int64.max
        timers[i].fireDate = .never
        timers.removeFromDue(i)
        if timers[i].kind == .displayLink {
            timers[i].slot = nil  // DL6
            timers.activeLinks.removeAll { $0 == i }
            requestsChanged()
        }
    }

    /// Marks a dispatch timer done (a count-down that cancelled itself, a one-shot that fired).
    func finish(_ i: Int) {
        timers[i].state = .done
        timers[i].eventTime = Int64.max
        timers[i].fireDate = .never
        timers.removeFromDue(i)
    }

    // MARK: Run-loop timers become ready (S4.4, T2)

    func runLoopTimerDue(_ i: Int, entryTime: Int64) {
        guard timers[i].eventTime == entryTime, timers[i].state == .scheduled, !timers[i].isDue else { return }
        timers[i].eventTime = Int64.max
        timers[i].isDue = true
        let c = modeClass(timers[i].mode)
        timers.due.append(c, i)
        if timers.coalescing {
            // T5: the mode's timer wake-up is at the smallest fire date + tolerance.
            let deadline = (timers[i].fireDate + timers[i].slack).nanoseconds
            if deadline > now.nanoseconds { queue.push(time: deadline, key: EventKey.runLoopWake(c)) }
        }
    }

    // MARK: Dispatch timers (D1–D6)

    func dispatchTargetReached(_ i: Int, entryTime: Int64, at t: SimTime) {
        guard timers[i].eventTime == entryTime, timers[i].state == .scheduled else { return }
        timers[i].eventTime = Int64.max
        if timers.coalescing {
            // D2: T5's rule for the dispatch timers of one queue kind.
            let k = timers[i].queue == .background ? 0 : 1
            if !timers[i].isDue {
                timers[i].isDue = true
                timers.dueDispatch.append(k, i)
            }
            let deadline = timers[i].fireDate + timers[i].slack
            if deadline > t {
                queue.push(time: deadline.nanoseconds, key: EventKey.dispatchWake(timers[i].queue))
            } else {
                flushDueDispatch(timers[i].queue, at: t)
            }
            return
        }
        timers.countDispatchWakeup(timers[i].queue, app: timers[i].isApp, at: t)
        release(i, at: t)
    }

    /// The common case of a background dispatch timer, handled while its entry is still the
    /// queue's top: on time, not coalescing, its handler idle. The entry is replaced by the next
    /// target in one sift (D3: one grid point passes; D5: the handler runs at its target).
    ///
    /// - Returns: false when the general path must handle the entry.
    @inline(__always)
    func backgroundTargetOnTime(_ entry: EventQueue.Entry, at t: Int64) -> Bool {
        let i = Int(EventKey.id(entry.key))
        guard !referenceMode, !timers.coalescing, i < timers.count else { return false }
        let r = timers.record(i)
        guard r.pointee.eventTime == entry.time, r.pointee.state == .scheduled, r.pointee.repeats,
            r.pointee.fireDate.nanoseconds == t, r.pointee.pendingData == 0, r.pointee.handlerBusyUntil.nanoseconds <= t
        else { return false }
        let next = (r.pointee.fireDate + r.pointee.interval).nanoseconds
        guard next < SimTime.horizon.nanoseconds else { return false }
        r.pointee.fireDate = SimTime(nanoseconds: next)
        r.pointee.eventTime = next
        queue.replaceTop(time: next, key: entry.key)
        let time = SimTime(nanoseconds: t)
        timers.countDispatchWakeup(.background, app: r.pointee.isApp, at: time)
        guard !r.pointee.hasCallback else {
            // A tool's handler: the general invocation, which calls it.
            r.pointee.pendingData = 1
            r.pointee.oldestPending = time
            r.pointee.releasedAt = time
            runBackgroundHandler(i, at: time)
            return true
        }
        // D3, D5: one grid point, on time: what invokeDispatchHandler does for it, in place.
        r.pointee.releasedAt = time
        r.pointee.releasedWhilePaused = false
        r.pointee.fires &+= 1
        r.pointee.lastData = 1
        r.pointee.totalData &+= 1
        let fires = r.pointee.fires
        let cost = r.pointee.cost
        r.pointee.handlerBusyUntil = time + cost
        if r.pointee.dirtiesUI { main.dirty() }
        if fires >= r.pointee.handlerLimit { finish(i) }
        // On its grid, only observers of every firing hear of it.
        if wants(.timerFired) {
            notify(
                .timerFired,
                .timerFired(
                    TimerFiring(
                        id: TimerID(rawValue: i), kind: .dispatchTimer, number: fires, scheduled: time, start: time,
                        end: time + cost, lateness: .zero, cause: nil, data: 1, skipped: 0)))
        }
        return true
    }

    /// A coalesced dispatch wake-up: if the earliest deadline has come, every due timer of the
    /// queue kind fires (D2).
    func flushDueDispatch(_ kind: DispatchQueueKind, at t: SimTime) {
        let k = kind == .background ? 0 : 1
        guard !timers.dueDispatch.isEmpty(k), timers.dispatchDeadline(k) <= t else { return }
        // The list is copied into a reused buffer (taken out while in use, so a release that
        // leads back here cannot see it half done): no allocation per wake-up.
        var due = timers.dispatchScratch
        timers.dispatchScratch = []
        due.removeAll(keepingCapacity: true)
        for n in 0..<timers.dueDispatch.count(k) { due.append(timers.dueDispatch.element(k, n)) }
        timers.dueDispatch.removeAll(k)
        due.sort()
        let app = due.contains { timers[$0].isApp }
        timers.countDispatchWakeup(kind, app: app, at: t)
        // A wake-up of one timer alone can merge the targets that follow in closed form; with
        // others, their next targets are not queued yet while it is released.
        let alone = due.count == 1
        for i in due {
            timers[i].isDue = false
            if timers[i].state == .scheduled { release(i, at: t, mergingAhead: alone) }
        }
        timers.dispatchScratch = due
    }

    /// D3: the grid points passed are added to the pending data; the next target is the first
    /// grid point after now. Then the handler is delivered to its queue. With `mergingAhead`, the
    /// targets that pass while its handler waits or runs and nothing else happens are counted
    /// at once (``mergeTargetsWhilePending(_:at:)``).
    func release(_ i: Int, at t: SimTime, mergingAhead: Bool = true) {
        timers.countTargets(i, through: t)
        if timers[i].repeats {
            // On time, the next target is one interval on; otherwise the first point after t.
            let next = timers[i].fireDate + timers[i].interval
            timers[i].fireDate = next > t ? next : timers[i].gridPoint(after: t)
        } else {
            timers[i].fireDate = .never
        }
        if timers[i].pendingData > 0 { deliver(i, at: t) }
        if mergingAhead { mergeTargetsWhilePending(i, at: t) }
        scheduleDispatchTarget(i)
    }

    /// While a dispatch timer's handler waits or runs, the targets that pass only add to its
    /// data (D3, D4). Those that pass before anything else can happen — before any other event,
    /// vsync, the main thread's next item end, the end of the advance — are merged here in closed
    /// form, each still a dispatch wake-up of its own instant: a 1 ms timer behind a long stall
    /// costs one step, not one per millisecond. With coalescing (D2), each target f waits for its
    /// wake-up at f + leeway, when it is released alone (the leeway is below the interval, so
    /// one grid point each): the targets merged are those whose wake-up comes before anything
    /// else can happen. Not while a condition is checked after every instant (`run until`), nor
    /// in the reference mode the tests compare with.
    private func mergeTargetsWhilePending(_ i: Int, at t: SimTime) {
        guard !referenceMode, !clock.advanceChecks, timers[i].repeats, timers[i].state == .scheduled,
            timers[i].pendingData > 0
        else { return }
        var horizon = min(queue.topTime, clock.advanceEnd)
        if let v = display.nextVsync { horizon = min(horizon, v.time) }
        if main.isRunning { horizon = min(horizon, main.busyUntil.nanoseconds) }
        switch timers[i].queue {
        case .main:
            // Enqueued or running, behind an item that ends after now: it cannot start before.
            guard timers[i].handlerEnqueued || timers[i].handlerRunning, main.isRunning, main.busyUntil > t else {
                return
            }
        case .background:
            guard timers[i].handlerBusyUntil > t else { return }
            horizon = min(horizon, timers[i].handlerBusyUntil.nanoseconds)
        }
        let first = timers[i].fireDate.nanoseconds
        let interval = timers[i].interval.nanoseconds
        // D2, T5: a coalesced target is released at its wake-up, leeway later (leeway < interval).
        let leeway = timers.coalescing ? timers[i].slack.nanoseconds : 0
        guard first < horizon - leeway, interval > 0, leeway < interval else { return }
        let k = (horizon - 1 - leeway - first) / interval + 1
        let last = first + (k - 1) * interval
        timers[i].pendingData += k
        timers[i].fireDate = SimTime(nanoseconds: last + interval)
        timers.countMergedWakeups(of: i, count: k, lastWake: last + leeway)
    }

    /// Hands pending data to the handler's queue (D4, D5).
    func deliver(_ i: Int, at t: SimTime) {
        switch timers[i].queue {
        case .background:
            let busyUntil = timers[i].handlerBusyUntil
            if busyUntil > t {
                // D4: never concurrently with itself; it runs again when it returns.
                if !timers[i].returnEventQueued {
                    timers[i].returnEventQueued = true
                    queue.push(time: busyUntil.nanoseconds, key: EventKey.backgroundReturn(i))
                }
            } else {
                runBackgroundHandler(i, at: t)
            }
        case .main:
            // D5: enqueued once; while it waits further targets only add to data.
            if !timers[i].handlerEnqueued && !timers[i].handlerRunning { enqueueHandler(i) }
        }
    }

    func backgroundReturn(_ i: Int, at t: SimTime) {
        timers[i].returnEventQueued = false
        if timers[i].state == .scheduled, timers[i].pendingData > 0 { runBackgroundHandler(i, at: t) }
    }

    private func runBackgroundHandler(_ i: Int, at t: SimTime) {
        let firing = invokeDispatchHandler(i, at: t)
        timers[i].handlerBusyUntil = t + firing.cost
        publish(firing)
    }

    /// What a dispatch handler's invocation needs published once the engine's state is updated.
    struct DispatchInvocation {
        var index: Int
        var cost: SimDuration
        var scheduled: SimTime
        var start: SimTime
        var lateness: SimDuration
        var cause: LatenessCause?
        var data: Int64
    }

    /// Publishes a dispatch handler's firing as it starts (K2), for observers.
    func publish(_ f: DispatchInvocation) {
        // On its grid (on time, one grid point) only observers of every firing hear of it.
        let kinds: ObservationKinds =
            f.lateness > .zero || f.data != 1 ? [.timerFired, .timerFiredOffGrid] : .timerFired
        guard wants(kinds) else { return }
        notify(
            kinds,
            .timerFired(
                TimerFiring(
                    id: TimerID(rawValue: f.index), kind: .dispatchTimer, number: timers[f.index].fires,
                    scheduled: f.scheduled, start: f.start, end: f.start + f.cost, lateness: f.lateness, cause: f.cause,
                    data: f.data, skipped: 0)))
    }

    /// A handler invocation takes all pending data (D3); returns what it cost and what to publish.
    func invokeDispatchHandler(_ i: Int, at t: SimTime) -> DispatchInvocation {
        let data = timers[i].pendingData
        let scheduled = timers[i].oldestPending
        let lateness = t - scheduled
        var cause: LatenessCause?
        if lateness > .zero {
            if timers[i].releasedWhilePaused {
                cause = .paused
            } else {
                cause = t > timers[i].releasedAt ? .busy : .coalesced
            }
            if lateness > timers[i].maxLateness { timers[i].maxLateness = lateness }
        }
        timers[i].pendingData = 0
        timers[i].oldestPending = .never
        timers[i].releasedWhilePaused = false
        timers[i].fires += 1
        timers[i].lastData = data
        timers[i].totalData += data
        var cost = timers[i].cost
        let invocation = timers[i].fires
        if timers[i].hasCallback, let callback = timers[i].callback {
            let saved = enter(.dispatchTimer, tool: timers[i].tool, detail: i, at: t)
            cost =
                cost
                + callback(
                    TimerCallback(
                        id: TimerID(rawValue: i), kind: .dispatchTimer, start: t, scheduled: scheduled,
                        timestamp: scheduled,
                        targetTimestamp: timers[i].fireDate, duration: timers[i].interval, data: data,
                        invocation: invocation))
            leave(saved)
        }
        if timers[i].dirtiesUI { main.dirty() }
        if invocation >= timers[i].handlerLimit && timers[i].state == .scheduled { finish(i) }
        return DispatchInvocation(
            index: i, cost: cost, scheduled: scheduled, start: t, lateness: max(.zero, lateness), cause: cause,
            data: data)
    }

    // MARK: Reading timers

    public func timerInfo(_ id: TimerID) -> TimerInfo? {
        timers.index(id).map(info)
    }

    public func allTimers() -> [TimerInfo] { timers.indices.map { info($0) } }

    /// The tool that made a timer (its registration index; -1 debugsh's own), if the id is one.
    public func makerTool(of id: TimerID) -> Int32? { timers.index(id).map { timers[$0].tool } }

    /// How many timers and links the session has made (each stays counted until `reset`).
    public var timerCount: Int { timers.count }

    /// Whether the instant at `t` is over: before now, or now once its events are processed.
    func hasPassed(_ t: SimTime) -> Bool { clock.hasPassed(t) }

    /// Whether a callback or handler of the timer has started and not yet returned.
    func isInCallback(_ i: Int) -> Bool {
        let r = timers[i]
        guard r.fires > 0 else { return false }
        switch r.kind {
        case .runLoopTimer:
            return !hasPassed(r.handlerBusyUntil)
        case .dispatchTimer where r.queue == .background:
            return !hasPassed(r.handlerBusyUntil)
        case .dispatchTimer:
            return main.running == .block && main.runningIndex == i && !hasPassed(main.busyUntil)
        case .displayLink:
            return main.running == .link && main.runningIndex == i && !hasPassed(main.busyUntil)
        }
    }

    private func info(_ i: Int) -> TimerInfo {
        let r = timers[i]
        var interval = r.interval
        var next: SimTime? = r.isActive && r.fireDate < .horizon ? r.fireDate : nil
        let inCallback = isInCallback(i)
        var skipped = r.skipped
        if r.kind == .runLoopTimer && inCallback {
            // T4: the next fire date and the skips are decided when the callback returns.
            next = nil
            if r.lastSkippedEnd == r.handlerBusyUntil { skipped -= r.lastSkipped }
        }
        if r.kind == .displayLink {
            let p = firstUnprocessedVsync()
            let step = linkStep(i, segment: p.segment)
            let gridNext = display.grid.firstOnGrid(atOrAfter: p, step: step)
            let after = display.grid.nextOnGrid(after: gridNext, step: step)
            interval = SimDuration(nanoseconds: after.time - gridNext.time)
            let active = i == uiLink ? runLoop.animations.contains(gridNext.time) : r.isActive
            next = active ? SimTime(nanoseconds: gridNext.time) : nil
        }
        // Run-loop timers and display links cover one point per firing (D3 is GCD's): their data
        // is not kept in the record, so a firing writes one cache line fewer.
        let data =
            r.kind == .dispatchTimer
            ? (last: r.lastData, total: r.totalData) : (last: r.fires > 0 ? 1 : 0, total: r.fires)
        return TimerInfo(
            id: TimerID(rawValue: i), kind: r.kind, owner: r.owner, label: r.label, state: r.state,
            mode: r.kind == .dispatchTimer ? nil : r.mode, queue: r.kind == .dispatchTimer ? r.queue : nil,
            interval: interval, repeats: r.repeats, slack: r.slack, cost: r.cost, dirtiesUI: r.dirtiesUI,
            preferredFramesPerSecond: max(0, r.preferredFramesPerSecond), fires: r.fires, skipped: skipped,
            maxLateness: r.maxLateness, lastData: data.last, totalData: data.total, nextFire: next,
            inCallback: inCallback, frameRateRange: r.frameRateRange,
            setsFramesPerSecond: r.kind == .displayLink && r.preferredFramesPerSecond != 0)
    }
}
