import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell

/// A tool whose setting's default is in frames.
final class FrameBudgetTool: DebugTool {
    static let budget = SettingSpec("budget.limit", .duration, default: "2f", abstract: "Two frames, by default.")
    static let descriptor = ToolDescriptor(
        name: "budget", abstract: "Reads a setting in frames.",
        commands: [CommandSpec("budget", abstract: "Show the budget.")], settings: [budget])

    let host: any ToolHost
    init(host: any ToolHost) { self.host = host }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        CommandOutput(text: host.setting("budget.limit")?.description ?? "none")
    }

    func metric(_ name: String) -> MetricValue? { nil }
}

/// A setting's default is resolved at the refresh rate in force when it is read, not at 60 Hz
/// when the tool was registered; a value the user sets is parsed once, when set.
@Suite struct SettingDefaultTests {
    @Test func aDefaultInFramesFollowsTheRate() throws {
        let result = try Transcript.replay(
            """
            > budget
            33.333333ms
            > settings show budget.limit
            budget.limit = 33.333333ms
            > display rate 120
            > step
            > budget
            16.666666ms
            > set budget.limit 3f
            > display rate 60
            > step
            > budget
            25ms
            """, tools: [FrameBudgetTool.self])
        #expect(result.matches, "\(result)")
    }

    /// The recording's preamble names a setting that differs from its default at the rate in
    /// force, and not one left at its default in frames.
    @Test func theRecordingPreambleComparesAtTheRateInForce() throws {
        let session = try Session(tools: [FrameBudgetTool.self], sink: MemorySink())
        _ = session.runLine("display rate 120")
        _ = session.runLine("step")
        #expect(session.recorder.preamble() == ["display rate 120"])
        _ = session.runLine("set budget.limit 1f")
        #expect(session.recorder.preamble() == ["display rate 120", "set budget.limit 8.333333ms"])
    }
}
