import DebugShellCore

/// The render pipeline driven by the engine: a commit's frame handed over, the vsync step of the
/// render server, and what observers hear of a frame (R1–R4, R7–R9, V5). Its state and its state
/// changes are ``RenderPipeline``'s.
extension DeviceEngine {
    // MARK: The render server (R1–R3)

    /// A commit's frame goes to the render server (R1), which works at vsyncs.
    func handToRenderServer(_ frame: FrameDraft) {
        render.receive(frame)
        ensureVsync()
    }

    /// At a vsync: present the frame due (R2), then start a render if a frame waits (R1, R7).
    func renderServerVsync(at t: SimTime) {
        if let flight = render.takePresent(at: t) {
            present(flight, at: t)
        }
        if let flight = render.startRender(at: t), wants(.render) {
            notify(.render, .renderStarted(frame: flight.id, start: t, end: flight.end))
        }
    }

    /// The `count`-th vsync after `time` (`time` itself for 0).
    func vsync(after time: SimTime, count: Int) -> SimTime {
        var t = time
        for _ in 0..<max(0, count) { t = vsync(after: t) }
        return t
    }

    /// The `count`-th refresh after `time` at the rate in force then on an adaptive display (V5),
    /// else the `count`-th vsync after it.
    private func refresh(after time: SimTime, count: Int) -> SimTime {
        display.refreshAtRateInForce(after: time, count: Int64(count)) ?? vsync(after: time, count: count)
    }

    private func present(_ flight: FrameDraft, at p: SimTime) {
        let frame = flight
        let previous = render.countPresent(frame, at: p)
        guard wants(.present) else { return }
        let s = flight.start
        let e = flight.end
        let buffers = flight.buffers
        // R3, R7: the expected present, B refreshes after the newest tick or after the commit.
        let expected: SimTime
        let earliest: SimTime
        var commitLate = false
        if let v = frame.newestTick {
            earliest = v
            let vNext = vsync(after: v)
            expected =
                display.refreshAtRateInForce(after: v, count: Int64(buffers)) ?? vsync(after: vNext, count: buffers - 1)
            commitLate = frame.commitEnd >= vNext
        } else {
            earliest = frame.commitStart
            expected = refresh(after: frame.commitEnd, count: buffers)
        }
        // R4: the hitch against the previous counted present.
        let floor = previous.map { max(expected, vsync(after: $0)) } ?? expected
        // R7.4: a render overran when it ended after the (B − 1)-th vsync after its start.
        let renderLate = flight.overran
        // R8: the type, only for a frame later than expected.
        let (type, delay) =
            p > expected ? hitchType(of: flight, earliest: earliest, commitLate: commitLate) : (nil, nil)
        let info = PresentInfo(
            frame: frame.id, commitStart: frame.commitStart, commitEnd: frame.commitEnd, newestTick: frame.newestTick,
            renderStart: s, renderEnd: e, present: p, expectedPresent: expected, counted: frame.counted,
            commitLate: commitLate, renderLate: renderLate || flight.gpuStart > s, mergedFrames: frame.merged,
            previousCountedPresent: previous, hitch: max(.zero, p - floor), gpuStart: flight.gpuStart,
            earliest: earliest, buffers: buffers, phases: frame.phases, hitchType: type, delay: delay)
        notify(.present, .presented(info))
    }

    /// R8: why a frame shown after its expected present was late, and the work that delayed it.
    private func hitchType(of flight: FrameDraft, earliest: SimTime, commitLate: Bool) -> (HitchType?, FrameDelay?) {
        let frame = flight
        if commitLate {
            // The time from the earliest time to the commit's end: the tick's update, the commit,
            // and the rest (other work first); the largest share names the hitch.
            // An older tick or commit in the way (of a frame merged into this one) counts as the
            // update's or the commit's share.
            let own = FrameDelay(kind: .commit, label: "\(frame.id)", start: frame.commitStart, end: frame.commitEnd)
            let other = frame.waitedFor
            let otherPart = other.map { $0.end - max($0.start, earliest) } ?? .zero
            let otherIsCommit = other?.kind == .commit
            var update = frame.phases.update
            var commit = frame.commitEnd - frame.commitStart
            var before = max(.zero, frame.commitStart - earliest - update)
            if frame.waitedForIsTick || otherIsCommit { before = max(.zero, before - otherPart) }
            if frame.waitedForIsTick { update = update + otherPart }
            if otherIsCommit { commit = commit + otherPart }
            if commit >= update && commit >= before {
                let ownPart = frame.commitEnd - frame.commitStart
                return (.expensiveCommit, otherIsCommit && otherPart > ownPart ? other : own)
            }
            if update >= before {
                let ownPart = frame.phases.update
                let tick = frame.tickSpan.map {
                    FrameDelay(kind: .displayLink, label: timers[uiLink].label, start: $0.start, end: $0.end)
                }
                return (.appUpdate, frame.waitedForIsTick && otherPart > ownPart ? other : tick)
            }
            return (.preCommitLatency, other)
        }
        // R1: its render could start at the vsync after its commit.
        let due = vsync(after: frame.commitEnd)
        if flight.start > due || flight.gpuStart > flight.start {
            return (.commitToRenderLatency, flight.previous?.delay)
        }
        if flight.overran {
            let own = FrameDelay(kind: .render, label: "", start: flight.gpuStart, end: flight.end, frame: frame.id)
            let passes = frame.phases.offscreenPasses
            return (passes > 0 ? .expensiveRender(offscreenPasses: passes) : .expensiveGPU, own)
        }
        return (.delayedSwap, nil)
    }
}
