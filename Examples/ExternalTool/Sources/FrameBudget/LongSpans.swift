import DebugShellCore

/// A small second tool in the same plugin: it counts the main-thread items — blocks, commits,
/// timer and display-link callbacks, GCD handlers — that run longer than `spans.over`.
public final class LongSpans: DebugTool, DeviceObserver {
    static let over = SettingSpec.duration(
        "spans.over", abstract: "A main-thread item that runs longer than this is counted.",
        default: .milliseconds(50))

    public static let descriptor = ToolDescriptor(
        name: "spans", abstract: "Counts main-thread items that run longer than a threshold.",
        commands: [
            CommandSpec(
                "spans", abstract: "Count long main-thread items: start, stop.",
                verbs: Verb.declarations)
        ],
        metrics: [MetricSpec("spans.count", .integer, abstract: "Main-thread items longer than 'spans.over'.")],
        settings: [over],
        events: [EventSpec("spans.long", abstract: "A main-thread item runs longer than 'spans.over'.")])

    /// The command's verbs: `run(_:)` switches over them, so a verb declared without behaviour
    /// does not compile. Help lists them in this order.
    enum Verb: String, ToolVerbs {
        case start, stop

        var declaration: VerbSpec {
            switch self {
            case .start:
                return VerbSpec(
                    "start", abstract: "Start counting main-thread items longer than 'spans.over', from zero.",
                    examples: [
                        Example(
                            """
                            > spans start
                            > stall 30ms
                            > stall 80ms
                            > run 200ms
                            [0.030s] spans: main-queue block 'stall 80ms' runs 80ms (over 50ms)
                            > get spans.count
                            spans.count = 1
                            """)
                    ])
            case .stop:
                return VerbSpec(
                    "stop", abstract: "Stop counting; the count stays.",
                    examples: [
                        Example(
                            """
                            > set spans.over 10ms
                            > spans start
                            > stall 20ms
                            > run 100ms
                            [0.000s] spans: main-queue block 'stall 20ms' runs 20ms (over 10ms)
                            > spans stop
                            > stall 20ms
                            > run 100ms
                            > get spans.count
                            spans.count = 1
                            """)
                    ])
            }
        }
    }

    private let host: any ToolHost
    private var token: ObserverToken?
    private var count: Int64 = 0

    public init(host: any ToolHost) { self.host = host }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.verb(Verb.self) {
        case .start:
            guard token == nil else { throw CommandError("spans is already counting: 'spans stop' first") }
            count = 0
            token = host.device.addObserver(self, kinds: .mainItem)
            return CommandOutput(json: .fields(["over_ns": JSONValue(self.host.setting(Self.over))]))
        case .stop:
            guard let token else { throw CommandError("spans is not counting: 'spans start' starts it") }
            host.device.removeObserver(token)
            self.token = nil
            return CommandOutput(json: .fields(["count": .int(self.count)]))
        }
    }

    /// An item is observed as it starts; its end is known then (nothing pre-empts it).
    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        guard case .mainItem(let item) = observation else { return }
        let threshold = host.setting(Self.over)
        let length = item.end - item.start
        guard length > threshold else { return }
        count += 1
        let what: String
        switch item.kind {
        case .block: what = "main-queue block"
        case .commit: what = "commit"
        case .timer: what = "NSTimer"
        case .displayLink: what = "display link"
        case .dispatchHandler: what = "GCD handler"
        }
        let name = item.label.isEmpty || item.kind == .commit ? what : "\(what) '\(item.label)'"
        host.emit(
            ToolEvent(
                name: "spans.long", time: device.now, message: "\(name) runs \(length) (over \(threshold))",
                fields: [
                    ("kind", .string(item.kind.rawValue)), ("label", .string(item.label)),
                    ("length_ns", JSONValue(length)),
                ]))
    }

    public func metric(_ name: String) -> MetricValue? {
        name == "spans.count" ? .integer(count) : nil
    }
}
