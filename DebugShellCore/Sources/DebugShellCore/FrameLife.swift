/// One frame presented on the display, with what an Instruments hitch analysis would show.
public struct PresentInfo: Sendable {
    public var frame: Int64
    /// When the commit that made this frame (the newest merged one) started and ended.
    public var commitStart: SimTime
    public var commitEnd: SimTime
    /// The timestamp of the newest animation tick in the frame, if any (R3).
    public var newestTick: SimTime?
    /// Render start (a vsync) and end (R1).
    public var renderStart: SimTime
    public var renderEnd: SimTime
    /// The present (a vsync, R2) and the expected present (R3).
    public var present: SimTime
    public var expectedPresent: SimTime
    /// Whether the frame's commit started during animating time (A2).
    public var counted: Bool
    /// The commit ended at or after the vsync after the newest tick: it missed its render vsync (R4).
    public var commitLate: Bool
    /// The render ended after the vsync after its start (R4).
    public var renderLate: Bool
    /// How many committed frames were merged into this one (R1); 1 when none were.
    public var mergedFrames: Int
    /// The previous counted present of the whole run, if any (R4's p_{i−1}).
    public var previousCountedPresent: SimTime?
    /// R4's hitch against the previous counted present of the whole run:
    /// `max(0, p − max(x, the vsync after p_{i−1}))`, or `max(0, p − x)` for the first. A tool
    /// that starts counting later uses `max(0, p − x)` for its own first present.
    public var hitch: SimDuration
    /// When the render's work began: its start vsync, or the end of the render before it when the
    /// GPU was still busy (R7).
    public var gpuStart: SimTime {
        get { detail.gpuStart }
        set { detail = detail.with { $0.gpuStart = newValue } }
    }
    /// The frame's earliest time: the newest tick's vsync, else the vsync at or before the commit's
    /// end (R8); `expectedPresent − earliest` is the acceptable latency.
    public var earliest: SimTime {
        get { detail.earliest }
        set { detail = detail.with { $0.earliest = newValue } }
    }
    /// The buffers the render server used for it (R7).
    public var buffers: Int {
        get { detail.buffers }
        set { detail = detail.with { $0.buffers = newValue } }
    }
    /// What each stage cost (R6).
    public var phases: FramePhases {
        get { detail.phases }
        set { detail = detail.with { $0.phases = newValue } }
    }
    /// Why it was later than expected, when it was (R8): Instruments' hitch type.
    public var hitchType: HitchType? {
        get { detail.hitchType }
        set { detail = detail.with { $0.hitchType = newValue } }
    }
    /// The work that delayed it, when it was late (R8).
    public var delay: FrameDelay? {
        get { detail.delay }
        set { detail = detail.with { $0.delay = newValue } }
    }
    /// The phases, type and delay, boxed: every observation is as large as its largest case, and
    /// the hot ones (a timer's firing) should not pay for a present's story.
    private var detail: PresentDetail

    /// How late it was against its own expected present, hitch or not.
    public var lateness: SimDuration { max(.zero, present - expectedPresent) }
    /// Instruments' acceptable latency: the buffer count in refresh intervals (R7).
    public var latencyAllowed: SimDuration { expectedPresent - earliest }
    /// On time, a hitch, or late only because the frame before was (R9), by R4's hitch.
    public var verdict: FrameVerdict { hitch > .zero ? .hitch : (present > expectedPresent ? .stuffed : .onTime) }
    /// The ids of the frames merged into it and never shown (R1, R9): `frame − merged + 1 ..< frame`.
    public var droppedFrames: Range<Int64> { (frame - Int64(mergedFrames) + 1)..<frame }

    public init(
        frame: Int64, commitStart: SimTime, commitEnd: SimTime, newestTick: SimTime?, renderStart: SimTime,
        renderEnd: SimTime, present: SimTime, expectedPresent: SimTime, counted: Bool, commitLate: Bool,
        renderLate: Bool, mergedFrames: Int, previousCountedPresent: SimTime?, hitch: SimDuration,
        gpuStart: SimTime? = nil, earliest: SimTime? = nil, buffers: Int = 2, phases: FramePhases = .zero,
        hitchType: HitchType? = nil, delay: FrameDelay? = nil
    ) {
        self.detail = PresentDetail(
            Fields(
                gpuStart: gpuStart ?? renderStart, earliest: earliest ?? newestTick ?? commitEnd, buffers: buffers,
                phases: phases, hitchType: hitchType, delay: delay))
        self.frame = frame
        self.commitStart = commitStart
        self.commitEnd = commitEnd
        self.newestTick = newestTick
        self.renderStart = renderStart
        self.renderEnd = renderEnd
        self.present = present
        self.expectedPresent = expectedPresent
        self.counted = counted
        self.commitLate = commitLate
        self.renderLate = renderLate
        self.mergedFrames = mergedFrames
        self.previousCountedPresent = previousCountedPresent
        self.hitch = hitch
    }
}

