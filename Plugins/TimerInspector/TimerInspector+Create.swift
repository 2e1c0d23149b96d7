import DebugShellCore

extension TimerInspector {
    // MARK: Making timers (first fires: docs/Semantics.md, "First fires at a glance")

    /// `timer nstimer`: `scheduledTimer` (T1), first fire now + interval, mode `default` unless
    /// given; tolerance per T5.
    func makeRunLoopTimer(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = try newTimerName(inv)
        let repeats = inv[Self.repeats]
        let interval = try requiredInterval(inv[Self.nstimerInterval], for: .nstimer, repeats: repeats)
        var tolerance = inv[Self.tolerance]
        var warnings: [String] = []
        // T5: above the interval is an error; for a repeating timer above interval/2 it is clamped.
        if tolerance > interval {
            throw CommandError(
                "--tolerance \(Format.duration(tolerance)) is above the interval \(Format.duration(interval)) (T5)")
        }
        tolerance = clampedToHalf(tolerance, of: interval, repeats: repeats, option: "tolerance", rule: "T5", &warnings)
        let mode = inv[Self.nstimerMode]
        let (target, weak) = try targetOption(inv)
        try checkFirstFire(after: interval)
        let config = RunLoopTimerConfig(
            interval: interval, repeats: repeats, tolerance: tolerance, mode: mode, cost: inv[Self.cost],
            dirtiesUI: inv[Self.ui], owner: .app, label: name)
        return make(name, kind: .runLoopTimer, madeBy: .nstimer, target: target, weak: weak, warnings: warnings) {
            // T6: a one-shot ends with its first callback.
            device.addRunLoopTimer(config, callback: repeats ? nil : endingCallback($0))
        }
    }

    /// A repeating timer's tolerance (T5) or leeway (D2) above half its interval is clamped to
    /// half, with a warning; a one-shot's is kept.
    private func clampedToHalf(
        _ slack: SimDuration, of interval: SimDuration, repeats: Bool, option: String, rule: String,
        _ warnings: inout [String]
    ) -> SimDuration {
        let half = SimDuration(nanoseconds: interval.nanoseconds / 2)
        guard repeats && slack > half else { return slack }
        warnings.append(
            "--\(option) \(Format.duration(slack)) is above half the interval of a repeating timer: clamped to \(Format.duration(half)) (\(rule))"
        )
        return half
    }

    /// `timer gcd`: a dispatch-source timer (D1), first target now + `--start` (default: the
    /// interval); leeway per D2.
    func makeDispatchTimer(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = try newTimerName(inv)
        let once = inv[Self.once]
        let interval = try requiredInterval(inv[Self.gcdInterval], for: .gcd, repeats: !once)
        let start = inv[Self.start] ?? interval
        var leeway = inv[Self.leeway]
        var warnings: [String] = []
        // D2: leeway is clamped to interval/2 for repeating timers, as libdispatch does.
        leeway = clampedToHalf(leeway, of: interval, repeats: !once, option: "leeway", rule: "D2", &warnings)
        let queue = inv[Self.queue]
        let (target, weak) = try targetOption(inv)
        try checkFirstFire(after: start)
        let config = DispatchTimerConfig(
            interval: interval, start: start, leeway: leeway, queue: queue, cost: inv[Self.cost], once: once,
            dirtiesUI: inv[Self.ui], owner: .app, label: name)
        return make(name, kind: .dispatchTimer, madeBy: .gcd, target: target, weak: weak, warnings: warnings) {
            device.addDispatchTimer(config, callback: once ? endingCallback($0) : nil)
        }
    }

    /// `timer displaylink`: a CADisplayLink (DL1–DL8), first slot at the first grid vsync at or
    /// after now (DL5), mode `common` unless given.
    func makeDisplayLink(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = try newTimerName(inv)
        let mode = inv[Self.displayLinkMode]
        let (target, weak) = try targetOption(inv)
        let config = DisplayLinkConfig(
            mode: mode, preferredFramesPerSecond: Int(inv[Self.preferredFPS] ?? 0), cost: inv[Self.cost],
            dirtiesUI: inv[Self.ui], owner: .app, label: name, frameRateRange: inv[Self.rateRange],
            setsFramesPerSecond: inv[Self.preferredFPS] != nil)
        return make(name, kind: .displayLink, madeBy: .displaylink, target: target, weak: weak) { _ in
            device.addDisplayLink(config, callback: nil)
        }
    }

