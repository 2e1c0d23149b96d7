import DebugShellCore
import DebugShellEngine
import DebugShellImport

/// A stage of a replayed frame that `replay start` can change (docs/Replay.md): the app's update
/// (the animation tick's callback), its commit, the render; `main` is the update and the commit.
enum ReplayPhase: String, CaseIterable, Sendable {
    case update, commit, render, main

    /// The names a recording cannot give, with why (R6's finer phases).
    static let finer = [
        "layout", "display", "prepare", "render-prepare", "gpu", "offscreen",
    ]
}

/// What `replay start` changes in the recorded frames before the replay runs, over the frames
/// whose recorded vsync is in `[from, to)` (the whole recording by default).
struct ReplayChanges: Sendable, Equatable {
    var scale: [ReplayPhase: Double] = [:]
    var moved: Set<ReplayPhase> = []
    var cap: [ReplayPhase: SimDuration] = [:]
    var from: SimTime?
    var to: SimTime?
    /// The cost of an FPS label's callback that ran in every recorded frame, taken out.
    var labelCost: SimDuration = .zero

    var isEmpty: Bool { scale.isEmpty && moved.isEmpty && cap.isEmpty && labelCost == .zero }

    /// The changes in words, one per change, as `replay` and `replay compare` say them.
    var descriptions: [String] {
        var out: [String] = []
        for phase in ReplayPhase.allCases {
            if let factor = scale[phase] { out.append("\(phase.rawValue) × \(ReplayChanges.factorText(factor))") }
            if moved.contains(phase) { out.append("\(phase.rawValue) moved off the main thread") }
            if let limit = cap[phase] { out.append("\(phase.rawValue) capped at \(limit)") }
        }
        if labelCost > .zero { out.append("the FPS label's \(labelCost) a frame taken out") }
        if !out.isEmpty, from != nil || to != nil {
            let a = from.map { "\($0)" } ?? "the start"
            let b = to.map { "\($0)" } ?? "the end"
            out.append("for the frames from \(a) to \(b)")
        }
        return out
    }

    static func factorText(_ factor: Double) -> String {
        let thousandths = Int64((factor * 1000).rounded())
        return SimFormat.decimal(thousandths, scaleDigits: 3, minFraction: 0)
    }

    /// Whether a frame with its recorded vsync at `v` is one the changes apply to.
    func applies(at v: SimTime) -> Bool {
        if let from, v < from { return false }
        if let to, v >= to { return false }
        return true
    }

    /// A frame's costs after the changes.
    func apply(_ costs: ReplayPlan.Costs) -> ReplayPlan.Costs {
        var update = costs.update
        var commit = costs.commit
        var render = costs.render
        update = update > labelCost ? update - labelCost : .zero
        // `main` scales the update and the commit; each stage's own factor multiplies it.
        func scaled(_ d: SimDuration, by factor: Double) -> SimDuration {
            let ns = (Double(d.nanoseconds) * factor).rounded()
            return SimDuration(nanoseconds: ns >= 9.2e18 ? Int64.max / 4 : Int64(ns))
        }
        let main = scale[.main] ?? 1
        update = scaled(update, by: (scale[.update] ?? 1) * main)
        commit = scaled(commit, by: (scale[.commit] ?? 1) * main)
        render = scaled(render, by: scale[.render] ?? 1)
        if moved.contains(.update) || moved.contains(.main) { update = .zero }
        if moved.contains(.commit) || moved.contains(.main) { commit = .zero }
        if let limit = cap[.update] { update = min(update, limit) }
        if let limit = cap[.commit] { commit = min(commit, limit) }
        if let limit = cap[.render] { render = min(render, limit) }
        if let limit = cap[.main], update + commit > limit {
            // The update gives way first: a capped frame keeps its commit while it can.
            let keptCommit = min(commit, limit)
            commit = keptCommit
            update = limit - keptCommit
        }
        return ReplayPlan.Costs(update: update, commit: commit, render: render)
    }
}

