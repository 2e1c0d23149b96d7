import DebugShellCore
import DebugShellEngine

/// One of the shell's own metrics: its declaration and how it is read from the device, in one
/// place (docs/Commands.md lists them).
struct ShellMetric: Sendable {
    let spec: MetricSpec
    let read: @Sendable (DeviceEngine) -> MetricValue
    /// Whether a pattern (`get 'clock.*'`) lists it now; a name asked for is always answered.
    let isListed: @Sendable (DeviceEngine) -> Bool
    /// A whole number that is the same whenever the value is (the value itself, for most): what
    /// a breakpoint's condition compares after each instant, to read and evaluate only on a
    /// change (WatchedCondition). Nil: the value is compared.
    let stamp: ShellStamp?

    init(
        _ name: String, _ kind: MetricKind, abstract: String,
        listedWhen isListed: @escaping @Sendable (DeviceEngine) -> Bool = { _ in true },
        stamp: ShellStamp? = nil,
        read: @escaping @Sendable (DeviceEngine) -> MetricValue
    ) {
        spec = MetricSpec(name, kind, abstract: abstract)
        self.isListed = isListed
        self.stamp = stamp
        self.read = read
    }
}

/// The whole number behind a shell metric, read without its value: the value itself for the
/// counts and the rate, the nanoseconds of a time (``ShellMetric/stamp``). A case, not a
/// closure: a breakpoint reads it after every instant.
enum ShellStamp: Sendable {
    case now, vsyncs, rate, refreshes, busyUntil, hangs, commits, presents

    @inline(__always) func read(_ engine: DeviceEngine) -> Int64 {
        switch self {
        case .now: return engine.now.nanoseconds
        case .vsyncs: return engine.vsyncCount
        case .rate: return Int64(engine.refreshRate.hertz)
        case .refreshes: return engine.refreshCount
        case .busyUntil: return engine.busyUntil.nanoseconds
        case .hangs: return engine.hangs
        case .commits: return engine.commits
        case .presents: return engine.presents
        }
    }
}

/// The shell's own metrics: the clock, the main thread and the render server. Their
/// namespaces (`clock`, `main`, `render`) are the shell's; no tool may take them.
enum ShellMetrics {
    static let all: [ShellMetric] = [
        ShellMetric("clock.now", .time, abstract: "Virtual time now.", stamp: .now) { .time($0.now) },
        ShellMetric("clock.vsyncs", .integer, abstract: "Vsyncs since the start.", stamp: .vsyncs) {
            .integer($0.vsyncCount)
        },
        // An integer, as it always was (its type is part of `--json` and of `expect`'s parsing): an
        // adaptive rate that is not whole hertz rounds half up (17 for 120/7); `clock` and
        // `display` print it exactly (V6).
        ShellMetric(
            "clock.rate", .integer, abstract: "The refresh rate in force, in Hz.",
            stamp: .rate
        ) {
            .integer(Int64($0.refreshRate.hertz))
        },
        // Listed once the display has been adaptive: a fixed display's refreshes are its vsyncs.
        ShellMetric(
            "clock.refreshes", .integer, abstract: "Refreshes since the start (V6; vsyncs on a fixed display).",
            listedWhen: { $0.hasBeenAdaptive }, stamp: .refreshes
        ) { .integer($0.refreshCount) },
        ShellMetric("clock.mode", .word(ShellMetrics.modeWords), abstract: "The run loop's mode: default or tracking.")
        {
            .word($0.mode.rawValue)
        },
        ShellMetric(
            "main.busy_until", .time, abstract: "The end of the main thread's current or last item.",
            stamp: .busyUntil
        ) {
            .time($0.busyUntil)
        },
        ShellMetric(
            "main.hangs", .integer, abstract: "Main-thread items of 250 ms or more (RL6).", stamp: .hangs
        ) {
            .integer($0.hangs)
        },
        ShellMetric("main.busy_ratio", .number, abstract: "Main-thread busy time over the last whole second (RL6).") {
            $0.busyRatio().map { .number($0) } ?? .none
        },
        ShellMetric(
            "render.commits", .integer, abstract: "Core Animation commits since the start.", stamp: .commits
        ) {
            .integer($0.commits)
        },
        ShellMetric(
            "render.presents", .integer, abstract: "Frames presented since the start.", stamp: .presents
        ) {
            .integer($0.presents)
        },
    ]

    /// `clock.mode`'s words: the modes the run loop runs in (RL1), not `common`, which is a set.
    static let modeWords = RunLoopMode.allCases.filter { $0 != .common }.map(\.rawValue)

    /// The metric named `name`, if it is one of the shell's.
    static func named(_ name: String) -> ShellMetric? { all.first { $0.spec.name == name } }
}