    /// `timer after`: `DispatchQueue.main.asyncAfter` (D6), a one-shot main-queue timer with
    /// leeway 10% of the delay clamped to 1 ms…60 s. A delay of 0 is a plain `async`: no leeway.
    func makeAfter(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = try newTimerName(inv)
        let delay = inv[Self.delay]
        try checkFirstFire(after: delay)
        let leeway =
            delay == .zero
            ? SimDuration.zero
            : min(max(SimDuration(nanoseconds: delay.nanoseconds / 10), .milliseconds(1)), .seconds(60))
        let config = DispatchTimerConfig(
            interval: delay, start: delay, leeway: leeway, queue: .main, cost: inv[Self.cost], once: true,
            dirtiesUI: inv[Self.ui], owner: .app, label: name)
        return make(name, kind: .dispatchTimer, madeBy: .after) {
            device.addDispatchTimer(config, callback: endingCallback($0))
        }
    }

    /// `timer countdown <name> <n>`: seed 003's count-down button. A background GCD timer, start
    /// now, every 1 s: handlers at now, now + 1 s, …, now + n s. Each sets the button's title on
    /// the main queue (a block that dirties the UI); the last restores it and cancels → `done`.
    func makeCountdown(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = try newTimerName(inv)
        let from = inv[Self.seconds]
        try checkFirstFire(after: .seconds(from))
        let config = DispatchTimerConfig(
            interval: .seconds(1), start: .zero, queue: .background, handlerLimit: Int(from + 1), owner: .app,
            label: name)
        let countdown = Countdown(from: from, title: Countdown.restingTitle)
        return make(name, kind: .dispatchTimer, madeBy: .countdown, countdown: countdown) { index in
            device.addDispatchTimer(config) { [weak self] callback in
                self?.countdownHandler(index, invocation: callback.invocation)
                return .zero
            }
        }
    }

    /// One handler of the count-down: like the seed's, it counts invocations, not `data`.
    private func countdownHandler(_ index: Int, invocation: Int64) {
        guard let countdown = entries[index].countdown else { return }
        let remaining = countdown.from - (invocation - 1)
        let title = remaining > 0 ? Countdown.title(remaining: remaining) : Countdown.restingTitle
        device.enqueueMainBlock(cost: .zero, dirtiesUI: true, label: "\(entries[index].name) title") { [weak self] in
            self?.entries[index].countdown?.title = title
        }
        if remaining <= 0 { timerEnded(index) }
    }

    /// The callback of a one-shot: it ends the entry at its first invocation, right before the
    /// device marks the timer done (T6, D6), so the inspector's counts and owners change at the
    /// same instant.
    private func endingCallback(_ index: Int) -> TimerCallbackHandler {
        { [weak self] _ in
            self?.timerEnded(index)
            return .zero
        }
    }

    // MARK: Checks

    /// The `<name>` of a new timer: unique until `reset`, within the limit.
    private func newTimerName(_ inv: Invocation) throws(CommandError) -> String {
        let name = inv[Self.newTimer]
        if let existing = entryByName[name] {
            let state = info(existing)?.state.rawValue ?? "ended"
            throw CommandError(
                "timer '\(name)' already exists (\(entries[existing].madeBy.name), \(state)); names stay taken until 'reset' so that its history stays readable"
            )
        }
        try TimerInspector.checkCapacity(existing: entries.count)
        return name
    }

    /// Refuses a timer beyond the session's limit (docs/Limits.md).
    static func checkCapacity(existing: Int, limit: Int = maxTimers) throws(CommandError) {
        guard existing < limit else {
            throw CommandError(
                "too many timers: a session keeps at most \(Format.grouped(Int64(limit))) (use 'reset' to start afresh)"
            )
        }
    }

    /// `--interval`: positive, and for a repeating timer at least 1 µs, the one minimum of
    /// everything that repeats (``SimDuration/minimumRepeatInterval``).
    private func requiredInterval(_ given: SimDuration?, for maker: TimerMaker, repeats: Bool) throws(CommandError)
        -> SimDuration
    {
        guard let interval = given else {
            throw CommandError("'timer \(maker.name)' needs --interval <duration>, e.g. --interval 50ms")
        }
        guard interval > .zero else { throw CommandError("--interval must be positive (got \(interval))") }
        guard !repeats || interval >= .minimumRepeatInterval else {
            throw CommandError(
                "a repeating timer needs an interval of at least 1us (got \(interval)); as with 'every', "
                    + "a shorter one would cost a million firings per simulated second")
        }
        return interval
    }

