import DebugShellCore

/// The checker: `layout watch` and its display link and poll timer (L2–L4).
extension LayoutSettleChecker {
    func startWatch(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let rootName = invocation[Self.watchRoot]
        let root = try resolve(rootName, role: "root view")
        let mode = invocation[Self.watchMode]
        let quiet = invocation[Self.quiet]
        let timeout = invocation[Self.timeout]
        let poll = invocation[Self.poll]
        let leeway = invocation[Self.leeway]
        let defaultPerView = mode == .seed ? SettleWatch.seedPerView : SettleWatch.quietPerChangedView
        let costPerView = invocation[Self.costPerView] ?? defaultPerView
        guard quiet > .zero else { throw CommandError("--quiet must be a positive duration") }
        guard timeout > .zero else { throw CommandError("--timeout must be a positive duration") }
        guard poll >= .minimumRepeatInterval else {
            throw CommandError(
                "--poll must be at least 1us, the shortest interval of anything that repeats (got \(poll))")
        }
        guard costPerView <= .seconds(1) else {
            throw CommandError("--cost-per-view \(costPerView) is above the limit of 1s per view")
        }
        let now = device.now
        do { _ = try now.adding(timeout) } catch { throw CommandError(error.description) }
        var warnings: [String] = []
        if mode == .quiet {
            for option in [Self.poll, Self.leeway] where invocation.has(option) {
                warnings.append("--\(option.name) applies to --mode seed only; ignored")
            }
        } else {
            if invocation.has(Self.quiet) { warnings.append("--quiet applies to --mode quiet only; ignored") }
            if leeway > SimDuration(nanoseconds: poll.nanoseconds / 2) {
                warnings.append(
                    "--leeway \(leeway) is above half the poll interval; GCD clamps it to \(SimDuration(nanoseconds: poll.nanoseconds / 2)) (D2)"
                )
            }
        }
        if mode == .quiet && timeout < quiet {
            warnings.append("--timeout \(timeout) is shorter than --quiet \(quiet): the watch cannot settle")
        }
        var replaced = false
        if let old = watch, old.state == .settling {
            stopTimers(old)
            old.state = .stopped
            old.endedAt = now
            old.stopReason = "replaced by a new watch"
            replaced = true
        }
        let w = SettleWatch(
            root: root, rootName: rootName, mode: mode, quiet: quiet, timeout: timeout, poll: poll, leeway: leeway,
            costPerView: costPerView, start: now, digest: tree.digest(root))
        watch = w
        nextEpoch()
        // L2/L4: the checker's display link, common modes (DL5: first slot at the first vsync
        // at or after now).
        w.link = device.addDisplayLink(
            DisplayLinkConfig(mode: .common, owner: .tool("layout"), label: "layout checker")
        ) {
            [weak self, w] callback in
            self?.checkerCallback(w, callback) ?? .zero
        }
        if mode == .seed {
            // L2: a main-queue dispatch timer, first fire at the watch instant, every --poll.
            w.pollTimer = device.addDispatchTimer(
                DispatchTimerConfig(
                    interval: poll, start: .zero, leeway: leeway, queue: .main, owner: .tool("layout"),
                    label: "layout poll")
            ) { [weak self, w] callback in
                self?.pollCallback(w, callback)
                return .zero
            }
        }
        return CommandOutput(
            json: .fields([
                "root": .string(rootName), "mode": .string(mode.rawValue), "views": .int(Int64(self.tree.count(root))),
                "start_ns": JSONValue(now), "quiet_ns": JSONValue(quiet), "timeout_ns": JSONValue(timeout),
                "poll_ns": JSONValue(poll), "leeway_ns": JSONValue(leeway), "cost_per_view_ns": JSONValue(costPerView),
                "replaced": .bool(replaced),
            ]), warnings: warnings)
    }

    func stopWatch() -> CommandOutput {
        var stopped = false
        if let watch, watch.state == .settling {
            stopTimers(watch)
            watch.state = .stopped
            watch.endedAt = device.now
            watch.stopReason = "layout stop"
            stopped = true
        }
        return CommandOutput(json: .fields(["state": .string(self.stateWord), "stopped": .bool(stopped)]))
    }

