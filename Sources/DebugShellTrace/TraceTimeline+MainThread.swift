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
        iterationItems.append(
            TraceRecord(
                start: start, end: end, primary: Int64(TraceTimeline.itemKinds.firstIndex(of: item.kind) ?? 0),
                secondary: item.iteration, name: name, track: TraceTimeline.mainTrack, reference: 0, code: 0,
                kind: .mainItem))
    }

    /// Writes the iteration gathered so far, then its items: the iteration first, so that a
    /// viewer nests the items in it even when the first starts with it and ends with it. An
    /// iteration of no length is not written (it would nest in its own items), and items of no
    /// length at one instant become one slice.
    mutating func closeIteration() {
        guard let current = iteration else { return }
        iteration = nil
        name(track: TraceTimeline.mainTrack)
        if current.end > current.start {
            record(
                .iteration, track: TraceTimeline.mainTrack, name: Fixed.iteration.rawValue, start: current.start,
                end: current.end, primary: current.number)
            lastZeroLength = nil
        }
        for item in iterationItems {
            if item.end > item.start {
                record(
                    item.kind, track: item.track, name: item.name, start: item.start, end: item.end,
                    primary: item.primary, secondary: item.secondary, reference: item.reference, code: item.code)
                lastZeroLength = nil
            } else {
                zeroLengthItem(item)
            }
        }
        iterationItems.removeAll(keepingCapacity: true)
    }

    /// An item of no length: a slice of its own, unless another of no length was just written at
    /// the same instant — then both are one slice that names them (`2 zero-cost items`).
    private mutating func zeroLengthItem(_ item: TraceRecord) {
        let t = item.start + offset
        if let last = lastZeroLength, last.time == t, let index = ringIndex(of: last.sequence) {
            let merged = ring[index]
            var items: [JSONValue]
            if merged.kind == .mergedItems {
                if case .array(let list)? = extras[last.sequence]?.first?.1 { items = list } else { items = [] }
            } else {
                items = [.string(displayName(merged))]
            }
            items.append(.string(displayName(item)))
            ring[index].kind = .mergedItems
            ring[index].reference = Int32(items.count)
            ring[index].name = intern("\(items.count) zero-cost items")
            extras[last.sequence] = [("items", .array(items))]
            return
        }
        let kept = record(
            item.kind, track: item.track, name: item.name, start: item.start, end: item.end, primary: item.primary,
            secondary: item.secondary, reference: item.reference, code: item.code)
        lastZeroLength = kept ? (recorded - 1, t) : nil
    }

    /// The ring's index of a kept record's sequence number.
    func ringIndex(of sequence: Int64) -> Int? {
        let first = recorded - Int64(ring.count)
        guard sequence >= first, sequence < recorded else { return nil }
        return (ringStart + Int(sequence - first)) % ring.count
    }

    /// A main-thread item's name as a viewer shows it.
    private func displayName(_ r: TraceRecord) -> String {
        r.name >= 0 && Int(r.name) < names.count ? names[Int(r.name)] : "item"
    }

    mutating func timerFired(_ f: TimerFiring, device: any SimulatedDevice) {
        let cause = Int16(f.cause.map { TraceTimeline.causes.firstIndex(of: $0).map { $0 + 1 } ?? 0 } ?? 0)
        if f.kind == .dispatchTimer, let track = queueTrack(f.id, device: device) {
            guard categories.contains(.queues) else { return }
            record(
                .queueHandler, track: track, name: timerName(f.id, device: device), start: f.start.nanoseconds,
                end: f.end.nanoseconds, primary: f.scheduled.nanoseconds + offset, secondary: f.data,
                reference: Int32(truncatingIfNeeded: f.id.rawValue), code: cause)
            return
        }
        // A main-thread firing: its item was just gathered; it gains the timer's arguments.
        guard categories.contains(.main), let last = iterationItems.indices.last,
            iterationItems[last].kind == .mainItem, iterationItems[last].start == f.start.nanoseconds
        else { return }
        let itemKind = Int16(truncatingIfNeeded: iterationItems[last].primary)
        iterationItems[last].name = timerName(f.id, device: device)
        iterationItems[last].kind = .timerItem
        // The scheduled time on the trace's clock, as the item's start will be: lateness is the
        // difference of two times on one clock.
        iterationItems[last].primary = f.scheduled.nanoseconds + offset
        iterationItems[last].secondary = f.data
        iterationItems[last].reference = Int32(truncatingIfNeeded: f.id.rawValue)
        iterationItems[last].code = itemKind << 8 | cause
    }

    /// The track of a dispatch timer's background queue, named at its first handler; nil for a
    /// timer on the main queue.
    private mutating func queueTrack(_ id: TimerID, device: any SimulatedDevice) -> Int32? {
        let i = id.rawValue
        guard i >= 0 else { return nil }
        if i < queueTracks.count, queueTracks[i] != 0 { return queueTracks[i] > 0 ? queueTracks[i] : nil }
        if i >= queueTracks.count { queueTracks += Array(repeating: 0, count: i + 1 - queueTracks.count) }
        guard device.timerInfo(id)?.queue == .background else {
            queueTracks[i] = -1
            return nil
        }
        let track = TraceTimeline.queueTrackBase + queuesNamed
        queuesNamed += 1
        queueTracks[i] = track
        if categories.contains(.queues) { trackNames[track] = "Queue \(label(id, device: device))" }
        return track
    }
}
