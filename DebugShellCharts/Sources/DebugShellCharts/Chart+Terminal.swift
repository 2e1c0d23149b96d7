import DebugShellCore

extension Chart {
    /// The chart as text for a terminal `width` columns wide, its panels `height` rows high in all.
    ///
    /// Each panel has its axis label above it and its y ticks in a gutter on the left. Bars are
    /// drawn in eighths of a row (`▁▂▃▄▅▆▇█`), each column showing the tallest bar that covers
    /// it; steps, lines and points draw each series' ``ChartSeries/symbol``; rules are `╌` lines
    /// behind the data. Under a panel whose series have a ``ChartSeries/mark``, a row of marks
    /// tells the series apart without colour. Spans become rows of `░` under the panels, one per
    /// label, above the x axis; the legend and the notes follow. Trailing spaces are trimmed and
    /// there is no final newline.
    ///
    /// - Parameters:
    ///   - width: columns, at least 24 (a smaller width is taken as 24).
    ///   - height: rows for the panels together, at least 3 per panel; shared by their weights.
    ///   - color: colour the data with 24-bit SGR escape codes; without it the text is plain.
    /// - Returns: the lines, joined with newlines.
    public func terminal(width: Int, height: Int, color: Bool = false) -> String {
        var canvas = TextCanvas(chart: self, width: width, height: height, color: color)
        return canvas.render()
    }
}

/// One character cell of the terminal chart, with the colour of what drew it.
private struct TextCell {
    var character: Character = " "
    var color: RGB?
}

/// A row of the terminal chart: the gutter's label and axis character, then the plot's cells.
private struct TextRow {
    var label: String
    var axis: Character
    var cells: [TextCell]
}

private struct TextCanvas {
    let chart: Chart
    let width: Int
    let plotRows: Int
    let color: Bool

    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let ruleGlyph: Character = "╌"
    static let spanGlyph: Character = "░"
    static let maxLabel = 10

    init(chart: Chart, width: Int, height: Int, color: Bool) {
        self.chart = chart
        self.width = min(1000, max(24, width))
        self.plotRows = min(500, max(3 * max(1, chart.panels.count), height))
        self.color = color
    }

    mutating func render() -> String {
        let panels = chart.panels
        let weights = panels.map { max(1, min(1000, $0.weight)) }
        let totalWeight = max(1, weights.reduce(0, +))
        var rowsPerPanel = weights.map { max(3, plotRows * $0 / totalWeight) }
        if !rowsPerPanel.isEmpty {
            rowsPerPanel[0] = max(3, rowsPerPanel[0] + plotRows - rowsPerPanel.reduce(0, +))
        }
        let yScales = panels.indices.map { ChartScale.y(panels[$0], target: max(1, rowsPerPanel[$0] / 3)) }

        // The gutter fits the longest label: ticks, mark rows, span rows.
        var labels: [String] = []
        for scale in yScales { labels += scale.ticks.map(\.label) }
        labels += panels.map(\.markLabel)
        labels += chart.spans.map(\.label)
        let labelWidth = min(TextCanvas.maxLabel, labels.map(\.count).max() ?? 0)
        let columns = max(8, width - labelWidth - 2)

        // About one x tick per ten columns.
        let x = ChartScale.x(chart.xAxis, chart: chart, target: max(2, columns / 10))
        let grid = ColumnGrid(lower: x.lower, upper: x.upper, columns: columns)

        var lines: [String] = [fit(chart.title)]
        for (index, panel) in panels.enumerated() {
            lines.append(fit(panel.yAxis.label))
            let rows = drawPanel(panel, scale: yScales[index], rows: rowsPerPanel[index], grid: grid)
            for row in rows { lines.append(text(row, labelWidth: labelWidth)) }
        }
        // Spans, one row per label.
        var spanLabels: [String] = []
        for span in chart.spans where !spanLabels.contains(span.label) { spanLabels.append(span.label) }
        for label in spanLabels {
            var cells = Array(repeating: TextCell(), count: columns)
            for span in chart.spans where span.label == label {
                guard let range = grid.columns(from: span.from, to: span.to) else { continue }
                for c in range { cells[c] = TextCell(character: TextCanvas.spanGlyph, color: span.color) }
            }
            lines.append(text(TextRow(label: label, axis: "│", cells: cells), labelWidth: labelWidth))
        }
        // The x axis and its labels.
        var axis = Array(repeating: TextCell(character: "─"), count: columns)
        var tickLabels = Array(repeating: Character(" "), count: columns)
        var end = -1
        for tick in x.ticks {
            let c = grid.column(tick.value)
            axis[c].character = "┬"
            let label = Array(tick.label)
            var start = c
            if start + label.count > columns { start = columns - label.count }
            guard start > end, start >= 0 else { continue }
            for (k, ch) in label.enumerated() { tickLabels[start + k] = ch }
            end = start + label.count
        }
        lines.append(text(TextRow(label: "", axis: "└", cells: axis), labelWidth: labelWidth))
        lines.append(trimmed(String(repeating: " ", count: labelWidth + 2) + String(tickLabels)))
        if !chart.xAxis.label.isEmpty {
            let pad = max(0, labelWidth + 2 + (columns - chart.xAxis.label.count) / 2)
            lines.append(fit(String(repeating: " ", count: pad) + chart.xAxis.label))
        }
        lines += legend()
        for note in chart.notes { lines += ChartText.wrap(note, width: width) }
        return lines.joined(separator: "\n")
    }

