import DebugShellCore

/// The main thread's track and the background queues': run-loop iterations and their items, timers'
/// firings, dispatch handlers.
extension TraceTimeline {
    // MARK: The main thread

    mutating func mainItem(_ item: MainThreadItem) {
        let start = item.start.nanoseconds
        let end = item.end.nanoseconds
        if categories.contains(.counters) {
            countSeconds(upTo: start, partial: false)
            if end > start { busyItems.append((start, end)) }
        }
        guard categories.contains(.main) else { return }
        if end - start >= TraceTimeline.hangThreshold { hang(item) }
        if let current = iteration, current.number != item.iteration { closeIteration() }
        if let current = iteration {
            iteration = (current.number, current.start, max(current.end, end))
        } else {
            iteration = (item.iteration, start, end)
        }
        // A timer's, link's or handler's item is named by the firing that follows it (by timer id,
        // without hashing its label); a block by its label; a commit is a commit.
        let name: Int32
        switch item.kind {
        case .commit: name = Fixed.commit.rawValue
        case .block: name = intern(item.label.isEmpty ? "block" : item.label)
        case .timer, .displayLink, .dispatchHandler: name = -1
        }
        let record = TraceRecord(
            start: start, end: end, primary: TraceTimeline.index(of: item.kind),
            secondary: item.iteration, name: name, track: TraceTimeline.mainTrack, reference: 0, code: 0,
            kind: .mainItem)
        if iterationCount < iterationItems.count {
            iterationItems[iterationCount] = record
        } else {
            iterationItems.append(record)
        }
        iterationCount += 1
    }

    /// Writes the iteration gathered so far, then its items: the iteration first, so that a
    /// viewer nests the items in it even when the first starts with it and ends with it. Items of
    /// no length at one instant become one slice. Those at the iteration's end — all of an
    /// iteration of no length's — would stand beside it (a viewer closes a slice where the next
    /// begins) or, after an item of no length there, inside that item: they are written in an
    /// iteration of no length at that instant, written before them, which the items of no length
    /// of the iterations that follow at the same instant join.
    mutating func closeIteration() {
        guard let current = iteration else { return }
        iteration = nil
        name(track: TraceTimeline.mainTrack)
        if current.end > current.start {
            record(
                .iteration, track: TraceTimeline.mainTrack, name: Fixed.iteration.rawValue, start: current.start,
                end: current.end, primary: current.number, secondary: current.number)
            lastZeroLength = nil
            zeroLengthIteration = nil
        }
        tally(iterationCount)
        for k in 0..<iterationCount {
            let item = iterationItems[k]
            if item.end > item.start {
                record(
                    item.kind, track: item.track, name: item.name, start: item.start, end: item.end,
                    primary: item.primary, secondary: item.secondary, reference: item.reference, code: item.code)
                lastZeroLength = nil
            } else {
                if item.start == current.end { zeroLengthIteration(at: item.start, number: current.number) }
                zeroLengthItem(item)
            }
        }
        iterationCount = 0
    }

    /// The iteration of no length at `t` (the simulation's) that the items of no length there
    /// are written in: written now, or the one already written at `t`, which then runs through
    /// iteration `number` too.
    private mutating func zeroLengthIteration(at t: Int64, number: Int64) {
        if let open = zeroLengthIteration, open.time == t + offset {
            if let index = ringIndex(of: open.sequence) { ring[index].secondary = max(ring[index].secondary, number) }
            return
        }
        let kept = record(
            .iteration, track: TraceTimeline.mainTrack, name: Fixed.iteration.rawValue, start: t, end: t,
            primary: number, secondary: number)
        zeroLengthIteration = kept ? (recorded - 1, t + offset) : nil
        lastZeroLength = nil
    }

    /// An item of no length: a slice of its own, unless another of no length was just written at
    /// the same instant — then both are one slice that holds them (``TraceRecord/Kind/mergedItems``,
    /// named and described from its items when the trace is saved).
    private mutating func zeroLengthItem(_ item: TraceRecord) {
        let t = item.start + offset
        if join(item, to: lastZeroLength, at: t) { return }
        lastZeroLength = record(item) ? (recorded - 1, t) : nil
    }

