import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// `fps plot`: the terminal chart as exact text, the SVG (well-formed, drawn by rsvg-convert,
/// the same bytes every run), what it counts against what the meter counts, `--from`/`--to`,
/// and every way it can fail — with nothing lost when it does.
@Suite struct FPSPlotTests {
    /// A stall (one commit hitch) then a scroll (tracking shaded).
    static let stallThenScroll = """
        fps start
        animate 3s
        run 1300ms
        stall 50ms
        scroll 500ms
        run 1s
        """

    @Test func theTerminalChartOfASmallScenario() throws {
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        #expect(
            run.output("fps plot --width 48 --height 8") == """
                fps plot: 0s to 2.3s at 60 Hz
                frame time per present (ms)
                     100 ┤
                         │                    ▅▅
                      50 ┤╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌██╌╌╌╌╌╌╌╌╌╌╌╌╌ 2×
                         │▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅██▅▅▅▅▅▅▅▅▅▅▅▅▅ 1×
                       0 ┼───────────────────────────────────
                   hitch │                    cc
                fps per window: the label's reading, the frames…
                      60 ┤═══════════════════════════════
                      40 ┤
                      20 ┤
                       0 ┤
                tracking │                   ░░░░░░░░░
                         └┬──────────────┬──────────────┬────
                          0s             1s             2s
                                       time (s)
                █ on time  c commit hitch  r render hitch
                b commit and render hitch  ╌ 1× budget 16.667ms
                ╌ 2× budget 33.333ms
                ─ frames presented per second
                ━ FPS label's reading  ═ both  ░ tracking
                133 presents, 132 frame times, 1 hitch (commit
                1, render 0, both 0), 2 windows, from 0s to 2.3s

                """)
    }

    /// Scripts draw at 80 columns; the live session at the terminal's width, with colour.
    @Test func theChartFitsTheDisplay() throws {
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        let lines = run.output("fps plot").split(separator: "\n")
        #expect(lines.contains { $0.count == 80 })
        #expect(lines.dropLast().allSatisfy { $0.count <= 80 })
        run.session.options.width = 120
        run.session.options.color = true
        let wide = run.output("fps plot")
        #expect(wide.contains("\u{1B}[38;2;"))
        #expect(wide.split(separator: "\n").contains { stripEscapes(String($0)).count == 120 })
    }

    @Test func theSVGIsTheSameEveryRunAndDrawsAsAPNG() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [Data] = []
        for k in 0..<2 {
            let path = dir.appendingPathComponent("plot\(k).svg").path
            let run = try meterSession(FPSPlotTests.stallThenScroll)
            let output = run.output("fps plot \(path)")
            #expect(output.hasPrefix("wrote \(path) ("), "\(output)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files[0] == files[1])
        let svg = String(decoding: files[0], as: UTF8.self)
        #expect(try SVGCheck.parseXML(svg).root == "{http://www.w3.org/2000/svg}svg")
        let png = try SVGCheck.renderPNG(svg)
        #expect(SVGCheck.pngSize(png)?.width == 960)
        // The tracking stretch is shaded, the commit hitch drawn in its colour.
        #expect(svg.contains("fill=\"#d6e6f5\""))
        #expect(svg.contains("<g fill=\"#e69138\">\n<rect"))
        #expect(svg.contains(">2× budget 33.333ms</text>"))
    }

    /// The chart counts what the meter counts: presents, frame times (intervals), hitches by
    /// cause, windows.
    @Test func theChartCountsWhatTheMeterCounts() throws {
        let run = try meterSession(
            """
            fps start
            animate 10s
            load gpu 20ms
            run 1500ms
            stall 100ms --ui
            run 1500ms
            """)
        let plot = try result(run, "fps plot")
        let show = try result(run, "fps")
        let hitches = try #require(show["hitches"] as? [String: Any])
        let chartHitches = try #require(plot["hitches"] as? [String: Any])
        for cause in ["commit", "render", "both"] {
            #expect(chartHitches[cause] as? Int == hitches[cause] as? Int, "\(cause)")
        }
        #expect(hitches["both"] as? Int ?? 0 > 0 && hitches["render"] as? Int ?? 0 > 0)
        let frameTime = try #require(show["frame_time"] as? [String: Any])
        #expect(plot["frame_times"] as? Int == frameTime["intervals"] as? Int)
        #expect(plot["presents"] as? Int == Int(try run.meter.frames.appended))
        #expect(plot["windows"] as? Int == (try run.meter.windows.count))
        #expect(plot["from_ns"] as? Int == 0 && plot["to_ns"] as? Int == 3_000 * Int(ms))
        #expect(plot["file"] is NSNull && plot["columns"] as? Int == 80)
    }

    @Test func fromAndToNarrowTheChart() throws {
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        let narrow = try result(run, "fps plot --from 1s --to 1500ms")
        let frames = try #require(try result(run, "fps frames --last 1000")["frames"] as? [[String: Any]])
        let late = try result(run, "fps plot --from 2s --to 1000000s")
        let inRange = frames.filter { f in
            let present = f["present_ns"] as? Int ?? -1
            return present >= 1_000 * Int(ms) && present <= 1_500 * Int(ms)
        }
        #expect(narrow["presents"] as? Int == inRange.count)
        let hitches = try #require(narrow["hitches"] as? [String: Any])
        #expect(hitches["commit"] as? Int == 1 && hitches["render"] as? Int == 0 && hitches["both"] as? Int == 0)
        #expect(narrow["tracking_spans"] as? Int == 1)
        // --to past now stops at now.
        #expect(late["to_ns"] as? Int == 2_300 * Int(ms))
        #expect(late["tracking_spans"] as? Int == 0)
        let text = run.output("fps plot --from 1s --to 1500ms --width 40")
        #expect(text.contains("from 1s to 1.5s"))
        #expect(text.contains("└┬") && text.contains(" 1s ") && text.contains(" 1.4s"), "\(text)")
    }

    /// Ranges out of the data, backwards or at the horizon: a clear error, never a trap.
    @Test(
        arguments: [
            ("fps plot --from 3s", "error: nothing to plot from 3s: the meter's data ends at 2.3s (now)"),
            ("fps plot --from 2s --to 1s", "error: --from 2s is not before --to 1s"),
            ("fps plot --from 1s --to 1s", "error: --from 1s is not before --to 1s"),
            (
                "fps plot --from 4611686018s",
                "error: nothing to plot from 4611686018s: the meter's data ends at 2.3s (now)"
            ),
        ])
    func rangesWithoutDataAreErrors(_ command: String, _ error: String) throws {
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        #expect(run.output(command) == error + "\n")
    }

    /// A range before the meter started has neither frames nor windows.
    @Test func aRangeWithoutDataIsAnError() throws {
        let run = try meterSession("run 2s\nfps start\nanimate 1s\nrun 2s")
        #expect(
            run.output("fps plot --from 0s --to 1s")
                == "error: nothing to plot between 0s and 1s: no frame time and no window there\n")
        #expect(run.output("fps plot --width 40").contains("from 2s to 4s"))
    }

    @Test func withoutAMeterOrFramesThereIsNothingToPlot() throws {
        try expectTranscript(
            """
            > fps plot
            error: the meter has not been started; start it with 'fps start'
            > fps start
            > fps plot
            error: nothing to plot: no frame has been presented and no window has closed since the meter started at 0s
            > run 500ms
            > fps plot
            error: nothing to plot: no frame has been presented and no window has closed since the meter started at 0s
            """)
    }

    /// A static screen: the label reads 60 while one frame a second is presented (its own text,
    /// F3); no frame times, the overlay alone.
    @Test func aStaticScreenPlotsTheOverlayAlone() throws {
        let run = try meterSession("fps start\nrun 3100ms")
        let text = run.output("fps plot --width 100 --height 6")
        #expect(text.contains("\n3 presents, 0 frame times, 0 hitches (commit 0, render 0, both 0), 3 windows"))
        // The label's reading above, the frames presented at the bottom. Three rows of 1-2-5
        // ticks are 0, 50 and 100: the row the reading is drawn on stands for 50 and is left
        // unlabelled rather than labelled 50 beside a 60.
        #expect(text.contains("\n  100 ┤\n      │" + String(repeating: "━", count: 88) + "\n"), "\(text)")
        #expect(text.contains("\n    0 ┤" + String(repeating: "─", count: 88) + "\n"), "\(text)")
        // The frame-time panel says why it is empty.
        #expect(text.contains("no frame time from 0s to 3.1s: nothing animated (A2)"), "\(text)")
    }

    /// A stopped meter still plots what it kept, up to its stop.
    @Test func aStoppedMeterPlotsUpToItsStop() throws {
        let run = try meterSession(FPSPlotTests.stallThenScroll + "\nfps stop\nrun 2s")
        let text = run.output("fps plot --width 60")
        #expect(text.hasSuffix("from 0s to 2.3s\n"), "\(text)")
        #expect(
            run.output("fps plot --from 3s")
                == "error: nothing to plot from 3s: the meter's data ends at 2.3s (its stop)\n")
    }

    // MARK: Files

    @Test func anUnwritablePathIsAClearErrorAndNothingIsLost() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        let missing = dir.appendingPathComponent("no/such/folder/plot.svg").path
        #expect(run.output("fps plot \(missing)") == "error: cannot write '\(missing)': No such file or directory\n")
        let regular = dir.appendingPathComponent("file")
        try "keep".write(to: regular, atomically: true, encoding: .utf8)
        let under = regular.path + "/plot.svg"
        #expect(run.output("fps plot \(under)") == "error: cannot write '\(under)': Not a directory\n")
        #expect(try String(contentsOf: regular, encoding: .utf8) == "keep")
        // The plot is still there to write elsewhere.
        let good = dir.appendingPathComponent("plot.svg").path
        #expect(run.output("fps plot \(good)").hasPrefix("wrote \(good) ("))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["file", "plot.svg"])
    }

    /// A directory, a FIFO or a device is never replaced; the refusal says why.
    @Test func aFileThatIsNotRegularIsRefused() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        let folder = dir.appendingPathComponent("folder.svg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(run.output("fps plot \(folder.path)") == "error: cannot write '\(folder.path)': not a regular file\n")
        let fifo = dir.appendingPathComponent("fifo.svg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(run.output("fps plot \(fifo)") == "error: cannot write '\(fifo)': not a regular file\n")
        // Through a link to a device, too.
        let link = dir.appendingPathComponent("null.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        #expect(run.output("fps plot \(link)") == "error: cannot write '\(link)': not a regular file\n")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "fifo.svg", "folder.svg", "null.svg",
            ])
    }

    /// An existing file is replaced whole, keeping its permissions; a link is followed and stays.
    @Test func anExistingFileIsReplacedAndALinkFollowed() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.svg")
        try String(repeating: "stale ", count: 100_000).write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        let link = dir.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.svg")
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        #expect(run.output("fps plot \(link)").hasPrefix("wrote \(link) ("))
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.hasPrefix("<?xml") && written.hasSuffix("</svg>\n") && !written.contains("stale"))
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.svg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.svg", "target.svg"])
    }

    @Test func theJSONResultNamesTheFile() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plot.svg").path
        let run = try meterSession(FPSPlotTests.stallThenScroll)
        let result = try result(run, "fps plot \(path)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(result["file"] as? String == path && result["bytes"] as? Int == size)
        #expect(result["columns"] is NSNull)
        #expect(
            Set(result.keys) == [
                "from_ns", "to_ns", "presents", "frame_times", "hitches", "windows", "open_window", "max_frame_ns",
                "tracking_spans", "file", "bytes", "columns",
            ])
    }
}

