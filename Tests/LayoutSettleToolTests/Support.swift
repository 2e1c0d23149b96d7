import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// Replays a transcript with the layout tool alone and expects it to match exactly.
func expectTranscript(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try Transcript.replay(transcript, tools: [LayoutSettleChecker.self])
    #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
}

/// Runs a script and returns the value `get` prints for each metric, in order.
func metrics(after script: String, _ names: [String]) throws -> [String] {
    let text = script + "\n" + names.map { "get \($0)" }.joined(separator: "\n")
    let (stdout, stderr, outcome) = try Transcript.run(text, tools: [LayoutSettleChecker.self])
    #expect(outcome == .finished, "\(stderr)")
    #expect(stderr == "")
    let lines = stdout.split(separator: "\n").map(String.init)
    return names.map { name in
        lines.last { $0.hasPrefix(name + " = ") }.map { String($0.dropFirst(name.count + 3)) } ?? "<missing>"
    }
}

/// A session with the layout tool, and the tool itself, for tests that look inside.
struct LayoutSession {
    let session: Session
    let sink: MemorySink

    init() throws {
        sink = MemorySink()
        session = try Session(tools: [LayoutSettleChecker.self], options: SessionOptions(), sink: sink)
    }

    /// The tool now (`reset` makes a new one).
    var tool: LayoutSettleChecker {
        get throws { try #require(session.tool(named: "layout") as? LayoutSettleChecker) }
    }

    /// Runs lines and returns what they printed (stdout and stderr together).
    @discardableResult
    func run(_ lines: String...) -> String {
        sink.clear()
        for line in lines { _ = session.runLine(line) }
        return sink.combined
    }
}
