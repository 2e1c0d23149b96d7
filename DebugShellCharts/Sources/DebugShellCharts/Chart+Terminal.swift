import DebugShellCore

extension Chart {
    /// The chart as text for a terminal `width` columns wide, its panels `height` rows high in all.
    ///
    /// Each panel has its axis label above it and its y ticks in a gutter on the left. Bars are
    /// drawn in eighths of a row (`▁▂▃▄▅▆▇█`), each column showing the tallest bar that covers
    /// it; steps, lines and points draw each series' ``ChartSeries/symbol``, and `═` where two
    /// lines or steps share a cell (the legend names it with ``ChartPanel/overlapLabel``); rules
    /// are `╌` lines behind the data, with their ``ChartRule/tag`` after the row's last column
    /// (tags on one row joined by `/`). A panel without data shows its ``ChartPanel/emptyNote``
    /// in its middle rows. Under a panel whose series have a ``ChartSeries/mark``, a row of marks
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

/// A row of the terminal chart: the gutter's label and axis character, the plot's cells, and
/// after them the tags of the rules on the row.
private struct TextRow {
    var label: String
    var axis: Character
    var cells: [TextCell]
    var tail: [TextCell] = []
}

private struct TextCanvas {
    let chart: Chart
    let width: Int
    let plotRows: Int
    let color: Bool

    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let ruleGlyph: Character = "╌"
    static let spanGlyph: Character = "░"
    static let overlapGlyph: Character = "═"
    static let maxLabel = 10
    /// The fewest plot columns that rule tags may leave; below it the legend alone names rules.
    static let minColumnsBesideTags = 16

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
        // The x range does not depend on the ticks asked for; the y scales need it for the rules.
        let range = ChartScale.x(chart.xAxis, chart: chart, target: 10)
        // A panel of lines whose axis leaves range and ticks to the chart takes up to three rows
        // from a panel of bars (drawn in eighths, they lose little) when that puts more of its
        // values exactly on rows: a line is only ever drawn on a row.
        for index in panels.indices
        where !panels[index].series.contains(where: { $0.style == .bars }) && panels[index].yAxis.upper == nil
            && panels[index].yAxis.ticks == nil
        {
            let values = ChartScale.seriesValues(panels[index], x: range)
            func onRows(_ rows: Int) -> Int {
                let scale = TextCanvas.scale(panels[index], x: range, rows: rows)
                return values.filter { scale.hasRow(at: $0, rows: rows) }.count
            }
            guard !values.isEmpty,
                let donor = panels.indices.filter({ k in panels[k].series.contains { $0.style == .bars } })
                    .max(by: { rowsPerPanel[$0] < rowsPerPanel[$1] })
            else { continue }
            var best = (extra: 0, count: onRows(rowsPerPanel[index]))
            for extra in 1...3 where rowsPerPanel[donor] - extra >= max(3, rowsPerPanel[index]) {
                let count = onRows(rowsPerPanel[index] + extra)
                if count > best.count { best = (extra, count) }
            }
            rowsPerPanel[donor] -= best.extra
            rowsPerPanel[index] += best.extra
        }
        // Panels that share a y scale (``Chart/sharingYScale(of:)``) get as many rows as the
        // fewest of them has, so the same ticks; the rows left over go to the first other panel.
        var spare = 0
        for index in panels.indices where !panels[index].yAxis.covers.isEmpty {
            let group = panels.indices.filter { panels[$0].yAxis.covers == panels[index].yAxis.covers }
            let fewest = group.map { rowsPerPanel[$0] }.min() ?? rowsPerPanel[index]
            for k in group where rowsPerPanel[k] > fewest {
                spare += rowsPerPanel[k] - fewest
                rowsPerPanel[k] = fewest
            }
        }
        if spare > 0, let other = panels.indices.first(where: { panels[$0].yAxis.covers.isEmpty }) {
            rowsPerPanel[other] += spare
        }
        let yScales = panels.indices.map {
            TextCanvas.scale(panels[$0], x: range, rows: rowsPerPanel[$0]).forData(of: panels[$0], x: range)
        }

