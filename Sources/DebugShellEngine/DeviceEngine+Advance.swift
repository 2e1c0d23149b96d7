import DebugShellCore

/// How an advance of time ended.
public enum AdvanceOutcome: Equatable, Sendable {
    /// Time reached the end.
    case completed
    /// The condition of `run until` held after an instant.
    case conditionMet
    /// An interrupt (Ctrl-C) stopped time where it was.
    case interrupted
}

extension DeviceEngine {
    /// `run d`: processes the events with time < `end`, then sets now to `end` (S3).
    public func advance(to end: SimTime, interrupted: () -> Bool = { false }) -> AdvanceOutcome {
        advance(limit: end.nanoseconds, inclusive: false, checks: false, condition: { false }, interrupted: interrupted)
    }

    /// `step`: processes the events with time ≤ `end`; now is `end`, its instant complete.
    public func advance(through end: SimTime, interrupted: () -> Bool = { false }) -> AdvanceOutcome {
        advance(limit: end.nanoseconds, inclusive: true, checks: false, condition: { false }, interrupted: interrupted)
    }

    /// `run until`: processes instants up to `limit` inclusive until `condition` holds after one
    /// (now is then that instant); otherwise now is `limit`.
    public func advance(
        until condition: () -> Bool, limit: SimTime, interrupted: () -> Bool = { false }
    ) -> AdvanceOutcome {
        advance(
            limit: limit.nanoseconds, inclusive: false, checks: true, condition: condition, interrupted: interrupted)
    }

    /// The n-th vsync at or after now that has not been processed yet (a vsync at now counts as
    /// the first, `step`).
    public func vsync(number n: Int64) -> SimTime {
        SimTime(nanoseconds: display.grid.position(n - 1, after: firstUnprocessedVsync()).time)
    }

    /// The loop of the three above, inlined into each: `inclusive` and `checks` are constants
    /// there, and a `run` pays for neither a condition nor an inclusive end.
    @inline(__always)
    private func advance(
        limit: Int64, inclusive: Bool, checks: Bool, condition: () -> Bool, interrupted: () -> Bool
    ) -> AdvanceOutcome {
        let start = clock.now.nanoseconds
        let startDone = clock.instantDone
        var t = start
        var instants = 0
        clock.advanceEnd = inclusive ? limit &+ 1 : limit
        clock.advanceChecks = checks
        defer {
            clock.instantsProcessed &+= instants
            clock.advanceEnd = Int64.max
        }
        var pollMask = clock.interruptPollMask
        // The queue's earliest entry, as the last instant left it: the next instant starts from
        // it instead of looking again. Anything that could push in between — a condition, the
        // driver's interrupt closure — is followed by a fresh look.
        var top = queue.first
        while inclusive ? t <= limit : t < limit {
            // An interrupt is polled every 256 instants by default: often enough to stop within
            // microseconds while instants are light. A driver that watches the wall clock lowers
            // the mask from the closure when they are heavy (interruptPollMask).
            if instants & pollMask == 0 {
                if interrupted() { return .interrupted }
                pollMask = clock.interruptPollMask
                top = queue.first
            }
            instants &+= 1
            clock.now = SimTime(nanoseconds: t)
            clock.instantDone = false
            top = processInstant(t, first: top)
            clock.instantDone = true
            if checks && condition() { return .conditionMet }
            // The shell saw an interrupt during the instant (a long scheduled command): stop here.
            if clock.stopAfterInstant {
                clock.stopAfterInstant = false
                if interrupted() { return .interrupted }
                top = queue.first
            }
            // A condition reads tools, which could schedule: then the queue is looked at again.
            if checks { top = queue.first }
            t = nextEventTime(queueTime: top.time)
        }
        clock.now = SimTime(nanoseconds: limit)
        // A run of no time leaves a completed instant completed. A completed instant's vsync is
        // past, whether or not anything happened at it.
        clock.instantDone = inclusive || (limit == start && startDone)
        if clock.instantDone { display.lastProcessedVsync = max(display.lastProcessedVsync, limit) }
        // An item that ended quietly before the limit is over.
        if main.isRunning, main.busyUntil.nanoseconds < limit || (inclusive && main.busyUntil.nanoseconds == limit) {
            runMainThread(at: main.busyUntil)
        }
        return .completed
    }

