import DebugShellCore

/// A chart: panels stacked over one shared x axis, drawn as a standalone SVG or as text for a
/// terminal.
///
/// A tool builds a chart from its data and draws it with ``svg()`` for a file (see
/// ``OutputFile``) or with ``terminal(width:height:color:)`` for a command's text. Both are
/// deterministic — the same chart gives the same bytes on every machine — and need no
/// Foundation: numbers are written from rounded integers, never with the C library's `printf`.
///
/// ```swift
/// var frames = ChartSeries("frame time", style: .bars, color: RGB(120, 144, 156))
/// frames.points = [ChartPoint(x: 0.033, y: 16.7, start: 0.017), ChartPoint(x: 0.067, y: 33.3, start: 0.033)]
/// let chart = Chart(
///     title: "frame time per present",
///     xAxis: ChartAxis(label: "time (s)", unit: "s"),
///     panels: [ChartPanel(yAxis: ChartAxis(label: "frame time (ms)", lower: 0), series: [frames])])
/// let text = chart.terminal(width: 80, height: 10)
/// ```
///
/// Values that are not finite are left out; points outside an axis's range are clipped to it;
/// an empty or zero-width range is widened, so that any chart draws.
public struct Chart: Sendable {
    /// The line at the top.
    public var title: String
    /// The shared x axis, drawn under the last panel.
    public var xAxis: ChartAxis
    /// The panels, top to bottom.
    public var panels: [ChartPanel]
    /// Stretches of x shaded across every panel (a run-loop mode, a scroll).
    public var spans: [ChartSpan]
    /// Lines of text under the legend (what was left out, where the data came from).
    public var notes: [String]

    public init(
        title: String, xAxis: ChartAxis, panels: [ChartPanel], spans: [ChartSpan] = [], notes: [String] = []
    ) {
        self.title = title
        self.xAxis = xAxis
        self.panels = panels
        self.spans = spans
        self.notes = notes
    }
}

/// One axis: its label, the unit its tick labels carry, and its range and ticks when they are
/// not to be taken from the data.
public struct ChartAxis: Sendable {
    /// The axis's name, with its unit: `time (s)`, `frame time (ms)`.
    public var label: String
    /// A suffix for tick labels on the x axis (`s` gives `0s 1s 2s`); the y axes show bare numbers.
    public var unit: String
    /// The lowest value shown; nil: the data's lowest, or 0 when the data is all positive.
    public var lower: Double?
    /// The highest value shown; nil: the data's (and the rules') highest, rounded up to a tick.
    public var upper: Double?
    /// Where the ticks are; nil: about five round numbers (1, 2 or 5 times a power of ten).
    public var ticks: [Double]?
    /// At most this many decimals in the labels of explicit ``ticks`` (trailing zeros trimmed);
    /// automatic ticks show as many as their step needs.
    public var tickDecimals: Int
    /// What the values are: plain numbers, or durations shown in the unit that reads best.
    public var quantity: ChartQuantity
    /// Values the range must reach though nothing is drawn at them: with ``lower`` and ``upper``
    /// left to the data, panels that set each other's highest here share one scale (see
    /// ``Chart/sharingYScale(of:)``).
    public var covers: [Double] = []

    /// Where ``label`` names the unit of a ``ChartQuantity/duration`` axis: `lateness ({unit})`
    /// reads `lateness (ms)` on an axis shown in milliseconds, `lateness (s)` in seconds.
    public static let unitPlaceholder = "{unit}"

    public init(
        label: String, unit: String = "", lower: Double? = nil, upper: Double? = nil, ticks: [Double]? = nil,
        tickDecimals: Int = 1, quantity: ChartQuantity = .number
    ) {
        self.label = label
        self.unit = unit
        self.lower = lower
        self.upper = upper
        self.ticks = ticks
        self.tickDecimals = tickDecimals
        self.quantity = quantity
    }
}