        // The gutter fits the longest label: ticks, mark rows, span rows.
        var labels: [String] = []
        for scale in yScales { labels += scale.ticks.map(\.label) }
        labels += panels.map(\.markLabel)
        labels += chart.spans.map(\.label)
        let labelWidth = min(TextCanvas.maxLabel, labels.map(\.count).max() ?? 0)
        var columns = max(8, width - labelWidth - 2)
        // Room after the plot for the rules' tags, where the width allows.
        var tagRows: [[(Int, [TextCell])]] = []
        var tagWidth = 0
        for (index, panel) in panels.enumerated() {
            let tags = tagsByRow(panel, scale: yScales[index], x: range, rows: rowsPerPanel[index])
            tagRows.append(tags)
            for (_, tag) in tags { tagWidth = max(tagWidth, 1 + tag.count) }
        }
        if tagWidth > 0 && columns - tagWidth >= TextCanvas.minColumnsBesideTags {
            columns -= tagWidth
        } else {
            tagRows = tagRows.map { _ in [] }
        }

        // About one x tick per ten columns.
        let x = ChartScale.x(chart.xAxis, chart: chart, target: max(2, columns / 10))
        let grid = ColumnGrid(lower: x.lower, upper: x.upper, columns: columns)

        var lines: [String] = [fit(chart.title)]
        var overlapped: [Bool] = []
        for (index, panel) in panels.enumerated() {
            lines.append(fit(yScales[index].label(panel.yAxis)))
            var (rows, overlap) = drawPanel(panel, scale: yScales[index], rows: rowsPerPanel[index], grid: grid)
            for (r, tag) in tagRows[index] where r < rows.count { rows[r].tail = tag }
            overlapped.append(overlap)
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
        let xLabel = x.label(chart.xAxis)
        if !xLabel.isEmpty {
            let pad = max(0, labelWidth + 2 + (columns - xLabel.count) / 2)
            lines.append(fit(String(repeating: " ", count: pad) + xLabel))
        }
        lines += legend(overlapped: overlapped)
        for note in chart.notes { lines += ChartText.wrap(note, width: width) }
        return lines.joined(separator: "\n")
    }

    /// A panel's y scale on `rows` rows: about one tick per three rows, as the SVG's, when each
    /// tick falls exactly on a row (a bar panel's: on a row's top edge) and a panel of lines has
    /// its highest value on a row; else one whose every row is a round value
    /// (``ChartScale/rows(_:x:rows:)``), so that a label never stands beside a value it is not.
    static func scale(_ panel: ChartPanel, x: ChartScale, rows: Int) -> ChartScale {
        let plain = ChartScale.y(panel, x: x, target: max(1, rows / 3))
        let bands = panel.series.contains { $0.style == .bars }
        let places = Double(bands ? rows : max(1, rows - 1))
        func exact(_ v: Double) -> Bool {
            let r = plain.fraction(v) * places
            return r.isFinite && Swift.abs(r - r.rounded()) < 1e-6
        }
        var fits = plain.ticks.allSatisfy { exact($0.value) }
        if !bands, let highest = ChartScale.seriesValues(panel, x: x).last { fits = fits && exact(highest) }
        if fits { return plain }
        return ChartScale.rows(panel, x: x, rows: rows) ?? plain
    }

    /// The row (0 at the bottom) a value stands in, on a panel of `rows` rows: for a panel with
    /// bars, the row whose top edge is at or above it; otherwise the nearest row.
    static func row(_ v: Double, scale: ChartScale, rows: Int, hasBars: Bool) -> Int? {
        guard v.isFinite, v >= scale.lower, v <= scale.upper else { return nil }
        let f = scale.fraction(v)
        if hasBars {
            let r = Int((f * Double(rows)).rounded(.up)) - 1
            return r < 0 ? nil : min(rows - 1, r)
        }
        return min(rows - 1, max(0, Int((f * Double(rows - 1)).rounded())))
    }

