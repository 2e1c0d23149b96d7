import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing
import TimerInspectorTool

/// The tools these tests run with: the inspector, and a probe that adds a tool-owned link.
var tools: [any DebugTool.Type] { [TimerInspector.self, ProbeTool.self] }

/// Replays a transcript (`> command` lines and their exact output) in a fresh session.
func expectTranscript(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try Transcript.replay(transcript, tools: tools)
    #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
}

/// A session to drive step by step, and the text each line prints.
final class Driver {
    let sink = MemorySink()
    let session: Session

    init(json: Bool = false) throws {
        session = try Session(tools: tools, options: SessionOptions(json: json), sink: sink)
    }

    /// Runs lines; returns everything they printed (both streams), without the last newline.
    @discardableResult
    func run(_ lines: String...) -> String {
        sink.clear()
        for line in lines { _ = session.runLine(line) }
        var out = sink.combined
        if out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    /// A metric's value as `get` prints it.
    func get(_ metric: String) -> String {
        String(run("get \(metric)").dropFirst("\(metric) = ".count))
    }

    var inspector: TimerInspector? { session.tool(named: "timer") as? TimerInspector }
}

/// A tool with a display link of its own, so that tests can check what `timer list` hides.
final class ProbeTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "probe", abstract: "Adds a tool-owned display link.",
        commands: [
            CommandSpec(
                "probe", abstract: "Add the probe's link.",
                examples: [Example("> probe")])
        ])

    let host: any ToolHost
    init(host: any ToolHost) { self.host = host }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        _ = host.device.addDisplayLink(DisplayLinkConfig(owner: .tool("probe"), label: "link"), callback: nil)
        return .silent
    }

    func metric(_ name: String) -> MetricValue? { nil }
}