/// A recording turned into work for the simulated device (docs/Replay.md): one scripted frame per
/// recorded frame (or per hitch, where the recording has hitches and no frames), placed on the
/// simulated vsync grid, the stretches of animation that drive them, and what could not be read.
struct ReplayPlan {
    /// A frame's three costs.
    struct Costs: Sendable, Equatable {
        var update: SimDuration
        var commit: SimDuration
        var render: SimDuration

        var main: SimDuration { update + commit }
    }

    /// The recorded frames' costs, before and after the changes, with their recorded vsyncs.
    struct Frame: Sendable, Equatable {
        var vsync: SimTime
        var recorded: Costs
        var costs: Costs
        /// Whether a cost was inferred from the frame's present (the recording lacks it).
        var inferred: Bool
        /// Whether the frame counted for hitches (A2), where the recording says (a frame log).
        var counted: Bool? = nil
    }

    /// A recorded commit that no animation tick made (a frame log's frame with no vsync that did
    /// not count: a label's text, a view's change): replayed as a change to the UI at its
    /// commit's start, in recording time.
    struct Change: Sendable, Equatable {
        var at: SimTime
        var commit: SimDuration
        var render: SimDuration
    }

    var frames: [Frame]
    var scripted: [ScriptedFrame]
    /// The untick'd commits, in simulated time.
    var uiChanges: [Change]
    var stretches: [(start: SimTime, end: SimTime)]
    /// Recording time = simulated time + offset (the recording's vsyncs fall on the simulated grid).
    var offset: SimDuration
    var rate: RefreshRate
    var buffers: Int
    var interval: SimDuration
    /// The simulated time `replay run` runs to.
    var end: SimTime
    /// Said once when the replay starts.
    var notes: [String]

    /// The plan for `timeline` with `changes`, on a display of `rate` whose vsyncs `grid` gives
    /// (the first at or after a time).
    static func build(
        _ timeline: RecordedTimeline, changes: ReplayChanges, grid: (SimTime) -> SimTime
    ) throws(CommandError) -> ReplayPlan {
        guard !timeline.frames.isEmpty || !timeline.hitches.isEmpty else {
            throw CommandError(
                timeline.linkCallbacks.isEmpty
                    ? "the recording has no frames and no hitches: nothing to replay"
                    : "a display-link log has no frames: nothing to replay (its callbacks say when the link ran, not what a frame cost)"
            )
        }
        var notes: [String] = []
        let interval = timeline.refreshInterval ?? SimDuration(nanoseconds: 16_666_667)
        let hertz = Int((1_000_000_000 + interval.nanoseconds / 2) / max(1, interval.nanoseconds))
        guard let rate = try? RefreshRate(hertz: hertz) else {
            throw CommandError("the recording's refresh interval \(interval) is outside 1…1000 Hz: nothing to replay")
        }
        let counts = timeline.hitches.compactMap(\.bufferCount).sorted()
        let buffers = counts.isEmpty ? 2 : min(3, max(2, counts[(counts.count - 1) / 2]))
        let b = Int64(buffers)
        let t = interval.nanoseconds

        // Hitches by the present they end at (Instruments: start + duration is the present).
        var hitchEnds: [(end: Int64, hitch: RecordedHitch)] = []
        var previous: (SimTime, SimDuration)?
        for hitch in timeline.hitches {
            // Rows that repeat the row before (one per containment level) are one hitch.
            if let previous, previous == (hitch.start, hitch.duration) { continue }
            previous = (hitch.start, hitch.duration)
            hitchEnds.append(((hitch.start + hitch.duration).nanoseconds, hitch))
        }
        hitchEnds.sort { $0.end < $1.end }
        var usedHitch = [Bool](repeating: false, count: hitchEnds.count)
        /// The hitch whose present is within half a refresh interval of `present`, if any.
        func hitch(presentedAt present: SimTime) -> RecordedHitch? {
            var lo = 0
            var hi = hitchEnds.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if hitchEnds[mid].end < present.nanoseconds - t / 2 { lo = mid + 1 } else { hi = mid }
            }
            guard lo < hitchEnds.count, hitchEnds[lo].end <= present.nanoseconds + t / 2, !usedHitch[lo] else {
                return nil
            }
            usedHitch[lo] = true
            return hitchEnds[lo].hitch
        }

