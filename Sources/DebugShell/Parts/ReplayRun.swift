import DebugShellCore
import DebugShellEngine
import DebugShellImport

/// A replay under way (`replay start`): its plan, and the frames the simulated device presented
/// since, kept as a recorded timeline in the recording's time so that the recording's own analysis
/// reads both sides (docs/Replay.md). `reset` and `recording close` end it.
final class ReplayRun: DeviceObserver {
    let plan: ReplayPlan
    let changes: ReplayChanges
    /// The recording replayed, and what it said of itself.
    let recording: RecordedTimeline
    let recorded: TimelineAnalysis
    private weak var engine: DeviceEngine?
    private var token: ObserverToken?
    /// The presented frames and their hitches, in recording time.
    private(set) var frames: [RecordedFrame] = []
    private(set) var hitches: [RecordedHitch] = []
    /// The analysis of what was presented by `analysisEnd`, kept until more is presented.
    private var cached: (frames: Int, end: SimTime, analysis: TimelineAnalysis)?
    /// The hitches' running totals, kept as they come, so that the `replay.*` metrics a condition
    /// reads after every instant cost nothing in proportion to the replay (TimelineAnalysis's
    /// numbers for the same hitches: the calibration tests compare them with `rec.*`).
    private(set) var hitchTime = SimDuration.zero
    private(set) var worstHitch: SimDuration?
    private(set) var highHitches = 0

    init(plan: ReplayPlan, changes: ReplayChanges, recording: RecordedTimeline, engine: DeviceEngine) {
        self.plan = plan
        self.changes = changes
        self.recording = recording
        self.recorded = TimelineAnalysis(recording)
        self.engine = engine
        frames.reserveCapacity(plan.scripted.count)
        token = engine.addObserver(self, kinds: .present)
        engine.setFrameScript(plan.scripted)
        for change in plan.uiChanges {
            let extra = FramePhases(commit: change.commit, gpu: change.render)
            engine.schedule(at: change.at) { [weak engine] in engine?.markUIDirty(extra: extra) }
        }
        for stretch in plan.stretches {
            let length = stretch.end - stretch.start
            engine.schedule(at: stretch.start) { [weak engine] in engine?.animate(for: length) }
        }
    }

