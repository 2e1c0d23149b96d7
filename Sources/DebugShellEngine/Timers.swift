import DebugShellCore

/// The timers: every display link, run-loop timer and dispatch timer's record, the lists the
/// run loop and the dispatch queues take them from, and the wake-ups they caused.
///
/// `timers[i]` is record i, addressed in place in the ``TimerTable``. What here changes one
/// record or a list only is a method of this type; what calls a tool's callback or moves the
/// main thread is the engine's (DeviceEngine+Timers.swift).
struct Timers: ~Copyable {
    /// Every link and timer, by ``TimerID`` (index 0 is the app's UI link).
    private var table = TimerTable()
    /// Active display links other than the UI link, in creation order (DL7 fill order).
    var activeLinks: [Int] = []
    /// Due run-loop timers per mode class (default, tracking, common), in (fire date, id) order.
    var due = ClassLists()
    /// Display links with a filled slot per mode class, in fill order.
    var filledLinks = ClassLists()
    /// Due dispatch timers per queue kind (background, main), while coalescing (D2).
    var dueDispatch = ClassLists()
    /// A reused buffer for a coalesced dispatch wake-up's due timers.
    var dispatchScratch: [Int] = []
    /// The last instant a dispatch wake-up was counted per queue kind (background, main).
    var lastBackgroundWake = Int64.min
    var lastMainWake = Int64.min
    var lastBackgroundAppWake = Int64.min
    var lastMainAppWake = Int64.min
    /// Run-loop and dispatch wake-ups that fired timers; and those that fired an app timer.
    var wakeups: Int64 = 0
    var appWakeups: Int64 = 0
    /// `runloop.coalescing` (T5, D2).
    var coalescing = false

    init() {}

    // MARK: The records

    var count: Int { table.count }
    var indices: Range<Int> { table.indices }

    subscript(i: Int) -> TimerRecord {
        @inline(__always) unsafeAddress { UnsafePointer(table.record(i)) }
        @inline(__always) unsafeMutableAddress { table.record(i) }
    }

    /// Record `i`'s address, for a hot path that touches many of its fields (TimerTable).
    @inline(__always) func record(_ i: Int) -> UnsafeMutablePointer<TimerRecord> { table.record(i) }

    /// Starts bringing record `i` into the cache (TimerTable); a hint only.
    @inline(__always) func prefetch(_ i: Int) { table.prefetch(i) }

    /// Adds a record; returns its index.
    mutating func append(_ record: TimerRecord) -> Int {
        table.append(record)
        return table.count - 1
    }

    @inline(__always) func index(_ id: TimerID) -> Int? {
        id.rawValue >= 0 && id.rawValue < table.count ? id.rawValue : nil
    }

    // MARK: The lists

    /// Takes a timer off the list it waits in: a link's filled slot, a due run-loop timer, a due
    /// dispatch timer.
    mutating func removeFromDue(_ i: Int) {
        switch self[i].kind {
        case .displayLink:
            if self[i].slot != nil { filledLinks.remove(modeClass(self[i].mode), i) }
        case .runLoopTimer:
            if self[i].isDue {
                due.remove(modeClass(self[i].mode), i)
                self[i].isDue = false
            }
        case .dispatchTimer:
            if self[i].isDue {
                dueDispatch.remove(self[i].queue == .background ? 0 : 1, i)
                self[i].isDue = false
            }
        }
    }

    /// DL7: a link fills its slot with the vsync `v`; a link whose slot is still full skips it.
    @inline(__always) mutating func fill(_ link: Int, at v: VsyncGrid.Position) {
        if self[link].slot == nil {
            self[link].slot = v
            filledLinks.append(modeClass(self[link].mode), link)
        } else {
            self[link].skipped += 1
        }
    }

    /// Every active link recomputes its cadence (V4) at its next refresh: the rate, a cap or the
    /// display's mode changed.
    mutating func linkCadencesChanged() {
        for link in activeLinks { self[link].stepSegment = -1 }
    }

    /// When the timer source of the mode classes became ready: the earliest fire date of a due
    /// timer, or with coalescing the earliest fire date + tolerance (T5).
    @inline(__always) func readyTime(_ a: Int, _ b: Int) -> Int64? {
        if due.isEmpty(a) && due.isEmpty(b) { return nil }
        var w = Int64.max
        if coalescing {
            for k in 0..<due.count(a) {
                let i = due.element(a, k)
                w = min(w, (self[i].fireDate + self[i].slack).nanoseconds)
            }
            for k in 0..<due.count(b) {
                let i = due.element(b, k)
                w = min(w, (self[i].fireDate + self[i].slack).nanoseconds)
            }
        } else {
            if let i = due.first(a) { w = self[i].fireDate.nanoseconds }
            if let i = due.first(b) { w = min(w, self[i].fireDate.nanoseconds) }
        }
        return w
    }

    /// The earliest deadline (fire date + leeway) of the due dispatch timers of queue kind `k`
    /// (D2).
    @inline(__always) func dispatchDeadline(_ k: Int) -> SimTime {
        var deadline = SimTime.never
        for n in 0..<dueDispatch.count(k) {
            let i = dueDispatch.element(k, n)
            deadline = min(deadline, self[i].fireDate + self[i].slack)
        }
        return deadline
    }

    // MARK: Dispatch data (D3)

    /// Adds the grid points from the next target through `t` to the pending data: on time that is
    /// exactly one point, and no division.
    mutating func countTargets(_ i: Int, through t: SimTime) {
        let first = self[i].fireDate
        guard first <= t, first < .horizon else { return }
        var points: Int64 = 1
        if t > first && self[i].repeats {
            points += (t - first).nanoseconds / self[i].interval.nanoseconds
        }
        if self[i].pendingData == 0 {
            self[i].oldestPending = first
            self[i].releasedAt = t
        }
        self[i].pendingData += points
    }

    // MARK: Wake-ups

    mutating func countWakeup(app: Bool) {
        wakeups += 1
        if app { appWakeups += 1 }
    }

    /// A dispatch wake-up of queue kind `kind` at `t`: counted once per instant and kind.
    @inline(__always) mutating func countDispatchWakeup(_ kind: DispatchQueueKind, app: Bool, at t: SimTime) {
        let now = t.nanoseconds
        if kind == .background {
            if lastBackgroundWake != now {
                lastBackgroundWake = now
                wakeups += 1
            }
            if app && lastBackgroundAppWake != now {
                lastBackgroundAppWake = now
                appWakeups += 1
            }
        } else {
            if lastMainWake != now {
                lastMainWake = now
                wakeups += 1
            }
            if app && lastMainAppWake != now {
                lastMainAppWake = now
                appWakeups += 1
            }
        }
    }

    /// `count` dispatch wake-ups of timer `i`, each of its own instant, the last at `lastWake`:
    /// targets merged in closed form while its handler waits or runs.
    mutating func countMergedWakeups(of i: Int, count k: Int64, lastWake: Int64) {
        let app = self[i].isApp
        wakeups += k
        if app { appWakeups += k }
        if self[i].queue == .background {
            lastBackgroundWake = lastWake
            if app { lastBackgroundAppWake = lastWake }
        } else {
            lastMainWake = lastWake
            if app { lastMainAppWake = lastWake }
        }
    }
}