    /// A new checker frame: views changed from now on are counted afresh.
    func nextEpoch() {
        epoch &+= 1
        if epoch == 0 { epoch = 1 }
    }

    func stopTimers(_ w: SettleWatch) {
        if let link = w.link { device.invalidate(link) }
        if let poll = w.pollTimer { device.invalidate(poll) }
    }

    // MARK: - Callbacks

    /// The checker's display-link callback; returns its modelled cost (L3).
    func checkerCallback(_ w: SettleWatch, _ callback: TimerCallback) -> SimDuration {
        guard w === watch, w.state == .settling, !w.detached else { return .zero }
        let t = callback.start
        let digest = tree.digest(w.root)
        for i in w.pendingChanges.indices where w.pendingChanges[i].slot >= 0 {
            let slot = w.pendingChanges[i].slot
            w.pendingChanges[i].after = tree.properties(slot)
            if w.pendingChanges[i].kinds.contains(.parent) {
                w.pendingChanges[i].parentName = tree.name(tree[slot].parent)
            }
        }
        let changedViews = w.closeFrame(at: t, digest: digest)
        nextEpoch()
        let cost: SimDuration
        switch w.mode {
        case .quiet:
            // L3: 0.2 µs plus the per-view figure for each changed view.
            cost = SettleWatch.quietBaseCost + SimDuration(nanoseconds: w.costPerView.nanoseconds * Int64(changedViews))
            if changedViews > 0 { w.changedCallbacks += 1 }
            w.totalCost = w.totalCost + cost
            // L4: settled when t − last change ≥ quiet; otherwise a timeout when t − start ≥ timeout.
            if t - w.lastChange >= w.quiet {
                settle(w, at: t)
            } else if t - w.start >= w.timeout {
                timeOut(w, at: t)
            }
        case .seed:
            // L3: the original's string snapshot costs the per-view figure for every view.
            cost = SimDuration(nanoseconds: w.costPerView.nanoseconds * Int64(tree.count(w.root)))
            w.totalCost = w.totalCost + cost
            // L2: equal to the previous snapshot sets the sticky flag; otherwise it is stored.
            if let snapshot = w.snapshot, snapshot == digest {
                if !w.flag {
                    w.flag = true
                    w.flagSetAt = t
                }
            } else {
                if w.snapshot != nil { w.changedCallbacks += 1 }
                w.snapshot = digest
            }
            if t - w.start >= w.timeout { timeOut(w, at: t) }
        }
        return cost
    }

    /// The seed mode's poll handler (L2): settled at its start when the flag is set.
    func pollCallback(_ w: SettleWatch, _ callback: TimerCallback) {
        guard w === watch, w.state == .settling, !w.detached else { return }
        let t = callback.start
        if w.flag {
            settle(w, at: t)
        } else if t - w.start >= w.timeout {
            timeOut(w, at: t)
        }
    }

    private func settle(_ w: SettleWatch, at t: SimTime) {
        w.state = .settled
        w.settledAt = t
        w.endedAt = t
        stopTimers(w)
        let views = tree.count(w.root)
        let lastName = w.lastChangedView(in: tree)
        host.emit(
            ToolEvent(
                name: "layout.settled", time: t,
                message:
                    "settled (\(w.rootName), \(ViewFormat.grouped(views)) view\(views == 1 ? "" : "s"), last change \(w.lastChange))",
                fields: [
                    ("root", .string(w.rootName)), ("mode", .string(w.mode.rawValue)), ("views", .int(Int64(views))),
                    ("last_change_ns", JSONValue(w.lastChange)), ("last_changed_view", JSONValue(lastName)),
                    ("changes", .int(w.changedCallbacks)),
                ]))
    }

