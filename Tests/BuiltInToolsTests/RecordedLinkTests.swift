import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

/// `timer show --recording`: a recorded display link's cadence and lateness, on logs written by
/// hand, and its errors.
@Suite struct RecordedLinkTests {
    /// The 50 Hz log of `theLabelsReadARecordedLinkLog`: callbacks every 20 ms from 0 to 500 ms,
    /// then a gap (520 and 540 ms missing), then every 20 ms from 560 ms to 2 s — 99 callbacks.
    static let times = Array(stride(from: 0, through: 500, by: 20)) + Array(stride(from: 560, through: 2000, by: 20))

    /// Writes the log, with `targetTimestamp` and `duration` or with `timestamp` alone, and
    /// runs `commands` after importing it.
    static func run(_ commands: String, full: Bool, json: Bool = false) throws -> (
        stdout: String, stderr: String, outcome: ScriptOutcome
    ) {
        let folder = try ImportTests.folder()
        defer { ImportTests.remove(folder) }
        var csv = full ? "timestamp,targetTimestamp,duration\n" : "timestamp\n"
        for t in times {
            csv +=
                full
                ? "\(ImportTests.seconds(10_000 + t)),\(ImportTests.seconds(10_000 + t + 20)),0.020\n"
                : "\(ImportTests.seconds(10_000 + t))\n"
        }
        let file = folder + "/link.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        return try Transcript.run(
            "import csv \(file)\n" + commands, tools: BuiltInTools.all, options: SessionOptions(json: json))
    }

    /// By hand: 99 fires; the callback at 560 ms was due at 520 ms (the target of the one at
    /// 500 ms): 40 ms late, round(40 / 20) = 2 vsyncs skipped; every other one is on time. Of the
    /// 98 intervals, 97 are one link interval (20 ms) and one spans three (60 ms); the median is
    /// 20 ms.
    @Test func aFiftyHertzLogWithTargets() throws {
        let (stdout, stderr, outcome) = try Self.run("timer show --recording --last 74", full: true)
        #expect(outcome == .finished, "\(stderr)")
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .drop { !$0.hasPrefix("recording:") }
        #expect(
            Array(lines.prefix(10)) == [
                "recording: displaylink, 99 callbacks, 0s to 2s, every 20ms (50 Hz, target − timestamp)",
                "display: refresh 20ms (50 Hz, as the file declares)",
                "fires 99 · skipped 2 · max late 40ms",
                "cadence: 1×: 97 · 2×: 0 · 3+×: 1 · median 20ms",
                "late: timestamp − due (previous target); when callbacks ran is not recorded",
                "the last 74 of 99 callbacks; --last n shows more",
                "#   timestamp  target  interval  late  skipped",
                "26  500ms      520ms   20ms      0s    0",
                "27  560ms      580ms   60ms      40ms  2",
                "28  580ms      600ms   20ms      0s    0",
            ], "\(stdout)")
        #expect(lines.last { !$0.isEmpty } == "99  2s         2.02s   20ms      0s    0")
    }

    /// Without targets or durations the due vsync is the previous timestamp + the refresh
    /// interval, which the import read from the median gap (20 ms): the same lateness.
    @Test func aFiftyHertzLogOfTimestampsAlone() throws {
        let (stdout, stderr, outcome) = try Self.run("timer show --recording --last 73", full: false)
        #expect(outcome == .finished, "\(stderr)")
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .drop { !$0.hasPrefix("recording:") }
        #expect(
            Array(lines.prefix(9)) == [
                "recording: displaylink, 99 callbacks, 0s to 2s, every 20ms (50 Hz, the refresh interval)",
                "display: refresh 20ms (50 Hz, the median vsync gap)",
                "fires 99 · skipped 2 · max late 40ms",
                "cadence: 1×: 97 · 2×: 0 · 3+×: 1 · median 20ms",
                "late: timestamp − due (previous timestamp + refresh interval); when callbacks ran is not recorded",
                "the last 73 of 99 callbacks; --last n shows more",
                "#   timestamp  target  interval  late  skipped",
                "27  560ms      -       60ms      40ms  2",
                "28  580ms      -       20ms      0s    0",
            ], "\(stdout)")
    }

    /// The JSON carries the same numbers, in nanoseconds.
    @Test func theJSONHasTheSameNumbers() throws {
        let (stdout, stderr, _) = try Self.run("timer show --recording --last 73", full: true, json: true)
        let line = try #require(stdout.split(separator: "\n").last { $0.contains("\"timer show --recording") })
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(stderr)")
        let result = try #require(object["result"] as? [String: Any])
        #expect(result["fires"] as? Int == 99)
        #expect(result["skipped"] as? Int == 2)
        #expect(result["max_late_ns"] as? Int == 40_000_000)
        let cadence = try #require(result["cadence"] as? [String: Any])
        #expect(cadence["once"] as? Int == 97 && cadence["twice"] as? Int == 0 && cadence["more"] as? Int == 1)
        #expect(cadence["median_interval_ns"] as? Int == 20_000_000)
        let recording = try #require(result["recording"] as? [String: Any])
        #expect(recording["interval_ns"] as? Int == 20_000_000 && recording["interval_source"] as? String == "target")
        let first = try #require((result["callbacks"] as? [[String: Any]])?.first)
        #expect(first["n"] as? Int == 27 && first["due_ns"] as? Int == 520_000_000)
        #expect(first["lateness_ns"] as? Int == 40_000_000 && first["skipped"] as? Int == 2)
    }

    @Test func withoutARecordingItSaysWhereCallbacksComeFrom() throws {
        let (_, stderr, _) = try Transcript.run("timer show --recording", tools: BuiltInTools.all)
        #expect(
            stderr.hasSuffix(
                "test.dsh:1: error: no recording: timer show --recording reads a recording's display-link callbacks "
                    + "(a display-link log, 'import csv', has them)\n"), "\(stderr)")
    }

    @Test func aRecordingWithoutCallbacksIsRefused() throws {
        let (_, stderr, _) = try Transcript.run(
            "import xctrace \(ImportTests.fixtures)/hitches.xml\ntimer show --recording", tools: BuiltInTools.all)
        #expect(
            stderr.hasSuffix(
                "test.dsh:2: error: the recording has no display-link callbacks: timer show --recording reads "
                    + "callbacks (a display-link log, 'import csv', has them)\n"), "\(stderr)")
    }

    @Test func aNameAndRecordingAreNotBothGivenNorNeither() throws {
        let (_, stderr, _) = try Transcript.run(
            "set shell.stop-on-error off\ntimer displaylink d\ntimer show d --recording\ntimer show",
            tools: BuiltInTools.all)
        #expect(
            stderr
                == "test.dsh:3: error: give a timer's name or --recording, not both: 'd' is an app timer, "
                + "--recording the imported display-link log\n"
                + "test.dsh:4: error: timer show needs a timer's name (see 'timer list'), or --recording for the "
                + "imported display-link log\n")
    }
}
