import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing
import TimerInspectorTool

/// `timer plot`: a timer's lateness per firing as exact terminal text and as an SVG that other
/// programs read, late firings by their K2 cause, `--from`/`--to`, and its errors.
@Suite struct TimerPlotTests {
    /// Timer `a` is late for each K2 cause a run-loop timer can have: coalesced (tolerance, with
    /// coalescing on), busy (a stall), mode (a scroll: it is in default mode).
    static let threeCauses = [
        "set runloop.coalescing on", "timer nstimer a --interval 100ms --repeats --tolerance 20ms",
        "timer nstimer b --interval 110ms --repeats", "run 400ms", "stall 120ms", "run 300ms", "scroll 250ms",
        "run 550ms",
    ]

    func driver(_ lines: [String]) throws -> Driver {
        let d = try Driver()
        for line in lines { d.run(line) }
        return d
    }

    @Test func theTerminalChartOfASmallScenario() throws {
        let d = try driver(TimerPlotTests.threeCauses)
        #expect(
            d.run("timer plot a --width 50 --height 8") == """
                timer plot: a, 0s to 1.25s
                lateness (ms): how long after its scheduled time …
                    │
                300 ┤
                    │                      m
                200 ┤
                    │
                    │            b
                    │
                  0 ┤╌╌╌c╌╌c╌╌c╌╌╌╌╌╌╌╌╌c╌╌╌╌╌╌╌╌╌╌╌╌c╌╌·╌╌c╌ late
                    └┬───────────────┬───────────────┬───────
                     0s              0.5s            1s
                                scheduled time (s)
                · on time  m late: mode  b late: busy
                c late: coalesced  ╌ late threshold 1ms
                9 firings (firings 1–9), 8 late (mode 1, busy 1,
                coalesced 6), max lateness 250ms, from 0s to 1.25s
                """)
    }

    /// Each late firing is counted under its cause, as `timer show` lists them; the threshold
    /// decides what is late.
    @Test func lateFiringsAreCountedByCause() throws {
        let d = try driver(TimerPlotTests.threeCauses)
        let plot = try result(d, "timer plot a")
        let causes = try #require(plot["causes"] as? [String: Any])
        #expect(causes["mode"] as? Int == 1 && causes["busy"] as? Int == 1 && causes["coalesced"] as? Int == 6)
        #expect(causes["paused"] as? Int == 0 && causes["none"] == nil)
        #expect(plot["firings"] as? Int == 9 && plot["late"] as? Int == 8 && plot["first"] as? Int == 1)
        #expect(plot["max_late_ns"] as? Int == 250_000_000 && plot["threshold_ns"] as? Int == 1_000_000)
        let show = try result(d, "timer show a --last 1000")
        let firings = try #require(show["firings"] as? [[String: Any]])
        #expect(firings.count == 9)
        d.run("set timer.late-threshold 50ms")
        let strict = try result(d, "timer plot a")
        #expect(strict["late"] as? Int == 2)
        #expect(d.run("timer plot a --width 60").contains("╌ late threshold 50ms"))
    }

    @Test func aPausedDispatchTimerIsLateForItsPause() throws {
        let d = try driver([
            "timer gcd g --interval 100ms", "run 350ms", "timer pause g", "run 300ms", "timer resume g", "run 200ms",
        ])
        let plot = try result(d, "timer plot g")
        let causes = try #require(plot["causes"] as? [String: Any])
        #expect(causes["paused"] as? Int == 1 && plot["late"] as? Int == 1)
        #expect(d.run("timer plot g --width 40").contains("p late: paused"))
    }

    @Test func theSVGIsTheSameEveryRunAndDrawsAsAPNG() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-tplot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [Data] = []
        for k in 0..<2 {
            let path = dir.appendingPathComponent("a\(k).svg").path
            let d = try driver(TimerPlotTests.threeCauses)
            #expect(d.run("timer plot a \(path)").hasPrefix("wrote \(path) ("))
            files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(files[0] == files[1])
        let svg = String(decoding: files[0], as: UTF8.self)
        #expect(try SVGCheck.parseXML(svg).root == "{http://www.w3.org/2000/svg}svg")
        #expect(SVGCheck.pngSize(try SVGCheck.renderPNG(svg))?.width == 960)
        // One dot per firing: 1 on time, 8 late.
        #expect(svg.components(separatedBy: "<circle ").count - 1 == 9 + 4)  // + the legend's 4 dots
        #expect(svg.contains(">late threshold 1ms</text>"))
    }

    @Test func fromAndToNarrowTheChart() throws {
        let d = try driver(TimerPlotTests.threeCauses)
        let narrow = try result(d, "timer plot a --from 350ms --to 750ms")
        #expect(narrow["firings"] as? Int == 3 && narrow["first"] as? Int == 4 && narrow["last"] as? Int == 6)
        #expect(narrow["from_ns"] as? Int == 350_000_000 && narrow["to_ns"] as? Int == 750_000_000)
        let clamped = try result(d, "timer plot a --to 4611686018s")
        #expect(clamped["to_ns"] as? Int == 1_250_000_000)
        #expect(d.run("timer plot a --from 350ms --to 750ms --width 60").hasSuffix("from 350ms to 750ms"))
    }

    @Test func errorsSayWhatIsWrong() throws {
        try expectTranscript(
            """
            > timer plot clock
            error: unknown timer 'clock' (see 'timer list')
            > timer nstimer clock --interval 100ms --repeats
            > timer plot clok
            error: unknown timer 'clok'; did you mean 'clock'?
            > timer plot clock
            error: timer 'clock' has not fired yet: nothing to plot
            > run 1s
            > timer plot clock --from 1s
            error: nothing to plot from 1s: the simulation is at 1s
            > timer plot clock --from 4611686018s --to 1s
            error: --from 4611686018s is not before --to 1s
            > timer plot clock --to 50ms
            error: timer 'clock' has no firing kept between 0s and 50ms
            > timer plot clock plot.pdf
            error: the chart is written as SVG: name the file <name>.svg (got 'plot.pdf')
            > timer plot clock /dev/null.svg --height 20
            error: --width and --height size the chart in the terminal; an SVG file scales
            > timer plot clock /no/such/folder/clock.svg
            error: cannot write '/no/such/folder/clock.svg': No such file or directory
            > timer plot clock /
            error: the chart is written as SVG: name the file <name>.svg (got '/')
            > timer plot clock --height 3
            error: --height: '3' is outside 4…200
            """)
    }

    /// Only the last 1,000 firings are kept: the chart starts at the oldest and says so when
    /// asked for more.
    @Test func onlyTheKeptFiringsArePlotted() throws {
        let d = try driver(["timer nstimer fast --interval 1ms --repeats", "run 1500ms"])
        let plot = try result(d, "timer plot fast")
        #expect(plot["firings"] as? Int == 1000 && plot["first"] as? Int == 500 && plot["last"] as? Int == 1499)
        #expect(plot["from_ns"] as? Int == 500_000_000)
        let text = d.run("timer plot fast --from 0s --width 100")
        #expect(text.contains("only the last 1000 of 1499 firings are kept: none before 500ms"), "\(text)")
    }

    /// A firing at t = 0 (`asyncAfter` 0) and a plot at that same instant: no range to draw.
    @Test func aFiringAtTheStart() throws {
        let d = try driver(["timer after now 0s"])
        #expect(d.run("timer plot now").hasPrefix("error: "))
        d.run("run 1ms")
        #expect(
            d.run("timer plot now --width 100").hasSuffix(
                "1 firing (firing 1), 0 late, max lateness 0s, from 0s to 1ms"))
    }
}