/// What an axis's values are.
public enum ChartQuantity: Sendable, Hashable {
    /// Numbers, labelled as they are.
    case number
    /// Durations in seconds — the points, rules, range and ticks of the axis alike — labelled in
    /// the unit the axis's highest value reads best in, as debugsh prints durations: seconds from
    /// 1 s, milliseconds from 1 ms, microseconds below. The axis's label names the unit where it
    /// says ``ChartAxis/unitPlaceholder``.
    case duration
}

/// One panel: a y axis with its series and horizontal rules.
public struct ChartPanel: Sendable {
    public var yAxis: ChartAxis
    /// Drawn in order: a later series is drawn over an earlier one.
    public var series: [ChartSeries]
    /// Horizontal lines across the panel (a budget, a threshold).
    public var rules: [ChartRule]
    /// The panel's share of the chart's height, against the other panels' weights.
    public var weight: Int
    /// The name of the terminal row that shows the ``ChartSeries/mark`` of each series, beside
    /// the axis (`hitch`).
    public var markLabel: String
    /// Written in the middle of the panel when none of its series has a point in the chart's span:
    /// what is missing and how to get it. A panel is never left blank without a word.
    public var emptyNote: String
    /// The legend's name for the terminal's `═`, drawn where two lines or steps share a cell (each
    /// series keeps its own symbol elsewhere). In an SVG, strokes tell coinciding series apart.
    public var overlapLabel: String

    public init(
        yAxis: ChartAxis, series: [ChartSeries] = [], rules: [ChartRule] = [], weight: Int = 1, markLabel: String = "",
        emptyNote: String = "no data in this span", overlapLabel: String = "lines on one row"
    ) {
        self.yAxis = yAxis
        self.series = series
        self.rules = rules
        self.weight = weight
        self.markLabel = markLabel
        self.emptyNote = emptyNote
        self.overlapLabel = overlapLabel
    }
}

/// A named series of points, drawn in one style and colour.
public struct ChartSeries: Sendable {
    /// How a series is drawn.
    public enum Style: Sendable, Hashable {
        /// A bar from 0 to y for each point: over `[start, x]` when the point has a start (a
        /// frame's time, from the previous present to its own), else a thin bar at x. In the
        /// terminal, each column shows its tallest bar in eighths of a row.
        case bars
        /// y held over `[start, x]`, or from the previous point's x when the point has no start.
        case steps
        /// Straight lines from point to point.
        case line
        /// A dot per point; in the terminal, the series' ``ChartSeries/symbol``.
        case points
    }

    /// The name the legend shows.
    public var name: String
    public var style: Style
    public var color: RGB
    /// The character that draws the series in the terminal (steps, lines, points) and stands
    /// for it in the legend.
    public var symbol: Character
    /// A character written in the panel's mark row under every column the series has a point
    /// in (a later series' mark wins): how the terminal tells series apart without colour.
    public var mark: Character?
    /// How a line or steps series is stroked in an SVG (and its legend swatch): nil for the
    /// style's own, a solid line 2 pixels wide (1.5 for ``Style/line``). Where two series may
    /// coincide, draw the lower one wide and solid and the upper one thinner and dashed, so that
    /// each shows where they meet.
    public var stroke: ChartStroke?
    public var points: [ChartPoint]

    public init(
        _ name: String, style: Style, color: RGB, symbol: Character = "•", mark: Character? = nil,
        stroke: ChartStroke? = nil, points: [ChartPoint] = []
    ) {
        self.name = name
        self.style = style
        self.color = color
        self.symbol = symbol
        self.mark = mark
        self.stroke = stroke
        self.points = points
    }
}

/// How a line is stroked in an SVG: its width and its dash pattern, in pixels.
public struct ChartStroke: Sendable, Hashable {
    public var width: Double
    /// Dash and gap lengths, alternating (SVG's `stroke-dasharray`); empty for a solid line.
    public var dash: [Double]

    public init(width: Double, dash: [Double] = []) {
        self.width = width
        self.dash = dash
    }
}

/// A point; bars and steps may also cover an interval of x that ends at it.
public struct ChartPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    /// Where the point's interval starts: bars fill, and steps hold, from here to ``x``.
    public var start: Double?

    public init(x: Double, y: Double, start: Double? = nil) {
        self.x = x
        self.y = y
        self.start = start
    }
}