/// A present's GPU start, earliest time, buffers, phases, hitch type and delay (R6–R8), shared by
/// its copies: the observation that carries a present stays small for the hot ones.
private final class PresentDetail: Sendable {
    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    var gpuStart: SimTime { fields.gpuStart }
    var earliest: SimTime { fields.earliest }
    var buffers: Int { fields.buffers }
    var phases: FramePhases { fields.phases }
    var hitchType: HitchType? { fields.hitchType }
    var delay: FrameDelay? { fields.delay }

    /// A copy with one change.
    func with(_ change: (inout Fields) -> Void) -> PresentDetail {
        var copy = fields
        change(&copy)
        return PresentDetail(copy)
    }
}

private struct Fields: Sendable {
    var gpuStart: SimTime
    var earliest: SimTime
    var buffers: Int
    var phases: FramePhases
    var hitchType: HitchType?
    var delay: FrameDelay?
}

/// What one frame's stages cost (R6): the app's update and commit phases on the main thread, and
/// the render server's prepare, GPU work and offscreen passes.
public struct FramePhases: Sendable, Equatable {
    /// The newest animation tick's callback (`load frame`): event handling, the app's update.
    public var update: SimDuration
    /// The commit's parts (`load layout|display|prepare|commit`); the commit item costs their sum.
    public var layout: SimDuration
    public var display: SimDuration
    public var prepare: SimDuration
    public var commit: SimDuration
    /// The render server's CPU work before the GPU (`load render-prepare`).
    public var renderPrepare: SimDuration
    /// The render's GPU work (`load gpu`), its offscreen passes beside it.
    public var gpu: SimDuration
    /// Offscreen passes per frame and what each costs the GPU (`load offscreen`).
    public var offscreenPasses: Int
    public var offscreenPass: SimDuration

    public init(
        update: SimDuration = .zero, layout: SimDuration = .zero, display: SimDuration = .zero,
        prepare: SimDuration = .zero, commit: SimDuration = .zero, renderPrepare: SimDuration = .zero,
        gpu: SimDuration = .zero, offscreenPasses: Int = 0, offscreenPass: SimDuration = .zero
    ) {
        self.update = update
        self.layout = layout
        self.display = display
        self.prepare = prepare
        self.commit = commit
        self.renderPrepare = renderPrepare
        self.gpu = gpu
        self.offscreenPasses = offscreenPasses
        self.offscreenPass = offscreenPass
    }

    public static let zero = FramePhases()

    /// The commit item's cost: layout + display + prepare + commit (R6).
    public var commitItem: SimDuration { layout + display + prepare + commit }
    /// All offscreen passes together.
    public var offscreen: SimDuration { SimDuration(nanoseconds: offscreenPass.nanoseconds &* Int64(offscreenPasses)) }
    /// The render's cost: prepare + GPU + offscreen passes (R6).
    public var render: SimDuration { renderPrepare + gpu + offscreen }

    /// The phases that cost something, in the frame's order, as `name duration` pairs.
    public var named: [(name: String, cost: SimDuration)] {
        var parts: [(String, SimDuration)] = [
            ("update", update), ("layout", layout), ("display", display), ("prepare", prepare),
            ("commit", commit), ("render-prepare", renderPrepare), ("gpu", gpu),
        ]
        if offscreenPasses > 0 { parts.append(("offscreen×\(offscreenPasses)", offscreen)) }
        return parts.filter { $0.1 > .zero }
    }
}

/// Why a frame was later than expected, in the words Instruments' hitch table uses (R8).
public enum HitchType: Sendable, Equatable, Hashable {
    /// The newest tick's callback (the app's update) took the largest share of the time to the
    /// commit's end.
    case appUpdate
    /// The commit (layout, display, prepare, commit) took the largest share.
    case expensiveCommit
    /// Other main-thread work before the commit took the largest share.
    case preCommitLatency
    /// The commit was on time; the render started after the vsync following it (the render server
    /// or the GPU was busy with an earlier frame, or every buffer was in use).
    case commitToRenderLatency
    /// The render started on time and overran its vsyncs; it had offscreen passes.
    case expensiveRender(offscreenPasses: Int)
    /// The render started on time and overran its vsyncs, with no offscreen pass.
    case expensiveGPU
    /// Committed and rendered in time, shown later (an adaptive display's refresh in between).
    case delayedSwap

