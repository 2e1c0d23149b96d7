import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

/// `import` from the shell: Instruments' own rows in, debugsh's readings out, and the round trips
/// of what debugsh writes (`fps frames --csv`, `trace save`) giving the simulation's numbers back.
@Suite struct ImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace").path

    /// A fresh folder for one test's files, removed when the test ends (`defer`).
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        return path.path
    }

    static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }

    /// The eleven rows of hitches.xml, read by hand: 216666666, 16666666, 200000000, 16666666 ×4,
    /// 16666791, 33333333, 16666708 and 50000000 ns — 616666828 ns in all, over the 36844539583
    /// ns from the trace's start to its last event: 616666828 × 1000 / 36844539583 = 16.7369… ms/s.
    /// At the 16.666667 ms the vsyncs kept: High for the three over 33.333334 ms, Moderate for
    /// 16666791, 33333333 and 16666708 (over one interval), Low for the four of 16666666.
    @Test func theFixturesReadAsInstrumentsWroteThem() throws {
        let (stdout, stderr, outcome) = try Transcript.run(
            """
            import xctrace \(Self.fixtures)
            get rec.hitches rec.hitch_time rec.hitch_ratio rec.worst_hitch rec.high_hitches rec.refresh_interval
            recording hitches --severity moderate
            expect rec.hitch_ratio < 17 and rec.hitches == 11
            """, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines[0]
                == "imported xctrace (\(Self.fixtures)): 12 frames, 11 hitches over 36.844539583s, 60 Hz (the median vsync gap), refresh interval 16.666667ms"
        )
        #expect(
            Array(lines.drop { !$0.hasPrefix("rec.hitches") }.prefix(10)) == [
                "rec.hitches = 11", "rec.hitch_time = 616.666828ms", "rec.hitch_ratio = 16.737",
                "rec.worst_hitch = 216.666666ms", "rec.high_hitches = 3", "rec.refresh_interval = 16.666667ms",
                "#   start          duration     intervals  severity  stage   description",
                "8   28.444527083s  16.666791ms  1.00       Moderate  commit  Potentially expensive app update(s)",
                "9   28.544527291s  33.333333ms  2.00       Moderate  commit  Potentially expensive app update(s)",
                "10  32.37786675s   16.666708ms  1.00       Moderate  commit  Potentially expensive app update(s)",
            ])
    }

    /// A bad file leaves the recording before it as it was: an import is all or nothing.
    @Test func aFailedImportKeepsTheRecordingBefore() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let bad = folder + "/bad.xml"
        try Data("<trace-query-result><node><schema name=\"hitches\">".utf8).write(to: URL(fileURLWithPath: bad))
        let (stdout, stderr, _) = try Transcript.run(
            """
            set shell.stop-on-error off
            import xctrace \(Self.fixtures)/hitches.xml
            import xctrace \(bad)
            get rec.hitches
            """, tools: BuiltInTools.all)
        #expect(stdout.hasSuffix("rec.hitches = 11\n"))
        #expect(stderr.hasPrefix("test.dsh:3: error: \(bad):1:50: truncated"), "\(stderr)")
    }

    /// `fps frames --csv` read back: the hitches and frame times the meter had.
    @Test(arguments: [
        "load gpu 20ms", "load frame 20ms", "load commit 12ms\nload frame 6ms\nload gpu 30ms",
    ])
    func framesCSVRoundTrip(load: String) throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let file = folder + "/frames.csv"
        let metrics = ["hitches", "hitch_time", "frame_p50", "frame_p95", "frame_p99"]
        let (stdout, stderr, outcome) = try Transcript.run(
            """
            fps start
            animate 2s
            \(load)
            run 2s
            fps frames --csv \(file)
            import csv \(file)
            get \(metrics.map { "fps.\($0)" }.joined(separator: " "))
            get \(metrics.map { "rec.\($0)" }.joined(separator: " "))
            """, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        let values = stdout.split(separator: "\n").filter { $0.hasPrefix("fps.") || $0.hasPrefix("rec.") }
            .map { String($0.split(separator: "=", maxSplits: 1)[1]) }
        #expect(values.count == 10)
        #expect(Array(values.prefix(5)) == Array(values.suffix(5)), "\(stdout)")
        #expect(values.first != " 0", "the scenario must hitch: \(stdout)")
    }

    /// `trace save` read back: the same hitches.
    @Test func chromeTraceRoundTrip() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let file = folder + "/t.json"
        let (stdout, stderr, outcome) = try Transcript.run(
            """
            fps start
            trace start
            animate 2s
            load gpu 20ms
            after 500ms stall 100ms --ui
            run 2s
            trace save \(file)
            import chrome \(file)
            get fps.hitches rec.hitches fps.hitch_time rec.hitch_time
            """, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        let values = stdout.split(separator: "\n").filter { $0.hasPrefix("fps.") || $0.hasPrefix("rec.") }
            .map { String($0.split(separator: "=", maxSplits: 1)[1]) }
        #expect(values.count == 4 && values[0] == values[1] && values[2] == values[3], "\(stdout)")
    }

    /// `record` keeps an import with its path made absolute.
    @Test func anImportIsRecorded() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let (_, stderr, _) = try Transcript.run(
            "record \(folder)/r.dsh\nimport xctrace \(Self.fixtures)/hitches.xml\nrecord stop", tools: BuiltInTools.all)
        #expect(stderr.isEmpty, "\(stderr)")
        let text = try String(contentsOfFile: folder + "/r.dsh", encoding: .utf8)
        #expect(text.contains("\nimport xctrace \(Self.fixtures)/hitches.xml\n"), "\(text)")
    }

    /// A 50 Hz display-link log, by hand: callbacks every 20 ms from 0 to 500 ms, then a gap (520
    /// and 540 ms dropped), then every 20 ms from 560 ms to 2 s — 99 callbacks. YYFPSLabel's last
    /// window is (1s, 2s]: 50 callbacks, 50 fps. GDPerformanceView counts [1s, 2s]: 51. Sentry: the
    /// one slow interval (60 ms × 49 > 1 s), 560 − 520 = 40 ms of delay. Matrix: round(60/20) − 1
    /// = 2 frames dropped, 40 ms. KMCGeigerCounter: one click (60 > 1.5 × 20), 50 drawn.
    @Test func theLabelsReadARecordedLinkLog() throws {
        let folder = try Self.folder()
        defer { Self.remove(folder) }
        let times = Array(stride(from: 0, through: 500, by: 20)) + Array(stride(from: 560, through: 2000, by: 20))
        var csv = "timestamp,targetTimestamp,duration\n"
        for t in times {
            csv += "\(Self.seconds(10_000 + t)),\(Self.seconds(10_000 + t + 20)),0.020\n"
        }
        let file = folder + "/link.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let (stdout, stderr, outcome) = try Transcript.run(
            "import csv \(file)\nfps compare --recording\nget rec.callbacks", tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("estimators on the recording's 99 display-link callbacks (display-link csv):"))
        #expect(lines.contains { $0.hasPrefix("YYFPSLabel ") && $0.contains(" 50 fps ") })
        #expect(lines.contains("                   over (1s, 2s]"))
        #expect(lines.contains { $0.hasPrefix("GDPerformanceView ") && $0.contains(" 51 fps ") })
        #expect(lines.contains { $0.hasPrefix("KMCGeigerCounter ") && $0.contains(" 50 drawn · 1 clicks ") })
        #expect(lines.contains { $0.hasPrefix("Sentry ") && $0.contains("delay 40ms · slow 1 · frozen 0") })
        #expect(lines.contains { $0.hasPrefix("Matrix ") && $0.contains("drop 40ms (2 frames)") })
        #expect(lines.last == "rec.callbacks = 99")
    }

    /// `10.02` for 10,020 ms: seconds as a CADisplayLink log writes them.
    static func seconds(_ ms: Int) -> String { "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())" }

    /// The labels need callbacks: a recording without them is refused, saying where they come from.
    @Test func theLabelsNeedCallbacks() throws {
        let (_, stderr, _) = try Transcript.run(
            "import xctrace \(Self.fixtures)/hitches.xml\nfps compare --recording", tools: BuiltInTools.all)
        #expect(
            stderr.hasSuffix(
                "test.dsh:2: error: the recording has no display-link callbacks: the FPS labels read callbacks "
                    + "(a display-link log, 'import csv', has them)\n"), "\(stderr)")
    }
}