/// A horizontal line at a value of the panel's y axis — a budget, a threshold — that may step
/// to another value along x (a budget that follows the refresh rate).
public struct ChartRule: Sendable {
    /// A level the rule takes from an x on.
    public struct Change: Sendable, Hashable {
        public var x: Double
        public var y: Double
        /// Written on the rule at the start of the level that begins here (`120 Hz`), where the
        /// level is wide enough for it; nil: none.
        public var label: String?

        public init(x: Double, y: Double, label: String? = nil) {
            self.x = x
            self.y = y
            self.label = label
        }
    }

    /// The value from the left edge, up to the first change.
    public var y: Double
    /// The legend's entry.
    public var label: String
    public var color: RGB
    public var dashed: Bool
    /// From each change's x on, the rule is at its y; in order of x.
    public var changes: [Change]
    /// A short name written at the rule's right end, outside the plot, where no data covers it
    /// (`1×`, `threshold`): in an SVG in the margin right of the plot, in the terminal after the
    /// row's last column. Nil: the legend alone names the rule.
    public var tag: String?
    /// Written on the rule at the start of its first level, as ``Change/label`` is at each later
    /// one: each stretch of a rule that steps names its own level (`60 Hz`, then `120 Hz`).
    public var levelLabel: String?
    /// Whether only the levels over the panel's data set the y axis: a level where nothing is
    /// drawn (a budget while the display idles at 10 Hz) then does not stretch the axis past the
    /// data, and is not drawn when it lies above it. A panel without data counts every level.
    public var scalesWithDataOnly: Bool

    public init(
        y: Double, label: String, color: RGB, dashed: Bool = true, changes: [Change] = [], tag: String? = nil,
        levelLabel: String? = nil, scalesWithDataOnly: Bool = false
    ) {
        self.y = y
        self.label = label
        self.color = color
        self.dashed = dashed
        self.changes = changes
        self.tag = tag
        self.levelLabel = levelLabel
        self.scalesWithDataOnly = scalesWithDataOnly
    }

    /// The rule's value at `x`: the last change at or before it, else ``y``.
    public func value(at x: Double) -> Double {
        var v = y
        for change in changes where change.x <= x { v = change.y }
        return v
    }

    /// The levels the rule takes across `[lower, upper]`: each from its x to the next's, the first
    /// from `lower`, the last to `upper`. Values that are not finite are left out.
    func levels(lower: Double, upper: Double) -> [(from: Double, to: Double, y: Double, label: String?)] {
        var result: [(from: Double, to: Double, y: Double, label: String?)] = []
        var from = lower
        var level = y
        var label = levelLabel
        for change in changes where change.x.isFinite {
            if change.x <= lower {
                level = change.y
                label = change.label
                continue
            }
            if change.x >= upper { break }
            if change.x > from { result.append((from, change.x, level, label)) }
            from = change.x
            level = change.y
            label = change.label
        }
        if upper > from { result.append((from, upper, level, label)) }
        return result.filter { $0.y.isFinite }
    }

    /// Every value it takes, for the y axis's range.
    var values: [Double] { [y] + changes.map(\.y) }
}

/// A stretch of x shaded across every panel; spans with the same label share a legend entry and,
/// in the terminal, a row under the panels.
public struct ChartSpan: Sendable {
    public var from: Double
    public var to: Double
    public var label: String
    /// A light colour: the span is drawn behind the data.
    public var color: RGB

    public init(from: Double, to: Double, label: String, color: RGB) {
        self.from = from
        self.to = to
        self.label = label
        self.color = color
    }
}

// MARK: - Scales shared by both renderers

/// A resolved axis: its range and its ticks with their labels.
struct ChartScale {
    var lower: Double
    var upper: Double
    var ticks: [(value: Double, label: String)]
    /// The unit a ``ChartQuantity/duration`` axis is shown in (`s`, `ms`, `µs`); empty otherwise.
    var unitName = ""

    var span: Double { upper - lower }

    /// `v`'s place on the axis, 0 at ``lower`` and 1 at ``upper``.
    func fraction(_ v: Double) -> Double { (v - lower) / span }

