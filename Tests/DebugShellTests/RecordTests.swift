import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell

/// `record` writes the session's commands as `at` lines; replayed as a script they reproduce
/// the simulation (S3).
@Suite struct RecordTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-record-\(UUID().uuidString).dsh").path
    }

    @Test func aRecordingReplaysToTheSameMetrics() throws {
        let path = tempPath()
        let sink = MemorySink()
        let live = try Session(tools: [CounterTool.self], options: SessionOptions(interactive: true), sink: sink)
        for line in [
            "counter tick --until 5", "animate 2s", "load gpu 20ms", "run 250ms", "alias st = stall %1",
            "st 120ms", "record \(path)", "step 3", "set counter.step 2", "scroll 300ms", "run 1.5s",
            "display rate 120", "run 500ms", "record stop",
        ] {
            #expect(live.runLine(line) == .finished, "\(line): \(sink.standardError)")
        }
        let replay = try Session(tools: [CounterTool.self], options: SessionOptions(), sink: MemorySink())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(replay.runScript(text, origin: ScriptOrigin(name: path)) == .finished, "\(text)")
        for metric in live.allMetricNames() {
            #expect(replay.metricValueOrNone(metric) == live.metricValueOrNone(metric), "\(metric)\n\(text)")
        }
        // Aliases are expanded; time movers are not written; the file ends at now.
        #expect(text.contains("at 0.25s stall 120ms\n"))
        let commands = text.split(separator: "\n").filter { $0.hasPrefix("at ") }.map { $0.split(separator: " ")[2] }
        #expect(!commands.contains("step") && !commands.contains("alias") && !commands.contains("run"))
        #expect(text.hasSuffix("run \(live.engine.now)\n"))
        // A command after `step` (its instant done) is written 1 ns later, after that instant.
        #expect(text.contains("at 0.283333334s set counter.step 2\n"))
    }

    @Test func recordingErrors() throws {
        try expectTranscript(
            """
            > record stop
            error: not recording
            > record a.dsh b.dsh
            error: usage: record <file.dsh> | record stop
            > record /no/such/folder/x.dsh
            error: cannot write '/no/such/folder/x.dsh'
            > play
            error: play needs the interactive session, where time can follow the wall clock; use 'run' here
            """)
    }

    @Test func playFollowsTheWallClockInSlices() throws {
        let session = try Session(tools: [], options: SessionOptions(interactive: true), sink: MemorySink())
        session.supportsPlay = true
        #expect(session.runLine("play 2") == .finished)
        #expect(session.playTick(wallNanoseconds: 10_000_000))
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_000))
        #expect(session.runLine("play 0.5") == .finished)
        session.playTick(wallNanoseconds: 3)  // 1.5 ns: 1 now, the half carried
        session.playTick(wallNanoseconds: 1)  // 0.5 + 0.5 = 1
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_002))
        let sink = MemorySink()
        let s2 = try Session(tools: [], options: SessionOptions(interactive: true), sink: sink)
        s2.supportsPlay = true
        _ = s2.runLine("play 0")
        #expect(sink.standardError == "error: play speed must be above 0 and at most 1000000 (got 0)\n")
        _ = session.runLine("pause")
        #expect(!session.playTick(wallNanoseconds: 1_000_000))
    }
}
