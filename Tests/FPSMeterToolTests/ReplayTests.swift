import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// `replay` (docs/Replay.md): a recording replayed on the simulated device reproduces it
/// (calibration), and a change to it gives the answer worked out by hand.
@Suite struct ReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace").path

    /// A frame log of `scenario` (run with the meter from t = 0), written by `fps frames --csv`.
    static func frameLog(_ scenario: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-\(name)-\(UUID().uuidString).csv"
        ).path
        let run = try meterSession("fps start\n" + scenario + "\nfps frames --csv \(path)")
        #expect(run.sink.standardError.isEmpty, "\(run.sink.standardError)")
        return path
    }

    /// Calibration on the repository's Instruments export: its 11 hitches, none with a frame of its
    /// own, each replayed as the least-cost frame that explains it — every one reproduced, to the
    /// hitch count, hitch time within a nanosecond a hitch, and Instruments' type.
    @Test func theFixtureIsReproduced() throws {
        let run = try meterSession("import xctrace \(Self.fixtures)\nreplay start\nreplay run")
        #expect(try run.value("replay.unreproduced") == "0")
        #expect(try run.value("replay.hitches") == "11")
        #expect(try run.value("rec.hitches") == "11")
        #expect(try run.value("replay.worst_hitch") == (try run.value("rec.worst_hitch")))
        #expect(try run.value("replay.high_hitches") == "3")
        let compare = run.output("replay compare")
        #expect(compare.contains("calibration: 11 of 11 recorded hitches reproduced"))
        // The metrics keep running totals; the comparison reads the analysis: the same numbers.
        func replayColumn(_ row: String) -> String? {
            compare.split(separator: "\n").first { $0.hasPrefix(row + "  ") }?
                .split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }
        #expect(replayColumn("hitch time") == (try run.value("replay.hitch_time")))
        #expect(replayColumn("worst hitch") == (try run.value("replay.worst_hitch")))
        #expect(replayColumn("High") == (try run.value("replay.high_hitches")))
        #expect(compare.contains("Potentially expensive app update(s)  10                     11"))
        // What the format lacks is said once, when the replay starts.
        let start = run.output("replay start")
        #expect(start.contains("note: this export has no per-phase costs"))
        #expect(start.contains("note: 11 hitches have no recorded frame"))
    }

    /// Calibration on frame logs of simulated scenarios (frames with every phase): the same
    /// hitches, each at the same start and length, the same presents and frame times, to the
    /// nanosecond — stalls, GPU-bound frames, a scroll's end, an animation that resumes after idle
    /// time, and random mixes of them.
    @Test(
        arguments: [
            "animate 3s\nload frame 10ms\nevery 400ms stall 45ms\nrun 3s",
            "animate 2s\nload gpu 20ms\nrun 2s",
            "scroll 2s\nload frame 6ms\nload commit 12ms\nafter 700ms stall 120ms\nrun 2500ms",
            "animate 1s\nload frame 30ms\nrun 1s\nrun 2s\nanimate 1s\nload frame 4ms\nrun 1s",
        ] + ReplayTests.randomScenarios(count: 8))
    func aFrameLogIsReproduced(_ scenario: String) throws {
        let path = try Self.frameLog(scenario, name: "calibration")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try meterSession("import csv \(path)\nreplay start\nreplay run")
        #expect(run.sink.standardError.isEmpty, "\(run.sink.standardError)")
        #expect(try run.value("replay.unreproduced") == "0", "\(scenario)")
        for (mine, theirs) in [
            ("replay.hitches", "rec.hitches"), ("replay.hitch_time", "rec.hitch_time"),
            ("replay.frames", "rec.frames"), ("replay.frame_p95", "rec.frame_p95"),
            ("replay.hitch_ratio", "rec.hitch_ratio"), ("replay.worst_hitch", "rec.worst_hitch"),
        ] {
            #expect(try run.value(mine) == (try run.value(theirs)), "\(mine) vs \(theirs) in \(scenario)")
        }
    }

    /// Scenarios of random animations, scrolls, per-frame loads and stalls (a fixed seed: the
    /// same scenarios every run).
    static func randomScenarios(count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        return (0..<count).map { _ in
            var lines = [next(2) == 0 ? "animate \(500 + next(2000))ms" : "scroll \(500 + next(2000))ms"]
            lines.append("load frame \(next(25))ms")
            if next(2) == 0 { lines.append("load commit \(next(12))ms") }
            if next(2) == 0 { lines.append("load gpu \(next(24))ms") }
            for _ in 0..<next(4) { lines.append("after \(next(2000))ms stall \(10 + next(200))ms") }
            lines.append("run \(600 + next(2500))ms")
            return lines.joined(separator: "\n")
        }
    }

    /// The worked example: 10 ms frames recorded at 60 Hz. At 60 Hz each commit ends 10 ms after
    /// its vsync, before the next: no frame is late. At 120 Hz (8.333 ms) every commit misses its
    /// render vsync: every frame is shown after its expected present (late frames = frames); the
    /// app makes a frame every 10 ms (100 a second) on a 120 Hz display, so R4 counts a hitch each
    /// time the display gets a vsync ahead: one frame in five, 20 of one refresh interval over the
    /// recorded second, and the rest late only because the one before was (R9's stuffed).
    @Test func tenMillisecondFramesHitchAt120HzNotAt60() throws {
        let path = try Self.frameLog("animate 1s\nload frame 10ms\nrun 1s", name: "ten")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let same = try meterSession("import csv \(path)\nreplay start\nreplay run")
        #expect(try same.value("rec.frames") == "58")
        #expect(try same.value("replay.frames") == "58")
        #expect(try same.value("replay.hitches") == "0")
        let fast = try meterSession("import csv \(path)\nreplay start\ndisplay rate 120\nfps start\nreplay run")
        // 97 animation frames, and the meter's label's own commit at its window's end (F3), a
        // present that does not count for hitches.
        #expect(try fast.value("replay.frames") == "98")
        #expect(try fast.value("replay.hitches") == "20")
        #expect(try fast.value("replay.hitch_time") == "166.666661ms")
        #expect(try fast.value("replay.worst_hitch") == "8.333334ms")
        // The meter's own count of the same frames agrees (two ways to the same number).
        #expect(try fast.value("fps.hitches") == "20")
        let compare = fast.output("replay compare")
        #expect(compare.contains("changes: display 120 Hz (recorded 60 Hz)"))
        #expect(compare.contains("late frames                          0              97"))
    }

    /// Changes to the frames: halving the update or moving it off the main thread removes hitches;
    /// a stretch limits a change; several at once are allowed and each is said.
    @Test func changesToTheFrames() throws {
        let base = "import xctrace \(Self.fixtures)\n"
        let moved = try meterSession(base + "replay start --move main=background\nreplay run")
        #expect(try moved.value("replay.hitches") == "0")
        let capped = try meterSession(base + "replay start --cap main=8ms --from 18s --to 19s\nreplay run")
        // The two hitches at 18.69 s and 18.91 s go; the other nine stay.
        #expect(try capped.value("replay.hitches") == "9")
        let both = try meterSession(base + "replay start --scale update=0.5 --without-label 1ms")
        let said = both.output("replay")
        #expect(said.contains("change     update × 0.5"))
        #expect(said.contains("change     the FPS label's 1ms a frame taken out"))
    }

    @Test func badInputIsAClearError() throws {
        let none = try meterSession("")
        #expect(
            none.output("replay start")
                == "error: no recording to replay: 'import xctrace|csv|chrome <file>' reads one\n")
        #expect(none.output("replay run") == "error: no replay: 'replay start' starts one\n")
        let run = try meterSession("import xctrace \(Self.fixtures)")
        #expect(
            run.output("replay start --scale layout=0.5").hasPrefix(
                "error: --scale layout: a recording gives a frame's update, commit and render, not its layout"))
        #expect(run.output("replay start --scale update=-1").contains("a factor is a number from 0 to 1000"))
        #expect(run.output("replay start --move render=background").contains("unknown stage 'render'"))
        #expect(run.output("replay start --cap update").contains("expected PHASE=VALUE"))
        #expect(run.output("replay start --from 2s --to 1s").contains("is not after --from"))
        // Nothing was started by the failed lines.
        #expect(run.output("replay") == "no replay ('replay start' replays the imported recording)\n")
    }

    /// A `reset` keeps the recording, so the log that starts after it (`record`) reads it again
    /// first; `replay start` (a reset) logs only itself after that.
    @Test func aRecordingAfterAResetReadsTheImportAgain() throws {
        func log(_ script: String) throws -> [Substring] {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "replay-log-\(UUID().uuidString).dsh"
            ).path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try meterSession("import xctrace \(Self.fixtures)\nrecord \(path)\n" + script)
            #expect(run.sink.standardError.isEmpty, "\(run.sink.standardError)")
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter {
                !$0.hasPrefix("#")
            }
        }
        // After a plain reset the log starts by reading the recording (it was lost before).
        let afterReset = try log("reset\nrun 1s\nget rec.hitches")
        #expect(afterReset.first == "import xctrace \(Self.fixtures)", "\(afterReset)")
        #expect(afterReset.contains("get rec.hitches"), "\(afterReset)")
        // `replay start` reads it once, not twice.
        let afterReplay = try log("replay start --cap main=8ms\nget replay.hitches")
        #expect(afterReplay.filter { $0.hasPrefix("import") } == ["import xctrace \(Self.fixtures)"], "\(afterReplay)")
        #expect(afterReplay.contains("replay start --cap main=8ms"), "\(afterReplay)")
    }

    /// `reset` and `recording close` end a replay; its metrics then have no value.
    @Test func aReplayEndsWithTheSimulation() throws {
        let run = try meterSession("import xctrace \(Self.fixtures)\nreplay start\nrun 6s")
        #expect(try run.value("replay.hitches") == "1")
        run.type("reset")
        #expect(try run.value("replay.hitches") == "none")
        run.type("replay start")
        run.type("recording close")
        #expect(run.output("replay compare") == "error: no replay: 'replay start' starts one\n")
    }
}
