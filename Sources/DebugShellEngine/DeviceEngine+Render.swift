import DebugShellCore

/// The render pipeline driven by the engine: a commit's frame handed over, the vsync step of the
/// render server, and what observers hear of a frame (R1–R4, V5). Its state and its state
/// changes are ``RenderPipeline``'s.
extension DeviceEngine {
    // MARK: The render server (R1–R3)

    /// A commit's frame goes to the render server (R1), which works at vsyncs.
    func handToRenderServer(_ frame: FrameDraft) {
        render.receive(frame)
        ensureVsync()
    }

    /// At a vsync: present the frame due (R2), then start a render if a frame waits (R1).
    func renderServerVsync(at t: SimTime) {
        if let flight = render.takePresent(at: t) {
            present(flight.frame, start: flight.start, end: flight.end, at: t)
        }
        if let (frame, end) = render.startRender(at: t) {
            if wants(.render) { notify(.render, .renderStarted(frame: frame.id, start: t, end: end)) }
        }
    }

    private func present(_ frame: FrameDraft, start s: SimTime, end e: SimTime, at p: SimTime) {
        let previous = render.countPresent(frame, at: p)
        guard wants(.present) else { return }
        // R3: the expected present.
        let expected: SimTime
        var commitLate = false
        if let v = frame.newestTick {
            let vNext = vsync(after: v)
            // V5: on an adaptive display, at the rate in force when the tick happened.
            expected = display.refreshAtRateInForce(after: v, count: 2) ?? vsync(after: vNext)
            commitLate = frame.commitEnd >= vNext
        } else {
            expected =
                display.refreshAtRateInForce(after: frame.commitEnd, count: 2)
                ?? vsync(after: vsync(after: frame.commitEnd))
        }
        // R4: the hitch against the previous counted present.
        let floor = previous.map { max(expected, vsync(after: $0)) } ?? expected
        let info = PresentInfo(
            frame: frame.id, commitStart: frame.commitStart, commitEnd: frame.commitEnd, newestTick: frame.newestTick,
            renderStart: s, renderEnd: e, present: p, expectedPresent: expected, counted: frame.counted,
            commitLate: commitLate, renderLate: e > vsync(after: s), mergedFrames: frame.merged,
            previousCountedPresent: previous, hitch: max(.zero, p - floor))
        notify(.present, .presented(info))
    }
}