    /// Stops watching the device (a new replay, `reset`, `recording close`).
    func end() {
        if let token, let engine { engine.removeObserver(token) }
        token = nil
    }

    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        // Every present, as a frame log keeps them; only a counted one (A2) has a hitch, zero or more.
        guard case .presented(let p) = observation else { return }
        let o = plan.offset
        let type = p.hitchType?.description
        frames.append(
            RecordedFrame(
                present: p.present + o, vsync: p.newestTick.map { $0 + o }, commitStart: p.commitStart + o,
                commitEnd: p.commitEnd + o, renderStart: p.renderStart + o, renderEnd: p.renderEnd + o,
                expectedPresent: p.expectedPresent + o, cause: p.counted && p.hitch > .zero ? type : nil,
                number: p.frame, hitch: p.counted ? p.hitch : nil))
        if p.counted && p.hitch > .zero {
            hitchTime = hitchTime + p.hitch
            worstHitch = max(worstHitch ?? p.hitch, p.hitch)
            if HitchSeverity.of(p.hitch, interval: device.framePeriod) == .high { highHitches += 1 }
            hitches.append(
                RecordedHitch(
                    start: p.present - p.hitch + o, duration: p.hitch, description: type ?? "",
                    refreshInterval: device.framePeriod, acceptableLatency: p.latencyAllowed,
                    bufferCount: p.buffers))
        }
    }

    /// The recording's time now: the replay has shown what it presented up to here.
    var recordingNow: SimTime {
        guard let engine else { return recording.end }
        return min(recording.end, engine.now + plan.offset)
    }

    /// The replay's side, read as the recording is read: its span is the recording's, up to now.
    var analysis: TimelineAnalysis {
        let end = recordingNow
        if let cached, cached.frames == frames.count, cached.end == end { return cached.analysis }
        let timeline = RecordedTimeline(
            format: .framesCSV, sources: recording.sources, start: recording.start, end: max(recording.start, end),
            refreshInterval: engine?.framePeriod ?? plan.interval, refreshSource: .declared, frames: frames,
            hitches: hitches, hasHitchList: true)
        let analysis = TimelineAnalysis(timeline)
        cached = (frames.count, end, analysis)
        return analysis
    }

    /// What differs from the recording's device now, in words (`display rate 120` after
    /// `replay start`): the display's rate or range and its buffers.
    var deviceChanges: [String] {
        guard let engine else { return [] }
        var out: [String] = []
        if let adaptive = engine.adaptiveRange {
            out.append(
                "display adaptive \(adaptive.minimum.hertz)–\(adaptive.maximum.hertz) Hz (recorded \(plan.rate.hertz) Hz)"
            )
        } else if engine.refreshRate != plan.rate {
            out.append("display \(engine.refreshRate.hertz) Hz (recorded \(plan.rate.hertz) Hz)")
        }
        if engine.bufferCount != plan.buffers {
            out.append("\(engine.bufferCount) buffers (recorded \(plan.buffers))")
        }
        return out
    }

    /// Every change from the recording: the frames' (`replay start`'s options) and the device's.
    var allChanges: [String] { changes.descriptions + deviceChanges }

    /// The span the replay's side is read over: the recording's, up to now.
    var span: SimDuration {
        let end = recordingNow
        return end > recording.start ? end - recording.start : .zero
    }

    // MARK: Calibration

    /// One recorded hitch against the replay's: reproduced when a replayed hitch starts within
    /// one refresh interval of it and is as long in whole refresh intervals (docs/Replay.md).
    struct Match: Sendable {
        var recorded: TimelineAnalysis.Hitch
        var replayed: TimelineAnalysis.Hitch?
        var reproduced: Bool
    }

    /// Each recorded hitch up to now, with the replayed hitch nearest its start (each replayed
    /// hitch matched once): a binary search into the replayed hitches by start, so a long replay
    /// costs n log n, not n².
    func matches() -> [Match] {
        let mine = analysis.hitches
        let interval = (recorded.refreshInterval ?? plan.interval).nanoseconds
        let order = mine.indices.sorted { mine[$0].start < mine[$1].start }
        let starts = order.map { mine[$0].start.nanoseconds }
        var taken = [Bool](repeating: false, count: mine.count)
        var out: [Match] = []
        var previous: (SimTime, SimDuration)?
        for hitch in recorded.hitches where hitch.start + hitch.duration <= recordingNow {
            if let previous, previous == (hitch.start, hitch.duration) { continue }
            previous = (hitch.start, hitch.duration)
            let t = hitch.start.nanoseconds
            // The first replayed hitch starting within one refresh interval before it.
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid] < t - interval { lo = mid + 1 } else { hi = mid }
            }
            var best: Int?
            var k = lo
            while k < starts.count, starts[k] <= t + interval {
                if !taken[order[k]], best.map({ abs(starts[$0] - t) > abs(starts[k] - t) }) ?? true { best = k }
                k += 1
            }
            if let best {
                let replayed = mine[order[best]]
                taken[order[best]] = true
                let step = SimDuration(nanoseconds: interval)
                let same = Self.intervals(replayed.duration, step) == Self.intervals(hitch.duration, step)
                out.append(Match(recorded: hitch, replayed: replayed, reproduced: same))
            } else {
                out.append(Match(recorded: hitch, replayed: nil, reproduced: false))
            }
        }
        return out
    }

    /// A duration in whole refresh intervals, rounded to the nearest.
    static func intervals(_ d: SimDuration, _ interval: SimDuration) -> Int64 {
        guard interval > .zero else { return 0 }
        return (d.nanoseconds + interval.nanoseconds / 2) / interval.nanoseconds
    }
}