    /// The first fire must come before the 2^62 ns horizon (S1): time ends there, so a fire at
    /// the horizon itself would never come either.
    private func checkFirstFire(after delay: SimDuration) throws(CommandError) {
        let fire: SimTime
        do {
            fire = try device.now.adding(delay)
        } catch {
            throw CommandError("the first fire would be beyond the 2^62 ns horizon (\(error.description))")
        }
        guard fire < .horizon else {
            throw CommandError("the first fire would be at the 2^62 ns horizon, where time ends: it would never come")
        }
    }

    /// `--target <object> [--weak]` (K1): the object must exist and still be the shell's.
    private func targetOption(_ inv: Invocation) throws(CommandError) -> (Int?, Bool) {
        let weak = inv[Self.weak]
        guard let name = inv[Self.target] else {
            if weak { throw CommandError("--weak needs --target <object>") }
            return (nil, false)
        }
        let o = try object(named: name)
        guard objects[o].held else {
            throw CommandError("object '\(name)' was released (\(objects[o].state)); a new timer cannot target it")
        }
        return (o, weak)
    }

    /// Makes the device's timer with `add`, which gets the new entry's index for its callbacks,
    /// and the inspector's entry for it; returns the timer's JSON.
    private func make(
        _ name: String, kind: TimerKind, madeBy: TimerMaker, target: Int? = nil, weak: Bool = false,
        countdown: Countdown? = nil, warnings: [String] = [], add: (Int) -> TimerID
    ) -> CommandOutput {
        // Observe before the first timer exists, so that no firing is missed.
        observeFirings()
        // The log's rings and the entries share their indices; a ring starts at the timer's
        // first fire date, the grid its on-grid firings follow.
        let index = entries.count
        let id = add(index)
        let info = device.timerInfo(id)
        let interval = info?.interval.nanoseconds ?? 0
        let pattern: FiringLog.Pattern =
            switch kind {
            case .runLoopTimer: .runLoop(interval: interval)
            case .dispatchTimer: .dispatch(interval: interval)
            case .displayLink: .everyFiring
            }
        _ = log.addTimer(pattern: pattern, origin: info?.nextFire ?? .zero)
        entries.append(
            TimerEntry(
                name: name, id: id, kind: kind, madeBy: madeBy, target: target, weak: weak, live: true,
                countdown: countdown, created: device.now))
        entryByName[name] = index
        log.assign(timer: id.rawValue, to: index)
        if let target {
            objects[target].timers.append(index)
            if !weak { objects[target].retainers += 1 }  // K1
        }
        liveCount += 1
        used = true
        // The row is built only when it is shown (`--json`).
        return CommandOutput(json: self.rowJSON(self.row(entry: index)), warnings: warnings)
    }

    // MARK: Pause, resume, invalidate (T8, D4, DL4, DL6)

    func pause(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let index = try entry(named: inv[Self.existingTimer])
        let state = info(index)?.state ?? .invalidated
        guard state == .scheduled else {
            throw CommandError(
                "timer '\(entries[index].name)' is \(state.rawValue): only a scheduled timer can be paused")
        }
        device.pause(entries[index].id)
        return stateOutput(index)
    }

    func resume(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let index = try entry(named: inv[Self.existingTimer])
        let state = info(index)?.state ?? .invalidated
        guard state == .paused else {
            throw CommandError("timer '\(entries[index].name)' is \(state.rawValue), not paused")
        }
        // T8: a resumed run-loop timer skips the grid points it missed; they belong to no firing,
        // and its grid of on-grid firings starts again at its next fire date.
        let before = info(index)?.skipped ?? 0
        device.resume(entries[index].id)
        if let after = info(index) {
            log.addExtra(after.skipped - before, to: index)
            if after.kind == .runLoopTimer, let next = after.nextFire {
                log.restart(index, number: after.fires + 1, scheduled: next)
            }
        }
        return stateOutput(index)
    }

    func invalidate(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let index = try entry(named: inv[Self.existingTimer])
        let state = info(index)?.state ?? .invalidated
        guard state == .scheduled || state == .paused else {
            throw CommandError("timer '\(entries[index].name)' is already \(state.rawValue)")
        }
        invalidateTimer(index)
        let freed = timerEnded(index)
        var output = stateOutput(index)
        output.text = freed.map(\.text).joined(separator: "\n")
        output.json = .fields([
            "name": .string(self.entries[index].name),
            "state": .string(self.info(index)?.state.rawValue ?? "invalidated"),
            "deallocated": .array(freed.map(\.json)),
        ])
        return output
    }

    private func stateOutput(_ index: Int) -> CommandOutput {
        CommandOutput(
            json: .fields([
                "name": .string(self.entries[index].name),
                "state": .string(self.info(index)?.state.rawValue ?? "invalidated"),
            ]))
    }
}