/// The JSON result of one command, typed with --json on for it alone.
func result(_ run: MeterRun, _ command: String) throws -> [String: Any] {
    run.session.options.json = true
    defer { run.session.options.json = false }
    let line = run.output(command)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    return try #require(object["result"] as? [String: Any], "\(line)")
}

/// A fresh temporary folder.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-plot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `text` without its SGR escape sequences.
func stripEscapes(_ text: String) -> String {
    var out = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
        if inEscape {
            if scalar == "m" { inEscape = false }
        } else if scalar == "\u{1B}" {
            inEscape = true
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Issue 21: what the chart shows, read back from the SVG it writes (and the terminal's text):
/// series that stay visible where they coincide, budget lines that follow the refresh rate,
/// rule tags where no data covers them, 1-2-5 ticks, seconds on a long frame, a note on an empty
/// panel.
@Suite struct FPSPlotReadsRightTests {
    /// The chart `fps plot` writes after `script`, read back.
    func chart(_ script: String, _ options: String = "") throws -> (svg: String, chart: SVGChart, run: MeterRun) {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plot.svg").path
        let run = try meterSession(script)
        let output = run.output("fps plot \(path) \(options)")
        try #require(output.hasPrefix("wrote \(path) ("), "\(output)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        return (svg, SVGChart(svg), run)
    }

    static let animated60 = "fps start\nanimate 3s\nrun 3s"
    static let rateChange = "fps start\nanimate 4s\nrun 1005ms\ndisplay rate 120Hz\nrun 1995ms"
    static let hitch12s = "fps start\nanimate 30s\nrun 2s\nstall 12s --ui\nrun 16s"
    static let idle = "fps start\nrun 3s"
    static let gpuBound = "fps start\nload frame 4ms\nload gpu 20ms\nscroll 5s\nrun 5s"

    /// Fix 1: where the label reads what the display presents (60 and 60), the reading is drawn
    /// over the frames presented, thinner and dashed, so that both show; in the terminal the
    /// shared cells are `═`, named in the legend.
    @Test func theReadingStaysVisibleWhereItEqualsTheFramesPresented() throws {
        let (_, chart, run) = try chart(FPSPlotReadsRightTests.animated60)
        let paths = chart.elements.enumerated().filter { $0.element.name == "path" }
        let reading = try #require(paths.first { $0.element["stroke"] == hex(FPSMeter.labelReadingColor) })
        let presented = try #require(paths.first { $0.element["stroke"] == hex(FPSMeter.presentedColor) })
        // They coincide over the second window, at 60 (the first has 59 presents).
        let panel = try #require(chart.panels.last)
        let y60 = try #require(panel.y(60))
        let readingD = try #require(reading.element["d"])
        let presentedD = try #require(presented.element["d"])
        let lastStep = try #require(readingD.split(separator: "V").last)
        #expect(lastStep.hasPrefix("\(format(y60))H"), "\(readingD)")
        #expect(presentedD.hasSuffix("V" + lastStep), "\(presentedD)")
        // The reading on top, thinner and dashed; the frames presented solid.
        #expect(reading.offset > presented.offset)
        let readingWidth = try #require(reading.element.number("stroke-width"))
        let presentedWidth = try #require(presented.element.number("stroke-width"))
        #expect(readingWidth < presentedWidth)
        let dash = try #require(reading.element["stroke-dasharray"])
        #expect(dash != presented.element["stroke-dasharray"] && presented.element["stroke-dasharray"] == nil)
        // The legend's swatches are stroked the same way.
        let swatches = chart.elements.filter { $0.name == "line" && $0["stroke"] == hex(FPSMeter.labelReadingColor) }
        #expect(swatches.contains { $0["stroke-dasharray"] == dash })
        let text = run.output("fps plot --width 80")
        #expect(text.contains("60 ┤═══"), "\(text)")
        #expect(text.contains("═ both"), "\(text)")
    }

    /// Fix 2: `display rate 120Hz` at 1.005 s takes effect at the next vsync, 1.016666666 s (S2):
    /// the 1× and 2× budget lines step there from 16.667/33.333 ms to 8.333/16.667 ms, and the
    /// title says both rates.
    @Test func theBudgetLinesFollowTheRefreshRate() throws {
        let (_, chart, run) = try chart(FPSPlotReadsRightTests.rateChange)
        #expect(chart.title == "fps plot: 0s to 3s at 60 Hz, 120 Hz from 1.016666666s")
        let panel = try #require(chart.panels.first)
        let change = try #require(chart.x(1.016666666))
        for (multiple, color) in [(1.0, "#5a5a5a"), (2.0, "#c83c3c")] {
            let rule = try #require(chart.elements.first { $0.name == "path" && $0["stroke"] == color })
            let d = try #require(rule["d"])
            // M<left> <y at 60 Hz>H<the change>V<y at 120 Hz>H<right>
            let numbers = d.split(whereSeparator: { "MHV ".contains($0) }).compactMap { Double($0) }
            try #require(numbers.count == 5, "\(d)")
            let before = try #require(panel.y(multiple * 1000 / 60))
            let after = try #require(panel.y(multiple * 1000 / 120))
            #expect(Swift.abs(numbers[0] - panel.left) < 0.01)
            #expect(Swift.abs(numbers[1] - before) < 0.02, "\(d): \(before)")
            #expect(Swift.abs(numbers[2] - change) < 0.02, "\(d): \(change)")
            #expect(Swift.abs(numbers[3] - after) < 0.02, "\(d): \(after)")
            #expect(Swift.abs(numbers[4] - panel.right) < 0.01)
        }
        #expect(chart.texts("1× budget 16.667ms at 60 Hz, 8.333ms at 120 Hz").count == 1)
        #expect(chart.texts("2× budget 33.333ms at 60 Hz, 16.667ms at 120 Hz").count == 1)
        // One rate: one level, the title as before.
        let (_, single, _) = try self.chart(FPSPlotReadsRightTests.animated60)
        #expect(single.title == "fps plot: 0s to 3s at 60 Hz")
        let flat = try #require(single.elements.first { $0.name == "path" && $0["stroke"] == "#5a5a5a" })
        #expect(flat["d"]?.filter { $0 == "H" }.count == 1 && flat["d"]?.contains("V") == false)
        // The terminal draws the step too, each level on its own row.
        let text = run.output("fps plot --width 80")
        #expect(text.hasPrefix("fps plot: 0s to 3s at 60 Hz, 120 Hz from 1.016666666s\n"))
        let rows = text.split(separator: "\n").filter { $0.hasSuffix(" 1×") || $0.hasSuffix(" 2×") }
        #expect(rows.count == 2, "\(text)")
    }

    /// Fix 3: the rules' tags stand in the margin right of the plot, where no bar is, on a
    /// chart whose bars cover the budget lines (every frame 33 ms) and on a 12 s hitch, where
    /// both lines lie along the bottom; no rule's words are written inside the plot.
    @Test(arguments: [FPSPlotReadsRightTests.gpuBound, FPSPlotReadsRightTests.hitch12s])
    func ruleTagsStandWhereNoBarCoversThem(_ script: String) throws {
        let (_, chart, _) = try chart(script)
        let panel = try #require(chart.panels.first)
        let bars = chart.elements.filter { $0.name == "rect" && $0.inherited["fill"] != nil && $0["height"] != nil }
        try #require(bars.count > 100)
        var boxes: [(x: Double, y: Double, w: Double, h: Double)] = []
        for tag in ["1×", "2×"] {
            let text = try #require(chart.texts(tag).first)
            let x = try #require(text.number("x"))
            let y = try #require(text.number("y"))
            // A generous box: 8 px a glyph at 11 px, from the ascender to below the baseline.
            let box = (x: x, y: y - 11, w: Double(tag.count) * 8, h: 14.0)
            #expect(box.x >= panel.right, "\(tag) at \(x)")
            for bar in bars {
                let bx = bar.number("x") ?? 0
                let by = bar.number("y") ?? 0
                let overlaps =
                    box.x < bx + (bar.number("width") ?? 0) && bx < box.x + box.w
                    && box.y < by + (bar.number("height") ?? 0)
                    && by < box.y + box.h
                #expect(!overlaps, "\(tag) overlaps \(bar)")
            }
            boxes.append(box)
        }
        // The two tags do not overlap each other.
        #expect(boxes[0].y >= boxes[1].y + boxes[1].h || boxes[1].y >= boxes[0].y + boxes[0].h, "\(boxes)")
        // No text inside the plot area names a budget.
        for text in chart.elements where text.name == "text" && text.text.contains("budget") {
            let x = text.number("x") ?? 0
            let y = text.number("y") ?? 0
            #expect(!chart.panels.contains { $0.contains(x: x, y: y) }, "\(text)")
        }
    }

    /// Fix 4: every axis of every chart has 1-2-5 ticks — in the SVG each equally spaced by 1, 2
    /// or 5 × 10^k, in the terminal each row's label a multiple of such a step.
    @Test(
        arguments: [
            FPSPlotReadsRightTests.animated60, FPSPlotReadsRightTests.rateChange, FPSPlotReadsRightTests.hitch12s,
            FPSPlotReadsRightTests.idle, FPSPlotReadsRightTests.gpuBound, FPSPlotTests.stallThenScroll,
            "display rate 24Hz\nfps start\nanimate 3s\nload gpu 50ms\nrun 3s",
            "display rate 90Hz\nfps start\nanimate 3s\nrun 1s\nstall 250ms --ui\nrun 2s",
        ])
    func ticksAreOneTwoFive(_ script: String) throws {
        let (_, chart, run) = try chart(script)
        try #require(chart.panels.count == 2)
        #expect(areOneTwoFiveTicks(chart.xTicks.map(\.value)), "\(chart.xTicks.map(\.label))")
        for panel in chart.panels {
            #expect(areOneTwoFiveTicks(panel.yTicks.map(\.value)), "\(panel.label): \(panel.yTicks.map(\.label))")
        }
        for height in [6, 9, 15, 30] {
            let text = run.output("fps plot --width 80 --height \(height)")
            for ticks in terminalTicks(text) {
                #expect(ticks.count < 2 || areOneTwoFiveTicks(ticks, gaps: true), "\(ticks)\n\(text)")
            }
        }
    }

    /// A frame longer than a second is drawn on an axis in seconds; the budgets keep their ms.
    @Test func aTwelveSecondHitchIsDrawnInSeconds() throws {
        let (_, chart, run) = try chart(FPSPlotReadsRightTests.hitch12s)
        let panel = try #require(chart.panels.first)
        #expect(panel.label == "frame time per present (s)")
        #expect(panel.yTicks.last.map { $0.value >= 12 && $0.value <= 20 } == true, "\(panel.yTicks.map(\.label))")
        #expect(chart.texts("1× budget 16.667ms").count == 1)
        #expect(run.output("fps plot --width 80").contains("\nframe time per present (s)\n"))
        let (_, short, _) = try self.chart(FPSPlotReadsRightTests.animated60)
        #expect(short.panels.first?.label == "frame time per present (ms)")
    }

    /// Fix 6: an idle run has no frame time; the panel says so, and how to get frames, in the
    /// SVG (inside the panel) and in the terminal.
    @Test func anEmptyPanelSaysWhatIsMissing() throws {
        let (_, chart, run) = try chart(FPSPlotReadsRightTests.idle)
        let panel = try #require(chart.panels.first)
        for words in [
            "no frame time from 0s to 3s: nothing animated (A2)",
            "to see frames: animate 2s, scroll 1s or stall 100ms --ui",
        ] {
            let text = try #require(chart.texts(words).first, "\(words)")
            #expect(panel.contains(x: text.number("x") ?? 0, y: text.number("y") ?? 0))
        }
        let text = run.output("fps plot --width 80")
        #expect(text.contains("no frame time from 0s to 3s: nothing animated (A2)"), "\(text)")
        #expect(text.contains("to see frames: animate 2s, scroll 1s or stall 100ms --ui"), "\(text)")
        // Frames but no window yet: the lower panel says so and shows no numbers.
        let (_, early, earlyRun) = try self.chart("fps start\nanimate 1s\nrun 500ms")
        let lower = try #require(early.panels.last)
        #expect(lower.yTicks.isEmpty)
        let note = try #require(early.texts("no window of the reading closed from 0s to 500ms").first)
        #expect(lower.contains(x: note.number("x") ?? 0, y: note.number("y") ?? 0))
        #expect(earlyRun.output("fps plot --width 80").contains("no window of the reading closed from 0s to 500ms"))
        // A chart with data has no such note.
        let (svg, _, _) = try self.chart(FPSPlotReadsRightTests.animated60)
        #expect(!svg.contains("no frame time") && !svg.contains("no window"))
    }
}

/// `#rrggbb`, as the SVG writes a colour.
func hex(_ c: RGB) -> String {
    let digits = Array("0123456789abcdef")
    return "#" + [c.red, c.green, c.blue].map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined()
}

/// A coordinate as the SVG writes it: at most two decimals.
func format(_ v: Double) -> String {
    let scaled = (v * 100).rounded()
    let whole = Int(scaled) / 100
    let fraction = abs(Int(scaled) % 100)
    if fraction == 0 { return "\(whole)" }
    return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// The y tick labels of each panel of a terminal chart, as numbers: the labels before `┤`, a
/// panel ending at its baseline `┼` or at a line without a gutter.
func terminalTicks(_ text: String) -> [[Double]] {
    var panels: [[Double]] = []
    var current: [Double]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let bar = line.firstIndex(where: { "┤┼│".contains($0) }),
            line[..<bar].allSatisfy({ $0 == " " || $0.isNumber || $0 == "." || $0.isLetter })
        {
            let label = line[..<bar].trimmingCharacters(in: .whitespaces)
            if current == nil { current = [] }
            if let v = Double(label) { current?.append(v) }
        } else if let ticks = current {
            panels.append(ticks)
            current = nil
        }
    }
    if let ticks = current { panels.append(ticks) }
    return panels
}
