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
        session.time.supportsPlay = true
        #expect(session.runLine("play 2") == .finished)
        #expect(session.time.playTick(wallNanoseconds: 10_000_000))
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_000))
        #expect(session.runLine("play 0.5") == .finished)
        session.time.playTick(wallNanoseconds: 3)  // 1.5 ns: 1 now, the half carried
        session.time.playTick(wallNanoseconds: 1)  // 0.5 + 0.5 = 1
        #expect(session.engine.now == SimTime(nanoseconds: 20_000_002))
        let sink = MemorySink()
        let s2 = try Session(tools: [], options: SessionOptions(), sink: sink)
        s2.time.supportsPlay = true
        _ = s2.runLine("play 0")
        #expect(sink.standardError == "error: play speed must be above 0 and at most 1000000 (got 0)\n")
        _ = session.runLine("pause")
        #expect(!session.time.playTick(wallNanoseconds: 1_000_000))
    }

    /// A script's recording is written when the log has grown by half since the last write, so
    /// that recording n commands costs O(n) in all: 20,000 commands write the file a few dozen
    /// times at most, not once per command (counted, not timed).
    @Test func aScriptsRecordingIsWrittenLogarithmicallyOften() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try Session(tools: [], options: SessionOptions(), sink: MemorySink())
        var script = "record \(path)\n"
        for k in 0..<20_000 { script += k % 10 == 0 ? "run 1ms\n" : "load gpu \(k % 7)ms\n" }
        #expect(session.runScript(script, origin: ScriptOrigin(name: "s.dsh")) == .finished)
        #expect(session.recorder.writes >= 5 && session.recorder.writes <= 30, "\(session.recorder.writes) writes")
        session.recorder.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("load gpu") }.count == 18_000)
    }
}

/// A tool whose command shares the prefix `stal` with the built-in `stall`: a plugin loaded
/// after a session typed `stal …`.
final class StalkerTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "stalker", abstract: "Shares a prefix with 'stall', to test recordings.",
        commands: [CommandSpec("stalker", abstract: "Does nothing.", examples: [Example("> stalker")])])

    init(host: any ToolHost) {}

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }

    func metric(_ name: String) -> MetricValue? { nil }
}

