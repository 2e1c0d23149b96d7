import DebugShell
import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// `fps plot --recording`: the frame chart drawn from an imported recording. The counts are
/// worked out by hand from Tests/Fixtures/xctrace (the values XCTraceFixtureTests reads from the
/// XML), and a simulated scenario's frame log read back gives the meter's own frame times.
@Suite struct RecordingPlotTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace").path

    /// The JSON result of `command` after importing the fixtures' folder.
    func fixtureResult(_ command: String) throws -> [String: Any] {
        let run = try meterSession("import xctrace \(Self.fixtures)")
        return try result(run, command)
    }

    /// The folder, by hand: displayed-surfaces-interval has 12 presents, 481099833 to 664433125
    /// ns, so 11 frame times (16666708, 16666625, 16666667, 16666667, 16666666, 16666667,
    /// 16666625, 16666750, 16666625, 16666667, 16666625 ns). hitches.xml's 11 rows: 10 described
    /// `Potentially expensive app update(s)` (commit), one empty (unknown), none render; their swap
    /// ids (769456…771906) are none of the frames' (4685385…4685396) and they end from
    /// 4961155833 + 216666666 ns on, long after the last present: none lands on a present. The
    /// span is 0 to 36844539583 ns: 36 whole seconds and a last window of 0.84 s, 37 windows; no
    /// display-link callbacks, no reading.
    @Test func theFixturesCountAsWorkedOutByHand() throws {
        let plot = try fixtureResult("fps plot --recording")
        #expect(plot["recording"] as? String == "xctrace")
        #expect(plot["from_ns"] as? Int == 0 && plot["to_ns"] as? Int == 36_844_539_583)
        #expect(plot["presents"] as? Int == 12)
        #expect(plot["frame_times"] as? Int == 11 && plot["callback_intervals"] as? Int == 0)
        let hitches = try #require(plot["hitches"] as? [String: Any])
        #expect(hitches["commit"] as? Int == 10 && hitches["render"] as? Int == 0 && hitches["unknown"] as? Int == 1)
        #expect(plot["hitches_on_presents"] as? Int == 0)
        #expect(plot["windows"] as? Int == 37 && plot["reading_windows"] as? Int == 0)
        #expect(plot["tracking_spans"] as? Int == 0)
        // The shape docs/FPSMeter.md gives.
        #expect(
            Set(plot.keys) == [
                "from_ns", "to_ns", "recording", "presents", "frame_times", "callback_intervals", "hitches",
                "hitches_on_presents", "windows", "reading_windows", "tracking_spans", "file", "bytes", "columns",
            ])

        // The frame times themselves, from the recording as the plugin reads it.
        let timeline = try XCTraceImport.read([Self.fixtures])
        let recorded = RecordingPlot(timeline)
        #expect(
            recorded.bars.map(\.interval) == [
                16_666_708, 16_666_625, 16_666_667, 16_666_667, 16_666_666, 16_666_667, 16_666_625, 16_666_750,
                16_666_625, 16_666_667, 16_666_625,
            ])
        #expect(recorded.bars.allSatisfy { $0.late == nil })
        // The first window, (0, 1s], holds all 12 presents; the rest none.
        #expect(recorded.presented.first.map { $0.value } == 12)
        #expect(recorded.presented.dropFirst().allSatisfy { $0.value == 0 })
    }

    /// --from and --to choose within the span: the presents alone (0.4 to 0.7 s), or the four
    /// hitches that end from 5 s to 20 s (at 5.177822499, 13.977836582, 18.894511166 and
    /// 18.927844541 s) and the 15 windows over them.
    @Test func fromAndToChooseWithinTheRecording() throws {
        let presents = try fixtureResult("fps plot --recording --from 400ms --to 700ms")
        #expect(presents["presents"] as? Int == 12 && presents["frame_times"] as? Int == 11)
        #expect((presents["hitches"] as? [String: Any])?["commit"] as? Int == 0)
        #expect(presents["windows"] as? Int == 1)
        let hitches = try fixtureResult("fps plot --recording --from 5s --to 20s")
        #expect(hitches["presents"] as? Int == 0 && hitches["frame_times"] as? Int == 0)
        let byStage = try #require(hitches["hitches"] as? [String: Any])
        #expect(byStage["commit"] as? Int == 4 && byStage["unknown"] as? Int == 0)
        #expect(hitches["windows"] as? Int == 15)
        // --to past the end stops at it.
        let late = try fixtureResult("fps plot --recording --from 36s --to 100s")
        #expect(late["to_ns"] as? Int == 36_844_539_583)
    }

    /// The SVG: 11 bars on time, 10 commit crosses and 1 unknown for the hitches with no present,
    /// the title saying it is the recording; it renders.
    @Test func theSVGDrawsTheBarsAndTheHitches() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("recording.svg").path
        let run = try meterSession("import xctrace \(Self.fixtures)")
        let output = run.output("fps plot --recording \(path)")
        #expect(
            output
                == "wrote \(path) (\(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) bytes): "
                + "recording (xctrace): 12 presents, 11 frame times, 11 hitches (commit 10, render 0, unknown 1; "
                + "0 on a present), 37 windows, from 0s to 36.844539583s\n")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try SVGCheck.parseXML(svg).root == "{http://www.w3.org/2000/svg}svg")
        _ = try SVGCheck.renderPNG(svg)
        let chart = SVGChart(svg)
        #expect(chart.title == "fps plot --recording (xctrace): 0s to 36.844539583s at 60 Hz")
        func drawn(_ name: String, _ color: RGB) -> Int {
            chart.elements.count { $0.name == name && $0.attributes["fill"] == nil && $0["fill"] == hex(color) }
        }
        #expect(drawn("rect", FPSMeter.onTimeColor) == 11)
        #expect(drawn("circle", RecordedStage.commit.color) == 10)
        #expect(drawn("circle", RecordedStage.unknown.color) == 1)
        #expect(chart.texts("commit hitch with no present: its length").count == 1)
        #expect(chart.texts("frames presented per second").count == 1)
        #expect(chart.texts("1× budget 16.667ms").count == 1)
    }

    /// A display-link log has no frames: its callbacks' intervals are the bars, and YYFPSLabel's
    /// reading the line. By hand: callbacks every 20 ms from 0 to 500 ms, then 560 ms to 2 s —
    /// 98 intervals, one of 60 ms; the label's windows close at 1 s (50 callbacks after the first,
    /// 48 of them as 520 and 540 ms are missing: round(48 / 1 s) = 48) and at 2 s (50).
    @Test func aDisplayLinkLogPlotsItsCallbacks() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let times = Array(stride(from: 0, through: 500, by: 20)) + Array(stride(from: 560, through: 2000, by: 20))
        var csv = "timestamp,targetTimestamp,duration\n"
        for t in times {
            let ms = 10_000 + t
            csv += "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst()),,0.020\n"
        }
        let file = dir.appendingPathComponent("link.csv").path
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let run = try meterSession("import csv \(file)")
        let plot = try result(run, "fps plot --recording")
        #expect(plot["callback_intervals"] as? Int == 98 && plot["frame_times"] as? Int == 0)
        #expect(plot["presents"] as? Int == 0 && plot["windows"] as? Int == 0)
        #expect(plot["reading_windows"] as? Int == 2 && plot["hitches"] is NSNull)
        let timeline = try CSVImport.read(file, interrupted: { false })
        let recorded = RecordingPlot(timeline)
        #expect(recorded.framesAreCallbacks)
        #expect(recorded.bars.count { $0.interval == 60_000_000 } == 1)
        #expect(recorded.bars.count { $0.interval == 20_000_000 } == 97)
        #expect(recorded.readings.map(\.value) == [48, 50])
        let text = run.output("fps plot --recording --width 80")
        #expect(text.contains("display-link callback interval (ms)"), "\(text)")
        #expect(
            text.hasSuffix(
                "recording (display-link csv): no frames: the bars are 98 display-link callback\n"
                    + "intervals, no hitch list, 2 windows of the label's reading, from 0s to 2s\n"), "\(text)")
        #expect(text.contains("a display-link log has no frames: the bars are its callbacks' intervals"))
    }

    /// A simulated scenario's frame log read back: the same presents, frame times and hitches by
    /// cause over the same range as the meter's own chart. The one honest difference: a
    /// recording reads `both` as render (docs/Import.md, "Stage"), so the meter's render and
    /// both hitches are the recording's render ones.
    @Test(arguments: [
        "run 1s\nload gpu 20ms\nrun 500ms\nload gpu 0ms\nstall 100ms --ui\nrun 1500ms",
        "load commit 12ms\nload frame 6ms\nload gpu 30ms\nrun 2s",
    ])
    func aFrameLogReadBackPlotsAsTheMeterDid(_ scenario: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frames.csv").path
        let run = try meterSession("fps start\nanimate 10s\n\(scenario)\nfps frames --csv \(file)\nimport csv \(file)")
        let range = "--from 200ms --to 1900ms"
        let meter = try result(run, "fps plot \(range)")
        let recording = try result(run, "fps plot --recording \(range)")
        #expect(recording["from_ns"] as? Int == meter["from_ns"] as? Int)
        #expect(recording["to_ns"] as? Int == meter["to_ns"] as? Int)
        #expect(recording["presents"] as? Int == meter["presents"] as? Int)
        #expect(recording["frame_times"] as? Int == meter["frame_times"] as? Int)
        let simulated = try #require(meter["hitches"] as? [String: Any])
        let recorded = try #require(recording["hitches"] as? [String: Any])
        let commit = simulated["commit"] as? Int ?? -1
        let render = (simulated["render"] as? Int ?? -1) + (simulated["both"] as? Int ?? -1)
        #expect(commit + render > 0, "the scenario must hitch")
        #expect(recorded["commit"] as? Int == commit && recorded["render"] as? Int == render)
        #expect(recorded["unknown"] as? Int == 0)
        #expect(recording["hitches_on_presents"] as? Int == commit + render)

        // The frame times themselves, bar by bar, and each hitch on its present.
        let timeline = try CSVImport.read(file, interrupted: { false })
        let plot = RecordingPlot(timeline)
        let from = SimTime(nanoseconds: 200_000_000)
        let to = SimTime(nanoseconds: 1_900_000_000)
        let meterBars = try run.meter.frames.elements.filter {
            $0.counted && $0.interval > 0 && $0.present >= from && $0.present <= to
        }
        let recordedBars = plot.bars.filter { $0.present >= from && $0.present <= to }
        #expect(recordedBars.map(\.present) == meterBars.map(\.present))
        #expect(recordedBars.map(\.interval) == meterBars.map(\.interval))
        let stages = RecordedStage.allCases
        #expect(
            recordedBars.map { $0.late.map { stages[$0].rawValue } }
                == meterBars.map { f in f.hitch > 0 ? (f.cause == .commit ? "commit" : "render") : nil })
    }

    /// The plugin reads a hitch's stage as the import does (TimelineAnalysis.Stage), which it
    /// cannot see.
    @Test(arguments: [
        "Potentially expensive app update(s)", "Pre-Commit(s) latency", "Expensive Commit(s)", "commit", "render",
        "both", "Commit to Render latency", "Expensive GPU work", "Offscreen passes", "", "Something else",
        "COMMIT", "Render server",
    ])
    func theStageIsReadAsTheImportReadsIt(_ description: String) {
        #expect(RecordedStage(description).rawValue == TimelineAnalysis.Stage.of(description).rawValue)
    }

    /// Errors: no recording; a range outside it or with nothing in it; a recording with nothing
    /// to draw. The meter need not have been started.
    @Test func errorsSayWhatIsMissing() throws {
        try expectTranscript(
            """
            > fps plot --recording
            error: no recording: 'import xctrace|csv|chrome <file>' reads one
            """)
        let run = try meterSession("import xctrace \(Self.fixtures)/device-display-info.xml")
        #expect(
            run.output("fps plot --recording")
                == "error: nothing to plot: the recording (xctrace) has no frames, no display-link callbacks and no hitches\n"
        )
        // hitches.xml alone: hitches and nothing else, none from 1 s to 2 s.
        run.type("import xctrace \(Self.fixtures)/hitches.xml")
        #expect(
            run.output("fps plot --recording --from 1s --to 2s")
                == "error: nothing to plot between 1s and 2s: no frame time, hitch or window of the recording there\n")
        #expect(try result(run, "fps plot --recording")["presents"] as? Int == 0)
        run.type("import xctrace \(Self.fixtures)")
        #expect(
            run.output("fps plot --recording --from 40s")
                == "error: nothing to plot from 40s: the recording ends at 36.844539583s\n")
        #expect(run.output("fps plot --recording --from 2s --to 1s") == "error: --from 2s is not before --to 1s\n")
        #expect(
            run.output("fps plot --recording x.svg --width 50")
                == "error: --width and --height size the chart in the terminal; an SVG file scales\n")
        // The meter's own plot still needs the meter.
        #expect(run.output("fps plot") == "error: the meter has not been started; start it with 'fps start'\n")
    }
}
