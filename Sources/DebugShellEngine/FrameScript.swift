import DebugShellCore

/// A replay's frames (docs/Replay.md): the costs of the app's animation ticks taken from a
/// recording, frame by frame, instead of `load frame` alone. The shell builds it from an imported
/// recording (`replay start`); the engine only looks a tick's frame up, in O(1) amortized.
///
/// Each recorded frame is taken by one tick: the tick that runs at or after the frame's tick
/// time takes the newest frame due by then (older ones the replay had no tick for are skipped,
/// and counted), or the next one if it is due less than a refresh interval later. A tick with no
/// new frame due repeats the frame before while that frame lasts (`until`: the display runs
/// faster than the recording's), and otherwise does nothing, as a tick after its animation does
/// (A1).
public struct ScriptedFrame: Sendable, Equatable {
    /// The recorded frame's vsync on the simulated device's grid.
    public var tick: SimTime
    /// The end of the stretch of time this frame stands for: the next frame's tick, or one
    /// recorded refresh interval after its own tick for the last frame before an idle gap.
    public var until: SimTime
    /// The tick's own cost (the app's update), the commit's and the render's.
    public var update: SimDuration
    public var commit: SimDuration
    public var render: SimDuration

    public init(tick: SimTime, until: SimTime, update: SimDuration, commit: SimDuration, render: SimDuration) {
        self.tick = tick
        self.until = until
        self.update = update
        self.commit = commit
        self.render = render
    }
}

/// The engine's copy of a replay's frames and how far its ticks have taken them.
struct FrameScript: ~Copyable {
    var frames: [ScriptedFrame] = []
    /// The first frame no tick has taken yet, and the last frame taken (−1: none).
    var next = 0
    var last = -1
    /// Frames the replay had no tick for (a slower display than the recording's, or a main
    /// thread busier than it was): their costs never ran.
    var skipped: Int64 = 0
    /// Ticks that repeated the frame before (a faster display than the recording's).
    var repeated: Int64 = 0

    var isActive: Bool { !frames.isEmpty }

    /// The frame whose costs a tick running at `t` carries, if any; `period` is the display's
    /// refresh interval now.
    mutating func frame(at t: SimTime, period: SimDuration) -> ScriptedFrame? {
        var taken = -1
        while next < frames.count && frames[next].tick <= t {
            if taken >= 0 { skipped += 1 }
            taken = next
            next += 1
        }
        if taken < 0, next < frames.count, frames[next].tick < t + period {
            taken = next
            next += 1
        }
        if taken >= 0 {
            last = taken
            return frames[taken]
        }
        if last >= 0, t < frames[last].until {
            repeated += 1
            return frames[last]
        }
        return nil
    }
}