    /// The axis's label, its unit named where it says ``ChartAxis/unitPlaceholder``.
    func label(_ axis: ChartAxis) -> String {
        ChartText.replacing(ChartAxis.unitPlaceholder, with: unitName, in: axis.label)
    }

    /// The x scale: the axis's range, or the data's.
    static func x(_ axis: ChartAxis, chart: Chart, target: Int) -> ChartScale {
        var values: [Double] = []
        for panel in chart.panels {
            for series in panel.series {
                for p in series.points {
                    values.append(p.x)
                    if let s = p.start { values.append(s) }
                }
            }
        }
        for span in chart.spans { values += [span.from, span.to] }
        let finite = values.filter(\.isFinite)
        let lower = axis.lower.flatMap { $0.isFinite ? $0 : nil } ?? finite.min() ?? 0
        let upper = axis.upper.flatMap { $0.isFinite ? $0 : nil } ?? finite.max() ?? 1
        return resolve(axis, lower: lower, upper: upper, roundUp: false, target: target)
    }

    /// A panel's y scale: the axis's range, or 0 (or the data's lowest, when below 0) up to the
    /// data's and the rules' highest (the rules' levels within `x`), rounded up to a tick.
    static func y(_ panel: ChartPanel, x: ChartScale, target: Int) -> ChartScale {
        var values = panel.ruleValues(lower: x.lower, upper: x.upper) + panel.yAxis.covers
        for series in panel.series { values += series.points.map(\.y) }
        let finite = values.filter(\.isFinite)
        let axis = panel.yAxis
        let lower = axis.lower.flatMap { $0.isFinite ? $0 : nil } ?? min(0, finite.min() ?? 0)
        let upper = axis.upper.flatMap { $0.isFinite ? $0 : nil } ?? finite.max() ?? 1
        return resolve(axis, lower: lower, upper: upper, roundUp: axis.upper == nil, target: target)
    }

    /// A terminal panel's y scale where every one of its `rows` rows stands for a round value (1,
    /// 2 or 5 times a power of ten, times the row's number), so that a tick labels exactly the
    /// row it is on: a line drawn on a row labelled 60 is at 60 (a panel of lines, steps and
    /// points: its rows are values, the lowest at the axis's lower end), and a bar reaching the
    /// top of a row labelled 20 is 20 tall (a panel with bars: its rows are bands over the
    /// baseline, each row's top edge a value). Nil when the axis fixes its range or ticks.
    static func rows(_ panel: ChartPanel, x: ChartScale, rows: Int) -> ChartScale? {
        let axis = panel.yAxis
        let bands = panel.series.contains { $0.style == .bars }
        guard axis.upper == nil, axis.ticks == nil, rows >= 2 else { return nil }
        var values = panel.ruleValues(lower: x.lower, upper: x.upper) + axis.covers
        for series in panel.series { values += series.points.map(\.y) }
        let finite = values.filter(\.isFinite)
        var lower = axis.lower.flatMap { $0.isFinite ? $0 : nil } ?? min(0, finite.min() ?? 0)
        var upper = finite.max() ?? 1
        var unitName = ""
        var factor = 1.0
        if axis.quantity == .duration { (unitName, factor) = durationUnit(lower: lower, upper: upper) }
        lower *= factor
        upper *= factor
        if !(upper > lower) { upper = lower + (lower == 0 ? 1 : Swift.abs(lower) / 2) }
        guard (upper - lower).isFinite, upper > lower else { return nil }
        let intervals = Double(bands ? rows : rows - 1)
        var step = ChartNumber.niceAtLeast((upper - lower) / intervals)
        // The lowest row on a multiple of the step, the highest at or above the data.
        var first = (lower / step.value).rounded(.down)
        for _ in 0..<4 where (first + intervals) * step.value < upper {
            step = ChartNumber.niceAtLeast(step.value * 1.5)
            first = (lower / step.value).rounded(.down)
        }
        guard first.isFinite, Swift.abs(first) < 1e15 else { return nil }
        lower = first * step.value
        upper = lower + intervals * step.value
        // Ticks on every row of a panel of lines of up to 7 rows; else every few rows where the
        // values stay round: the first round multiple of the step that leaves at most about half
        // the rows labelled, else the one with fewest (two at least).
        let limit = !bands && rows <= 7 ? Double(rows) : Double((rows + 1) / 2 + 1)
        func count(_ v: Double) -> Double {
            (upper / v + 1e-9).rounded(.down) - (lower / v - 1e-9).rounded(.up) + 1
        }
        var tickStep = step.value
        if count(tickStep) > limit {
            for multiple in [2.0, 5, 10, 20, 50, 100] {
                let v = step.value * multiple
                guard ChartNumber.isNice(v), count(v) >= 2 else { continue }
                tickStep = v
                if count(v) <= limit { break }
            }
        }
        let decimals = ChartNumber.niceStep(tickStep).decimals
        var ticks: [(Double, String)] = []
        var k = (lower / tickStep - 1e-9).rounded(.up)
        while k * tickStep <= upper + Swift.abs(upper) * 1e-9 && ticks.count < 1000 {
            let v = k * tickStep
            ticks.append((v / factor, ChartNumber.format(v, decimals: decimals) + axis.unit))
            k += 1
        }
        return ChartScale(lower: lower / factor, upper: upper / factor, ticks: ticks, unitName: unitName)
    }

