import DebugShellCore

/// What a present tells beyond its instant (R6–R9), kept beside the ring for a frame's actual
/// slice, by its record's sequence number: written when the trace is saved. Times are on the
/// trace's clock.
struct FrameDetail {
    var frame: Int64
    var verdict: FrameVerdict
    /// Whether the frame counts for hitch metrics (A2).
    var counted = false
    var type: HitchType?
    var severity: HitchSeverity?
    var hitch: Int64 = 0
    var expected: Int64 = 0
    var commitStart: Int64 = 0
    var commitEnd: Int64 = 0
    var renderStart: Int64 = 0
    var gpuStart: Int64 = 0
    var renderEnd: Int64 = 0
    var buffers = 2
    /// Frames merged into it, itself included (R1).
    var merged = 1
    var phases = FramePhases.zero
    /// What delayed it (R8), its times on the trace's clock.
    var delay: FrameDelay?
    /// The flow that ends on the frame's `delayed by` marker, from what delayed it; 0 for none.
    var delayFlow: UInt64 = 0
    /// The flow of its stages, commit → render → present, that ends on its present; 0 for none.
    var chain: UInt64 = 0
    /// A dropped frame's: the frame it was merged into.
    var droppedInto: Int64 = 0
}

/// A commit the device made, not yet presented or merged (R1), in the simulation's time.
struct PendingCommit {
    var frame: Int64
    var start: Int64
    var end: Int64
    var newestTick: Int64?
}

/// Ids of flows (Perfetto's `bind_id`): a frame's stages share one, made from its commit's start
/// on the trace's clock (even); an item that delayed a frame begins one made from its own start
/// (odd). Ids are unique in a trace, as Perfetto needs of a flow's start.
enum FlowID {
    static func chain(commitStart t: Int64) -> UInt64 { UInt64(bitPattern: t) &* 2 &+ 2 }
    static func delay(itemStart t: Int64) -> UInt64 { UInt64(bitPattern: t) &* 2 &+ 1 }
    /// The commit's start a frame's flow was made from.
    static func commitStart(of chain: UInt64) -> Int64 { Int64(bitPattern: (chain &- 2) / 2) }
}

/// The frame timeline: expected and actual frames on lanes of their own, the flows between a
/// frame's stages and from what delayed it, and the hangs of the main thread (RL6).
extension TraceTimeline {
    // MARK: Commits and renders

    /// A commit the device made: its frame may be presented or dropped later.
    mutating func committed(frame: Int64, start: SimTime, end: SimTime, newestTick: SimTime?) {
        guard categories.contains(.frames) else { return }
        pendingCommits.append(
            PendingCommit(
                frame: frame, start: start.nanoseconds, end: end.nanoseconds, newestTick: newestTick?.nanoseconds))
    }

    /// A render started: a slice from when its work began — at the vsync it was taken at, or, with
    /// three buffers, when the render before it ended (R7.2), so that renders follow one another
    /// on the track and none is dropped for overlapping the one before — with the vsync it was
    /// taken at when that was earlier. Its record carries its frame's flow on from the commit
    /// (Perfetto's step), or begins it when the commit is not in the trace.
    mutating func renderStarted(frame: Int64, start taken: SimTime, end: SimTime) {
        name(track: TraceTimeline.renderTrack)
        let start = max(taken.nanoseconds, lastRenderEnd)
        lastRenderEnd = end.nanoseconds
        var chain: UInt64 = 0
        var code: Int16 = 0
        if categories.contains(.frames) {
            var k = pendingCommits.count - 1
            while k >= pendingHead, pendingCommits[k].frame > frame { k -= 1 }
            if k >= pendingHead, pendingCommits[k].frame == frame {
                chain = FlowID.chain(commitStart: pendingCommits[k].start + offset)
                code = categories.contains(.main) ? TraceTimeline.flowStep : TraceTimeline.flowBegin
                renderChains[renderChainNext & 7] = (frame, chain)
                renderChainNext &+= 1
            }
        }
        record(
            .render, track: TraceTimeline.renderTrack, name: Fixed.render.rawValue, start: start, end: end.nanoseconds,
            primary: frame, secondary: Int64(bitPattern: chain), code: code,
            extra: start > taken.nanoseconds ? [("render_start_ns", .int(taken.nanoseconds + offset))] : nil)
    }