    private func timeOut(_ w: SettleWatch, at t: SimTime) {
        w.state = .timeout
        w.endedAt = t
        stopTimers(w)
        let diagnosis = makeDiagnosis(w, at: t)
        w.diagnosis = diagnosis
        let views = tree.count(w.root)
        var summary = "not settled after \(t - w.start)"
        if let top = diagnosis.culprits.first {
            summary += ": \(top.name) \(frequency(top.frames, of: diagnosis.callbacks))"
            if diagnosis.culprits.count > 1 { summary += " (and \(diagnosis.culprits.count - 1) more)" }
        }
        summary += "; the tree \(diagnosis.states.text)"
        host.emit(
            ToolEvent(
                name: "layout.timeout", time: t,
                message:
                    "timeout (\(w.rootName), \(ViewFormat.grouped(views)) view\(views == 1 ? "" : "s"), \(summary))",
                fields: [
                    ("root", .string(w.rootName)), ("mode", .string(w.mode.rawValue)), ("views", .int(Int64(views))),
                    ("last_change_ns", JSONValue(w.lastChange)), ("changes", .int(w.changedCallbacks)),
                    ("diagnosis", diagnosisJSON(diagnosis)),
                ]))
    }

    // MARK: - Diagnosis (L4)

    /// Views that changed within this long before the timeout "kept changing".
    static func recentWindow(_ w: SettleWatch) -> SimDuration { max(w.quiet, .seconds(1)) }

    func makeDiagnosis(_ w: SettleWatch, at t: SimTime) -> Diagnosis {
        let since = t - LayoutSettleChecker.recentWindow(w)
        var culprits: [Diagnosis.Culprit] = []
        for stats in w.stats where stats.last >= since {
            let live = !stats.removed && isCurrent(stats.slot, serial: stats.serial)
            culprits.append(
                Diagnosis.Culprit(
                    name: live ? tree.name(stats.slot) : stats.name ?? "?", frames: stats.frames, kinds: stats.kinds,
                    last: stats.last, cause: live ? cause(of: stats.slot) : nil, removed: !live))
        }
        culprits.sort { a, b in
            if a.frames != b.frames { return a.frames > b.frames }
            if a.last != b.last { return a.last > b.last }
            return a.name < b.name
        }
        return Diagnosis(
            culprits: culprits, changedViews: w.changedViews, callbacks: w.callbacks,
            changedCallbacks: w.changedCallbacks, longestStill: max(w.longestStill, t - w.lastChange),
            states: w.stateSummary)
    }

    /// What keeps a view changing, when the tool drives it.
    func cause(of slot: ViewSlot) -> String? {
        if let spin = spin(of: slot) {
            return spin.end.map { "view spin until \($0)" } ?? "view spin without an end"
        }
        if let animation = animation(of: slot) {
            return "view animate over \(animation.duration) from \(animation.start)"
        }
        return nil
    }

    /// `every frame` or `in 5 of 31 frames`.
    func frequency(_ frames: Int64, of callbacks: Int64) -> String {
        frames >= callbacks ? "changed every frame" : "changed in \(frames) of \(callbacks) frames"
    }

    func diagnosisJSON(_ d: Diagnosis) -> JSONValue {
        .fields([
            "kept_changing": .array(
                d.culprits.prefix(LayoutSettleChecker.culpritLimit).map { c in
                    .fields([
                        "view": .string(c.name), "frames": .int(c.frames),
                        "properties": .array(c.kinds.words.map { .string($0) }),
                        "last_change_ns": JSONValue(c.last), "cause": JSONValue(c.cause), "removed": .bool(c.removed),
                    ])
                }),
            "kept_changing_total": .int(Int64(d.culprits.count)),
            "changed_views": .int(Int64(d.changedViews)),
            "frames": .int(d.callbacks), "changed_frames": .int(d.changedCallbacks),
            "longest_still_ns": JSONValue(d.longestStill),
            "states": .fields([
                "distinct": .int(Int64(d.states.distinct)), "more": .bool(d.states.overflow),
                "recurrences": .int(d.states.recurrences),
                "period_frames": d.states.lastPeriod.map { .int($0) } ?? .null,
                "oscillates": .bool(d.states.oscillates),
            ]),
        ])
    }

    /// Culprits listed by `layout show` and in JSON.
    static let culpritLimit = 5
}