/// Issue 26: a recording replays exactly whatever the replay has loaded and wherever it is.
@Suite struct RecordExactTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-record-\(UUID().uuidString).dsh").path
    }

    /// Runs `lines` in a live session (recording to a file), replays the file in a fresh session
    /// with `replayTools`, and checks every metric; returns the recording's text.
    @discardableResult
    func expectReplay(
        _ lines: [String], tools: [any DebugTool.Type] = [CounterTool.self],
        addingLater: [any DebugTool.Type] = [], replayTools: [any DebugTool.Type]? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> String {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = MemorySink()
        let live = try Session(tools: tools, options: SessionOptions(), sink: sink)
        #expect(live.runLine("record \(path)") == .finished, sourceLocation: sourceLocation)
        for line in lines {
            if line == "<add tools>" {
                try live.addTools(addingLater)
                continue
            }
            #expect(live.runLine(line) == .finished, "\(line): \(sink.standardError)", sourceLocation: sourceLocation)
        }
        #expect(live.runLine("record stop") == .finished, sourceLocation: sourceLocation)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let replaySink = MemorySink()
        let replay = try Session(tools: replayTools ?? tools, options: SessionOptions(), sink: replaySink)
        #expect(
            replay.runScript(text, origin: ScriptOrigin(name: "r.dsh")) == .finished,
            "\(replaySink.standardError)\n\(text)", sourceLocation: sourceLocation)
        #expect(replaySink.standardError.isEmpty, "\(replaySink.standardError)", sourceLocation: sourceLocation)
        for metric in live.allMetricNames() {
            #expect(
                replay.metricValueOrNone(metric) == live.metricValueOrNone(metric), "\(metric)\n\(text)",
                sourceLocation: sourceLocation)
        }
        return text
    }

    /// Issue 26 point 4: an alias inside a scheduled command is written expanded; it used to be
    /// written as typed, and the replay, which has no aliases, ran `history` (the unique prefix
    /// of `hi`) silently instead.
    @Test func aScheduledAliasIsWrittenExpanded() throws {
        let text = try expectReplay([
            "alias hi = stall %1", "alias later = after 5ms hi 30ms", "later", "every 10ms --times 2 hi 4ms",
            "at 50ms after 1ms hi 2ms", "run 100ms",
        ])
        #expect(text.contains("\nafter 5ms stall 30ms\n"), "\(text)")
        #expect(text.contains("\nevery 10ms --times 2 stall 4ms\n"), "\(text)")
        #expect(text.contains("\nat 50ms after 1ms stall 2ms\n"), "\(text)")
    }

    /// Issue 26 point 5: commands are written with their names in full, so a plugin the replay
    /// loads first (here a tool added after the commands were typed) cannot make them
    /// ambiguous; it used to stop with "ambiguous command 'stal'".
    @Test func namesAreWrittenInFull() throws {
        let text = try expectReplay(
            [
                "stal 20ms", "aft 5ms stal 10ms", "ev 2ms --times 1 aft 1ms stal 1ms", "run 10ms", "<add tools>",
                "run 100ms",
            ],
            tools: [], addingLater: [StalkerTool.self], replayTools: [StalkerTool.self])
        #expect(
            text.contains("\nstall 20ms\nafter 5ms stall 10ms\nevery 2ms --times 1 after 1ms stall 1ms\n"), "\(text)")
    }

    /// An abbreviation met twice in one scheduled chain is no alias loop: `ev` and `burst` in the
    /// third command were written as typed (the fuzz's seed 3, script 47), and the replay, which
    /// has no aliases, said "unknown command 'burst'".
    @Test func anAbbreviationTwiceInAChainIsExpandedPastIt() throws {
        let text = try expectReplay([
            "alias burst = stall %1", "at 20ms ev 7ms --times 1 ev 24ms --times 2 burst 2ms", "run 100ms",
        ])
        #expect(text.contains("\nat 20ms every 7ms --times 1 every 24ms --times 2 stall 2ms\n"), "\(text)")
    }

    /// Issue 26 point 7: a scheduled `source` is written with the file's absolute path (resolved
    /// against the folder of the script that scheduled it, as the session read it), so the
    /// recording replays from any folder.
    @Test func aScheduledSourceNamesItsFileAbsolutely() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-src-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "stall 40ms\n".write(to: dir.appendingPathComponent("inc.dsh"), atomically: true, encoding: .utf8)
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let live = try Session(tools: [], options: SessionOptions(), sink: MemorySink())
        let script = "record \(path)\nafter 5ms source inc.dsh\nrun 100ms\nrecord stop\n"
        #expect(live.runScript(script, origin: ScriptOrigin(name: "main.dsh", directory: dir.path)) == .finished)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\nafter 5ms source \(dir.path)/inc.dsh\n"), "\(text)")
        let replaySink = MemorySink()
        let replay = try Session(tools: [], options: SessionOptions(), sink: replaySink)
        #expect(replay.runScript(text, origin: ScriptOrigin(name: "r.dsh")) == .finished, "\(replaySink.standardError)")
        #expect(replay.metricValueOrNone("main.busy_until") == live.metricValueOrNone("main.busy_until"))
        #expect(live.metricValueOrNone("main.busy_until") == .time(SimTime(nanoseconds: 45_000_000)))
    }

    /// Issue 26 point 8: once the file cannot be written, that is said once and recording stops;
    /// it used to rewrite the whole log after every later command, warning each time.
    @Test func aWriteFailureIsReportedOnceAndRecordingStops() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-gone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("r.dsh").path
        let sink = MemorySink()
        let live = try Session(tools: [], options: SessionOptions(), sink: sink)
        #expect(live.runLine("record \(path)") == .finished)
        try FileManager.default.removeItem(at: dir)
        for _ in 0..<200 { #expect(live.runLine("stall 1ms") == .finished) }
        #expect(
            sink.standardError
                == "warning: record: cannot write '\(path)': No such file or directory: recording to \(path) stopped ('record <file>' writes the session again from its start)\n"
        )
        #expect(live.recorder.path == nil)
    }
}