    /// The flow a recent render of `frame` carries, if any.
    private func renderChain(of frame: Int64) -> UInt64 {
        for entry in renderChains where entry.frame == frame { return entry.chain }
        return 0
    }

    // MARK: Frames

    /// A present's frames: its actual life and its expected one, and the frames merged into it
    /// (dropped, R9), each on the first lane free at its start.
    mutating func framesPresented(_ p: PresentInfo, device: any SimulatedDevice) {
        // The commits up to this frame are done with: its own, and those merged into it.
        var own: PendingCommit?
        var dropped: [PendingCommit] = []
        while pendingHead < pendingCommits.count, pendingCommits[pendingHead].frame <= p.frame {
            let c = pendingCommits[pendingHead]
            pendingHead += 1
            if c.frame == p.frame {
                own = c
            } else if p.droppedFrames.contains(c.frame) {
                dropped.append(c)
            }
        }
        if pendingHead > 64 && pendingHead * 2 > pendingCommits.count {
            tally(pendingCommits.count - pendingHead)
            pendingCommits.removeFirst(pendingHead)
            pendingHead = 0
        }
        tally(dropped.count)
        let earliest = p.earliest.nanoseconds
        let present = p.present.nanoseconds
        var detail = FrameDetail(frame: p.frame, verdict: p.verdict)
        detail.counted = p.counted
        detail.hitch = p.hitch.nanoseconds
        detail.expected = p.expectedPresent.nanoseconds + offset
        detail.commitStart = p.commitStart.nanoseconds + offset
        detail.commitEnd = p.commitEnd.nanoseconds + offset
        detail.renderStart = p.renderStart.nanoseconds + offset
        detail.gpuStart = p.gpuStart.nanoseconds + offset
        detail.renderEnd = p.renderEnd.nanoseconds + offset
        detail.buffers = p.buffers
        detail.merged = p.mergedFrames
        detail.phases = p.phases
        if p.hitch > .zero {
            detail.type = p.hitchType ?? .delayedSwap
            // Severity counts refresh intervals at the rate in force at the present (R8).
            let display = device.displayRefresh
            let refresh = SimFormat.roundedDivide(
                Int128(1_000_000_000) * Int128(display.divisor), by: Int128(max(1, display.maximum)))
            detail.severity = HitchSeverity.of(p.hitch, interval: SimDuration(nanoseconds: Int64(clamping: refresh)))
        }
        // The frame's stages are one flow when its commit is in the trace (begun there, or at
        // its render when the main thread is not recorded).
        if own != nil && (categories.contains(.main) || categories.contains(.render)) {
            detail.chain = FlowID.chain(commitStart: detail.commitStart)
        }
        if p.present > p.expectedPresent, var delay = p.delay {
            delay.start = SimTime(nanoseconds: delay.start.nanoseconds + offset)
            delay.end = SimTime(nanoseconds: delay.end.nanoseconds + offset)
            detail.delay = delay
            detail.delayFlow = delayFlow(delay, of: p, dropped: dropped)
        }
        // The actual frame is recorded right after its present (`sequence + 1`), whose flow it
        // names.
        let lane = frameLane(expected: false, from: earliest + offset, to: present + offset)
        if record(
            .actualFrame, track: TraceTimeline.actualLaneBase + lane, name: -1, start: earliest, end: present,
            primary: p.frame)
        {
            frameDetails[recorded - 1] = detail
        }
        let expected = p.expectedPresent.nanoseconds
        let expectedLane = frameLane(expected: true, from: earliest + offset, to: expected + offset)
        record(
            .expectedFrame, track: TraceTimeline.expectedLaneBase + expectedLane, name: -1, start: earliest,
            end: expected, primary: p.frame, secondary: Int64(p.buffers))
        // Frames merged into it: each from its earliest time to the next commit's end, when it
        // was merged (R1).
        for (k, c) in dropped.enumerated() {
            let end = k + 1 < dropped.count ? dropped[k + 1].end : p.commitEnd.nanoseconds
            let start = min(c.newestTick ?? c.start, end)
            var gone = FrameDetail(frame: c.frame, verdict: .dropped)
            gone.counted = p.counted
            gone.commitStart = c.start + offset
            gone.commitEnd = c.end + offset
            gone.droppedInto = p.frame
            let lane = frameLane(expected: false, from: start + offset, to: end + offset)
            if record(
                .actualFrame, track: TraceTimeline.actualLaneBase + lane, name: -1, start: start, end: end,
                primary: c.frame)
            {
                frameDetails[recorded - 1] = gone
            }
        }
    }

