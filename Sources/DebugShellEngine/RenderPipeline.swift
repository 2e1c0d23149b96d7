import DebugShellCore

/// A frame on its way from a commit to the display (R1–R3).
struct FrameDraft {
    public var id: Int64
    var commitStart: SimTime
    var commitEnd = SimTime.zero
    var newestTick: SimTime?
    /// The commit started during animating time (A2).
    var counted: Bool
    var merged = 1
}

/// The render pipeline after the main thread: the frames committed, the render server's waiting
/// frame and the one being rendered (R1, R2), the presents, and what a render costs on the GPU
/// (`load gpu`).
///
/// The state changes of R1–R2 are methods of this type; the vsync that drives them, and what
/// observers hear of a present (R3, R4, which read the display), are the engine's.
struct RenderPipeline: ~Copyable {
    var waiting: FrameDraft?
    var inFlight: (frame: FrameDraft, start: SimTime, end: SimTime)?
    var commits: Int64 = 0
    var presents: Int64 = 0
    /// The id of the last frame committed.
    var lastFrameID: Int64 = 0
    /// The last present of a frame counted for hitch metrics (A2, R4).
    var lastCountedPresent: SimTime?
    /// The app's cost of rendering a frame (`load gpu`).
    var gpuCost = SimDuration.zero

    /// A frame waits or is being rendered: content the app is about to show (V5).
    @inline(__always) var hasFrames: Bool { waiting != nil || inFlight != nil }

    /// The id of a new frame.
    mutating func nextFrameID() -> Int64 {
        lastFrameID += 1
        return lastFrameID
    }

    /// A commit hands its frame over (R1): it waits for a vsync, older waiting frames merged in.
    mutating func receive(_ frame: FrameDraft) {
        var frame = frame
        if let older = waiting {
            // R1: older waiting frames are merged into the newest.
            frame.merged += older.merged
            if let tick = older.newestTick { frame.newestTick = max(frame.newestTick ?? tick, tick) }
            frame.counted = frame.counted || older.counted
        }
        waiting = frame
    }

    /// R2: at the vsync `t`, the frame rendered by then, if any, leaves the render server.
    mutating func takePresent(at t: SimTime) -> (frame: FrameDraft, start: SimTime, end: SimTime)? {
        guard let flight = inFlight, t > flight.start, t >= flight.end else { return nil }
        inFlight = nil
        return flight
    }

    /// R1: at the vsync `t`, the waiting frame starts rendering if the server is free and its
    /// commit ended before `t`. Returns it and the render's end.
    mutating func startRender(at t: SimTime) -> (frame: FrameDraft, end: SimTime)? {
        guard inFlight == nil, let frame = waiting, frame.commitEnd < t else { return nil }
        waiting = nil
        let end = t + gpuCost
        inFlight = (frame, t, end)
        return (frame, end)
    }

    /// Counts a present at `p`; returns the previous counted present (R4).
    mutating func countPresent(_ frame: FrameDraft, at p: SimTime) -> SimTime? {
        presents += 1
        let previous = lastCountedPresent
        if frame.counted { lastCountedPresent = p }
        return previous
    }
}
