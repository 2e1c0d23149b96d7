import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// `fps plot --compare`: the imported recording's frame chart over the meter's (a replay's), on
/// one time axis and one y scale. Each side is exactly what `fps plot --recording` and `fps plot`
/// draw: the JSON of each side is theirs, and the SVG's bars and lines are counted per panel.
@Suite struct ComparePlotTests {
    static let fixtures = RecordingPlotTests.fixtures

    /// The worked what-if of docs/Replay.md: a frame log of 10 ms frames at 60 Hz (58 presents,
    /// 57 frame times, no hitch), replayed at 120 Hz: 98 presents, 96 frame times, 20 commit
    /// hitches (one frame in five).
    func tenMillisecondReplay(_ dir: URL) throws -> MeterRun {
        let log = dir.appendingPathComponent("frames.csv").path
        return try meterSession(
            """
            fps start
            animate 1s
            load frame 10ms
            run 1s
            fps frames --csv \(log)
            import csv \(log)
            replay start
            display rate 120
            fps start
            replay run
            """)
    }

    /// `result` without the output's own fields (file, bytes, columns).
    func dataFields(_ result: [String: Any]) -> NSDictionary {
        NSDictionary(dictionary: result.filter { !["file", "bytes", "columns"].contains($0.key) })
    }

    @Test func eachSideIsWhatItsOwnPlotReads() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try tenMillisecondReplay(dir)
        let compare = try result(run, "fps plot --compare")
        #expect(Set(compare.keys) == ["recording", "simulation", "file", "bytes", "columns"])
        let recording = try #require(compare["recording"] as? [String: Any])
        let simulation = try #require(compare["simulation"] as? [String: Any])
        #expect(NSDictionary(dictionary: recording) == dataFields(try result(run, "fps plot --recording")))
        #expect(NSDictionary(dictionary: simulation) == dataFields(try result(run, "fps plot")))
        #expect(recording["presents"] as? Int == 58 && recording["frame_times"] as? Int == 57)
        #expect(simulation["presents"] as? Int == 98 && simulation["frame_times"] as? Int == 96)
        #expect((simulation["hitches"] as? [String: Any])?["commit"] as? Int == 20)
        #expect((recording["hitches"] as? [String: Any])?["commit"] as? Int == 0)
        #expect(compare["columns"] as? Int == 80)