        var frames: [Frame] = []
        frames.reserveCapacity(timeline.frames.count + hitchEnds.count)
        var missingCommit = 0
        var missingRender = 0
        var missingVsync = 0
        // The main thread runs one frame's work after the other's: a tick whose frame's commit
        // came after the one before ran from that commit's end at the earliest.
        var previousCommitEnd: SimTime?
        // A frame log says which frames counted (a hitch, zero or more) and which ticked (a vsync).
        let saysCounted = timeline.frames.contains { $0.hitch != nil }
        let saysTicks = timeline.frames.contains { $0.vsync != nil }
        var uiChanges: [Change] = []
        for frame in timeline.frames {
            if saysCounted, saysTicks, frame.vsync == nil, frame.hitch == nil, let cs = frame.commitStart,
                let ce = frame.commitEnd
            {
                let render = frame.renderStart.flatMap { rs in frame.renderEnd.map { $0 - rs } } ?? .zero
                uiChanges.append(Change(at: cs, commit: ce - cs, render: render))
                previousCommitEnd = max(previousCommitEnd ?? ce, ce)
                continue
            }
            let matched = hitch(presentedAt: frame.present)
            var vsync: SimTime
            if let v = frame.vsync {
                vsync = v
            } else {
                missingVsync += 1
                if let x = frame.expectedPresent {
                    vsync = SimTime(nanoseconds: x.nanoseconds - b * t)
                } else if let matched {
                    vsync = SimTime(nanoseconds: matched.start.nanoseconds - b * t)
                } else if let late = frame.hitch {
                    vsync = SimTime(nanoseconds: (frame.present - late).nanoseconds - b * t)
                } else {
                    vsync = SimTime(nanoseconds: frame.present.nanoseconds - b * t)
                }
            }
            if vsync.nanoseconds < 0 { vsync = .zero }
            let costs = inferredCosts(
                frame, vsync: vsync, interval: interval, buffers: buffers,
                description: matched?.description ?? frame.cause ?? "", mainFreeAt: previousCommitEnd)
            if let end = frame.commitEnd { previousCommitEnd = max(previousCommitEnd ?? end, end) }
            if frame.commitStart == nil || frame.commitEnd == nil { missingCommit += 1 }
            if frame.renderStart == nil || frame.renderEnd == nil { missingRender += 1 }
            frames.append(
                Frame(
                    vsync: vsync, recorded: costs.costs, costs: costs.costs, inferred: costs.inferred,
                    counted: saysCounted ? frame.hitch != nil : nil))
        }
        // Hitches with no frame: the frame each stands for, its cost the least that explains it.
        var fromHitches = 0
        for (k, row) in hitchEnds.enumerated() where !usedHitch[k] {
            fromHitches += 1
            let present = row.hitch.start + row.hitch.duration
            let vsync = SimTime(nanoseconds: max(0, row.hitch.start.nanoseconds - b * t))
            let stand = RecordedFrame(present: present, vsync: vsync)
            let costs = inferredCosts(
                stand, vsync: vsync, interval: interval, buffers: buffers, description: row.hitch.description)
            frames.append(Frame(vsync: vsync, recorded: costs.costs, costs: costs.costs, inferred: true))
        }
        frames.sort { $0.vsync < $1.vsync }
        guard !frames.isEmpty else {
            throw CommandError("the recording's frames are all commits no animation made: nothing animated to replay")
        }