    /// The scale without ticks when the panel has nothing to measure against them — no data
    /// within `x` and no rule — so that an empty panel shows its note and no numbers.
    func forData(of panel: ChartPanel, x: ChartScale) -> ChartScale {
        guard panel.rules.isEmpty, !panel.hasData(lower: x.lower, upper: x.upper) else { return self }
        var scale = self
        scale.ticks = []
        return scale
    }

    /// The distinct finite values of a panel's series within `x`, in increasing order.
    static func seriesValues(_ panel: ChartPanel, x: ChartScale) -> [Double] {
        var values: Set<Double> = []
        for series in panel.series {
            for p in series.points
            where p.x.isFinite && p.y.isFinite && (p.start ?? p.x) <= x.upper && p.x >= x.lower {
                values.insert(p.y)
            }
        }
        return values.sorted()
    }

    /// Whether `v` falls exactly on one of `rows` evenly spaced rows from ``lower`` to ``upper``.
    func hasRow(at v: Double, rows: Int) -> Bool {
        let r = fraction(v) * Double(max(1, rows - 1))
        return r.isFinite && Swift.abs(r - r.rounded()) < 1e-6
    }

    /// The unit a duration axis from `lower` to `upper` (seconds) reads best in, and how many of
    /// it make a second: as debugsh writes a duration, the largest unit in which the axis's
    /// largest magnitude is at least 1.
    static func durationUnit(lower: Double, upper: Double) -> (name: String, perSecond: Double) {
        let magnitude = Swift.max(Swift.abs(lower), Swift.abs(upper))
        if magnitude.isFinite && magnitude >= 1 { return ("s", 1) }
        if magnitude >= 1e-3 || magnitude == 0 || !magnitude.isFinite { return ("ms", 1e3) }
        return ("µs", 1e6)
    }