/// The JSON result of one command, with --json on for it alone.
func result(_ d: Driver, _ command: String) throws -> [String: Any] {
    d.session.options.json = true
    defer { d.session.options.json = false }
    let line = d.run(command)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    return try #require(object["result"] as? [String: Any], "\(line)")
}

/// Issue 21: the timer's chart read back from its SVG — lateness in the unit that reads best,
/// 1-2-5 ticks, the threshold's tag beside the plot, and the chart from the timer's creation.
@Suite struct TimerPlotReadsRightTests {
    /// The chart `timer plot <name>` writes after `lines`, read back, and the driver.
    func chart(_ lines: [String], _ name: String, _ options: String = "") throws -> (SVGChart, Driver) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-tplot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.svg").path
        let d = try Driver()
        for line in lines { d.run(line) }
        let output = d.run("timer plot \(name) \(path) \(options)")
        try #require(output.hasPrefix("wrote \(path) ("), "\(output)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        return (SVGChart(svg), d)
    }

    /// Made at 5 s, late by 3 s and then by 11.9 s behind two stalls.
    static let madeAtFive = [
        "run 5s", "timer nstimer poll --interval 100ms --repeats", "run 1s", "stall 3s", "run 2s", "stall 12s",
        "run 14s",
    ]

    /// Fix 7: a timer made at 5 s is charted from 5 s: the x axis's left end is 5 s.
    @Test func theChartStartsAtTheTimersCreation() throws {
        let (chart, d) = try chart(TimerPlotReadsRightTests.madeAtFive, "poll")
        #expect(chart.title == "timer plot: poll, 5s to 22s")
        let panel = try #require(chart.panels.first)
        let left = try #require(chart.x(5))
        #expect(Swift.abs(left - panel.left) < 0.01, "5 s at \(left), the plot from \(panel.left)")
        let plot = try result(d, "timer plot poll")
        #expect(plot["from_ns"] as? Int == 5_000_000_000 && plot["first"] as? Int == 1)
        #expect(d.run("timer plot poll --width 80").hasPrefix("timer plot: poll, 5s to 22s\n"))
        // --from and --to still choose the span, before the creation too.
        let early = try result(d, "timer plot poll --from 0s --to 8s")
        #expect(early["from_ns"] as? Int == 0 && early["to_ns"] as? Int == 8_000_000_000)
        let (zero, _) = try self.chart(TimerPlotReadsRightTests.madeAtFive, "poll", "--from 0s")
        #expect(zero.title == "timer plot: poll, 0s to 22s")
        #expect(zero.x(0).map { Swift.abs($0 - (zero.panels.first?.left ?? -1)) < 0.01 } == true)
        // A timer made at 0 s starts at 0 s, as before.
        let plain = try result(try driver(["timer nstimer t --interval 100ms --repeats", "run 1s"]), "timer plot t")
        #expect(plain["from_ns"] as? Int == 0)
    }

    func driver(_ lines: [String]) throws -> Driver {
        let d = try Driver()
        for line in lines { d.run(line) }
        return d
    }

    /// Fix 5: lateness of seconds is drawn in seconds — the axis says s, its ticks count
    /// seconds — in ms below a second, in µs below a millisecond; the threshold keeps its
    /// exact duration in the legend.
    @Test func latenessIsInTheUnitThatReadsBest() throws {
        let (seconds, d) = try chart(TimerPlotReadsRightTests.madeAtFive, "poll")
        let panel = try #require(seconds.panels.first)
        #expect(panel.label == "lateness (s): how long after its scheduled time it ran")
        // 11.9 s on an axis of seconds: its top tick is a few seconds above, not 12000.
        let top = try #require(panel.yTicks.map(\.value).max())
        #expect(top >= 11.9 && top <= 20, "\(panel.yTicks.map(\.label))")
        #expect(seconds.texts("late threshold 1ms").count == 1)
        #expect(
            d.run("timer plot poll --width 80").contains("\nlateness (s): how long after its scheduled time it ran\n"))

        let (milliseconds, _) = try chart(TimerPlotTests.threeCauses, "a")
        let ms = try #require(milliseconds.panels.first)
        #expect(ms.label == "lateness (ms): how long after its scheduled time it ran")
        #expect(ms.yTicks.map(\.value).max().map { $0 >= 250 && $0 <= 400 } == true, "\(ms.yTicks.map(\.label))")

        let (micro, _) = try chart(
            ["set timer.late-threshold 200us", "timer nstimer t --interval 100ms --repeats", "run 1s"], "t")
        let us = try #require(micro.panels.first)
        #expect(us.label == "lateness (µs): how long after its scheduled time it ran")
        #expect(us.yTicks.map(\.value).max().map { $0 >= 200 && $0 <= 300 } == true, "\(us.yTicks.map(\.label))")
        // The threshold's line is at 200 µs on that axis.
        let rule = try #require(micro.elements.first { $0.name == "path" && $0["stroke"] == "#c83c3c" })
        let y200 = try #require(us.y(200))
        #expect(rule["d"]?.contains(" \(format(y200))H") == true, "\(rule)")
    }

    /// Fix 4 and 3: 1-2-5 ticks on both axes; the threshold's tag right of the plot, no dot
    /// under it.
    @Test(arguments: [0, 1, 2]) func ticksAreOneTwoFiveAndTheTagStandsAside(_ k: Int) throws {
        let cases: [([String], String)] = [
            (TimerPlotReadsRightTests.madeAtFive, "poll"), (TimerPlotTests.threeCauses, "a"),
            (
                [
                    "timer gcd g --interval 30ms", "run 350ms", "timer pause g", "run 1234ms", "timer resume g",
                    "run 777ms",
                ], "g"
            ),
        ]
        let (chart, d) = try chart(cases[k].0, cases[k].1)
        let panel = try #require(chart.panels.first)
        #expect(areOneTwoFiveTicks(chart.xTicks.map(\.value)), "\(chart.xTicks.map(\.label))")
        #expect(areOneTwoFiveTicks(panel.yTicks.map(\.value)), "\(panel.yTicks.map(\.label))")
        let tag = try #require(chart.texts("late").first)
        #expect((tag.number("x") ?? 0) >= panel.right)
        #expect(
            !chart.elements.contains {
                $0.name == "text" && $0.text.contains("threshold")
                    && panel.contains(x: $0.number("x") ?? 0, y: $0.number("y") ?? 0)
            })
        for height in [4, 10, 25] {
            let text = d.run("timer plot \(cases[k].1) --width 80 --height \(height)")
            let ticks = try #require(terminalTicks(text).first)
            #expect(ticks.count < 2 || areOneTwoFiveTicks(ticks, gaps: true), "\(ticks)\n\(text)")
            #expect(text.contains("╌ late"), "\(text)")
        }
    }
}