        if frames.allSatisfy({ $0.inferred }) {
            notes.append(
                "this export has no per-phase costs: each frame's cost is the least that explains its present (its hitch on the stage its description names), so a what-if reads as a best case"
            )
        } else if frames.contains(where: { $0.inferred }) {
            notes.append(
                "\(frames.count { $0.inferred }) of \(frames.count) frames lack a recorded cost: theirs is the least that explains their present"
            )
        }
        if fromHitches > 0 {
            notes.append(
                "\(fromHitches) hitches have no recorded frame: each is replayed as one frame, late by its hitch")
        }
        if missingVsync > 0, missingVsync == timeline.frames.count {
            notes.append(
                "the frames have no vsync: each is placed \(buffers) refresh intervals before its expected present")
        }
        if missingCommit == timeline.frames.count, !timeline.frames.isEmpty {
            notes.append("no frame has its commit (hitches-updates): the app's update and commit are one cost")
        } else if missingCommit > 0 {
            notes.append("\(missingCommit) of \(timeline.frames.count) frames have no commit: theirs is inferred")
        }
        if missingRender > 0, missingRender < timeline.frames.count {
            notes.append("\(missingRender) of \(timeline.frames.count) frames have no render: theirs is inferred")
        } else if missingRender > 0 {
            notes.append("no frame has its render (hitches-renders): renders cost nothing unless a hitch says so")
        }
        notes.append("main-thread blocks other than frames are not in the recording's tables: none replayed")

        // The simulated grid: recording time = simulated time + offset.
        let first = frames[0].vsync
        let simFirst = grid(SimTime(nanoseconds: max(0, first.nanoseconds - t + 1)))
        let offset = SimDuration(nanoseconds: max(0, first.nanoseconds - simFirst.nanoseconds))
        func snapped(_ v: SimTime) -> SimTime {
            grid(SimTime(nanoseconds: max(0, v.nanoseconds - offset.nanoseconds - t / 2)))
        }

        for k in frames.indices where changes.applies(at: frames[k].vsync) {
            frames[k].costs = changes.apply(frames[k].recorded)
        }

        var scripted: [ScriptedFrame] = []
        scripted.reserveCapacity(frames.count)
        var uncounted: [Bool] = []
        var merged = 0
        for frame in frames {
            let tick = snapped(frame.vsync)
            if let last = scripted.last, last.tick == tick {
                merged += 1
                continue
            }
            uncounted.append(frame.counted == false)
            scripted.append(
                ScriptedFrame(
                    tick: tick, until: tick, update: frame.costs.update, commit: frame.costs.commit,
                    render: frame.costs.render))
        }
        if merged > 0 { notes.append("\(merged) frames fall on the vsync of the frame before: the first is kept") }

