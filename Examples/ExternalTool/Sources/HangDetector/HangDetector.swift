import DebugShellCore

/// A hang detector built as a plugin: a watchdog on a background queue that looks at the main
/// thread every `--poll` and reports a block that has lasted `--over` or longer, with what blocked
/// it — the way in-app hang detectors (a ping thread watching the main run loop) work.
///
/// It sees the device only through the plugin API: it observes main-thread items as they start
/// and runs its watchdog as a background GCD timer (its handler costs the main thread nothing).
/// Like the shell's metrics it never shows the future: an item's end is known when it starts,
/// but a hang counts from the moment the watchdog sees it, and its length is what has passed.
public final class HangDetector: DebugTool, DeviceObserver {
    public static let descriptor = ToolDescriptor(
        name: "hangs",
        abstract: "Main-thread hangs seen by a watchdog, with what blocked the thread (an example plugin).",
        commands: [
            CommandSpec(
                "hangs", abstract: "Watch the main thread for blocks over a threshold.",
                verbs: Verb.declarations, defaultVerb: Verb.list.rawValue)
        ],
        metrics: [
            MetricSpec("hangs.count", .integer, abstract: "Hangs the watchdog has seen."),
            MetricSpec("hangs.longest", .duration, abstract: "The longest hang's length so far; none before one."),
            MetricSpec("hangs.blocked", .duration, abstract: "The main thread's time in hangs so far."),
        ],
        events: [EventSpec("hangs.detected", abstract: "The watchdog saw a block over the threshold.")])

    /// The command's verbs: `run(_:)` switches over them, so a verb declared without behaviour
    /// does not compile. Help lists them in this order.
    enum Verb: String, ToolVerbs {
        case start, stop, list

        var declaration: VerbSpec {
            switch self {
            case .start:
                return VerbSpec(
                    "start", abstract: "Start the watchdog: every --poll it checks what the main thread runs.",
                    options: [over, poll],
                    examples: [
                        Example(
                            """
                            > hangs start --over 100ms
                            > stall 300ms
                            > run 1s
                            [0.100s] hangs: main thread blocked 100ms by a main-queue block 'stall 300ms' (since 0s)
                            > get hangs.count
                            hangs.count = 1
                            """)
                    ])
            case .stop:
                return VerbSpec("stop", abstract: "Stop the watchdog; what it found stays.")
            case .list:
                return VerbSpec(
                    "list", abstract: "The hangs found: when, how long, what blocked the thread.",
                    examples: [
                        Example("> hangs start\n> hangs list\nno hangs (the watchdog runs every 50ms, over 250ms)")
                    ])
            }
        }
    }

    // Each option is declared once, with its default, and read back through its key.
    static let over = OptionSpec.duration(
        "over", abstract: "A block this long or longer is a hang.", default: .milliseconds(250))
    static let poll = OptionSpec.duration("poll", abstract: "How often the watchdog looks.", default: .milliseconds(50))

    /// A hang the watchdog saw.
    struct Hang {
        var item: MainThreadItem
        var detectedAt: SimTime
    }

    private let host: any ToolHost
    /// The watchdog's settings: the options' defaults until `hangs start` gives others, which
    /// a later start keeps unless it gives others again.
    private var threshold = HangDetector.over.defaultValue
    private var poll = HangDetector.poll.defaultValue
    private var watchdog: TimerID?
    private var observer: ObserverToken?
    /// The main thread's latest item: the one it runs now, or ran last.
    private var current: MainThreadItem?
    private var hangs: [Hang] = []

    public init(host: any ToolHost) { self.host = host }

