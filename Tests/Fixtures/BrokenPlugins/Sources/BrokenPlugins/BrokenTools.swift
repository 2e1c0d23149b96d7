import BrokenLoader
import DebugShellCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where `DEBUGSH_TEST_BROKEN` says the load traps: `initializer` (BrokenLoader's C
/// initializer), `version`, `manifest`, `descriptor` (of the tool `described`), or nowhere.
let brokenPlace = getenv("DEBUGSH_TEST_BROKEN").map { String(cString: $0) } ?? ""

@_cdecl("debugsh_plugin_api_version")
public func debugshPluginAPIVersion() -> Int64 {
    if brokenPlace == "version" { fatalError("trap in debugsh_plugin_api_version") }
    return DebugShellPlugin.buildStamp
}

@_cdecl("debugsh_plugin_manifest")
public func debugshPluginManifest() -> UnsafeMutableRawPointer {
    if brokenPlace == "manifest" { fatalError("trap in debugsh_plugin_manifest") }
    precondition(broken_loader_ran() == 1)
    return DebugShellPlugin(
        name: "broken", version: "1.0.0",
        tools: [DescribedTool.self, SayingTool.self, StreamTool.self, LeavingTool.self, ThreadsTool.self]
    ).retainedPointer()
}

/// Its descriptor traps (`DEBUGSH_TEST_BROKEN=descriptor`): computed, so read each time.
public final class DescribedTool: DebugTool {
    public static var descriptor: ToolDescriptor {
        if brokenPlace == "descriptor" { fatalError("trap in descriptor") }
        return ToolDescriptor(
            name: "described", abstract: "Its descriptor traps on demand (a test fixture).",
            commands: [CommandSpec("described", abstract: "Say 'fine'.")])
    }

    public init(host: any ToolHost) {}

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { CommandOutput(text: "fine") }

    public func metric(_ name: String) -> MetricValue? { nil }
}

/// `isSaying(_:)` traps: `break on saying.said` asks it.
public final class SayingTool: DebugTool {
    public static let descriptor = ToolDescriptor(
        name: "saying", abstract: "Traps when asked whether it says its event (a test fixture).",
        commands: [CommandSpec("saying", abstract: "Say 'fine'.")],
        events: [EventSpec("saying.said", abstract: "Said while watched.", watch: "saying on")])

    public init(host: any ToolHost) {}

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { CommandOutput(text: "fine") }

    public func metric(_ name: String) -> MetricValue? { nil }

    public func isSaying(_ event: String) -> Bool { fatalError("trap in isSaying") }
}

/// Output made after its command returned traps: `stream lines` streams a line, then traps in
/// the next (under `--json`, in its JSON); `stream value` returns text and a JSON result that
/// traps when made (`--json`).
public final class StreamTool: DebugTool {
    public static let descriptor = ToolDescriptor(
        name: "stream", abstract: "Its output traps after its command returned (a test fixture).",
        commands: [
            CommandSpec(
                "stream", abstract: "Return output that traps.",
                verbs: [
                    VerbSpec("lines", abstract: "A streamed output that traps in its second line, or its JSON."),
                    VerbSpec("value", abstract: "Text, and a JSON result that traps."),
                ], defaultVerb: "lines")
        ])

    public init(host: any ToolHost) {}

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        if invocation.verb == "value" {
            return CommandOutput(text: "a value", json: StreamTool.trap("trap in a JSON result"))
        }
        return CommandOutput(
            streamed: StreamedOutput(
                text: { line in
                    guard line("the first line") else { return }
                    fatalError("trap in writeText")
                },
                json: { StreamTool.trap("trap in makeJSON") }))
    }

    static func trap(_ message: String) -> JSONValue { fatalError(message) }

    public func metric(_ name: String) -> MetricValue? { nil }
}

/// Its `deinit` traps once armed: `leaving arm` (the tool itself, which observes the device:
/// the device holds it until `reset` lets it go), `leaving arm-timer` (an object its display
/// link's callback holds, let go with the old device); `leaving arm-init`: the next tool made
/// (by `reset`) traps in its `init(host:)`.
public final class LeavingTool: DebugTool, DeviceObserver {
    public static let descriptor = ToolDescriptor(
        name: "leaving", abstract: "Traps in a deinit at reset, once armed (a test fixture).",
        commands: [
            CommandSpec(
                "leaving", abstract: "Arm a deinit that traps.",
                verbs: [
                    VerbSpec("arm", abstract: "The tool's own deinit traps."),
                    VerbSpec("arm-timer", abstract: "A display link's callback holds an object whose deinit traps."),
                    VerbSpec("arm-init", abstract: "The next tool made (by reset) traps in its init."),
                ], defaultVerb: "arm")
        ])

    private let host: any ToolHost
    private var armed = false

    /// Set by `leaving arm-init`: the process's, so that the tool `reset` makes sees it.
    nonisolated(unsafe) static var initTraps = false

    public init(host: any ToolHost) {
        if LeavingTool.initTraps { fatalError("trap in init at reset") }
        self.host = host
    }

    deinit {
        if armed { fatalError("trap in deinit") }
    }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        if invocation.verb == "arm-init" {
            LeavingTool.initTraps = true
            return CommandOutput(text: "armed the next init")
        }
        if invocation.verb == "arm-timer" {
            let held = Held()
            _ = host.device.addDisplayLink(DisplayLinkConfig(owner: .app, label: "held")) { _ in
                _ = held
                return .zero
            }
            return CommandOutput(text: "armed a display link's object")
        }
        armed = true
        _ = host.device.addObserver(self, kinds: .present)
        return CommandOutput(text: "armed")
    }

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {}

    public func metric(_ name: String) -> MetricValue? { nil }
}

/// What a display link's callback holds: its deinit traps.
final class Held {
    deinit { fatalError("trap in a held object's deinit") }
}

/// `threads go` starts a thread of its own that traps, and waits for it.
public final class ThreadsTool: DebugTool {
    public static let descriptor = ToolDescriptor(
        name: "threads", abstract: "A thread of its own traps (a test fixture).",
        commands: [CommandSpec("threads", abstract: "Start a thread that traps, and wait for it.")])

    public init(host: any ToolHost) {}

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        var thread = pthread_t()
        guard
            pthread_create(
                &thread, nil, { _ -> UnsafeMutableRawPointer? in fatalError("trap in a thread of its own") }, nil) == 0
        else {
            throw CommandError("cannot start a thread")
        }
        pthread_join(thread, nil)
        return CommandOutput(text: "the thread ended")
    }

    public func metric(_ name: String) -> MetricValue? { nil }
}