        // Stretches: the next frame starts within one refresh interval of when the main thread
        // would tick again (the recording's own frames, not idle vsyncs between). A stretch
        // animates a refresh interval past its last frame's commit: ticks past a frame's `until`
        // do nothing, so the margin costs no work, and the last commit is animating time (A2).
        var stretches: [(start: SimTime, end: SimTime)] = []
        var stretchStart = scripted.first?.tick ?? .zero
        let step = SimDuration(nanoseconds: t)
        var free = SimTime.zero
        for k in scripted.indices {
            let f = scripted[k]
            let runs = max(f.tick, free)
            free = runs + f.update + f.commit
            if k + 1 < scripted.count, scripted[k + 1].tick < max(f.tick + step, free) + step {
                scripted[k].until = scripted[k + 1].tick
                continue
            }
            // A faster display's ticks repeat it; the recording's next vsync (give or take the
            // nanoseconds a recorded interval rounds to) does not.
            scripted[k].until = f.tick + SimDuration(nanoseconds: t - t / 8)
            // A last frame the recording did not count committed after its animation had ended:
            // the stretch ends at its commit (A2), not past it.
            let end =
                uncounted[k]
                ? max(runs + f.update, f.tick + SimDuration(nanoseconds: 1)) : max(f.tick + step, free) + step
            stretches.append((stretchStart, end))
            if k + 1 < scripted.count { stretchStart = scripted[k + 1].tick }
        }
        let last = scripted.last.map { $0.tick + $0.update + $0.commit + $0.render } ?? .zero
        let recordedEnd = SimTime(nanoseconds: max(0, timeline.end.nanoseconds - offset.nanoseconds))
        // Past the recording's end by a refresh interval: a present at its very end is shown.
        let end = max(recordedEnd + SimDuration(nanoseconds: t), last + SimDuration(nanoseconds: t * (b + 2)))
        if !uiChanges.isEmpty {
            notes.append(
                "\(uiChanges.count) commits no animation tick made (no vsync, not counted) are replayed as UI changes at their commit's start"
            )
        }
        let changesSimulated = uiChanges.map {
            Change(
                at: SimTime(nanoseconds: max(0, $0.at.nanoseconds - offset.nanoseconds)), commit: $0.commit,
                render: $0.render)
        }
        return ReplayPlan(
            frames: frames, scripted: scripted, uiChanges: changesSimulated, stretches: stretches, offset: offset,
            rate: rate,
            buffers: buffers, interval: interval, end: end, notes: notes)
    }

    /// A frame's costs from what the recording has of it; what it lacks is the least that
    /// explains its present p (docs/Replay.md, "Costs a recording lacks"). Its main-thread work
    /// reaches the render vsync the frame used — the one its render started at, else the one
    /// before its present — and no further: it ends at the vsync before that one, which R1 does
    /// not take (strictly after). A render hitch's render ends just after the vsync before p.
    /// Which stage the work is on is the hitch's description's: a commit's (`Expensive
    /// Commit(s)`, `Pre-Commit(s) latency`), the render's, else the app's update.
    static func inferredCosts(
        _ frame: RecordedFrame, vsync v: SimTime, interval: SimDuration, buffers: Int, description: String,
        mainFreeAt: SimTime? = nil
    ) -> (costs: Costs, inferred: Bool) {
        let t = interval.nanoseconds
        let b = Int64(buffers)
        let stage = TimelineAnalysis.Stage.of(description)
        var update: Int64?
        var commit: Int64?
        var render: Int64?
        if let cs = frame.commitStart, let ce = frame.commitEnd {
            // The update from when the tick could run: its vsync, or the end of the commit before
            // when that was later (the tick was late: DL7's stale timestamp).
            update = max(0, cs.nanoseconds - max(v, mainFreeAt ?? v).nanoseconds)
            commit = max(0, ce.nanoseconds - cs.nanoseconds)
        }
        if let rs = frame.renderStart, let re = frame.renderEnd { render = max(0, re.nanoseconds - rs.nanoseconds) }
        let inferred = update == nil || render == nil
        let p = frame.present.nanoseconds
        var main = (update ?? 0) + (commit ?? 0)
        if update == nil {
            let renderVsync: Int64
            if let rs = frame.renderStart {
                renderVsync = v.nanoseconds + max(1, (rs.nanoseconds - v.nanoseconds + t / 2) / t) * t
            } else if stage == .render {
                renderVsync = v.nanoseconds + t
            } else {
                renderVsync = max(v.nanoseconds + t, p - (b - 1) * t)
            }
            // Late by k whole refresh intervals: the middle of the costs that make it k late,
            // which a vsync's nanoseconds either way do not change (docs/Replay.md).
            let least = max(0, renderVsync - t - v.nanoseconds)
            let k = (least + t / 2) / t
            main = k > 0 ? k * t + t / 2 : 0
            let lower = description.lowercased()
            if stage == .commit && !lower.contains("app update") {
                update = 0
                commit = main
            } else {
                update = main
                commit = 0
            }
        }
        if render == nil {
            if stage == .render {
                // Shown k refresh intervals after its start: the middle of the renders that are.
                let start = v.nanoseconds + (main / t + 1) * t
                let k = (p - start + t / 2) / t
                render = k > 1 ? k * t - t / 2 : 0
            } else {
                render = 0
            }
        }
        return (
            Costs(
                update: SimDuration(nanoseconds: update ?? 0), commit: SimDuration(nanoseconds: commit ?? 0),
                render: SimDuration(nanoseconds: render ?? 0)),
            inferred
        )
    }
}
