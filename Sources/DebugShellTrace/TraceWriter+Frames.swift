import DebugShellCore

/// The frame timeline as trace events: the flows a record's event carries, a frame's async slices
/// on its lane with their arguments, and the marker of where the trace ends (docs/Trace.md, "The
/// frame timeline" and "Where a trace ends").
extension TraceWriter {
    /// Whether a record's event may carry a flow: a comparison or two, for every event.
    @inline(__always)
    func mayFlow(_ r: TraceRecord) -> Bool {
        switch r.kind {
        case .timerItem: return r.start >= nextDelayStart
        case .mainItem: return r.primary == TraceWriter.commitIndex || r.start >= nextDelayStart
        case .mergedItems: return mergedHoldsCommit
        case .render: return r.secondary != 0
        case .present: return true
        default: return false
        }
    }

    /// The main thread's items' kind index of a commit.
    static let commitIndex = TraceTimeline.index(of: .commit)

    /// The flow (Perfetto's `bind_id`, docs/Trace.md) a record's event begins, carries on or ends:
    /// a commit begins its frame's, a render carries it on (or begins it when the main thread is
    /// not recorded), a present ends it; a main-thread item that delayed a frame begins one to the
    /// frame's marker.
    mutating func flow(_ r: TraceRecord, sequence: Int64) -> (id: UInt64, in: Bool, out: Bool)? {
        switch r.kind {
        case .timerItem:
            if r.track == TraceTimeline.mainTrack && delayed(r) {
                return (FlowID.delay(itemStart: r.start), false, true)
            }
        case .mainItem, .mergedItems:
            guard r.track == TraceTimeline.mainTrack else { return nil }
            if r.kind == .mainItem ? TraceWriter.isCommit(r) : mergedHoldsCommit {
                let id = FlowID.chain(commitStart: r.start)
                guard id != lastCommitFlow, beginsAtCommit(r.start) else { return nil }
                lastCommitFlow = id
                return (id, false, true)
            }
            if r.kind == .mainItem && delayed(r) { return (FlowID.delay(itemStart: r.start), false, true) }
        case .render:
            let id = UInt64(bitPattern: r.secondary)
            let step = r.code == TraceTimeline.flowStep && beginsAtCommit(FlowID.commitStart(of: id))
            return (id, step, true)
        case .present:
            // Its frame's actual slice is the record after it.
            guard let detail = timeline.frameDetails[sequence + 1], detail.chain != 0,
                Int32(clamping: detail.frame) == r.reference, begun(detail)
            else { return nil }
            return (detail.chain, true, false)
        default:
            break
        }
        return nil
    }

    /// Whether a frame's flow begins at its commit: when the main thread is recorded and the
    /// commit is in the trace — a ring that dropped its oldest events keeps a commit that starts
    /// after its window's start (one that ended at or before it may be gone). Else its render
    /// begins it.
    mutating func beginsAtCommit(_ commitStart: Int64) -> Bool {
        mainRecorded && (timeline.dropped == 0 || commitStart > timeline.windowStart)
    }

    /// Whether a frame's flow began, at its commit or its render (one that ended after the
    /// window's start is in the trace): its present ends it.
    mutating func begun(_ d: FrameDetail) -> Bool {
        beginsAtCommit(d.commitStart)
            || (renderRecorded && (timeline.dropped == 0 || d.renderEnd > timeline.windowStart))
    }

    /// Whether the slice a late frame's flow comes from is in the trace: an item or a render that
    /// ended after the window's start, a merged frame's commit that began its own flow.
    mutating func delaySourceKept(_ d: FrameDetail) -> Bool {
        guard d.delayFlow != 0, let delay = d.delay else { return false }
        if delay.kind == .commit { return beginsAtCommit(delay.start.nanoseconds) }
        return timeline.dropped == 0 || delay.end.nanoseconds > timeline.windowStart
    }

    /// Whether a main-thread item is one that delayed a frame: the next one by start.
    mutating func delayed(_ r: TraceRecord) -> Bool {
        guard r.end > r.start, r.start >= nextDelayStart else { return false }
        while nextDelaySource < delaySources.count, delaySources[nextDelaySource].start < r.start {
            nextDelaySource += 1
        }
        nextDelayStart = nextDelaySource < delaySources.count ? delaySources[nextDelaySource].start : Int64.max
        guard nextDelaySource < delaySources.count else { return false }
        let source = delaySources[nextDelaySource]
        return source.start == r.start && source.end == r.end
    }

