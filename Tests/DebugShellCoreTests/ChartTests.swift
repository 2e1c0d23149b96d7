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