    /// The tags of a panel's rules by the row (from the top) their right end stands in; tags
    /// on one row are joined with `/`, in the panel's order.
    func tagsByRow(_ panel: ChartPanel, scale: ChartScale, x: ChartScale, rows: Int) -> [(Int, [TextCell])] {
        let hasBars = panel.series.contains { $0.style == .bars }
        var byRow: [(Int, [TextCell])] = []
        for rule in panel.rules {
            guard let tag = rule.tag, !tag.isEmpty,
                let r = TextCanvas.row(rule.value(at: x.upper), scale: scale, rows: rows, hasBars: hasBars)
            else { continue }
            let cells = tag.map { TextCell(character: $0, color: rule.color) }
            let top = rows - 1 - r
            if let k = byRow.firstIndex(where: { $0.0 == top }) {
                byRow[k].1 += [TextCell(character: "/")] + cells
            } else {
                byRow.append((top, cells))
            }
        }
        return byRow
    }

    /// A panel's rows, top to bottom: the plot, then the baseline of a bar panel, then the marks;
    /// and whether two lines shared a cell.
    func drawPanel(_ panel: ChartPanel, scale: ChartScale, rows: Int, grid: ColumnGrid) -> ([TextRow], Bool) {
        let hasBars = panel.series.contains { $0.style == .bars }
        var cells = Array(repeating: Array(repeating: TextCell(), count: grid.columns), count: rows)
        // Which line or steps series drew each cell (-1: none), to see where two coincide.
        var drawnBy = Array(repeating: Array(repeating: -1, count: grid.columns), count: rows)
        var overlapped = false

        func row(_ v: Double) -> Int? { TextCanvas.row(v, scale: scale, rows: rows, hasBars: hasBars) }
        func set(_ r: Int, _ c: Int, _ cell: TextCell) {
            cells[rows - 1 - r][c] = cell
            drawnBy[rows - 1 - r][c] = -1
        }

        for rule in panel.rules {
            for c in 0..<grid.columns {
                guard let r = row(rule.value(at: grid.centre(c))) else { continue }
                set(r, c, TextCell(character: TextCanvas.ruleGlyph, color: rule.color))
            }
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

        // The values lines and points put on each row: a row's tick is not shown beside values
        // it does not stand for.
        var drawnValues: [Int: [Double]] = [:]
        for (s, series) in panel.series.enumerated() where series.style != .bars {
            let cell = TextCell(character: series.symbol, color: series.color)
            let isLine = series.style == .steps || series.style == .line
            /// Draws the series' cell; a line over another line's cell draws the overlap glyph.
            func set(_ r: Int, _ c: Int, _ cell: TextCell) {
                let other = drawnBy[rows - 1 - r][c]
                if isLine && other >= 0 && other != s {
                    cells[rows - 1 - r][c] = TextCell(character: TextCanvas.overlapGlyph, color: cell.color)
                    overlapped = true
                } else {
                    cells[rows - 1 - r][c] = cell
                    if isLine { drawnBy[rows - 1 - r][c] = s }
                }
            }
            switch series.style {
            case .bars: break
            case .points:
                for p in series.points {
                    guard let r = row(p.y), p.x >= grid.lower, p.x <= grid.upper else { continue }
                    set(r, grid.column(p.x), cell)
                    drawnValues[r, default: []].append(p.y)
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
                    drawnValues[r, default: []].append(p.y)
                }
            case .line:
                let points = series.points.filter { $0.x.isFinite && $0.y.isFinite }
                guard points.count > 1 else {
                    if let p = points.first, let r = row(p.y), p.x >= grid.lower, p.x <= grid.upper {
                        set(r, grid.column(p.x), cell)
                        drawnValues[r, default: []].append(p.y)
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
                    if let r = row(y) {
                        set(r, c, cell)
                        drawnValues[r, default: []].append(y)
                    }
                }
            }
        }

        // Each level's own label (a rate), on the row above the level at its left end, where the
        // level is wide enough and the row there is empty.
        for rule in panel.rules {
            for level in rule.levels(lower: grid.lower, upper: grid.upper) {
                guard let text = level.label, !text.isEmpty, let r = row(level.y), r + 1 < rows else { continue }
                let columns = (0..<grid.columns).filter {
                    grid.centre($0) >= level.from && grid.centre($0) < level.to
                }
                guard let first = columns.first, let last = columns.last, last - first + 1 >= text.count + 1
                else { continue }
                let line = rows - 1 - (r + 1)
                let span = first..<(first + text.count)
                guard span.allSatisfy({ cells[line][$0].character == " " }) else { continue }
                for (c, character) in zip(span, text) {
                    cells[line][c] = TextCell(character: character, color: rule.color)
                }
            }
        }

        if !panel.hasData(lower: grid.lower, upper: grid.upper) {
            writeNote(panel.emptyNote, into: &cells)
        }

        var result: [TextRow] = []
        var tickRows: [Int: String] = [:]
        var baseline: String?
        for tick in scale.ticks {
            if let r = row(tick.value) {
                // Lines or points on the row, none of them at the tick's value.
                let drawn = drawnValues[r] ?? []
                let misleading =
                    !drawn.isEmpty && !drawn.contains { Swift.abs($0 - tick.value) <= 0.05 * scale.span }
                if tickRows[r] == nil && !misleading { tickRows[r] = tick.label }
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
        return (result, overlapped)
    }

    /// A note written across the middle rows of an empty panel, each line centred: in the
    /// rows nearest the middle without a rule, as many lines as there are such rows (the centre
    /// row when there is none).
    func writeNote(_ note: String, into cells: inout [[TextCell]]) {
        let rows = cells.count
        guard rows > 0, let columns = cells.first?.count, columns > 2 else { return }
        let wrapped = ChartText.wrap(note, width: columns - 2)
        let free = (0..<rows).filter { r in !cells[r].contains { $0.character != " " } }
        let count = min(wrapped.count, max(1, free.count))
        // The run of `count` free rows (not necessarily adjacent) whose middle is nearest the
        // panel's middle; without free rows, the middle row.
        var chosen = [rows / 2]
        if !free.isEmpty {
            var best = Int.max
            for start in 0...(free.count - count) {
                let run = Array(free[start..<start + count])
                let distance = Swift.abs((run[0] + run[count - 1]) - (rows - 1))
                if distance < best {
                    best = distance
                    chosen = run
                }
            }
        }
        for (line, r) in zip(wrapped, chosen) {
            let left = max(0, (columns - line.count) / 2)
            for (j, ch) in line.enumerated() where left + j < columns {
                cells[r][left + j] = TextCell(character: ch, color: nil)
            }
        }
    }

    /// The legend: one entry per series, overlap glyph drawn, rule and span label, wrapped to
    /// the width.
    func legend(overlapped: [Bool]) -> [String] {
        var entries: [(glyph: TextCell, name: String)] = []
        for (index, panel) in chart.panels.enumerated() {
            for series in panel.series {
                let glyph: Character = series.style == .bars ? series.mark ?? "█" : series.symbol
                entries.append((TextCell(character: glyph, color: series.color), series.name))
            }
            if index < overlapped.count && overlapped[index] {
                entries.append((TextCell(character: TextCanvas.overlapGlyph), panel.overlapLabel))
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
        // An entry two panels share (the same glyph, colour and name) is listed once.
        var listed: [(Character, RGB?, String)] = []
        entries = entries.filter { entry in
            guard !listed.contains(where: { $0 == (entry.glyph.character, entry.glyph.color, entry.name) }) else {
                return false
            }
            listed.append((entry.glyph.character, entry.glyph.color, entry.name))
            return true
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

    /// A row as text: the label right-aligned in the gutter, the axis character, the cells, and
    /// the tags after a space.
    func text(_ row: TextRow, labelWidth: Int) -> String {
        var label = String(row.label.prefix(labelWidth))
        if label.count < labelWidth { label = String(repeating: " ", count: labelWidth - label.count) + label }
        var cells = row.cells
        if row.tail.isEmpty {
            while let last = cells.last, last.character == " " { cells.removeLast() }
        } else {
            cells += [TextCell()] + row.tail
        }
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
    /// `text` with every `target` replaced by `replacement` (no Foundation).
    static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        guard !target.isEmpty else { return text }
        var out = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// `text` wrapped at spaces into lines of at most `width` characters; a word longer than the
    /// width is cut. A newline starts a new line.
    static func wrap(_ text: String, width: Int) -> [String] {
        if text.contains("\n") {
            return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
                wrap(String($0), width: width)
            }
        }
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