    /// `, "bind_id": "0x…", "flow_in": true, "flow_out": true`: a flow's id in hexadecimal, as
    /// Perfetto reads a string id, exactly at any size.
    mutating func flowFields(_ id: UInt64, in flowIn: Bool, out flowOut: Bool, to out: inout JSONBytes) {
        out.raw(", \"bind_id\": \"0x")
        out.hex(id)
        out.raw("\"")
        if flowIn { out.raw(", \"flow_in\": true") }
        if flowOut { out.raw(", \"flow_out\": true") }
    }

    /// A frame on a lane of the Expected or Actual frames track, as Perfetto's async slices: a
    /// begin (`b`) and an end (`e`) with the lane's id, named by the frame. Before the begin, an
    /// end of nothing named as the track: Perfetto names an async track by the event that makes
    /// it — and, packing the async slices of one name onto as few tracks as do not overlap (its
    /// track compressor), makes one whenever a frame finds none free — so every track the frames
    /// get is made by such an end, and is named `Expected frames` or `Actual frames`; the UI shows
    /// the tracks of one name as one, each slice on a row of its own where they overlap. A late
    /// frame with a flow from what delayed it has a marker at its present (`n`), where the flow
    /// ends.
    mutating func frame(_ r: TraceRecord, sequence: Int64, start: Int64, to out: inout JSONBytes) {
        let expected = r.kind == .expectedFrame
        let lane = Int64(r.track - (expected ? TraceTimeline.expectedLaneBase : TraceTimeline.actualLaneBase))
        open(&out)
        out.raw(expected ? "{\"name\": \"Expected frames\"" : "{\"name\": \"Actual frames\"")
        out.raw(", \"cat\": \"frames\", \"ph\": \"e\", \"ts\": ")
        out.micros(start)
        laneID(expected: expected, lane: lane, to: &out)
        out.raw("}")
        let detail = expected ? nil : timeline.frameDetails[sequence]
        open(&out)
        out.raw("{\"name\": \"")
        out.int(r.primary)
        out.raw("\", \"cat\": \"frames\", \"ph\": \"b\", \"ts\": ")
        out.micros(start)
        laneID(expected: expected, lane: lane, to: &out)
        out.raw(", \"args\": {\"frame\": ")
        out.int(r.primary)
        if expected {
            out.raw(", \"earliest_ns\": ")
            out.int(r.start)
            out.raw(", \"expected_present_ns\": ")
            out.int(r.end)
            out.raw(", \"latency_allowed_ns\": ")
            out.int(r.end - r.start)
            out.raw(", \"buffers\": ")
            out.int(r.secondary)
        } else if let detail {
            actualFields(r, detail, to: &out)
        }
        if r.start < timeline.windowStart { out.raw(", \"truncated\": true") }
        out.raw("}}")
        if let detail, let delay = detail.delay, delaySourceKept(detail) {
            open(&out)
            out.raw("{\"name\": ")
            out.string("delayed by " + delay.what)
            out.raw(", \"cat\": \"frames\", \"ph\": \"n\", \"ts\": ")
            out.micros(r.end)
            laneID(expected: false, lane: lane, to: &out)
            flowFields(detail.delayFlow, in: true, out: false, to: &out)
            out.raw(", \"args\": {\"frame\": ")
            out.int(r.primary)
            out.raw(", \"verdict\": ")
            out.string(detail.verdict.rawValue)
            if let type = detail.type {
                out.raw(", \"hitch_type\": ")
                out.string(type.description)
            }
            delayFields(delay, to: &out)
            out.raw("}}")
        }
        open(&out)
        out.raw("{\"name\": \"")
        out.int(r.primary)
        out.raw("\", \"cat\": \"frames\", \"ph\": \"e\", \"ts\": ")
        out.micros(r.end)
        laneID(expected: expected, lane: lane, to: &out)
        out.raw("}")
    }

    /// `, "pid": 1, "id2": {"local": "actual-0"}`: the lane's async track, in the process.
    mutating func laneID(expected: Bool, lane: Int64, to out: inout JSONBytes) {
        out.raw(
            expected ? ", \"pid\": 1, \"id2\": {\"local\": \"expected-" : ", \"pid\": 1, \"id2\": {\"local\": \"actual-"
        )
        out.int(lane)
        out.raw("\"}")
    }

