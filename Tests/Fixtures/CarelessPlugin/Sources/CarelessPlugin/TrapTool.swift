import DebugShellCore

#if canImport(Glibc)
    import Glibc
#endif

/// A tool that traps where `DEBUGSH_TEST_TRAP` says (Tests/EndToEndTests/TrapTests.swift): `init`, `command` (in `traps boom`),
/// `link` (its display link's third callback), `timer` (its NSTimer's second callback), `gcd`,
/// `block`, `observer` (a present), `metric`, `status` (once a callback ran), `setting`, `segv` (a write through a
/// null pointer in `traps boom`), or nowhere.
public final class TrapTool: DebugTool, DeviceObserver {
    public static let descriptor = ToolDescriptor(
        name: "traps",
        abstract: "Traps where it is told to (a test fixture).",
        commands: [
            CommandSpec(
                "traps", abstract: "Start the callbacks that trap, or trap now.",
                verbs: [
                    VerbSpec("start", abstract: "Start a display link, an NSTimer, a GCD timer and an observer."),
                    VerbSpec("boom", abstract: "Trap now (command, segv), else say 'no trap'."),
                ], defaultVerb: "start")
        ],
        metrics: [MetricSpec("traps.calls", .integer, abstract: "Callbacks so far.")],
        settings: [SettingSpec("traps.level", .integer(0...9), default: "1", abstract: "A setting to change.")])

    private let host: any ToolHost
    private let place: String
    private var calls = 0
    private var links = 0
    private var fires = 0

    public init(host: any ToolHost) {
        self.host = host
        place = getenv("DEBUGSH_TEST_TRAP").map { String(cString: $0) } ?? ""
        if place == "init" { fatalError("trap in init") }
    }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        if invocation.verb == "boom" {
            if place == "command" { fatalError("trap in a command") }
            if place == "segv" {
                let pointer = UnsafeMutablePointer<Int>(bitPattern: 8)
                pointer?.pointee = 1
            }
            return CommandOutput(text: "no trap")
        }
        let device = host.device
        _ = device.addDisplayLink(DisplayLinkConfig(owner: .app, label: "trap link")) { [unowned self] _ in
            calls += 1
            links += 1
            if place == "link" && links == 3 { fatalError("trap in a display-link callback") }
            return .zero
        }
        _ = device.addRunLoopTimer(
            RunLoopTimerConfig(interval: .milliseconds(100), repeats: true, owner: .app, label: "trap timer")
        ) {
            [unowned self] _ in
            calls += 1
            fires += 1
            if place == "timer" && fires == 2 { fatalError("trap in an NSTimer callback") }
            return .zero
        }
        _ = device.addDispatchTimer(DispatchTimerConfig(interval: .milliseconds(150), owner: .app, label: "trap gcd")) {
            [unowned self] _ in
            calls += 1
            if place == "gcd" { fatalError("trap in a GCD handler") }
            return .zero
        }
        device.enqueueMainBlock(cost: .milliseconds(1), dirtiesUI: true, label: "trap block") { [unowned self] in
            calls += 1
            if place == "block" { fatalError("trap in a main-queue block") }
        }
        _ = device.addObserver(self, kinds: .present)
        return CommandOutput(text: "started")
    }

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        if place == "observer", case .presented = observation { fatalError("trap in an observer") }
    }

    public func metric(_ name: String) -> MetricValue? {
        if place == "metric" { fatalError("trap in metric()") }
        return name == "traps.calls" ? .integer(Int64(calls)) : nil
    }

    public func statusLine() -> StyledText? {
        if place == "status" && calls > 0 { fatalError("trap in statusLine()") }
        return StyledText(plain: "traps \(calls)")
    }

    public func settingDidChange(_ name: String) {
        if place == "setting" { fatalError("trap in settingDidChange") }
    }
}