    /// A panel's rows, top to bottom: the plot, then the baseline of a bar panel, then the marks.
    func drawPanel(_ panel: ChartPanel, scale: ChartScale, rows: Int, grid: ColumnGrid) -> [TextRow] {
        let hasBars = panel.series.contains { $0.style == .bars }
        var cells = Array(repeating: Array(repeating: TextCell(), count: grid.columns), count: rows)

        /// The row (0 at the bottom) a value stands in: for bars, the row whose top edge is at or
        /// above it; otherwise the nearest row.
        func row(_ v: Double) -> Int? {
            guard v.isFinite, v >= scale.lower, v <= scale.upper else { return nil }
            let f = scale.fraction(v)
            if hasBars {
                let r = Int((f * Double(rows)).rounded(.up)) - 1
                return r < 0 ? nil : min(rows - 1, r)
            }
            return min(rows - 1, max(0, Int((f * Double(rows - 1)).rounded())))
        }
        func set(_ r: Int, _ c: Int, _ cell: TextCell) { cells[rows - 1 - r][c] = cell }

        for rule in panel.rules {
            guard let r = row(rule.y) else { continue }
            for c in 0..<grid.columns { set(r, c, TextCell(character: TextCanvas.ruleGlyph, color: rule.color)) }
        }

        // Bars: each column's tallest, later series winning ties.
        var tallest = Array(repeating: -Double.infinity, count: grid.columns)
        var owner = Array(repeating: -1, count: grid.columns)
        for (s, series) in panel.series.enumerated() where series.style == .bars {
            for p in series.points where p.y.isFinite {
                guard let range = grid.columns(of: p) else { continue }
                for c in range where p.y >= tallest[c] {
                    tallest[c] = p.y
                    owner[c] = s
                }
            }
        }
        for c in 0..<grid.columns where owner[c] >= 0 {
            let f = min(1, max(0, scale.fraction(tallest[c])))
            var eighths = Int((f * Double(rows * 8)).rounded())
            if eighths == 0 && tallest[c] > scale.lower { eighths = 1 }
            let color = panel.series[owner[c]].color
            var r = 0
            while eighths > 0 && r < rows {
                let part = min(8, eighths)
                set(r, c, TextCell(character: TextCanvas.blocks[part - 1], color: color))
                eighths -= part
                r += 1
            }
        }

        for series in panel.series where series.style != .bars {
            let cell = TextCell(character: series.symbol, color: series.color)
            switch series.style {
            case .bars: break
            case .points:
                for p in series.points {
                    guard let r = row(p.y), p.x >= grid.lower, p.x <= grid.upper else { continue }
                    set(r, grid.column(p.x), cell)
                }
            case .steps:
                var previousEnd: Double?
                for p in series.points {
                    let start = p.start ?? previousEnd ?? p.x
                    previousEnd = p.x
                    guard let r = row(p.y),
                        let range = grid.columns(of: ChartPoint(x: p.x, y: p.y, start: start))
                    else { continue }
                    for c in range { set(r, c, cell) }
                }
            case .line:
                let points = series.points.filter { $0.x.isFinite && $0.y.isFinite }
                guard points.count > 1 else {
                    if let p = points.first, let r = row(p.y), p.x >= grid.lower, p.x <= grid.upper {
                        set(r, grid.column(p.x), cell)
                    }
                    continue
                }
                var k = 0
                for c in 0..<grid.columns {
                    let xc = grid.centre(c)
                    while k + 1 < points.count - 1 && points[k + 1].x < xc { k += 1 }
                    let a = points[k]
                    let b = points[k + 1]
                    guard xc >= a.x, xc <= b.x else { continue }
                    let y = b.x > a.x ? a.y + (b.y - a.y) * (xc - a.x) / (b.x - a.x) : b.y
                    if let r = row(y) { set(r, c, cell) }
                }
            }
        }

        var result: [TextRow] = []
        var tickRows: [Int: String] = [:]
        var baseline: String?
        for tick in scale.ticks {
            if let r = row(tick.value) {
                if tickRows[r] == nil { tickRows[r] = tick.label }
            } else if hasBars && tick.value == scale.lower {
                baseline = tick.label
            }
        }
        for (index, line) in cells.enumerated() {
            let r = rows - 1 - index
            let label = tickRows[r]
            result.append(TextRow(label: label ?? "", axis: label == nil ? "│" : "┤", cells: line))
        }
        if hasBars {
            result.append(
                TextRow(
                    label: baseline ?? "", axis: "┼",
                    cells: Array(repeating: TextCell(character: "─"), count: grid.columns)))
        }
        if panel.series.contains(where: { $0.mark != nil }) {
            var marks = Array(repeating: TextCell(), count: grid.columns)
            for series in panel.series {
                guard let mark = series.mark else { continue }
                for p in series.points {
                    let range =
                        series.style == .bars
                        ? grid.columns(of: p)
                        : (p.x >= grid.lower && p.x <= grid.upper ? grid.column(p.x)...grid.column(p.x) : nil)
                    guard let range else { continue }
                    for c in range { marks[c] = TextCell(character: mark, color: series.color) }
                }
            }
            result.append(TextRow(label: panel.markLabel, axis: "│", cells: marks))
        }
        return result
    }