/// A coordinate as the SVG writes it: at most two decimals.
func format(_ v: Double) -> String {
    let scaled = Int((v * 100).rounded())
    let whole = scaled / 100
    let fraction = abs(scaled % 100)
    if fraction == 0 { return "\(whole)" }
    return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// The y tick labels of each panel of a terminal chart, as numbers.
func terminalTicks(_ text: String) -> [[Double]] {
    var panels: [[Double]] = []
    var current: [Double]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let bar = line.firstIndex(where: { "┤┼│".contains($0) }),
            line[..<bar].allSatisfy({ $0 == " " || $0.isNumber || $0 == "." || $0.isLetter })
        {
            if current == nil { current = [] }
            if let v = Double(line[..<bar].trimmingCharacters(in: .whitespaces)) { current?.append(v) }
        } else if let ticks = current {
            panels.append(ticks)
            current = nil
        }
    }
    if let ticks = current { panels.append(ticks) }
    return panels
}

/// Issue 32: a display link's chart names what it asks for and the rate it fired at, and marks
/// where it was invalidated.
@Suite struct TimerPlotLinkTests {
    static let link = [
        "display adaptive --min 10Hz --max 120Hz", "settings set app.high_frame_rates on",
        "timer displaylink g --range 80,120,120", "run 500ms", "scroll 200ms", "run 300ms", "timer invalidate g",
        "run 500ms",
    ]

