import DebugShellCore

/// A tool written carelessly on purpose: each verb of `careless` hands the host something it must
/// refuse or clean, and its metrics answer badly. The host's checks are tested against it
/// (Tests/EndToEndTests/CarelessPluginTests.swift). The plugin's other tool, `traps`
/// (TrapTool.swift), traps where it is told to.
public final class CarelessTool: DebugTool {
    static let limit = SettingSpec.integer(
        "careless.limit", in: 1...10, abstract: "A number the tool keeps, 1 to 10.", default: 5)
    static let mode = SettingSpec.choice("careless.mode", abstract: "A choice the tool keeps.", default: Mode.quiet)

    enum Mode: String, CommandLineChoice {
        case quiet, loud
    }

    public static let descriptor = ToolDescriptor(
        name: "careless",
        abstract: "A plugin that hands the host bad answers on demand (a test fixture).",
        commands: [
            CommandSpec(
                "careless", abstract: "Misbehave on demand.",
                verbs: [
                    VerbSpec("show", abstract: "Say how things stand; the settings as they arrive."),
                    VerbSpec("emit", abstract: "Emit its own declared event, now: the one good event."),
                    VerbSpec("emit-foreign", abstract: "Emit an event in the FPS meter's name, 'fps.hitch'."),
                    VerbSpec("emit-future", abstract: "Emit its own event stamped a second from now."),
                    VerbSpec("emit-undeclared", abstract: "Emit an event in its namespace that it never declared."),
                    VerbSpec(
                        "emit-controls", abstract: "Emit its event with CR, a newline, ESC and BEL in the message."),
                    VerbSpec("set-foreign", abstract: "Set the FPS meter's setting fps.autohide."),
                    VerbSpec("set-wrong-type", abstract: "Store a word in its integer setting careless.limit."),
                    VerbSpec("set-good", abstract: "Store 7 in careless.limit and loud in careless.mode."),
                    VerbSpec("print-controls", abstract: "Print text with CR, ESC, BEL and NUL in it."),
                    VerbSpec("fail-controls", abstract: "Fail with an error whose message holds CR, ESC and BEL."),
                    VerbSpec("tick", abstract: "Count the callbacks of a display link of its own."),
                    VerbSpec(
                        "trace-forever",
                        abstract:
                            "Hand the trace a slice from a second before t = 0 to .never, and one ending before it starts."
                    ),
                ], defaultVerb: "show")
        ],
        metrics: [
            MetricSpec("careless.count", .integer, abstract: "Display-link callbacks so far: a good metric."),
            MetricSpec("careless.nil", .integer, abstract: "Declared, but metric() answers nil for it."),
            MetricSpec("careless.kind", .integer, abstract: "Declared an integer, but answered with a duration."),
            MetricSpec("careless.word", .anyWord, abstract: "A word with ESC and BEL in it."),
            MetricSpec(
                "careless.tone", .word(["calm", "loud"]),
                abstract: "Declares calm and loud, answers shouty (not listed)."),
        ],
        settings: [limit, mode],
        events: [EventSpec("careless.said", abstract: "The tool said something.")])

    private let host: any ToolHost
    private var count: Int64 = 0
    private var link: TimerID?

    public init(host: any ToolHost) {
        self.host = host
    }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let now = host.device.now
        switch invocation.verb {
        case "emit":
            host.emit(ToolEvent(name: "careless.said", time: now, message: "a good event"))
        case "emit-foreign":
            host.emit(ToolEvent(name: "fps.hitch", time: now, message: "hitch 999ms (render), frame 1 expected at 0s"))
        case "emit-future":
            host.emit(ToolEvent(name: "careless.said", time: now + .seconds(1), message: "from the future"))
        case "emit-undeclared":
            host.emit(ToolEvent(name: "careless.secret", time: now, message: "never declared"))
        case "emit-controls":
            host.emit(
                ToolEvent(
                    name: "careless.said", time: now, message: "over\rwritten\n[0.000s] fps: forged\u{1B}[2J\u{07}"))
        case "trace-forever":
            host.traceSlice("forever", from: SimTime(nanoseconds: -1_000_000_000), to: .never, args: [("n", .int(1))])
            host.traceSlice("backwards", from: now + .seconds(1), to: SimTime(nanoseconds: Int64.min), args: [])
        case "set-foreign":
            host.setSetting("fps.autohide", to: .boolean(true))
        case "set-wrong-type":
            host.setSetting("careless.limit", to: .word("lots"))
        case "set-good":
            host.setSetting(Self.limit, to: 7)
            host.setSetting(Self.mode, to: .loud)
        case "print-controls":
            return CommandOutput(
                text: "before\rafter \u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07} bell\u{07} nul\u{0}\ttab\nline two",
                json: .fields(["text": .string("bell\u{07}")]))
        case "fail-controls":
            throw CommandError("failed\r \u{1B}[2J\u{07}")
        case "tick":
            guard link == nil else { throw CommandError("the link is running already") }
            link = host.device.addDisplayLink(DisplayLinkConfig(owner: .tool("careless"), label: "careless")) {
                [unowned self] _ in
                count += 1
                return .zero
            }
        default:
            let typed = host.setting(Self.mode)
            let raw = host.setting(Self.mode.name).map { "\($0)" } ?? "nothing"
            return CommandOutput(
                text:
                    "count \(count), limit \(host.setting(Self.limit)), mode \(typed.rawValue) (as a value: \(kind(host.setting(Self.mode.name))) \(raw))"
            )
        }
        return .silent
    }

    /// How a setting's value arrives through the string-keyed `setting(_:)`.
    private func kind(_ value: ArgumentValue?) -> String {
        switch value {
        case .word?: return "word"
        case .integer?: return "integer"
        case nil: return "nil"
        default: return "other"
        }
    }

    public func metric(_ name: String) -> MetricValue? {
        switch name {
        case "careless.count": return .integer(count)
        case "careless.nil": return nil
        case "careless.kind": return .duration(.milliseconds(5))
        case "careless.word": return .word("esc\u{1B}[2Jbell\u{07}")
        case "careless.tone": return .word("shouty")
        default: return nil
        }
    }

    /// The declared metrics, one in another tool's namespace, and one never declared.
    public func metricNames() -> [String] {
        ["careless.count", "careless.nil", "careless.kind", "careless.word", "careless.ghost", "fps.value"]
    }

    /// A status line with a BEL and a CR in it.
    public func statusLine() -> StyledText? { StyledText(plain: "careless \(count)\u{07}\rbell") }
}

// MARK: - The plugin's entry points

@_cdecl("debugsh_plugin_api_version")
public func debugshPluginAPIVersion() -> Int64 { DebugShellPlugin.buildStamp }

@_cdecl("debugsh_plugin_manifest")
public func debugshPluginManifest() -> UnsafeMutableRawPointer {
    DebugShellPlugin(name: "careless", version: "1.0.0", tools: [CarelessTool.self, TrapTool.self]).retainedPointer()
}