    /// Joins `item`, of no length at `t` (the trace's clock), to `last` — the kept record of no
    /// length written just before it on its track — when that is at the same instant: the two
    /// become one ``TraceRecord/Kind/mergedItems`` record. False when they cannot be joined.
    private mutating func join(_ item: TraceRecord, to last: (sequence: Int64, time: Int64)?, at t: Int64) -> Bool {
        guard let last, last.time == t, let index = ringIndex(of: last.sequence) else { return false }
        tally(1)
        var joining = item
        joining.start = t
        joining.end = t
        if ring[index].kind != .mergedItems {
            mergedItems[last.sequence] = [ring[index]]
            ring[index].kind = .mergedItems
            ring[index].reference = 1
        }
        mergedItems[last.sequence, default: []].append(joining)
        ring[index].reference += 1
        return true
    }

    /// Records `item`, whose times are the simulation's; whether it was kept.
    private mutating func record(_ item: TraceRecord) -> Bool {
        record(
            item.kind, track: item.track, name: item.name, start: item.start, end: item.end, primary: item.primary,
            secondary: item.secondary, reference: item.reference, code: item.code)
    }

    /// The ring's index of a kept record's sequence number.
    func ringIndex(of sequence: Int64) -> Int? {
        let first = recorded - Int64(ring.count)
        guard sequence >= first, sequence < recorded else { return nil }
        return (ringStart + Int(sequence - first)) % ring.count
    }

    mutating func timerFired(_ f: TimerFiring, device: any SimulatedDevice) {
        let cause = TraceTimeline.code(of: f.cause)
        if f.kind == .dispatchTimer, isBackground(f.id, device: device) {
            guard categories.contains(.queues) else { return }
            let t = f.start.nanoseconds + offset
            let track = lane(from: t, to: f.end.nanoseconds + offset)
            let k = Int(track - TraceTimeline.queueTrackBase)
            let handler = TraceRecord(
                start: f.start.nanoseconds, end: f.end.nanoseconds, primary: f.scheduled.nanoseconds + offset,
                secondary: f.data, name: timerName(f.id, device: device), track: track,
                reference: Int32(truncatingIfNeeded: f.id.rawValue), code: cause, kind: .queueHandler)
            let zero = f.start == f.end
            if zero && join(handler, to: laneZeroLength[k], at: t) { return }
            laneZeroLength[k] = record(handler) && zero ? (recorded - 1, t) : nil
            return
        }
        // A main-thread firing: its item was just gathered; it gains the timer's arguments.
        let last = iterationCount - 1
        guard categories.contains(.main), last >= 0, iterationItems[last].kind == .mainItem,
            iterationItems[last].start == f.start.nanoseconds
        else { return }
        var item = iterationItems[last]
        let itemKind = Int16(truncatingIfNeeded: item.primary)
        item.name = timerName(f.id, device: device)
        item.kind = .timerItem
        // The scheduled time on the trace's clock, as the item's start will be: lateness is the
        // difference of two times on one clock.
        item.primary = f.scheduled.nanoseconds + offset
        item.secondary = f.data
        item.reference = Int32(truncatingIfNeeded: f.id.rawValue)
        item.code = itemKind << 8 | cause
        iterationItems[last] = item
    }

    /// Whether a dispatch timer runs on a background queue (not the main queue).
    private mutating func isBackground(_ id: TimerID, device: any SimulatedDevice) -> Bool {
        let i = id.rawValue
        guard i >= 0 else { return false }
        if i < queueTracks.count, queueTracks[i] != 0 { return queueTracks[i] > 0 }
        if i >= queueTracks.count { queueTracks.append(contentsOf: repeatElement(0, count: i + 1 - queueTracks.count)) }
        let background = device.timerInfo(id)?.queue == .background
        queueTracks[i] = background ? 1 : -1
        return background
    }

    /// The background lane a handler from `start` to `end` (the trace's clock) goes on: the first
    /// whose last handler has ended by `start` — one of no length at `start` too, as Perfetto
    /// stacks slices of no length — named when first used.
    private mutating func lane(from start: Int64, to end: Int64) -> Int32 {
        var k = 0
        while k < laneEnds.count, laneEnds[k] > start { k += 1 }
        tally(k + 1)
        if k == laneEnds.count {
            if k < TraceTimeline.maxLanes {
                laneEnds.append(end)
                laneZeroLength.append(nil)
                let track = TraceTimeline.queueTrackBase + Int32(k)
                trackNames[track] = k == 0 ? "Background queues" : "Background queues (\(k + 1))"
                return track
            }
            k -= 1
        }
        laneEnds[k] = max(laneEnds[k], end)
        return TraceTimeline.queueTrackBase + Int32(k)
    }
}
