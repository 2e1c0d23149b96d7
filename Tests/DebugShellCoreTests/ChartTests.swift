import DebugShellCharts
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

/// The chart model and its two renderers: exact text for the terminal, a well-formed,
/// self-contained and deterministic SVG that rsvg-convert draws, and no trap on any input.
@Suite struct ChartTests {
    static let grey = RGB(120, 144, 156)

    /// Bars with a mark and a rule over two panels, steps and points, a span and a note.
    static var small: Chart {
        var onTime = ChartSeries("on time", style: .bars, color: grey)
        onTime.points = [ChartPoint(x: 1, y: 10, start: 0), ChartPoint(x: 2, y: 10, start: 1)]
        var late = ChartSeries("late", style: .bars, color: RGB(214, 69, 65), mark: "l")
        late.points = [ChartPoint(x: 3, y: 30, start: 2)]
        var level = ChartSeries("level", style: .steps, color: RGB(33, 113, 181), symbol: "─")
        level.points = [ChartPoint(x: 2, y: 60, start: 0), ChartPoint(x: 4, y: 30)]
        var dots = ChartSeries("dots", style: .points, color: RGB(46, 160, 67), symbol: "o")
        dots.points = [ChartPoint(x: 0.5, y: 0), ChartPoint(x: 3.5, y: 45)]
        return Chart(
            title: "a small chart",
            xAxis: ChartAxis(label: "time (s)", unit: "s", lower: 0, upper: 4),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "ms", lower: 0), series: [onTime, late],
                    rules: [ChartRule(y: 20, label: "budget", color: grey)], weight: 2, markLabel: "late"),
                ChartPanel(
                    yAxis: ChartAxis(label: "fps", lower: 0, upper: 60, ticks: [0, 30, 60], tickDecimals: 0),
                    series: [level, dots]),
            ],
            spans: [ChartSpan(from: 2.5, to: 4, label: "scroll", color: RGB(214, 230, 245))],
            notes: ["a note"])
    }

    @Test func theTerminalChartIsExactText() {
        #expect(
            ChartTests.small.terminal(width: 32, height: 9) == """
                a small chart
                ms
                    40 ┤
                       │            ▄▄▄▄▄▄
                       │            ██████
                    20 ┤╌╌╌╌╌╌╌╌╌╌╌╌██████╌╌╌╌╌╌
                       │▄▄▄▄▄▄▄▄▄▄▄▄██████
                       │██████████████████
                     0 ┼────────────────────────
                  late │            llllll
                fps
                    60 ┤────────────         o
                    30 ┤            ────────────
                     0 ┤   o
                scroll │               ░░░░░░░░░
                       └┬───────────┬──────────┬
                        0s          2s        4s
                                time (s)
                █ on time  l late  ╌ budget
                ─ level  o dots  ░ scroll
                a note
                """)
    }

    /// Colour adds SGR codes around the data and nothing else.
    @Test func colourOnlyAddsEscapeCodes() {
        let coloured = ChartTests.small.terminal(width: 32, height: 9, color: true)
        #expect(coloured.contains("\u{1B}[38;2;214;69;65m██████\u{1B}[0m"))
        #expect(stripEscapes(coloured) == ChartTests.small.terminal(width: 32, height: 9))
    }

    /// Each line fits the width asked for, whatever the width.
    @Test(arguments: [24, 40, 80, 133]) func linesFitTheWidth(_ width: Int) {
        let chart = ChartTests.small
        for line in chart.terminal(width: width, height: 12).split(separator: "\n") {
            #expect(line.count <= width, "\(line)")
        }
    }

    @Test func theSVGIsDeterministicSelfContainedAndDrawable() throws {
        let svg = ChartTests.small.svg()
        #expect(svg == ChartTests.small.svg())
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // No scripts, style sheets, fonts to fetch or links: the namespace is the only URL.
        for banned in ["<script", "<style", "href", "url(", "@import", "@font-face", "<foreignObject", "<image"] {
            #expect(!svg.contains(banned), "\(banned)")
        }
        #expect(svg.components(separatedBy: "http").count == 2)
        let parsed = try SVGCheck.parseXML(svg)
        #expect(parsed.root == "{http://www.w3.org/2000/svg}svg")
        #expect(parsed.elements > 20)
        let png = try SVGCheck.renderPNG(svg)
        let size = try #require(SVGCheck.pngSize(png), "not a PNG")
        #expect(size.width == 960 && size.height > 400)
    }

    /// Markup in the user's words is escaped; control characters XML forbids are dropped.
    @Test func textIsEscaped() throws {
        var chart = ChartTests.small
        chart.title = "a < b & \"c\" > 'd' \u{01}"
        chart.panels[0].series[0].name = "<script>alert(1)</script>"
        let svg = chart.svg()
        #expect(svg.contains("a &lt; b &amp; &quot;c&quot; &gt; &apos;d&apos; </text>"))
        #expect(!svg.contains("<script"))
        _ = try SVGCheck.parseXML(svg)
    }

    /// Empty charts, no data, values that are not finite, one point, huge and negative values,
    /// absurd sizes: every one draws, in both forms.
    @Test(arguments: Array(ChartTests.oddCharts.indices)) func anyChartDraws(_ index: Int) throws {
        let chart = ChartTests.oddCharts[index]
        for (width, height) in [(0, 0), (-5, -5), (24, 2), (80, 15), (5000, 900)] {
            let text = chart.terminal(width: width, height: height)
            #expect(text.hasPrefix(String(chart.title.prefix(10))))
            #expect(text == chart.terminal(width: width, height: height))
        }
        let svg = chart.svg()
        #expect(svg == chart.svg())
        // Every coordinate is a number.
        let attribute = try NSRegularExpression(pattern: "=\"[^\"]*(nan|inf|∞)")
        #expect(attribute.firstMatch(in: svg, range: NSRange(svg.startIndex..., in: svg)) == nil)
        _ = try SVGCheck.parseXML(svg)
        #expect(SVGCheck.pngSize(try SVGCheck.renderPNG(svg))?.width == 960)
    }

    static let oddCharts: [Chart] = {
        let x = ChartAxis(label: "x")
        func panel(_ points: [ChartPoint], style: ChartSeries.Style = .bars, axis: ChartAxis = ChartAxis(label: "y"))
            -> ChartPanel
        {
            ChartPanel(
                yAxis: axis, series: [ChartSeries("s", style: style, color: grey, mark: "s", points: points)],
                rules: [ChartRule(y: .nan, label: "nan", color: grey)])
        }
        let weird = [
            ChartPoint(x: .nan, y: 1), ChartPoint(x: 1, y: .infinity), ChartPoint(x: -.infinity, y: 2, start: .nan),
            ChartPoint(x: 2, y: 3, start: 5),
        ]
        var charts = [
            Chart(title: "no panels", xAxis: x, panels: []),
            Chart(title: "no series", xAxis: x, panels: [ChartPanel(yAxis: ChartAxis(label: "y"))]),
            Chart(
                title: "one point", xAxis: x, panels: [panel([ChartPoint(x: 3, y: 7)], style: .points)],
                spans: [ChartSpan(from: 5, to: 1, label: "backwards", color: grey)]),
            Chart(
                title: "huge", xAxis: x,
                panels: [panel([ChartPoint(x: -1e300, y: 1e300, start: -1.7e308), ChartPoint(x: 1e300, y: -1e300)])]),
            Chart(
                title: "fixed range, data outside", xAxis: ChartAxis(label: "x", lower: 10, upper: 10),
                panels: [
                    panel(
                        [ChartPoint(x: 0, y: 100), ChartPoint(x: 20, y: -5)], style: .line,
                        axis: ChartAxis(label: "y", lower: 5, upper: 1, ticks: [.nan, 3, 1e300]))
                ]),
            Chart(
                title: "spans only", xAxis: x, panels: [], spans: [ChartSpan(from: 0, to: 1, label: "", color: grey)]),
        ]
        for style in [ChartSeries.Style.bars, .steps, .line, .points] {
            charts.append(Chart(title: "not finite \(style)", xAxis: x, panels: [panel(weird, style: style)]))
        }
        return charts
    }()
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