        // --from and --to apply to both, each in its own time.
        let part = try result(run, "fps plot --compare --from 200ms --to 800ms")
        for side in ["recording", "simulation"] {
            let fields = try #require(part[side] as? [String: Any])
            #expect(fields["from_ns"] as? Int == 200_000_000 && fields["to_ns"] as? Int == 800_000_000, "\(side)")
        }
    }

    /// The SVG: three panels, the two frame-time ones labelled and on the same ticks; 57 bars
    /// on time in the recording's, 77 on time and 19 commit hitches in the simulation's (its
    /// 20th hitch is its first present, which has no frame time: no bar, as in `fps plot`); one
    /// window of frames presented from each source in the lines panel; shared legend entries once.
    @Test func theSVGStacksTheRecordingOverTheSimulation() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try tenMillisecondReplay(dir)
        let path = dir.appendingPathComponent("compare.svg").path
        let output = run.output("fps plot --compare \(path)")
        #expect(output.hasPrefix("wrote \(path) ("), "\(output)")
        #expect(
            output.hasSuffix(
                "recording (frames csv): 58 presents, 57 frame times, 0 hitches (commit 0, render 0, unknown 0; "
                    + "0 on a present), 1 window, from 0s to 983.333333ms; simulation: 98 presents, 96 frame times, "
                    + "20 hitches (commit 20, render 0, both 0), 1 window, from 0s to 1.026666668s\n"), "\(output)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        let chart = SVGChart(svg)
        #expect(chart.title == "fps plot --compare: recording at 60 Hz over simulation at 120 Hz")
        #expect(
            chart.panels.map(\.label) == [
                "recording: frame time per present (ms)", "simulation: frame time per present (ms)",
                "fps: the recording's per second, the simulation's per window",
            ])
        try #require(chart.panels.count == 3)
        #expect(chart.panels[0].yTicks.map(\.label) == chart.panels[1].yTicks.map(\.label))
        #expect(chart.panels[0].yTicks.map(\.label) == ["0", "10", "20", "30", "40"])
        #expect(chart.panels[0].bottom - chart.panels[0].top == chart.panels[1].bottom - chart.panels[1].top)

        func bars(_ color: RGB, in panel: SVGChart.Panel) -> Int {
            chart.elements.count { e in
                guard e.name == "rect", e.attributes["fill"] == nil, e["fill"] == hex(color),
                    let x = e.number("x"), let y = e.number("y"), let w = e.number("width"), let h = e.number("height")
                else { return false }
                return panel.contains(x: x + w / 2, y: y + h / 2)
            }
        }
        let commit = FPSMeter.causeColors[.commit] ?? RGB(0, 0, 0)
        #expect(bars(FPSMeter.onTimeColor, in: chart.panels[0]) == 57)
        #expect(bars(commit, in: chart.panels[0]) == 0)
        #expect(bars(FPSMeter.onTimeColor, in: chart.panels[1]) == 77)
        #expect(bars(commit, in: chart.panels[1]) == 19)

        // The lines: one step (window) each, the recording's under the simulation's.
        func steps(_ color: RGB) -> [Int] {
            chart.elements.filter { $0.name == "path" && $0["stroke"] == hex(color) }.map {
                ($0["d"] ?? "").count { $0 == "H" }
            }
        }
        #expect(steps(FPSMeter.recordedPresentedColor) == [1])
        #expect(steps(FPSMeter.presentedColor) == [1])
        let paths = chart.elements.filter { $0.name == "path" }.map { $0["stroke"] }
        #expect(
            paths.firstIndex(of: hex(FPSMeter.recordedPresentedColor)) ?? 99
                < paths.firstIndex(of: hex(FPSMeter.presentedColor)) ?? 0)

        // The legend names a series both panels draw once, each source's lines by their source.
        #expect(chart.texts("on time").count == 1 && chart.texts("commit hitch").count == 1)
        #expect(chart.texts("recording: frames presented per second").count == 1)
        #expect(chart.texts("simulation: frames presented per second").count == 1)
        #expect(chart.texts("simulation: FPS label's reading").count == 1)
        #expect(chart.texts("1× budget 16.667ms").count == 1 && chart.texts("1× budget 8.333ms").count == 1)
    }

    /// The repository's Instruments export replayed at 120 Hz: the recording's 11 frame times
    /// and 11 hitches with no present (points), the replay's 11 commit hitches as bars; 37
    /// windows of the recording and 36 of the meter (the last still open) in the lines panel.
    @Test func theInstrumentsExportReplayedAt120Hz() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try meterSession(
            "import xctrace \(Self.fixtures)\nreplay start\ndisplay rate 120\nfps start\nreplay run")
        let path = dir.appendingPathComponent("xctrace.svg").path
        let compare = try result(run, "fps plot --compare \(path)")
        let recording = try #require(compare["recording"] as? [String: Any])
        let simulation = try #require(compare["simulation"] as? [String: Any])
        #expect(recording["frame_times"] as? Int == 11 && recording["windows"] as? Int == 37)
        #expect(simulation["windows"] as? Int == 36)
        #expect((simulation["hitches"] as? [String: Any])?["commit"] as? Int == 11)
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        let chart = SVGChart(svg)
        try #require(chart.panels.count == 3)
        #expect(chart.panels[0].yTicks.map(\.label) == chart.panels[1].yTicks.map(\.label))
        let circles = chart.elements.filter { $0.name == "circle" && $0.attributes["fill"] == nil }
        #expect(circles.count { chart.panels[0].contains(x: $0.number("cx") ?? -1, y: $0.number("cy") ?? -1) } == 11)
        #expect(circles.count { chart.panels[1].contains(x: $0.number("cx") ?? -1, y: $0.number("cy") ?? -1) } == 0)
        let hs = chart.elements.filter { $0.name == "path" && $0["stroke"] == hex(FPSMeter.recordedPresentedColor) }
            .map { ($0["d"] ?? "").count { $0 == "H" } }
        #expect(hs == [37])
        #expect(chart.texts("simulation: tracking").isEmpty)
    }

    /// The terminal chart at 80 columns: 22 rows of panels by default (8, 8 and 6), each
    /// frame-time panel labelled and on the same tick labels, every line within 80 columns.
    @Test func theTerminalChartAt80Columns() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try tenMillisecondReplay(dir)
        let text = run.output("fps plot --compare --width 80")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(lines.first == "fps plot --compare: recording at 60 Hz over simulation at 120 Hz")
        func panel(_ label: String, until end: String) throws -> [String] {
            let start = try #require(lines.firstIndex(of: label), "\(text)")
            let stop = try #require(lines[start...].firstIndex { $0.hasPrefix(end) }, "\(text)")
            return Array(lines[(start + 1)..<stop])
        }
        let recorded = try panel("recording: frame time per present (ms)", until: "    0 ┼")
        let simulated = try panel("simulation: frame time per present (ms)", until: "    0 ┼")
        let fps = try panel("fps: the recording's per second, the simulation's per window", until: "      └")
        #expect(recorded.count == 8 && simulated.count == 8 && fps.count == 6, "\(text)")
        func tickLabels(_ rows: [String]) -> [String] { rows.map { String($0.prefix(5)) } }
        #expect(tickLabels(recorded) == tickLabels(simulated))
        #expect(tickLabels(recorded) == ["   40", "     ", "     ", "     ", "   20", "     ", "     ", "     "])
        // The marks: none under the recording, 20 hitches' worth (two columns each, or three
        // where two share) under the simulation.
        let marks = lines.filter { $0.hasPrefix("hitch │") }
        #expect(marks.count == 2 && marks[0] == "hitch │" && marks[1].count { $0 == "c" } >= 20)
        // The recording's frames presented dotted, the simulation's over them.
        #expect(fps.contains { $0.contains("·····") })
        #expect(text.contains("· recording: frames presented per second"))
        #expect(
            text.contains(
                "each on its own clock: a replay's recording time is simulated time plus an\n"
                    + "offset below one refresh interval (docs/Replay.md), not corrected here"))
        #expect(text.hasSuffix("from 0s to 1.026666668s\n"), "\(text)")
        // --height gives the rows as for any plot.
        let short = run.output("fps plot --compare --width 80 --height 12")
        #expect(short.split(separator: "\n").count < lines.count)
    }

    /// Errors: no recording, the meter not started (a replay resets it), --recording beside it,
    /// and either side's range errors.
    @Test func errorsSayWhatIsMissing() throws {
        try expectTranscript(
            """
            > fps plot --compare
            error: --compare needs a recording: 'import xctrace|csv|chrome <file>' reads one, 'replay start' replays it
            > fps start
            > run 1s
            > fps plot --compare
            error: --compare needs a recording: 'import xctrace|csv|chrome <file>' reads one, 'replay start' replays it
            """)
        let run = try meterSession("fps start\nimport xctrace \(Self.fixtures)\nreplay start")
        let notStarted =
            "error: --compare needs the meter's data: the meter has not been started ('fps start' after "
            + "'replay start', then 'replay run')\n"
        #expect(run.output("fps plot --compare") == notStarted)
        #expect(
            run.output("fps plot --compare --recording")
                == "error: --compare draws the recording already: give --compare or --recording, not both\n")
        run.type("fps start")
        run.type("replay run")
        #expect(
            run.output("fps plot --compare --from 40s")
                == "error: nothing to plot from 40s: the recording ends at 36.844539583s\n")
        #expect(run.output("fps plot --compare --from 2s --to 1s") == "error: --from 2s is not before --to 1s\n")
        #expect(
            run.output("fps plot --compare x.svg --height 9")
                == "error: --width and --height size the chart in the terminal; an SVG file scales\n")
        #expect(run.output("fps plot --compare x.png").hasPrefix("error: the chart is written as SVG"))
    }
}