    /// The earliest time something must happen, given the time of the queue's earliest entry: that
    /// entry, a needed vsync, or the end of the main thread's current item.
    @inline(__always) func nextEventTime(queueTime: Int64) -> Int64 {
        var t = queueTime
        if let v = display.nextVsync, v.time < t { t = v.time }
        if main.isRunning, main.busyUntil.nanoseconds < t, mainItemEndMatters { t = main.busyUntil.nanoseconds }
        return t
    }

    /// Whether the end of the main thread's current item must be an instant of its own: its end
    /// does something (a commit hands its frame over, a dispatch handler may run again), or work
    /// waits for the thread. Otherwise the item ends quietly and the next instant that comes finds
    /// the thread free — the same simulation, one instant fewer.
    @inline(__always) var mainItemEndMatters: Bool {
        if referenceMode || (main.running != .timer && main.running != .link) { return true }
        if main.batch != .none || main.inStep3 || main.uiDirty || !main.queue.isEmpty {
            return true
        }
        let (a, b) = runLoop.currentClasses
        return !timers.due.isEmpty(a) || !timers.due.isEmpty(b) || !timers.filledLinks.isEmpty(a)
            || !timers.filledLinks.isEmpty(b)
    }

    /// Everything that happens at one instant, in the order of S4, given the queue's earliest
    /// entry. Returns the queue's earliest entry afterwards.
    @inline(__always)
    private func processInstant(_ t: Int64, first: EventQueue.Entry) -> EventQueue.Entry {
        var top = first
        // 1–2: commands scheduled for t, then mode changes.
        while top.time <= t && EventKey.step(top.key) < 3 {
            queue.popTop()
            dispatch(top, at: t)
            top = queue.first
        }
        // 3: the vsync. Once this step is over, a vsync at t is past even if nothing needed it
        // then: what steps 4–6 start waits for the next one (S4).
        if let v = display.nextVsync, v.time == t {
            processVsync(v)
            top = queue.first
        }
        display.lastProcessedVsync = max(display.lastProcessedVsync, t)
        // 4–5: run-loop timers become ready; dispatch timers fire.
        while top.time <= t {
            prefetchUpcomingTimer()
            let step = EventKey.step(top.key)
            if step == 5 && EventKey.sub(top.key) == 0 && backgroundTargetOnTime(top, at: t) {
                top = queue.first
                continue
            }
            if step == 4 && runLoopTimerFiresAtOnce(top, at: t) {
                top = queue.first
                continue
            }
            queue.popTop()
            dispatch(top, at: t)
            top = queue.first
        }
        // 6: the main thread (most instants find it busy).
        guard main.running == .none || main.busyUntil.nanoseconds <= t else { return top }
        if mainThreadHasNothingToDo {
            // Most of the rest find it idle, or at the end of a timer's or link's callback, which
            // does nothing (finishRunningItem), with no work: RL4 starts no iteration.
            main.running = .none
            return top
        }
        runMainThread(at: SimTime(nanoseconds: t))
        return queue.first
    }

    /// Whether the main thread, free at this instant, would find nothing to do (runMainThread):
    /// its item, if any, is a callback whose end does nothing, no batch or iteration is under
    /// way, and no source is ready — no main-queue block, no dirty UI, no due timer, no filled
    /// link slot of the current mode. Not in the reference mode, which takes the general path.
    @inline(__always) private var mainThreadHasNothingToDo: Bool {
        guard !referenceMode, main.running == .none || main.running == .timer || main.running == .link,
            main.batch == .none, !main.inStep3, !main.uiDirty, main.queue.isEmpty
        else { return false }
        let (a, b) = runLoop.currentClasses
        return timers.due.isEmpty(a) && timers.due.isEmpty(b) && timers.filledLinks.isEmpty(a)
            && timers.filledLinks.isEmpty(b)
    }

    /// Asks for the record of a timer a few events ahead: with many timers the records do not
    /// fit in the cache, and each firing would otherwise wait for its own from memory. A hint
    /// only; it changes nothing that is computed.
    @inline(__always) private func prefetchUpcomingTimer() {
        guard let key = queue.upcomingKey(EventQueue.prefetchDistance) else { return }
        let step = EventKey.step(key)
        if step >= 4 && step <= 5 && EventKey.id(key) < EventKey.wakeBase { timers.prefetch(Int(EventKey.id(key))) }
    }

