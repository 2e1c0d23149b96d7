import DebugShellCore

extension Chart {
    /// The chart as a standalone SVG document.
    ///
    /// Self-contained: no scripts, no style sheets, no fonts to fetch, no links — only shapes and
    /// text in the generic `sans-serif` family, so that browsers, `rsvg-convert` and image viewers
    /// draw it alike. 960 pixels wide; the height follows the panels and the legend. Rules' tags
    /// stand in the margin right of the plot, where no data covers them; a panel without data
    /// shows its ``ChartPanel/emptyNote`` in its middle. The same chart gives the same bytes:
    /// coordinates are written with at most two decimals.
    public func svg() -> String {
        var svg = SVGCanvas(chart: self)
        svg.draw(self)
        return svg.document
    }
}

/// Lays out and writes a chart's SVG.
private struct SVGCanvas {
    static let width = 960.0
    static let left = 72.0
    static let right = 24.0
    static let top = 58.0
    /// Space above each panel for its axis label.
    static let panelGap = 30.0
    /// The plot height shared by the panels.
    static let plotHeight = 400.0
    static let legendRow = 20.0
    static let noteRow = 16.0
    /// An average glyph's width at 12 px, for laying out legend entries without font metrics.
    static let glyphWidth = 6.8
    /// A generous glyph width at the tags' 11 px, so that a tag's box is never larger than laid out.
    static let tagGlyphWidth = 7.0
    /// Rule tags' font size, and the least distance between two tags' baselines.
    static let tagSize = 11.0
    static let tagGap = 15.0
    /// The tag's distance from the plot's right edge (a short leader line in between).
    static let tagOffset = 8.0

    var title = ""
    var body = ""
    var height = 0.0
    /// The margin right of the plot: wide enough for the longest rule tag.
    let right: Double

    init(chart: Chart) {
        let longest = chart.panels.flatMap(\.rules).compactMap(\.tag).map(\.count).max() ?? 0
        right = longest == 0 ? SVGCanvas.right : SVGCanvas.tagOffset + Double(longest) * SVGCanvas.tagGlyphWidth + 8
    }

    var plotLeft: Double { SVGCanvas.left }
    var plotRight: Double { SVGCanvas.width - right }