/// Issue 21, in the library: strokes that keep coinciding series apart, rules that step along x
/// with their tags beside the plot, 1-2-5 ticks on any range, duration axes in the unit that
/// reads best, and a note on an empty panel.
@Suite struct ChartReadsRightTests {
    static let blue = RGB(33, 113, 181)
    static let green = RGB(46, 160, 67)

    static func twoLines(_ a: [ChartPoint], _ b: [ChartPoint]) -> Chart {
        Chart(
            title: "two lines", xAxis: ChartAxis(label: "time (s)", unit: "s", lower: 0, upper: 2),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "fps", lower: 0),
                    series: [
                        ChartSeries(
                            "under", style: .steps, color: blue, symbol: "─", stroke: ChartStroke(width: 5), points: a),
                        ChartSeries(
                            "over", style: .steps, color: green, symbol: "━",
                            stroke: ChartStroke(width: 2.5, dash: [8, 5]),
                            points: b),
                    ], overlapLabel: "both")
            ])
    }

    /// Each series keeps its stroke, in the plot and in the legend; in the terminal the cells
    /// both lines share are `═`, named in the legend, and only those.
    @Test func coincidingSeriesStayApart() throws {
        let same = [ChartPoint(x: 1, y: 60, start: 0), ChartPoint(x: 2, y: 60, start: 1)]
        let chart = ChartReadsRightTests.twoLines(same, same)
        let read = SVGChart(chart.svg())
        let paths = read.elements.filter { $0.name == "path" }
        #expect(paths.map { $0["stroke-width"] } == ["5", "2.5"])
        #expect(paths.map { $0["stroke-dasharray"] } == [nil, "8 5"])
        #expect(paths[0]["d"] == paths[1]["d"])
        let swatches = read.elements.filter { $0.name == "line" && $0["stroke"] == "#2ea043" }
        #expect(swatches.count == 1 && swatches.first?["stroke-dasharray"] == "8 5")
        let text = chart.terminal(width: 40, height: 5)
        #expect(text.contains("60 ┤" + String(repeating: "═", count: 36)), "\(text)")
        #expect(text.contains("═ both"), "\(text)")
        // Apart, each draws its own symbol and the legend has no overlap entry.
        let apart = ChartReadsRightTests.twoLines(same, same.map { ChartPoint(x: $0.x, y: 30, start: $0.start) })
        let text2 = apart.terminal(width: 40, height: 5)
        #expect(!text2.contains("═"), "\(text2)")
        #expect(text2.contains("━━━━") && text2.contains("────"), "\(text2)")
    }

    /// A rule with changes is one stepped path across the plot, its tag right of the plot at
    /// its last level; two rules ending on one value keep their tags apart; the terminal draws
    /// each level on its row and writes the tags after the rows.
    @Test func rulesStepAndTheirTagsStandAside() throws {
        var bars = ChartSeries("frames", style: .bars, color: RGB(120, 144, 156))
        bars.points = (1...40).map { ChartPoint(x: Double($0) / 10, y: 30, start: Double($0 - 1) / 10) }
        let chart = Chart(
            title: "rules", xAxis: ChartAxis(label: "time (s)", unit: "s", lower: 0, upper: 4),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "ms", lower: 0), series: [bars],
                    rules: [
                        ChartRule(
                            y: 16, label: "budget", color: RGB(90, 90, 90), changes: [ChartRule.Change(x: 1, y: 8)],
                            tag: "1×"),
                        ChartRule(y: 8, label: "other", color: RGB(200, 60, 60), tag: "2×"),
                    ])
            ])
        let read = SVGChart(chart.svg())
        let panel = try #require(read.panels.first)
        let rule = try #require(read.elements.first { $0.name == "path" && $0["stroke"] == "#5a5a5a" })
        let x1 = try #require(read.x(1))
        let y16 = try #require(panel.y(16))
        let y8 = try #require(panel.y(8))
        #expect(
            rule["d"] == "M\(n(panel.left)) \(n(y16))H\(n(x1))V\(n(y8))H\(n(panel.right))", "\(rule)")
        var boxes: [(Double, Double)] = []
        for tag in ["1×", "2×"] {
            let text = try #require(read.texts(tag).first)
            #expect((text.number("x") ?? 0) > panel.right)
            let y = try #require(text.number("y"))
            boxes.append((y - 11, y + 3))
        }
        #expect(boxes[0].0 >= boxes[1].1 || boxes[1].0 >= boxes[0].1, "\(boxes)")
        // No words of a rule inside the plot.
        #expect(
            read.elements.filter { $0.name == "text" && panel.contains(x: $0.number("x") ?? 0, y: $0.number("y") ?? 0) }
                .isEmpty)
        let text = chart.terminal(width: 40, height: 8)
        #expect(text.contains(" 1×/2×\n"), "\(text)")
        // A rule without a tag leaves the width to the plot.
        var untagged = chart
        untagged.panels[0].rules = untagged.panels[0].rules.map {
            var r = $0; r.tag = nil; return r
        }
        #expect(!untagged.terminal(width: 40, height: 8).contains("×"))
        #expect(untagged.svg().contains("width=\"864\""))  // 960 − 72 − 24: the plot's frame
    }

    /// Automatic ticks are 1, 2 or 5 × 10^k apart, and multiples of it, whatever the range — on
    /// both axes of the SVG and on the terminal's rows.
    @Test(
        arguments: [
            (0.0, 1.0), (0.0, 16.7), (0.0, 41.7), (0.0, 83.3), (0.0, 13_333.3), (3.7, 9.1), (-12.5, 30.0),
            (0.0, 2_000_000.0),
            (0.0002, 0.0009), (5.0, 22.0), (0.0, 0.0005), (1e6, 1e6 + 3),
        ] as [(Double, Double)])
    func ticksAreOneTwoFive(_ lower: Double, _ upper: Double) throws {
        var line = ChartSeries("s", style: .line, color: ChartReadsRightTests.blue)
        line.points = [ChartPoint(x: lower, y: lower), ChartPoint(x: upper, y: upper)]
        var bars = ChartSeries("b", style: .bars, color: ChartReadsRightTests.green)
        bars.points = [ChartPoint(x: upper, y: upper - lower, start: lower)]
        let chart = Chart(
            title: "range", xAxis: ChartAxis(label: "x"),
            panels: [
                ChartPanel(yAxis: ChartAxis(label: "bars", lower: 0), series: [bars], weight: 2),
                ChartPanel(yAxis: ChartAxis(label: "line"), series: [line]),
            ])
        let read = SVGChart(chart.svg())
        #expect(areOneTwoFiveTicks(read.xTicks.map(\.value)), "\(read.xTicks.map(\.label))")
        for panel in read.panels {
            #expect(areOneTwoFiveTicks(panel.yTicks.map(\.value)), "\(panel.label): \(panel.yTicks.map(\.label))")
        }
        for height in [6, 10, 15, 40] {
            let text = chart.terminal(width: 80, height: height)
            for ticks in terminalTicks(text) where ticks.count >= 2 {
                #expect(areOneTwoFiveTicks(ticks, gaps: true), "\(ticks)\n\(text)")
            }
        }
    }

    /// A duration axis (values in seconds) is labelled in s from a second, in ms from a
    /// millisecond, in µs below; its label names the unit; its rules sit at their durations.
    @Test(arguments: [(12.0, "s", 12.0), (0.25, "ms", 250), (0.0004, "µs", 400), (2000.0, "s", 2000)])
    func durationsReadInTheirUnit(_ highest: Double, _ unit: String, _ shown: Double) throws {
        var dots = ChartSeries("late", style: .points, color: ChartReadsRightTests.blue)
        dots.points = [ChartPoint(x: 0, y: 0), ChartPoint(x: 1, y: highest)]
        let chart = Chart(
            title: "lateness", xAxis: ChartAxis(label: "time (s)", unit: "s"),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "lateness ({unit}): how late", lower: 0, quantity: .duration),
                    series: [dots],
                    rules: [ChartRule(y: highest / 2, label: "half", color: RGB(200, 60, 60), tag: "½")])
            ])
        let read = SVGChart(chart.svg())
        let panel = try #require(read.panels.first)
        #expect(panel.label == "lateness (\(unit)): how late")
        let top = try #require(panel.yTicks.map(\.value).max())
        #expect(top >= shown && top <= shown * 2, "\(panel.yTicks.map(\.label))")
        #expect(areOneTwoFiveTicks(panel.yTicks.map(\.value)))
        // The dot at `highest` is where the axis puts `shown`.
        let dot = try #require(read.elements.last { $0.name == "circle" && $0.inherited["fill"] == "#2171b5" })
        let y = try #require(panel.y(shown))
        #expect(Swift.abs((dot.number("cy") ?? 0) - y) < 0.02)
        let text = chart.terminal(width: 60, height: 8)
        #expect(text.contains("\nlateness (\(unit)): how late\n"), "\(text)")
    }

    /// A panel with no data in the span writes its note inside itself (the default says there is
    /// no data), between its rules, in the SVG and in the terminal; a panel with data does not.
    @Test func anEmptyPanelHasANote() throws {
        var data = ChartSeries("s", style: .steps, color: ChartReadsRightTests.blue)
        data.points = [ChartPoint(x: 1, y: 5, start: 0)]
        let chart = Chart(
            title: "empty", xAxis: ChartAxis(label: "x", lower: 0, upper: 1),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "a", lower: 0),
                    series: [ChartSeries("bars", style: .bars, color: ChartReadsRightTests.green)],
                    rules: [ChartRule(y: 10, label: "r", color: RGB(90, 90, 90))],
                    emptyNote: "nothing here\nhow to get something"),
                ChartPanel(
                    yAxis: ChartAxis(label: "b"),
                    series: [ChartSeries("none", style: .line, color: ChartReadsRightTests.blue)]),
                ChartPanel(yAxis: ChartAxis(label: "c"), series: [data]),
            ])
        let read = SVGChart(chart.svg())
        try #require(read.panels.count == 3)
        for (words, panel) in [("nothing here", 0), ("how to get something", 0), ("no data in this span", 1)] {
            let text = try #require(read.texts(words).first, "\(words)")
            #expect(read.panels[panel].contains(x: text.number("x") ?? 0, y: text.number("y") ?? 0))
        }
        // The note keeps off the rule.
        let ruleY = try #require(read.panels[0].y(10))
        for words in ["nothing here", "how to get something"] {
            let y = try #require(read.texts(words).first?.number("y"))
            #expect(Swift.abs(y - ruleY) > 12 && Swift.abs(y - 4 - ruleY) > 8, "\(words) at \(y), the rule at \(ruleY)")
        }
        // Nothing to measure, no numbers: the empty panel without rules has no ticks.
        #expect(read.panels[1].yTicks.isEmpty && !read.panels[0].yTicks.isEmpty)
        #expect(read.texts("no data in this span").count == 1)
        let text = chart.terminal(width: 50, height: 12)
        for words in ["nothing here", "how to get something", "no data in this span"] {
            #expect(text.contains(words), "\(text)")
        }
        #expect(!text.split(separator: "\n").contains { $0.contains("nothing here") && $0.contains("╌") })
    }
}

/// A coordinate as the SVG writes it.
private func n(_ v: Double) -> String {
    let scaled = Int((v * 100).rounded())
    let whole = scaled / 100
    let fraction = abs(scaled % 100)
    if fraction == 0 { return "\(whole)" }
    return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// The y tick labels of each panel of a terminal chart, as numbers.
private func terminalTicks(_ text: String) -> [[Double]] {
    var panels: [[Double]] = []
    var current: [Double]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let bar = line.firstIndex(where: { "┤┼│".contains($0) }),
            line[..<bar].allSatisfy({ $0 == " " || $0.isNumber || $0 == "." || $0 == "-" || $0.isLetter })
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