    private func dispatch(_ entry: EventQueue.Entry, at t: Int64) {
        let id = EventKey.id(entry.key)
        switch EventKey.step(entry.key) {
        case 1:
            if let action = clock.scheduled.removeValue(forKey: id) { action() }
        case 2:
            applyModeChange(at: t)
        case 4:
            // A coalesced wake-up needs no work here: step 6 finds the timers ready (T5).
            if id < EventKey.wakeBase { runLoopTimerDue(Int(id), entryTime: entry.time) }
        case 5:
            switch EventKey.sub(entry.key) {
            case 0: dispatchEntry(id: id, queue: .background, entryTime: entry.time, at: t)
            case 1: dispatchEntry(id: id, queue: .main, entryTime: entry.time, at: t)
            default: backgroundReturn(Int(id), at: SimTime(nanoseconds: t))
            }
        default:
            break
        }
    }

    private func dispatchEntry(id: UInt64, queue kind: DispatchQueueKind, entryTime: Int64, at t: Int64) {
        if id < EventKey.wakeBase {
            dispatchTargetReached(Int(id), entryTime: entryTime, at: SimTime(nanoseconds: t))
        } else {
            flushDueDispatch(kind, at: SimTime(nanoseconds: t))
        }
    }

    // MARK: Modes (RL1, S4.2)

    func scheduleModeChange(at time: SimTime) {
        let seq = clock.nextSequence()
        queue.push(time: max(time, clock.now).nanoseconds, key: EventKey.modeChange(seq))
    }

    private func applyModeChange(at t: Int64) {
        guard let newMode = runLoop.changeMode(at: t) else { return }
        if wants(.modeChange) { notify(.modeChange, .modeChanged(time: SimTime(nanoseconds: t), mode: newMode)) }
    }

    // MARK: Vsync (S4.3, DL7, R1, R2)

    /// The first vsync at or after now that has not been processed.
    func firstUnprocessedVsync() -> VsyncGrid.Position {
        // After `step` or `run until`, the instant at now is done, its vsync included even when
        // nothing needed it.
        display.firstUnprocessedVsync(atOrAfter: clock.firstOpenTime)
    }

    /// Makes sure the next vsync will be processed: something may need it now.
    func ensureVsync() {
        if display.nextVsync == nil { display.nextVsync = firstUnprocessedVsync() }
    }

    private func processVsync(_ v: VsyncGrid.Position) {
        var v = v
        display.lastProcessedVsync = v.time
        let t = SimTime(nanoseconds: v.time)
        renderServerVsync(at: t)
        // V3: an adaptive display picks its rate for the next interval at each refresh, after
        // the render server's present and start (what it will show is known then).
        if display.grid.segments[v.segment].isAdaptive { v = chooseRate(at: v) }
        // DL7: each link fills its slot, in the order the links were added; the UI link first,
        // and only while the app animates (A1).
        if runLoop.animations.contains(v.time) {
            timers.fill(uiLink, at: v)
            if main.watchFrom == nil { watchFrameWait(from: t) }
        }
        for link in timers.activeLinks {
            if timers[link].stepSegment != v.segment {
                timers[link].gridStep = linkStep(link, segment: v.segment)
                timers[link].stepSegment = v.segment
            }
            let step = timers[link].gridStep
            if step == 1 || v.k % step == 0 { timers.fill(link, at: v) }
        }
        if wants([.vsync, .activeVsync]) { notify([.vsync, .activeVsync], .vsync(time: t, index: v.index)) }
        let next = display.grid.next(after: v)
        let needed =
            !timers.activeLinks.isEmpty || render.hasFrames || wants(.vsync) || runLoop.animations.contains(next.time)
        display.nextVsync = needed || rateWillChange(at: next) ? next : nil
    }

    /// n = max(1, round(R / f)), halves up (DL3); f = 0 means every vsync.
    static func gridStep(rate: Int64, fps: Int) -> Int64 {
        guard fps > 0 else { return 1 }
        let f = Int64(fps)
        return max(1, (2 * rate + f) / (2 * f))
    }
}
