import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// `record` writes the session's commands, each at the instant it was issued, with `run to` and
/// `run through` lines that move time as the session did; replayed as a script they reproduce
/// the simulation (S3, S4.1).
@Suite struct RecordTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-record-\(UUID().uuidString).dsh").path
    }

    @Test func aRecordingReplaysToTheSameMetrics() throws {
        let path = tempPath()
        let sink = MemorySink()
        let live = try Session(tools: [CounterTool.self], options: SessionOptions(), sink: sink)
        for line in [
            "counter tick --until 5", "animate 2s", "load gpu 20ms", "run 250ms", "alias st = stall %1",
            "st 120ms", "record \(path)", "step 2", "set counter.step 2", "scroll 300ms", "run 1.5s",
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
        // Aliases are expanded; `step` and `run` are written as the positions they reached: the
        // command typed after `step` follows `run through`, after that instant's events.
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            body == [
                "counter tick --until 5", "animate 2s", "load gpu 20ms", "run to 250ms", "stall 120ms",
                "run through 283.333333ms", "set counter.step 2", "scroll 300ms", "run to 1.783333333s",
                "display rate 120", "run to 2.283333333s",
            ])
    }

    /// A position reached without processing its instant again writes nothing; one that was
    /// processed again (a `run until` that holds at once) writes `run through` once more.
    @Test func positions() {
        let done = (time: SimTime(nanoseconds: 5), done: true, advances: 3)
        #expect(Recording.advance(from: done, to: done) == nil)
        #expect(Recording.advance(from: done, to: (done.time, true, 4)) == "run through 5ns")
        #expect(Recording.advance(from: (done.time, false, 3), to: (done.time, false, 4)) == nil)
        #expect(Recording.advance(from: (done.time, false, 3), to: done) == "run through 5ns")
        #expect(
            Recording.advance(from: done, to: (SimTime(nanoseconds: 9), false, 5)) == "run to 9ns")
    }

    @Test func recordingErrors() throws {
        try expectTranscript(
            """
            > record stop
            error: not recording
            > record a.dsh b.dsh
            error: usage: record <file.dsh> | record stop
            > record /no/such/folder/x.dsh
            error: cannot write '/no/such/folder/x.dsh': No such file or directory
            > play
            error: play needs the interactive session, where time can follow the wall clock; use 'run' here
            """)
    }

    @Test func playFollowsTheWallClockInSlices() throws {
        let session = try Session(tools: [], options: SessionOptions(), sink: MemorySink())
        session.supportsPlay = true
        #expect(session.runLine("play 2") == .finished)
        #expect(session.playTick(wallNanoseconds: 10_000_000))
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_000))
        #expect(session.runLine("play 0.5") == .finished)
        session.playTick(wallNanoseconds: 3)  // 1.5 ns: 1 now, the half carried
        session.playTick(wallNanoseconds: 1)  // 0.5 + 0.5 = 1
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_002))
        let sink = MemorySink()
        let s2 = try Session(tools: [], options: SessionOptions(), sink: sink)
        s2.supportsPlay = true
        _ = s2.runLine("play 0")
        #expect(sink.standardError == "error: play speed must be above 0 and at most 1000000 (got 0)\n")
        _ = session.runLine("pause")
        #expect(!session.playTick(wallNanoseconds: 1_000_000))
    }
}