    /// The legend: one entry per series, rule and span label, wrapped to the width.
    func legend() -> [String] {
        var entries: [(glyph: TextCell, name: String)] = []
        for panel in chart.panels {
            for series in panel.series {
                let glyph: Character = series.style == .bars ? series.mark ?? "█" : series.symbol
                entries.append((TextCell(character: glyph, color: series.color), series.name))
            }
            for rule in panel.rules {
                entries.append((TextCell(character: TextCanvas.ruleGlyph, color: rule.color), rule.label))
            }
        }
        var seen: [String] = []
        for span in chart.spans where !seen.contains(span.label) {
            seen.append(span.label)
            entries.append((TextCell(character: TextCanvas.spanGlyph, color: span.color), span.label))
        }
        var lines: [String] = []
        var current = ""
        var used = 0
        for entry in entries {
            let name = String(entry.name.prefix(width - 2))
            let plain = 2 + name.count
            if used > 0 && used + 2 + plain > width {
                lines.append(current)
                current = ""
                used = 0
            }
            if used > 0 {
                current += "  "
                used += 2
            }
            current += paint([entry.glyph]) + " " + name
            used += plain
        }
        if used > 0 { lines.append(current) }
        return lines
    }

    /// A row as text: the label right-aligned in the gutter, the axis character, the cells.
    func text(_ row: TextRow, labelWidth: Int) -> String {
        var label = String(row.label.prefix(labelWidth))
        if label.count < labelWidth { label = String(repeating: " ", count: labelWidth - label.count) + label }
        var cells = row.cells
        while let last = cells.last, last.character == " " { cells.removeLast() }
        return trimmed(label + " " + String(row.axis) + paint(cells))
    }

    /// Cells as text, coloured in runs when colour is on.
    func paint(_ cells: [TextCell]) -> String {
        guard color else { return String(cells.map(\.character)) }
        var out = ""
        var current: RGB?
        for cell in cells {
            let wanted = cell.character == " " ? nil : cell.color
            if wanted != current {
                if current != nil { out += "\u{1B}[0m" }
                if let c = wanted { out += "\u{1B}[38;2;\(c.red);\(c.green);\(c.blue)m" }
                current = wanted
            }
            out.append(cell.character)
        }
        if current != nil { out += "\u{1B}[0m" }
        return out
    }

    /// A line cut to the width, ending in `…` when cut.
    func fit(_ s: String) -> String {
        s.count <= width ? s : String(s.prefix(width - 1)) + "…"
    }

    func trimmed(_ s: String) -> String {
        var s = s
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// The x axis cut into equal columns.
private struct ColumnGrid {
    let lower: Double
    let upper: Double
    let columns: Int

    var step: Double { (upper - lower) / Double(columns) }

    /// The column that holds `v` (the last one holds the upper end).
    func column(_ v: Double) -> Int {
        let f = ((v - lower) / step).rounded(.down)
        guard f.isFinite else { return 0 }
        return Int(min(Double(columns - 1), max(0, f)))
    }

    func centre(_ c: Int) -> Double { lower + (Double(c) + 0.5) * step }

    /// The columns `[from, to]` touches inside the axis; nil when it lies outside.
    func columns(from: Double, to: Double) -> ClosedRange<Int>? {
        guard from.isFinite, to.isFinite, to >= lower, from <= upper, to >= from else { return nil }
        let first = column(max(from, lower))
        // An interval that ends exactly on a column's left edge does not reach into it.
        let reach = ((min(to, upper) - lower) / step).rounded(.up) - 1
        let last = Int(min(Double(columns - 1), max(Double(first), reach.isFinite ? reach : 0)))
        return first...last
    }

    /// The columns a point covers: its interval's, or its own.
    func columns(of p: ChartPoint) -> ClosedRange<Int>? {
        guard p.x.isFinite else { return nil }
        if let start = p.start { return columns(from: start, to: p.x) }
        guard p.x >= lower, p.x <= upper else { return nil }
        let c = column(p.x)
        return c...c
    }
}

/// Plain text laid out for a terminal.
enum ChartText {
    /// `text` wrapped at spaces into lines of at most `width` characters; a word longer than the
    /// width is cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            while word.count > width {
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