    @Test func aLinksRateAndInvalidationAreShown() throws {
        let d = try Driver()
        for line in TimerPlotLinkTests.link { d.run(line) }
        let plot = try result(d, "timer plot g")
        let link = try #require(plot["link"] as? [String: Any])
        #expect(link["asked"] as? String == "range 80,120,120" && link["fired_hz"] as? String == "120")
        #expect(plot["invalidated_ns"] as? Int == 800_000_000)
        let text = d.run("timer plot g")
        #expect(text.hasPrefix("timer plot: g, 0s to 1.3s · range 80,120,120, fired at 120 Hz\n"), "\(text)")
        #expect(text.contains("░ invalidated") && text.contains("invalidated\nat 800ms"), "\(text)")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-tplot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.svg").path
        _ = d.run("timer plot g \(path)")
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        _ = try SVGCheck.renderPNG(svg)
        let chart = SVGChart(svg)
        #expect(chart.title == "timer plot: g, 0s to 1.3s · range 80,120,120, fired at 120 Hz")
        // The time after the invalidation is shaded from its instant to the right edge.
        let shade = try #require(chart.elements.first { $0.name == "rect" && $0["fill"] == "#eee2e2" })
        let at = try #require(chart.x(0.8))
        let panel = try #require(chart.panels.first)
        #expect(Swift.abs((shade.number("x") ?? 0) - at) < 0.01, "\(shade)")
        #expect(Swift.abs((shade.number("x") ?? 0) + (shade.number("width") ?? 0) - panel.right) < 0.01)

        // A timer that is not a link, never invalidated: neither.
        d.run("timer nstimer t --interval 100ms --repeats")
        d.run("run 300ms")
        let plain = try result(d, "timer plot t")
        #expect(plain["link"] is NSNull && plain["invalidated_ns"] is NSNull)
    }
}