    /// An actual frame's arguments: its verdict (R9), its hitch's type and severity (R8), its
    /// expected present and acceptable latency (R3, R7), its stages' times and phases (R6), the
    /// frames merged into it, and what delayed it — or, dropped, the frame it was merged into.
    mutating func actualFields(_ r: TraceRecord, _ d: FrameDetail, to out: inout JSONBytes) {
        out.raw(", \"verdict\": ")
        out.string(d.verdict.rawValue)
        if d.verdict == .dropped {
            out.raw(", \"merged_into\": ")
            out.int(d.droppedInto)
        } else {
            if let type = d.type {
                out.raw(", \"hitch_type\": ")
                out.string(type.description)
                out.raw(", \"hitch_type_word\": ")
                out.string(type.word)
            }
            if let severity = d.severity {
                out.raw(", \"severity\": ")
                out.string(severity.rawValue)
            }
            out.raw(", \"hitch_ns\": ")
            out.int(d.hitch)
            out.raw(", \"late_ns\": ")
            out.int(max(0, r.end - d.expected))
            out.raw(", \"expected_present_ns\": ")
            out.int(d.expected)
            out.raw(", \"present_ns\": ")
            out.int(r.end)
            out.raw(", \"buffers\": ")
            out.int(Int64(d.buffers))
            out.raw(", \"latency_allowed_ns\": ")
            out.int(d.expected - r.start)
        }
        out.raw(d.counted ? ", \"counted\": true" : ", \"counted\": false")
        out.raw(", \"commit_start_ns\": ")
        out.int(d.commitStart)
        out.raw(", \"commit_end_ns\": ")
        out.int(d.commitEnd)
        guard d.verdict != .dropped else { return }
        out.raw(", \"render_start_ns\": ")
        out.int(d.renderStart)
        out.raw(", \"gpu_start_ns\": ")
        out.int(d.gpuStart)
        out.raw(", \"render_end_ns\": ")
        out.int(d.renderEnd)
        out.raw(", \"merged_frames\": ")
        out.int(Int64(d.merged))
        if d.merged > 1 {
            let first = d.frame - Int64(d.merged) + 1
            out.raw(", \"dropped_frames\": ")
            out.string(d.merged == 2 ? "\(first)" : "\(first)–\(d.frame - 1)")
        }
        out.raw(", \"phases\": {")
        var comma = false
        let p = d.phases
        for (key, value) in [
            ("update_ns", p.update), ("layout_ns", p.layout), ("display_ns", p.display), ("prepare_ns", p.prepare),
            ("commit_ns", p.commit), ("render_prepare_ns", p.renderPrepare), ("gpu_ns", p.gpu),
        ] where value > .zero {
            if comma { out.raw(", ") }
            comma = true
            out.string(key)
            out.raw(": ")
            out.int(value.nanoseconds)
        }
        if p.offscreenPasses > 0 {
            if comma { out.raw(", ") }
            out.raw("\"offscreen_passes\": ")
            out.int(Int64(p.offscreenPasses))
            out.raw(", \"offscreen_pass_ns\": ")
            out.int(p.offscreenPass.nanoseconds)
        }
        out.raw("}")
        if let delay = d.delay { delayFields(delay, to: &out) }
    }

    /// `, "delayed_by": "block 'stall 300ms'", "delay_kind": …, "delay_start_ns": …, …` (R8),
    /// times on the trace's clock.
    mutating func delayFields(_ delay: FrameDelay, to out: inout JSONBytes) {
        out.raw(", \"delayed_by\": ")
        out.string(delay.what)
        out.raw(", \"delay_kind\": ")
        out.string(delay.kind.rawValue)
        out.raw(", \"delay_start_ns\": ")
        out.int(delay.start.nanoseconds)
        out.raw(", \"delay_end_ns\": ")
        out.int(delay.end.nanoseconds)
    }

    /// The marker of why the trace ends where it does, when something ended it early: a full
    /// trace's limit, or what stopped time at its end (a breakpoint, an interrupt, a signal, a
    /// trap), as a global instant (Perfetto draws it across every track).
    mutating func endMarker(to out: inout JSONBytes) {
        let stop: TraceStop
        let at: Int64
        if let full = timeline.fullAt {
            let limit = timeline.limit
            stop = TraceStop(
                reason: "limit", title: "\(limit) events, its limit",
                detail: "the trace keeps its first \(limit) events (--limit): recording stopped when it was full")
            at = full
        } else if let noted = timeline.stop, noted.time == timeline.end {
            stop = noted.reason
            at = noted.time
        } else {
            return
        }
        open(&out)
        out.raw("{\"name\": ")
        out.string("trace ends: " + stop.title)
        out.raw(", \"cat\": \"debugsh\", \"ph\": \"i\", \"s\": \"g\", \"ts\": ")
        out.micros(max(at, timeline.windowStart))
        out.raw(", \"pid\": 1, \"args\": {\"reason\": ")
        out.string(stop.reason)
        out.raw(", \"detail\": ")
        out.string(stop.detail)
        out.raw(", \"at_ns\": ")
        out.int(at)
        out.raw("}}")
    }
}