    private var device: any SimulatedDevice { host.device }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.verb(Verb.self) {
        case .start:
            guard watchdog == nil else { throw CommandError("the watchdog is already running; 'hangs stop' first") }
            if invocation.has(Self.over) { threshold = invocation[Self.over] }
            if invocation.has(Self.poll) { poll = invocation[Self.poll] }
            guard threshold > .zero, poll >= .microseconds(100) else {
                throw CommandError("--over must be positive and --poll at least 100us")
            }
            observer = device.addObserver(self, kinds: .mainItem)
            watchdog = device.addDispatchTimer(
                DispatchTimerConfig(interval: poll, queue: .background, owner: .tool("hangs"), label: "watchdog")
            ) { [weak self] callback in
                self?.look(at: callback.start)
                return .zero
            }
            return CommandOutput(
                json: .fields(["over_ns": .int(self.threshold.nanoseconds), "poll_ns": .int(self.poll.nanoseconds)]))
        case .stop:
            guard let watchdog, let observer else { throw CommandError("the watchdog is not running") }
            device.invalidate(watchdog)
            device.removeObserver(observer)
            self.watchdog = nil
            self.observer = nil
            return .silent
        case .list:
            return list()
        }
    }

    /// Keeps the main thread's latest item (its start is now; its end is where it will return).
    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        if case .mainItem(let item) = observation { current = item }
    }

    /// The watchdog's look at `now`: a block running for at least the threshold is a hang, once.
    private func look(at now: SimTime) {
        guard let item = current, item.start < now, now < item.end, now - item.start >= threshold,
            hangs.last?.item.start != item.start
        else { return }
        hangs.append(Hang(item: item, detectedAt: now))
        host.emit(
            ToolEvent(
                name: "hangs.detected", time: now,
                message:
                    "main thread blocked \(millis(now - item.start)) by \(cause(item)) (since \(item.start))",
                fields: [
                    ("start_ns", .int(item.start.nanoseconds)), ("kind", .string(item.kind.rawValue)),
                    ("label", .string(item.label)),
                ]))
    }

    /// What blocked the thread, in words.
    private func cause(_ item: MainThreadItem) -> String {
        switch item.kind {
        case .block: return "a main-queue block '\(item.label)'"
        case .commit: return "a Core Animation commit"
        case .timer: return "the NSTimer '\(item.label)'"
        case .displayLink: return "the display link '\(item.label)'"
        case .dispatchHandler: return "the GCD handler '\(item.label)'"
        }
    }

    /// A hang's length as of now: its whole length once it ended, what has passed while it runs.
    private func length(_ hang: Hang) -> SimDuration {
        min(hang.item.end, max(device.now, hang.detectedAt)) - hang.item.start
    }

    /// Durations and times as debugsh writes them everywhere (`100ms`, `1.5s`): they paste into
    /// `expect`.
    private func millis(_ d: SimDuration) -> String { d.description }

    private func list() -> CommandOutput {
        guard !hangs.isEmpty else {
            let state =
                watchdog == nil
                ? "the watchdog is not running: 'hangs start'"
                : "the watchdog runs every \(millis(poll)), over \(millis(threshold))"
            return CommandOutput(text: "no hangs (\(state))", json: .fields(["hangs": .array([])]))
        }
        var lines = ["#  start     length     seen at   blocked by"]
        for (k, hang) in hangs.enumerated() {
            let ended = hang.item.end <= device.now
            let length = millis(length(hang)) + (ended ? "" : "+")
            lines.append(
                "\(k + 1)  \(hang.item.start.description.padded(8))  \(length.padded(9))  \(hang.detectedAt.description.padded(8))  \(cause(hang.item))"
            )
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields([
                "hangs": .array(
                    self.hangs.map { hang in
                        .fields([
                            "start_ns": .int(hang.item.start.nanoseconds), "length_ns": .int(length(hang).nanoseconds),
                            "ended": .bool(hang.item.end <= device.now),
                            "detected_ns": .int(hang.detectedAt.nanoseconds), "kind": .string(hang.item.kind.rawValue),
                            "label": .string(hang.item.label),
                        ])
                    })
            ]))
    }

    public func metric(_ name: String) -> MetricValue? {
        switch name {
        case "hangs.count": return .integer(Int64(hangs.count))
        case "hangs.longest": return hangs.map(length).max().map { .duration($0) } ?? MetricValue.none
        case "hangs.blocked": return .duration(hangs.reduce(.zero) { $0 + length($1) })
        default: return nil
        }
    }

    /// `hangs 2 · longest 300ms (stall 300ms) · over 250ms`; none before the watchdog ran.
    public func statusLine() -> StyledText? {
        guard watchdog != nil || !hangs.isEmpty else { return nil }
        var line = StyledText()
        line.append("hangs", .bold)
        line.append(" \(hangs.count)", hangs.isEmpty ? .plain : .color(RGB(220, 50, 47)))
        if let worst = hangs.max(by: { length($0) < length($1) }) {
            line.append(
                " · longest \(millis(length(worst))) (\(worst.item.label.isEmpty ? "commit" : worst.item.label))")
        }
        line.append(" · over \(millis(threshold))")
        return line
    }
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

// MARK: - The plugin's entry points

/// The API version and compiler this plugin was built with: the shell checks them first.
@_cdecl("debugsh_plugin_api_version")
public func debugshPluginAPIVersion() -> Int64 { DebugShellPlugin.buildStamp }

/// The plugin's manifest: its name, version and tools.
@_cdecl("debugsh_plugin_manifest")
public func debugshPluginManifest() -> UnsafeMutableRawPointer {
    DebugShellPlugin(name: "hangs", version: "1.0.0", tools: [HangDetector.self]).retainedPointer()
}
