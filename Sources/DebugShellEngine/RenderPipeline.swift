import DebugShellCore

/// A frame from its commit to the display (R1–R3, R6–R8), by reference: it is handed from stage
/// to stage, and copying its story at each would cost more than the frame's whole work.
final class FrameDraft {
    let id: Int64
    let commitStart: SimTime
    var commitEnd = SimTime.zero
    var newestTick: SimTime?
    /// The commit started during animating time (A2).
    var counted: Bool
    /// V5: the rate its producers ask before caps (``Display/ask(range:fps:)``): the highest of
    /// what dirtied the UI for it, and of the frames merged into it.
    var ask = Display.systemDefaultRate
    var merged = 1
    /// What its stages cost (R6): the main thread's at the commit, the render's at its start.
    var phases = FramePhases.zero
    /// The main-thread item other than its tick and commit that took the most of the time from
    /// its earliest time to its commit (R8's pre-commit latency), and whether it is an older
    /// animation tick (of a frame merged into this one).
    var waitedFor: FrameDelay?
    var waitedForIsTick = false
    /// Its newest animation tick's callback (R8's app update).
    var tickSpan: (start: SimTime, end: SimTime)?

    // Once the render server took it (R1, R2, R7):
    /// The vsync it started at (s), when its GPU work began, and its end (e).
    var start = SimTime.zero
    var gpuStart = SimTime.zero
    var end = SimTime.zero
    /// Vsyncs still to come before it may be shown: B − 1 at s (R7.3); and the vsync at which
    /// the last of them came, the (B − 1)-th after s.
    var waits = 0
    var due: SimTime?
    var buffers = 2
    /// The render before it, which it waited for when its GPU work began after s.
    var previous: RenderSpan?

    init(id: Int64, commitStart: SimTime, newestTick: SimTime?, counted: Bool) {
        self.id = id
        self.commitStart = commitStart
        self.newestTick = newestTick
        self.counted = counted
    }

    /// A vsync `t` came: one fewer to wait for, once after its start.
    func passVsync(_ t: SimTime) {
        guard t > start, waits > 0 else { return }
        waits -= 1
        if waits == 0 { due = t }
    }

    /// R7.4: the render overran: it ended after the (B − 1)-th vsync after its start.
    var overran: Bool { due.map { end > $0 } ?? true }
}

/// A render: its frame, when its GPU work began and ended (R7.2).
struct RenderSpan {
    var frame: Int64
    var start: SimTime
    var end: SimTime

    var delay: FrameDelay { FrameDelay(kind: .render, label: "", start: start, end: end, frame: frame) }
}

/// The render pipeline after the main thread: the frames committed, the render server's waiting
/// frame and those it took (R1, R2, R7), the presents, and what a render costs (R6).
///
/// The state changes of R1–R2 are methods of this type; the vsync that drives them, and what
/// observers hear of a present (R3, R4, R8, which read the display), are the engine's.
struct RenderPipeline: ~Copyable {
    var waiting: FrameDraft?
    /// The frames taken and not yet presented, oldest first: at most B − 1 (R7).
    var first: FrameDraft?
    var second: FrameDraft?
    var commits: Int64 = 0
    var presents: Int64 = 0
    /// The id of the last frame committed.
    var lastFrameID: Int64 = 0
    /// The last present of a frame counted for hitch metrics (A2, R4).
    var lastCountedPresent: SimTime?
    /// The last render started: its frame, when its GPU work began and ended (R7).
    var lastRender: RenderSpan?
    /// The render server's costs (`load render-prepare`, `load gpu`, `load offscreen`, R6).
    var renderPrepareCost = SimDuration.zero
    var gpuCost = SimDuration.zero
    var offscreenPasses = 0
    var offscreenPassCost = SimDuration.zero
    /// The buffers the render server uses (`display buffers`, R7).
    var buffers = 2

    /// A frame waits or is being rendered: content the app is about to show (V5).
    @inline(__always) var hasFrames: Bool { waiting != nil || first != nil }

    /// V5: the highest ask of the frames waiting or in flight (0 with none).
    var highestAsk: Int64 { max(waiting?.ask ?? 0, first?.ask ?? 0, second?.ask ?? 0) }

    /// The id of a new frame.
    mutating func nextFrameID() -> Int64 {
        lastFrameID += 1
        return lastFrameID
    }

    /// A commit hands its frame over (R1): it waits for a vsync, older waiting frames merged in.
    mutating func receive(_ frame: FrameDraft) {
        if let older = waiting {
            // R1: older waiting frames are merged into the newest.
            frame.merged += older.merged
            if let tick = older.newestTick { frame.newestTick = max(frame.newestTick ?? tick, tick) }
            frame.counted = frame.counted || older.counted
            frame.ask = max(frame.ask, older.ask)
            // R8: what delayed the older frames delayed the merged one, when nothing delayed its own.
            if frame.waitedFor == nil {
                frame.waitedFor = older.waitedFor
                frame.waitedForIsTick = older.waitedForIsTick
            }
        }
        waiting = frame
    }

    /// R2, R7.3: at the vsync `t`, the oldest frame rendered by then whose B − 1 vsyncs have
    /// passed, if any, leaves the render server (one present per vsync). Counted, not computed
    /// ahead: an adaptive display picks its next refresh as it goes (V3).
    mutating func takePresent(at t: SimTime) -> FrameDraft? {
        guard let flight = first else { return nil }
        flight.passVsync(t)
        second?.passVsync(t)
        guard flight.waits == 0, t >= flight.end else { return nil }
        first = second
        second = nil
        return flight
    }

    /// R1, R7: whether a waiting frame can start rendering at the vsync `t`: its commit ended before
    /// `t` and fewer than B − 1 frames are taken.
    func canStartRender(at t: SimTime) -> Bool {
        guard let frame = waiting, frame.commitEnd < t else { return false }
        let taken = (first == nil ? 0 : 1) + (second == nil ? 0 : 1)
        return taken < buffers - 1
    }

    /// R1, R6, R7: the waiting frame starts rendering at the vsync `t`; its GPU work begins when
    /// the render before it has ended.
    mutating func startRender(at t: SimTime) -> FrameDraft? {
        guard canStartRender(at: t), let frame = waiting else { return nil }
        waiting = nil
        frame.phases.renderPrepare = renderPrepareCost
        frame.phases.gpu = gpuCost + frame.phases.gpu  // a replayed frame's own, on top (docs/Replay.md)
        frame.phases.offscreenPasses = offscreenPasses
        frame.phases.offscreenPass = offscreenPassCost
        frame.start = t
        frame.gpuStart = max(t, lastRender?.end ?? t)
        frame.end = frame.gpuStart + frame.phases.render
        frame.waits = buffers - 1
        frame.buffers = buffers
        frame.previous = lastRender
        lastRender = RenderSpan(frame: frame.id, start: frame.gpuStart, end: frame.end)
        if first == nil { first = frame } else { second = frame }
        return frame
    }

    /// Counts a present at `p`; returns the previous counted present (R4).
    mutating func countPresent(_ frame: FrameDraft, at p: SimTime) -> SimTime? {
        presents += 1
        let previous = lastCountedPresent
        if frame.counted { lastCountedPresent = p }
        return previous
    }
}
