import DebugShellCore

#if canImport(Glibc)
    import Glibc
#endif

/// A tool whose code does not return, or ends the process (Tests/EndToEndTests/StuckTests.swift):
/// `stuck spin` loops for ever in the command; `stuck link` starts a display link whose third
/// callback waits for the device's time to pass, which cannot happen while it waits; `stuck
/// leave` calls `exit(3)`; `stuck tick` starts a display link that returns at once, as a
/// well-behaved one does. Before it loops, the tool writes a line to standard error (`stuck:
/// spinning in …`), for a test to wait for before it signals.
public final class StuckTool: DebugTool {
    public static let descriptor = ToolDescriptor(
        name: "stuck",
        abstract: "Never returns, or calls exit, on demand (a test fixture).",
        commands: [
            CommandSpec(
                "stuck", abstract: "Loop for ever, start a link that will, or exit.",
                verbs: [
                    VerbSpec("spin", abstract: "Loop for ever in this command."),
                    VerbSpec("link", abstract: "Start a display link whose third callback never returns."),
                    VerbSpec("leave", abstract: "Call exit(3)."),
                    VerbSpec("tick", abstract: "Start a display link that returns at once."),
                ], defaultVerb: "tick")
        ],
        metrics: [MetricSpec("stuck.calls", .integer, abstract: "Display-link callbacks so far.")])

    private let host: any ToolHost
    private var calls: Int64 = 0

    public init(host: any ToolHost) {
        self.host = host
    }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let device = host.device
        switch invocation.verb {
        case "spin":
            say("stuck: spinning in a command\n")
            // A loop on the device's clock, which cannot move while the command runs.
            let start = device.now
            while device.now <= start {}
            return CommandOutput(text: "never")
        case "link":
            _ = device.addDisplayLink(DisplayLinkConfig(owner: .app, label: "stuck link")) { [unowned self] _ in
                calls += 1
                if calls == 3 {
                    say("stuck: spinning in a display-link callback\n")
                    // A livelock: it waits for time to pass, and time waits for it.
                    let start = device.now
                    while device.now <= start {}
                }
                return .zero
            }
            return CommandOutput(text: "started")
        case "leave":
            exit(3)
        default:
            _ = device.addDisplayLink(DisplayLinkConfig(owner: .app, label: "stuck tick")) { [unowned self] _ in
                calls += 1
                return .zero
            }
            return CommandOutput(text: "ticking")
        }
    }

    public func metric(_ name: String) -> MetricValue? { name == "stuck.calls" ? .integer(calls) : nil }

    /// Writes to standard error at once, past the shell's buffered output.
    private func say(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}

// MARK: - The plugin's entry points

@_cdecl("debugsh_plugin_api_version")
public func debugshPluginAPIVersion() -> Int64 { DebugShellPlugin.buildStamp }

@_cdecl("debugsh_plugin_manifest")
public func debugshPluginManifest() -> UnsafeMutableRawPointer {
    DebugShellPlugin(name: "stuck", version: "1.0.0", tools: [StuckTool.self]).retainedPointer()
}