    /// The flow from what delayed a late frame to the frame's `delayed by` marker: the render of
    /// an earlier frame carries its own frame's flow, and so does the commit of a frame merged into
    /// this one; any other main-thread item begins a flow of its own. The frame's own commit or
    /// render is on its own flow to its present already, and a commit whose frame was rendered
    /// passed its flow on: none for those.
    private mutating func delayFlow(_ delay: FrameDelay, of p: PresentInfo, dropped: [PendingCommit]) -> UInt64 {
        switch delay.kind {
        case .render:
            guard categories.contains(.render), let frame = delay.frame, frame != p.frame else { return 0 }
            return renderChain(of: frame)
        case .commit:
            guard categories.contains(.main), let frame = Int64(delay.label), frame != p.frame,
                let commit = dropped.first(where: { $0.frame == frame })
            else { return 0 }
            return FlowID.chain(commitStart: commit.start + offset)
        case .block, .timer, .displayLink, .dispatchHandler:
            guard categories.contains(.main), delay.end > delay.start else { return 0 }
            delaySources.append((delay.start.nanoseconds, delay.end.nanoseconds))
            // A ring that drops its oldest events forgets the items it dropped, whenever the list
            // has doubled: a step per item, however long the run.
            if keep == .last && delaySources.count >= delaySourcesPruneAt {
                tally(delaySources.count)
                let start = windowStart
                delaySources.removeAll { $0.end < start }
                delaySourcesPruneAt = max(1024, 2 * delaySources.count)
            }
            return FlowID.delay(itemStart: delay.start.nanoseconds)
        }
    }

    /// The first lane whose last frame ended by `start` (the trace's clock): frames in flight
    /// together get lanes of their own, and a lane's frames follow one another, as an async
    /// track's slices must not overlap. At most ``maxFrameLanes``; a frame that finds them all
    /// busy shares the last.
    private mutating func frameLane(expected: Bool, from start: Int64, to end: Int64) -> Int32 {
        var ends = expected ? expectedLaneEnds : actualLaneEnds
        if expected { expectedLaneEnds = [] } else { actualLaneEnds = [] }
        defer { if expected { expectedLaneEnds = ends } else { actualLaneEnds = ends } }
        var k = 0
        while k < ends.count, ends[k] > start { k += 1 }
        tally(k + 1)
        if k == ends.count {
            if k < TraceTimeline.maxFrameLanes {
                ends.append(end)
                return Int32(k)
            }
            k -= 1
        }
        ends[k] = max(ends[k], end)
        return Int32(k)
    }

    // MARK: Hangs

    /// A main-thread item of 250 ms or more is a hang (RL6): a slice on the Hangs track.
    mutating func hang(_ item: MainThreadItem) {
        name(track: TraceTimeline.hangTrack)
        record(
            .hang, track: TraceTimeline.hangTrack, name: Fixed.hang.rawValue, start: item.start.nanoseconds,
            end: item.end.nanoseconds, primary: TraceTimeline.index(of: item.kind),
            reference: intern(item.label.isEmpty ? item.kind.rawValue : item.label))
    }

    /// RL6's threshold.
    static let hangThreshold: Int64 = 250_000_000
}
