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
                ━ FPS label's reading  ═ reading = presented
                ░ tracking
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
                "from_ns", "to_ns", "presents", "frame_times", "hitches", "windows", "tracking_spans", "file", "bytes",
                "columns",
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