    private static func resolve(
        _ axis: ChartAxis, lower: Double, upper: Double, roundUp: Bool, target: Int
    ) -> ChartScale {
        // A duration axis is laid out in the unit it is shown in, so that its ticks are round
        // numbers of that unit; its range is given back in seconds.
        var unitName = ""
        var factor = 1.0
        if axis.quantity == .duration {
            (unitName, factor) = durationUnit(lower: lower, upper: upper)
        }
        var lower = lower * factor
        var upper = upper * factor
        if !(upper > lower) {
            // One value, or none: a unit around it.
            let pad = lower == 0 ? 1 : Swift.abs(lower) / 2
            upper = lower + pad
            if axis.lower == nil && lower != 0 { lower -= pad }
        }
        if !(upper - lower).isFinite || !(upper > lower) {
            lower = 0
            upper = 1
        }
        if let explicit = axis.ticks {
            let shown = explicit.map { $0 * factor }.filter { $0.isFinite && $0 >= lower && $0 <= upper }
            return ChartScale(
                lower: lower / factor, upper: upper / factor,
                ticks: shown.map { ($0 / factor, ChartNumber.format($0, decimals: axis.tickDecimals) + axis.unit) },
                unitName: unitName)
        }
        let step = ChartNumber.niceStep((upper - lower) / Double(max(1, target)))
        if roundUp {
            // A little headroom, so that the highest point does not sit on the frame.
            let k = (upper * 1.04 / step.value).rounded(.up)
            if k.isFinite { upper = max(upper, k * step.value) }
        }
        var ticks: [(Double, String)] = []
        let first = (lower / step.value).rounded(.up)
        let last = (upper / step.value).rounded(.down)
        if first.isFinite, last.isFinite, last - first < 1000 {
            var k = first
            while k <= last {
                let v = k * step.value
                ticks.append((v / factor, ChartNumber.format(v, decimals: step.decimals) + axis.unit))
                k += 1
            }
        }
        return ChartScale(lower: lower / factor, upper: upper / factor, ticks: ticks, unitName: unitName)
    }
}

/// Deterministic numbers for charts: fixed decimals from rounded integers.
enum ChartNumber {
    /// `v` with at most `decimals` decimals, trailing zeros trimmed: `16.7`, `50`, `0.25`.
    static func format(_ v: Double, decimals: Int) -> String {
        let d = max(0, min(6, decimals))
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        let scaled = (v * scale).rounded()
        guard scaled.isFinite, Swift.abs(scaled) < 9e17 else { return v > 0 ? "∞" : v < 0 ? "-∞" : "?" }
        let n = Int64(scaled)
        return SimFormat.decimal(n == 0 ? 0 : n, scaleDigits: d, minFraction: 0)
    }

    /// The least of 1, 2 or 5 times a power of ten that is at least `raw`, with the decimals it
    /// needs.
    static func niceAtLeast(_ raw: Double) -> (value: Double, decimals: Int) {
        guard raw.isFinite, raw > 1e-9 else { return (1e-9, 9) }
        var magnitude = 1.0
        var decimals = 0
        while magnitude * 10 <= raw {
            magnitude *= 10
        }
        while magnitude > raw {
            magnitude /= 10
            decimals += 1
        }
        // magnitude ≤ raw < 10 · magnitude; a hair of slack for the rounding of the divisions.
        for factor in [1.0, 2, 5] where factor * magnitude >= raw * (1 - 1e-12) {
            return (factor * magnitude, decimals)
        }
        return (10 * magnitude, max(0, decimals - 1))
    }

    /// Whether `v` is 1, 2 or 5 times a power of ten.
    static func isNice(_ v: Double) -> Bool {
        guard v.isFinite, v > 0 else { return false }
        let nice = niceAtLeast(v).value
        return Swift.abs(nice - v) <= v * 1e-9
    }

    /// A round step near `raw`: 1, 2 or 5 times a power of ten, with the decimals it needs.
    static func niceStep(_ raw: Double) -> (value: Double, decimals: Int) {
        guard raw.isFinite, raw > 1e-9 else { return (1e-9, 9) }
        var magnitude = 1.0
        var decimals = 0
        while magnitude * 10 <= raw {
            magnitude *= 10
        }
        while magnitude > raw {
            magnitude /= 10
            decimals += 1
        }
        let normalized = raw / magnitude
        let factor: Double
        if normalized < 1.5 {
            factor = 1
        } else if normalized < 3 {
            factor = 2
        } else if normalized < 7 {
            factor = 5
        } else {
            factor = 10
            decimals = max(0, decimals - 1)
        }
        return (factor * magnitude, decimals)
    }
}

// MARK: - A plot command's output