    var document: String {
        let w = n(SVGCanvas.width)
        let h = n(height)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" \
            font-family="sans-serif" font-size="12">
            <title>\(escape(title))</title>
            <rect x="0" y="0" width="\(w)" height="\(h)" fill="#ffffff"/>
            \(body)</svg>

            """
    }

    mutating func line(_ text: String) {
        body += text
        body += "\n"
    }

    mutating func draw(_ chart: Chart) {
        let x = ChartScale.x(chart.xAxis, chart: chart, target: 10)
        let left = plotLeft
        let plotWidth = plotRight - plotLeft
        let px = { (v: Double) -> Double in left + min(1, max(0, x.fraction(v))) * plotWidth }

        title = chart.title
        line(
            "<text x=\"\(n(plotLeft))\" y=\"28\" font-size=\"15\" font-weight=\"bold\" fill=\"#222222\">\(escape(chart.title))</text>"
        )

        let weights = chart.panels.map { max(1, $0.weight) }
        let totalWeight = Double(max(1, weights.reduce(0, +)))
        var y = SVGCanvas.top
        for (index, panel) in chart.panels.enumerated() {
            let height = max(40, SVGCanvas.plotHeight * Double(weights[index]) / totalWeight)
            let top = y + (index == 0 ? 0 : SVGCanvas.panelGap)
            drawPanel(panel, chart: chart, top: top, height: height, x: x, px: px)
            y = top + height
        }

        // The x axis under the last panel.
        for tick in x.ticks {
            let tx = px(tick.value)
            line("<line x1=\"\(n(tx))\" y1=\"\(n(y))\" x2=\"\(n(tx))\" y2=\"\(n(y + 5))\" stroke=\"#888888\"/>")
            line(
                "<text x=\"\(n(tx))\" y=\"\(n(y + 18))\" text-anchor=\"middle\" fill=\"#444444\">\(escape(tick.label))</text>"
            )
        }
        y += 36
        line(
            "<text x=\"\(n((plotLeft + plotRight) / 2))\" y=\"\(n(y))\" text-anchor=\"middle\" fill=\"#444444\">\(escape(x.label(chart.xAxis)))</text>"
        )
        y += 12
        y = drawLegend(chart, top: y)
        // Each note wrapped to the plot's width, as the legend is.
        let noteColumns = max(20, Int((plotRight - plotLeft) / SVGCanvas.glyphWidth))
        for note in chart.notes.flatMap({ ChartText.wrap($0, width: noteColumns) }) {
            y += SVGCanvas.noteRow
            line("<text x=\"\(n(plotLeft))\" y=\"\(n(y))\" fill=\"#555555\">\(escape(String(note)))</text>")
        }
        height = (y + 16).rounded(.up)
    }

    mutating func drawPanel(
        _ panel: ChartPanel, chart: Chart, top: Double, height: Double, x: ChartScale, px: (Double) -> Double
    ) {
        let yScale = ChartScale.y(panel, x: x, target: max(3, Int(height / 60))).forData(of: panel, x: x)
        let bottom = top + height
        let py = { (v: Double) -> Double in bottom - min(1, max(0, yScale.fraction(v))) * height }
        let width = plotRight - plotLeft

        line("<g>")
        line(
            "<text x=\"\(n(plotLeft))\" y=\"\(n(top - 8))\" fill=\"#444444\">\(escape(yScale.label(panel.yAxis)))</text>"
        )
        line(
            "<rect x=\"\(n(plotLeft))\" y=\"\(n(top))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\" stroke=\"#c8c8c8\"/>"
        )
        // Spans behind everything.
        for span in chart.spans where span.from.isFinite && span.to.isFinite && span.to > span.from {
            let a = px(span.from)
            let b = px(span.to)
            guard b > a else { continue }
            line(
                "<rect x=\"\(n(a))\" y=\"\(n(top))\" width=\"\(n(b - a))\" height=\"\(n(height))\" fill=\"\(hex(span.color))\"/>"
            )
        }
        // Grid and tick labels.
        for tick in x.ticks {
            let tx = px(tick.value)
            line(
                "<line x1=\"\(n(tx))\" y1=\"\(n(top))\" x2=\"\(n(tx))\" y2=\"\(n(bottom))\" stroke=\"#ececec\"/>")
        }
        for tick in yScale.ticks {
            let ty = py(tick.value)
            line(
                "<line x1=\"\(n(plotLeft))\" y1=\"\(n(ty))\" x2=\"\(n(plotRight))\" y2=\"\(n(ty))\" stroke=\"#ececec\"/>"
            )
            line(
                "<text x=\"\(n(plotLeft - 6))\" y=\"\(n(ty + 4))\" text-anchor=\"end\" fill=\"#444444\">\(escape(tick.label))</text>"
            )
        }
        for series in panel.series {
            drawSeries(series, x: x, px: px, py: py, baseline: py(max(yScale.lower, min(0, yScale.upper))))
        }
        // Rules over the data, each level from its x to the next change's; a step joins them.
        var tags: [(y: Double, rule: ChartRule)] = []
        for rule in panel.rules {
            let levels = rule.levels(lower: x.lower, upper: x.upper).filter {
                $0.y >= yScale.lower && $0.y <= yScale.upper
            }
            guard let last = levels.last else { continue }
            var path = ""
            var previous: (to: Double, y: Double)?
            for level in levels {
                let a = px(level.from)
                let b = px(level.to)
                let y = py(level.y)
                if let p = previous, p.to == level.from {
                    path += "V\(n(y))H\(n(b))"
                } else {
                    path += "M\(n(a)) \(n(y))H\(n(b))"
                }
                previous = (level.to, y)
            }
            let dash = rule.dashed ? " stroke-dasharray=\"6 4\"" : ""
            line(
                "<path d=\"\(path)\" fill=\"none\" stroke=\"\(hex(rule.color))\" stroke-width=\"1.5\"\(dash)/>")
            if rule.tag != nil, last.to >= x.upper { tags.append((py(last.y), rule)) }
            // Each level's own label just above it at its left end, over a white halo, where the
            // level is wide enough for the words.
            for level in levels {
                guard let text = level.label, !text.isEmpty else { continue }
                let a = px(level.from)
                guard px(level.to) - a >= Double(text.count) * SVGCanvas.tagGlyphWidth + 8 else { continue }
                line(
                    "<text x=\"\(n(a + 4))\" y=\"\(n(py(level.y) - 4))\" font-size=\"11\" fill=\"\(hex(rule.color))\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">\(escape(text))</text>"
                )
            }
        }
        drawTags(tags, top: top, bottom: bottom)
        if !panel.hasData(lower: x.lower, upper: x.upper) {
            // In the widest gap between the rules, so that no line runs through the words.
            var edges = [top, bottom]
            for rule in panel.rules {
                for level in rule.levels(lower: x.lower, upper: x.upper) where level.y.isFinite {
                    edges.append(py(level.y))
                }
            }
            edges = edges.filter { $0 >= top && $0 <= bottom }.sorted()
            var gap = (top: top, bottom: top)
            for k in edges.indices.dropFirst() where edges[k] - edges[k - 1] > gap.bottom - gap.top {
                gap = (edges[k - 1], edges[k])
            }
            drawNote(panel.emptyNote, top: gap.top, bottom: gap.bottom)
        }
        line("</g>")
    }

    /// The rules' tags in the margin right of the plot, each at its rule's right end with a short
    /// leader, moved apart where two would overlap, kept beside the panel.
    mutating func drawTags(_ tags: [(y: Double, rule: ChartRule)], top: Double, bottom: Double) {
        guard !tags.isEmpty else { return }
        // Bottom to top by the rule's height; ties keep the panel's order (a later rule above).
        let order = tags.indices.sorted { tags[$0].y != tags[$1].y ? tags[$0].y > tags[$1].y : $0 < $1 }
        var baselines = order.map { tags[$0].y + SVGCanvas.tagSize / 3 }
        let lowest = bottom + SVGCanvas.tagSize / 3
        let highest = top + SVGCanvas.tagSize
        for k in baselines.indices {
            baselines[k] = min(baselines[k], lowest)
            if k > 0 { baselines[k] = min(baselines[k], baselines[k - 1] - SVGCanvas.tagGap) }
        }
        // Pushed past the top: move the whole stack down again, as far as the bottom allows.
        if let topmost = baselines.last, topmost < highest {
            let shift = min(highest - topmost, lowest - (baselines.first ?? lowest))
            baselines = baselines.map { $0 + shift }
        }
        for (k, index) in order.enumerated() {
            let tag = tags[index]
            let color = hex(tag.rule.color)
            let ty = baselines[k]
            line(
                "<line x1=\"\(n(plotRight))\" y1=\"\(n(tag.y))\" x2=\"\(n(plotRight + SVGCanvas.tagOffset - 2))\" y2=\"\(n(ty - SVGCanvas.tagSize / 3))\" stroke=\"\(color)\" stroke-width=\"1\"/>"
            )
            line(
                "<text x=\"\(n(plotRight + SVGCanvas.tagOffset))\" y=\"\(n(ty))\" font-size=\"11\" fill=\"\(color)\">\(escape(tag.rule.tag ?? ""))</text>"
            )
        }
    }

    /// A note in the middle of an empty panel, wrapped to its width, over a white halo.
    mutating func drawNote(_ note: String, top: Double, bottom: Double) {
        let columns = min(90, max(10, Int((plotRight - plotLeft - 40) / SVGCanvas.glyphWidth)))
        let lines = ChartText.wrap(note, width: columns)
        let rowHeight = 17.0
        var y = (top + bottom) / 2 - Double(lines.count - 1) * rowHeight / 2 + 5
        for text in lines {
            line(
                "<text x=\"\(n((plotLeft + plotRight) / 2))\" y=\"\(n(y))\" text-anchor=\"middle\" font-size=\"13\" fill=\"#555555\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\">\(escape(text))</text>"
            )
            y += rowHeight
        }
    }

    mutating func drawSeries(
        _ series: ChartSeries, x: ChartScale, px: (Double) -> Double, py: (Double) -> Double, baseline: Double
    ) {
        let color = hex(series.color)
        let points = series.points.filter { $0.x.isFinite && $0.y.isFinite && ($0.start?.isFinite ?? true) }
        func inRange(_ v: Double) -> Bool { v >= x.lower && v <= x.upper }
        switch series.style {
        case .bars:
            line("<g fill=\"\(color)\">")
            for p in points {
                let start = p.start ?? p.x
                guard p.x >= x.lower, start <= x.upper else { continue }
                var a = px(start)
                var b = px(p.x)
                if b - a > 2 {
                    // A hairline between neighbours, so that each frame shows.
                    b -= 0.6
                } else {
                    let mid = (a + b) / 2
                    a = mid - 0.75
                    b = mid + 0.75
                }
                let top = min(py(p.y), baseline)
                let h = max(Swift.abs(baseline - py(p.y)), 0.5)
                line("<rect x=\"\(n(a))\" y=\"\(n(top))\" width=\"\(n(b - a))\" height=\"\(n(h))\"/>")
            }
            line("</g>")
        case .steps:
            var path = ""
            var previousEnd: Double?
            for p in points {
                let start = p.start ?? previousEnd ?? p.x
                guard p.x >= x.lower, start <= x.upper else {
                    previousEnd = p.x
                    continue
                }
                let a = px(max(start, x.lower))
                let b = px(min(p.x, x.upper))
                let y = py(p.y)
                if let end = previousEnd, end == start, !path.isEmpty {
                    path += "V\(n(y))H\(n(b))"
                } else {
                    path += "M\(n(a)) \(n(y))H\(n(b))"
                }
                previousEnd = p.x
            }
            if !path.isEmpty {
                line(
                    "<path d=\"\(path)\" fill=\"none\" stroke=\"\(color)\"\(strokeAttributes(series.stroke, width: 2))/>"
                )
            }
        case .line:
            let shown = points.filter { inRange($0.x) }
            guard !shown.isEmpty else { return }
            let list = shown.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")
            line(
                "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(color)\"\(strokeAttributes(series.stroke, width: 1.5))/>"
            )
        case .points:
            line("<g fill=\"\(color)\">")
            for p in points where inRange(p.x) {
                line("<circle cx=\"\(n(px(p.x)))\" cy=\"\(n(py(p.y)))\" r=\"2.5\"/>")
            }
            line("</g>")
        }
    }

    /// The legend, wrapped to the plot's width; returns the y under it.
    mutating func drawLegend(_ chart: Chart, top: Double) -> Double {
        enum Swatch {
            case box(RGB)
            case stroke(RGB, ChartStroke)
            case dot(RGB)
        }
        var entries: [(Swatch, String)] = []
        for panel in chart.panels {
            for series in panel.series {
                switch series.style {
                case .bars: entries.append((.box(series.color), series.name))
                case .steps, .line:
                    entries.append((.stroke(series.color, series.stroke ?? ChartStroke(width: 2)), series.name))
                case .points: entries.append((.dot(series.color), series.name))
                }
            }
            for rule in panel.rules {
                entries.append(
                    (.stroke(rule.color, ChartStroke(width: 2, dash: rule.dashed ? [4, 3] : [])), rule.label))
            }
        }
        var seenSpans: [String] = []
        for span in chart.spans where !seenSpans.contains(span.label) {
            seenSpans.append(span.label)
            entries.append((.box(span.color), span.label))
        }
        // An entry two panels share (the same swatch and name) is listed once.
        var listed: [String] = []
        entries = entries.filter { entry in
            let key = "\(entry.0) \(entry.1)"
            guard !listed.contains(key) else { return false }
            listed.append(key)
            return true
        }
        guard !entries.isEmpty else { return top }
        var x = plotLeft
        var y = top + SVGCanvas.legendRow
        for (swatch, label) in entries {
            let width = 22 + Double(label.count) * SVGCanvas.glyphWidth + 18
            if x > plotLeft && x + width > plotRight {
                x = plotLeft
                y += SVGCanvas.legendRow
            }
            switch swatch {
            case .box(let c):
                line(
                    "<rect x=\"\(n(x))\" y=\"\(n(y - 10))\" width=\"14\" height=\"12\" fill=\"\(hex(c))\" stroke=\"#bbbbbb\" stroke-width=\"0.5\"/>"
                )
            case .stroke(let c, let stroke):
                line(
                    "<line x1=\"\(n(x))\" y1=\"\(n(y - 4))\" x2=\"\(n(x + 16))\" y2=\"\(n(y - 4))\" stroke=\"\(hex(c))\"\(strokeAttributes(stroke, width: 2))/>"
                )
            case .dot(let c):
                line("<circle cx=\"\(n(x + 7))\" cy=\"\(n(y - 4))\" r=\"3\" fill=\"\(hex(c))\"/>")
            }
            line("<text x=\"\(n(x + 22))\" y=\"\(n(y))\" fill=\"#333333\">\(escape(label))</text>")
            x += width
        }
        return y
    }
}

/// A coordinate with at most two decimals.
private func n(_ v: Double) -> String { ChartNumber.format(v, decimals: 2) }

/// ` stroke-width="…"` and, for a dashed stroke, ` stroke-dasharray="…"`: the stroke's, or a
/// solid line `width` wide.
private func strokeAttributes(_ stroke: ChartStroke?, width: Double) -> String {
    let stroke = stroke ?? ChartStroke(width: width)
    let w = stroke.width.isFinite && stroke.width > 0 ? stroke.width : width
    var text = " stroke-width=\"\(n(w))\""
    let dash = stroke.dash.filter { $0.isFinite && $0 >= 0 }
    if !dash.isEmpty && dash.contains(where: { $0 > 0 }) {
        text += " stroke-dasharray=\"\(dash.map(n).joined(separator: " "))\""
    }
    return text
}

private func hex(_ c: RGB) -> String {
    let digits = Array("0123456789abcdef")
    var s = "#"
    for byte in [c.red, c.green, c.blue] {
        s.append(digits[Int(byte >> 4)])
        s.append(digits[Int(byte & 15)])
    }
    return s
}

/// Text for SVG content and attributes: markup characters escaped, control characters (which
/// XML 1.0 forbids) dropped.
private func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            if scalar.value < 0x20 && scalar != "\t" { continue }
            if (0xFFFE...0xFFFF).contains(scalar.value) { continue }
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
