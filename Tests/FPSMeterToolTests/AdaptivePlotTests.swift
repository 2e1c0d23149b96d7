import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// Issue 32: `fps plot` on an adaptive display (V1–V6) — bars that never span idle time, a rate
/// label on each stretch of the budget line, and the last window, still open, drawn.
@Suite struct FPSAdaptivePlotTests {
    /// Idle at 10 Hz, 300 ms of 120 Hz animation, idle again, then 300 ms more whose 10 ms ticks
    /// miss 8.333 ms refreshes (six 8.333 ms commit hitches); the plot ends 992 ms into an open
    /// window. Without the fix the first frame after the idle second is a 725 ms bar.
    static let idleThenAnimate = """
        display adaptive --min 10Hz --max 120Hz
        settings set app.high_frame_rates on
        fps start --range 10,120 --label off
        run 1s
        animate 300ms --range 80,120,120
        run 1s
        load frame 10ms
        animate 300ms --range 80,120,120
        run 1s
        """

    func svg(_ run: MeterRun, _ options: String = "") throws -> (svg: String, chart: SVGChart) {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("plot.svg").path
        let output = run.output("fps plot \(path) \(options)")
        try #require(output.hasPrefix("wrote \(path) ("), "\(output)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        return (svg, SVGChart(svg))
    }

    /// The tallest bar is the longest real frame (16.667 ms: an 8.333 ms refresh plus an 8.333 ms
    /// hitch), not the 725 ms from the last present before the idle second; the y axis follows
    /// it, not the idle 10 Hz budget (200 ms). The frames in flight after each animation ask its
    /// 120 Hz (V5), so the display never runs at 60 Hz here.
    @Test func aBarNeverSpansIdleTime() throws {
        let run = try meterSession(FPSAdaptivePlotTests.idleThenAnimate)
        let plot = try result(run, "fps plot")
        #expect(plot["max_frame_ns"] as? Int == 16_666_667)
        #expect(plot["frame_times"] as? Int == 64)
        // The meter's own first frame after the idle second: presented at 2041.667 ms, expected
        // at 2033.333 (an 8.333 ms hitch).
        let frame = try #require(try run.meter.frames.elements.first { $0.frame == 37 })
        #expect(frame.interval == 725_000_000 && frame.hitch == 8_333_333)
        #expect(try run.meter.frameTime(frame) == frame.refresh.nanoseconds + frame.hitch)
        #expect(frame.refresh.nanoseconds == 8_333_333)

        let (_, chart) = try svg(run)
        let panel = try #require(chart.panels.first)
        #expect(panel.yTicks.last?.value == 20, "\(panel.yTicks.map(\.label))")
        let bars = chart.elements.filter { $0.name == "rect" && $0.inherited["fill"] != nil && $0["height"] != nil }
        let top = try #require(bars.compactMap { $0.number("y") }.min())
        let expected = try #require(panel.y(16.666667))
        #expect(Swift.abs(top - expected) < 0.5, "\(top) vs \(expected)")
        // No bar starts in the idle second between the two animations (1.308 s to 2.008 s).
        let idleStart = try #require(chart.x(1.32))
        let idleEnd = try #require(chart.x(2.0))
        for bar in bars {
            let x = bar.number("x") ?? 0
            let w = bar.number("width") ?? 0
            #expect(!(x < idleEnd && x + w > idleStart), "\(bar)")
        }
    }

    /// Each stretch of the 1× line names its own rate: both 120 Hz stretches, not only the last
    /// rate; a fixed display's chart has no such label.
    @Test func eachRateStretchIsLabelled() throws {
        let run = try meterSession(FPSAdaptivePlotTests.idleThenAnimate)
        let (_, chart) = try svg(run)
        let panel = try #require(chart.panels.first)
        let labels = chart.texts("120 Hz")
        #expect(labels.count == 2, "\(labels)")
        let first = try #require(chart.x(1.0))
        let second = try #require(chart.x(2.008))
        let xs = labels.compactMap { $0.number("x") }.sorted()
        #expect(xs.count == 2 && Swift.abs(xs[0] - first) < 8 && Swift.abs(xs[1] - second) < 8, "\(xs)")
        for label in labels { #expect(panel.contains(x: label.number("x") ?? 0, y: label.number("y") ?? 0)) }

        // A `display rate` change: 60 Hz and 120 Hz each labelled, in the SVG and the terminal.
        let change = try meterSession(FPSPlotReadsRightTests.rateChange)
        let (_, stepped) = try svg(change)
        #expect(stepped.texts("60 Hz").count == 1 && stepped.texts("120 Hz").count == 1)
        let text = change.output("fps plot --width 80")
        #expect(text.contains("│60 Hz"), "\(text)")

        let fixed = try meterSession(FPSPlotReadsRightTests.animated60)
        let (_, flat) = try svg(fixed)
        #expect(flat.texts("60 Hz").isEmpty)
    }

    /// The window still open at the chart's end is drawn when it is at least half a window long
    /// (here its callbacks span 908 ms of a 1 s window), with the frames presented and F1 over its callbacks so far, and a
    /// note; shorter, it is not.
    @Test func theLastOpenWindowIsDrawnFromHalfAWindow() throws {
        let run = try meterSession(FPSAdaptivePlotTests.idleThenAnimate)
        let plot = try result(run, "fps plot")
        let open = try #require(plot["open_window"] as? [String: Any])
        #expect(open["from_ns"] as? Int == 2_008_333_333 && open["to_ns"] as? Int == 3_000_000_000)
        #expect(open["callbacks"] as? Int == 37 && open["presents"] as? Int == 30 && open["reading"] as? Int == 41)
        #expect(plot["windows"] as? Int == 2)
        let (_, chart) = try svg(run)
        let fps = try #require(chart.panels.last)
        // The frames presented (blue) and the reading (green) both reach the right edge.
        for color in ["#2171b5", "#2ea043"] {
            let path = try #require(chart.elements.first { $0.name == "path" && $0["stroke"] == color })
            let numbers = (path["d"] ?? "").split(whereSeparator: { "MHVL ".contains($0) }).compactMap { Double($0) }
            #expect(numbers.contains { Swift.abs($0 - fps.right) < 0.01 }, "\(color): \(path)")
        }
        #expect(run.output("fps plot").contains("the last window, from 2.008333333s to 3s, is still open"))

        // 300 ms into a window: under half, not drawn.
        let short = try meterSession(FPSPlotTests.stallThenScroll)
        let shortPlot = try result(short, "fps plot")
        #expect(shortPlot["open_window"] is NSNull)
        // --to before the meter's end: the open window's counts are not known there.
        #expect(try result(run, "fps plot --to 2900ms")["open_window"] is NSNull)
    }
}