extension Chart {
    /// What a plot command returns: the chart as an SVG file for the session to write, or drawn
    /// as text for the display.
    ///
    /// With a file, the output carries the SVG in ``CommandOutput/files`` (the session writes it
    /// atomically, see ``OutputFile``) and its text is `wrote <file> (<n> bytes): <summary>`.
    /// Without one, the text is the chart drawn ``terminal(width:height:color:)`` at the display's
    /// width (or `columns`, when given), then the summary wrapped to that width. The JSON result is `json` followed by
    /// `file` (or null), `bytes` (the SVG's size, or null) and `columns` (the text's width, or
    /// null).
    ///
    /// - Parameters:
    ///   - file: where to write the SVG; its name must end in `.svg`. Nil draws the chart as text.
    ///   - display: where the text is shown (``ToolHost/display``).
    ///   - columns: a width asked for (a `--width` option), instead of the display's.
    ///   - rows: the panels' height in rows, for the text.
    ///   - summary: one line saying what the chart shows.
    ///   - json: the first fields of the JSON result.
    /// - Throws: ``CommandError`` when the file's name does not end in `.svg`.
    public func commandOutput(
        file: String?, display: TextDisplay, columns: Int? = nil, rows: Int, summary: String,
        json: [(String, JSONValue)]
    ) throws(CommandError) -> CommandOutput {
        guard let file else {
            let width = min(1000, max(24, columns ?? display.columns))
            let text =
                ([terminal(width: width, height: rows, color: display.color)]
                + ChartText.wrap(summary, width: width)).joined(separator: "\n")
            return CommandOutput(
                text: text, json: .object(json + [("file", .null), ("bytes", .null), ("columns", JSONValue(width))]))
        }
        guard file.lowercased().hasSuffix(".svg"), file.count > 4 else {
            throw CommandError("the chart is written as SVG: name the file <name>.svg (got '\(file)')")
        }
        let document = svg()
        let bytes = document.utf8.count
        return CommandOutput(
            text: "wrote \(file) (\(bytes) bytes): \(summary)",
            json: .object(json + [("file", .string(file)), ("bytes", JSONValue(bytes)), ("columns", .null)]),
            files: [OutputFile(path: file, contents: document)])
    }
}

extension Chart {
    /// The chart with the panels at `indices` on one y scale: each axis ``ChartAxis/covers`` the
    /// highest and lowest value any of them shows (data and rules within the x axis's range), so
    /// that panels of the same weight get the same range and ticks, and bars compare by eye.
    public func sharingYScale(of indices: [Int]) -> Chart {
        let x = ChartScale.x(xAxis, chart: self, target: 10)
        var values: [Double] = []
        for index in indices where panels.indices.contains(index) {
            let panel = panels[index]
            values += panel.ruleValues(lower: x.lower, upper: x.upper)
            for series in panel.series {
                values += series.points.filter { p in (p.start ?? p.x) <= x.upper && p.x >= x.lower }.map(\.y)
            }
        }
        let finite = values.filter(\.isFinite)
        guard let low = finite.min(), let high = finite.max() else { return self }
        var chart = self
        for index in indices where chart.panels.indices.contains(index) {
            chart.panels[index].yAxis.covers = [low, high]
        }
        return chart
    }
}

extension ChartPanel {
    /// Whether any series has a point drawn within `[lower, upper]` of x: else the panel shows its
    /// ``emptyNote``.
    /// The rules' levels within `[lower, upper]` that set the y axis: every level, but of a rule
    /// that ``ChartRule/scalesWithDataOnly`` only those over some point of the data (when
    /// there is any).
    func ruleValues(lower: Double, upper: Double) -> [Double] {
        var values: [Double] = []
        let data = hasData(lower: lower, upper: upper)
        for rule in rules {
            let levels = rule.levels(lower: lower, upper: upper)
            guard rule.scalesWithDataOnly && data else {
                values += levels.map(\.y)
                continue
            }
            let covered = levels.filter { level in
                series.contains { series in
                    series.points.contains { p in
                        p.x.isFinite && p.y.isFinite && (p.start ?? p.x) < level.to && p.x > level.from
                    }
                }
            }
            // No level under the data (a bar at the very edge): every level, as any rule.
            values += (covered.isEmpty ? levels : covered).map(\.y)
        }
        return values
    }

    func hasData(lower: Double, upper: Double) -> Bool {
        series.contains { series in
            series.points.contains { p in
                p.x.isFinite && p.y.isFinite && (p.start ?? p.x) <= upper && p.x >= lower
            }
        }
    }
}
