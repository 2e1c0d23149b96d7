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