    /// Instruments' string (`hitches-summary`'s Hitch Type, `hitches`' description).
    public var description: String {
        switch self {
        case .appUpdate: return "Potentially expensive app update(s)"
        case .expensiveCommit: return "Expensive Commit(s)"
        case .preCommitLatency: return "Pre-Commit(s) latency"
        case .commitToRenderLatency: return "Commit to Render latency"
        case .expensiveRender(let n): return "Potentially expensive render, \(n) offscreen passes"
        case .expensiveGPU: return "Potentially expensive GPU work"
        case .delayedSwap: return "Commit to Render latency - Delay Frame Swap"
        }
    }

    /// One word for filters and JSON: `update`, `commit`, `pre-commit`, `wait`,
    /// `offscreen`, `gpu`, `swap`.
    public var word: String {
        switch self {
        case .appUpdate: return "update"
        case .expensiveCommit: return "commit"
        case .preCommitLatency: return "pre-commit"
        case .commitToRenderLatency: return "wait"
        case .expensiveRender: return "offscreen"
        case .expensiveGPU: return "gpu"
        case .delayedSwap: return "swap"
        }
    }

    /// Every type's word, for help and errors.
    public static let words = ["update", "commit", "pre-commit", "wait", "offscreen", "gpu", "swap"]

    /// Whether the main thread (the app's commit) or the render side made the frame late: Apple's
    /// commit hitch and render hitch.
    public var isCommitSide: Bool {
        switch self {
        case .appUpdate, .expensiveCommit, .preCommitLatency: return true
        default: return false
        }
    }
}

/// A hitch's severity as Instruments grades it (R8): how many refresh intervals late the frame
/// was — at most one Low, more than one Moderate, more than two High.
public enum HitchSeverity: String, Sendable, CaseIterable {
    case low = "Low", moderate = "Moderate", high = "High"

    /// The grade of a hitch of `duration` at a refresh interval of `interval`.
    public static func of(_ duration: SimDuration, interval: SimDuration) -> HitchSeverity {
        let d = Int128(duration.nanoseconds)
        let r = Int128(interval.nanoseconds)
        if d > 2 * r { return .high }
        if d > r { return .moderate }
        return .low
    }
}

/// What became of a frame (R9).
public enum FrameVerdict: String, Sendable, CaseIterable {
    /// Presented at or before its expected present.
    case onTime = "on time"
    /// Presented late: a hitch (R4), with a type (R8).
    case hitch
    /// Presented late only because the frame before it was: no hitch of its own (Perfetto's
    /// "buffer stuffing").
    case stuffed = "late (frame before)"
    /// Never presented: a newer frame was merged over it (R1).
    case dropped
}

/// The work that delayed a frame (R8): a main-thread item, or a render.
public struct FrameDelay: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case block, commit, timer, displayLink = "displaylink", dispatchHandler = "dispatch", render
    }
    public var kind: Kind
    /// The item's label (a timer's name, a block's), or `frame N` for a render.
    public var label: String
    public var start: SimTime
    public var end: SimTime
    /// The frame a render belongs to (`render` only).
    public var frame: Int64?

    public init(kind: Kind, label: String, start: SimTime, end: SimTime, frame: Int64? = nil) {
        self.kind = kind
        self.label = label
        self.start = start
        self.end = end
        self.frame = frame
    }

    /// What it was, without its times: `render of frame 4`, `commit of frame 31`,
    /// `block 'stall 300ms'` (`fps hitches` and the trace say it alike).
    public var what: String {
        switch kind {
        case .render: return "render of frame \(frame ?? 0)"
        case .commit: return label.isEmpty ? "commit" : "commit of frame \(label)"
        default: return label.isEmpty ? kind.rawValue : "\(kind.rawValue) '\(label)'"
        }
    }
}

extension FrameDelay.Kind {
    /// The kind of a main-thread item.
    public init(_ kind: MainThreadItem.Kind) {
        switch kind {
        case .block: self = .block
        case .commit: self = .commit
        case .timer: self = .timer
        case .displayLink: self = .displayLink
        case .dispatchHandler: self = .dispatchHandler
        }
    }
}
