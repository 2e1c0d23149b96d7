import DebugShellCharts
import DebugShellCore

/// `fps plot`: the frame-time chart, as an SVG file or drawn in the terminal (docs/FPSMeter.md).
///
/// It reads what the meter keeps already — the last 1,000 presents (`fps frames`), the last
/// 3,600 windows (`fps history`) and the last 1,000 stretches of tracking mode — so drawing
/// costs nothing while time runs.
extension FPSMeter {
    static let onTimeColor = RGB(120, 144, 156)
    static let causeColors: [HitchCause: RGB] = [
        .commit: RGB(230, 145, 56), .render: RGB(214, 69, 65), .both: RGB(142, 68, 173),
    ]
    static let labelReadingColor = RGB(46, 160, 67)
    static let presentedColor = RGB(33, 113, 181)
    static let trackingColor = RGB(214, 230, 245)
    /// The frames presented, drawn first, wide and solid; the label's reading over them, thinner
    /// and dashed, so that each shows where the two are equal.
    static let presentedStroke = ChartStroke(width: 5)
    static let labelReadingStroke = ChartStroke(width: 2.5, dash: [8, 5])

    func plot(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let file = invocation[Self.plotFile]
        if file != nil && (invocation.has(Self.plotWidth) || invocation.has(Self.plotHeight)) {
            throw CommandError("--width and --height size the chart in the terminal; an SVG file scales")
        }
        if invocation[Self.plotCompare] { return try comparePlot(invocation, file: file) }
        // A recording needs no meter: it is what a device recorded, not what the meter saw.
        let parts = try invocation[Self.plotRecording] ? recordingPlotParts(invocation) : meterPlotParts(invocation)
        return try FPSMeter.frameChart(parts.data).commandOutput(
            file: file, display: host.display, columns: invocation[Self.plotWidth].map { Int($0) },
            rows: Int(invocation[Self.plotHeight]), summary: parts.summary, json: parts.json)
    }

    /// What one source gives a plot: the chart's data, the line that sums it up and the JSON.
    struct PlotParts {
        var data: FrameChartData
        var summary: String
        var json: [(String, JSONValue)]
    }

    /// The meter's data for `fps plot` (and the simulation's side of `--compare`).
    func meterPlotParts(_ invocation: Invocation) throws(CommandError) -> PlotParts {
        try requireStarted()
        if frames.appended == 0 && windows.isEmpty {
            throw CommandError(
                "nothing to plot: no frame has been presented and no window has closed since the meter started at \(since)"
            )
        }
        let (from, to) = try plotRange(invocation)

        // The data in range: frame times by present, windows and tracking stretches that overlap.
        let kept = frames.elements.filter { $0.present >= from && $0.present <= to }
        let timed = kept.filter { $0.counted && $0.interval > 0 }
        let shownWindows = windows.elements.filter { $0.to > from && $0.from < to }
        var spans = trackingSpans.elements.filter { $0.to > from && $0.from < to }
        if let start = trackingSince, start < to, measuredAt > from {
            spans.append(TrackingSpan(from: start, to: measuredAt))
        }
        guard !timed.isEmpty || !shownWindows.isEmpty else {
            throw CommandError("nothing to plot between \(from) and \(to): no frame time and no window there")
        }

        let open = openWindow(from: from, to: to)
        let data = frameChartData(
            from: from, to: to, frames: timed, windows: shownWindows, open: open, spans: spans)
        let tallest = timed.map(frameTime).max()
        var openJSON = JSONValue.null
        if let open {
            openJSON = .fields([
                "from_ns": JSONValue(open.from), "to_ns": JSONValue(open.to),
                "callbacks": .int(open.callbacks), "presents": .int(open.presents),
                "reading": .int(open.reading),
            ])
        }
        let tallestJSON: JSONValue = tallest.map { .int($0) } ?? .null
        let hitchCounts = HitchCause.allCases.map { cause in kept.filter { $0.hitch > 0 && $0.cause == cause }.count }
        let hitchTotal = hitchCounts.reduce(0, +)
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        let summary =
            "\(count(kept.count, "present", "presents")), \(count(timed.count, "frame time", "frame times")), "
            + "\(count(hitchTotal, "hitch", "hitches")) (commit \(hitchCounts[0]), render \(hitchCounts[1]), both \(hitchCounts[2])), "
            + "\(count(shownWindows.count, "window", "windows")), from \(from) to \(to)"
        return PlotParts(
            data: data, summary: summary,
            json: [
                ("from_ns", JSONValue(from)), ("to_ns", JSONValue(to)), ("presents", JSONValue(kept.count)),
                ("frame_times", JSONValue(timed.count)),
                (
                    "hitches",
                    .fields([
                        "commit": JSONValue(hitchCounts[0]), "render": JSONValue(hitchCounts[1]),
                        "both": JSONValue(hitchCounts[2]),
                    ])
                ),
                ("windows", JSONValue(shownWindows.count)),
                ("open_window", openJSON), ("max_frame_ns", tallestJSON),
                ("tracking_spans", JSONValue(spans.count)),
            ])
    }

    /// A bar's height, and a frame time for `fps.frame_*`: the interval since the previous
    /// counted present, but never more than the frame's own time — the refresh interval it was
    /// presented at plus its lateness past its expected present (R3). A frame cannot have taken
    /// longer than it was late: after time without animation (A2), an idle display, the interval
    /// spans the idle time and the frame's own time is the bar. Computable from a frame log alone
    /// (present, expected present, refresh interval), as `import csv` reads one back.
    func frameTime(_ f: FrameRecord) -> Int64 {
        let own = f.refresh.nanoseconds + max(0, (f.present - f.expected).nanoseconds)
        return min(f.interval, own)
    }

    /// The window of the reading still open when the chart ends at the meter's end (now or the
    /// stop): drawn as it stands, up to the chart's end, when its callbacks so far span at least
    /// half a window — F1 over them (from its first timestamp to its newest), the frames
    /// presented over the same span.
    func openWindow(from: SimTime, to: SimTime) -> OpenWindow? {
        guard to == measuredAt, let start = counter.last, let newest = counter.newest, start < to, to > from
        else { return nil }
        let span = newest - start
        guard span > .zero, span.nanoseconds * 2 >= configuration.window.nanoseconds else { return nil }
        let callbacks = counter.count
        let rate = Int64(
            clamping: SimFormat.roundedDivide(Int128(callbacks) * 1_000_000_000, by: Int128(span.nanoseconds)))
        return OpenWindow(
            from: start, to: to, newest: newest, callbacks: callbacks,
            presents: ledger.span(after: start, through: newest).presents,
            reading: min(rate, Int64(device.displayRefresh.maximum)))
    }

    /// The window still open at the chart's end (``openWindow(from:to:)``).
    struct OpenWindow {
        var from: SimTime
        var to: SimTime
        /// The newest callback's timestamp: the counts are over `(from, newest]`.
        var newest: SimTime
        var callbacks: Int64
        var presents: Int64
        var reading: Int64
    }

    /// `--from` and `--to`: by default from the start (or the oldest present kept) to now (or the
    /// stop); `--to` past the meter's data stops at its end.
    private func plotRange(_ invocation: Invocation) throws(CommandError) -> (SimTime, SimTime) {
        var defaultFrom = since
        if frames.dropped > 0, let oldest = frames.first { defaultFrom = max(since, oldest.present) }
        let from = invocation[Self.plotFrom] ?? defaultFrom
        let asked = invocation[Self.plotTo]
        if let asked, from >= asked {
            throw CommandError("--from \(from) is not before --to \(asked)")
        }
        let end = measuredAt
        let to = min(asked ?? end, end)
        guard from < to else {
            throw CommandError(
                "nothing to plot from \(from): the meter's data ends at \(end) (\(stoppedAt == nil ? "now" : "its stop"))"
            )
        }
        return (from, to)
    }

    /// The meter's data in range, as the chart draws it: frame times by present, hitches by
    /// cause, the label's reading over the frames presented per window, tracking shaded.
    private func frameChartData(
        from: SimTime, to: SimTime, frames timed: [FrameRecord], windows shown: [WindowRecord], open: OpenWindow?,
        spans: [TrackingSpan]
    ) -> FrameChartData {
        let rates = device.displayRefreshes(from: from, to: to)
        let first = rates.first?.refresh ?? device.displayRefresh
        let refreshes =
            (rates.isEmpty ? [(time: from, refresh: first)] : rates).map {
                FrameChartData.Refresh(
                    time: $0.time, numerator: Double($0.refresh.divisor), denominator: Double($0.refresh.maximum),
                    key: $0.refresh.millihertz, rateText: $0.refresh.rateText)
            }
        var data = FrameChartData(
            title: "fps plot: \(from) to \(to) at \(FPSMeter.ratesText(rates))", rates: FPSMeter.ratesText(rates),
            from: from, to: to,
            late: HitchCause.allCases.map {
                FrameChartData.Late(
                    name: $0.plotName, color: FPSMeter.causeColors[$0] ?? FPSMeter.onTimeColor, mark: $0.mark)
            },
            barsEmptyNote:
                "no frame time from \(from) to \(to): nothing animated (A2)\n"
                + "to see frames: animate 2s, scroll 1s or stall 100ms --ui",
            refreshes: refreshes,
            fpsAxis: "fps per window: the label's reading, the frames presented",
            fpsEmptyNote:
                "no window of the reading closed from \(from) to \(to)\n"
                + "one closes every \(configuration.window) (F1): plot a longer span or run longer",
            spans: spans)
        data.bars = timed.map { f in
            FrameChartData.Bar(
                present: f.present, interval: frameTime(f),
                late: f.hitch > 0 ? f.cause.flatMap { HitchCause.allCases.firstIndex(of: $0) } : nil)
        }
        data.presented = shown.map { w in
            let span = w.to - w.from
            let rateShown = span > .zero ? Double(w.presents) * 1e9 / Double(span.nanoseconds) : 0
            return FrameChartData.Window(from: w.from, to: w.to, value: rateShown)
        }
        data.readings = shown.map { FrameChartData.Window(from: $0.from, to: $0.to, value: Double($0.reading)) }
        if let open {
            let span = open.newest - open.from
            data.presented?.append(
                FrameChartData.Window(
                    from: open.from, to: open.to, value: Double(open.presents) * 1e9 / Double(span.nanoseconds)))
            data.readings?.append(FrameChartData.Window(from: open.from, to: open.to, value: Double(open.reading)))
            data.notes.append(
                "the last window, from \(open.from) to \(open.to), is still open: drawn as it stands "
                    + "(\(open.callbacks) callbacks, \(open.presents) presented to \(open.newest))")
        }
        // The default span starts at the oldest present kept: say so when older ones were dropped.
        if frames.dropped > 0, let oldest = frames.first, from <= oldest.present {
            data.notes.append(
                "only the last \(frames.capacity) presents are kept (fps.frames-kept): no frame time before \(oldest.present)"
            )
        }
        if windows.dropped > 0, let oldest = windows.first, from < oldest.from {
            data.notes.append("only the last \(FPSMeter.historyLimit) windows are kept: none before \(oldest.from)")
        }
        return data
    }

    /// The chart, from the meter's data or a recording's: frame time per present over the budget
    /// lines, with hitches coloured by cause; under it the frames presented per window and the
    /// label's reading over them; tracking shaded.
    static func frameChart(_ data: FrameChartData) -> Chart {
        func seconds(_ t: SimTime) -> Double { Double(t.nanoseconds) / 1e9 }
        let from = data.from
        let to = data.to

        var onTime = ChartSeries(data.onTimeName, style: .bars, color: FPSMeter.onTimeColor)
        var late = data.late.map { ChartSeries($0.name, style: .bars, color: $0.color, mark: $0.mark) }
        for bar in data.bars {
            let point = ChartPoint(
                x: seconds(bar.present), y: Double(bar.interval) / 1e9,
                start: seconds(bar.present - SimDuration(nanoseconds: bar.interval)))
            if let k = bar.late, late.indices.contains(k) {
                late[k].points.append(point)
            } else {
                onTime.points.append(point)
            }
        }
        // The y axis in milliseconds (seconds past a second), ticks every 1, 2 or 5 × 10^k; the
        // budget lines at 1× and 2× the refresh interval in force, stepping where the rate changes.
        // The rates in force over the span (S2): the budget lines follow them; on an adaptive
        // display one step per rate segment, exact at rates such as 120/7 (V6).
        let refreshes = data.refreshes
        func budget(_ multiple: Int, color: RGB) -> ChartRule {
            var distinct: [FrameChartData.Refresh] = []
            for r in refreshes where !distinct.contains(where: { $0.key == r.key }) {
                distinct.append(r)
            }
            // The period of `multiple` refreshes at max/n, in seconds: multiple · n / max.
            func budgetSeconds(_ refresh: FrameChartData.Refresh) -> Double {
                Double(multiple) * refresh.numerator / refresh.denominator
            }
            func interval(_ refresh: FrameChartData.Refresh) -> String {
                FPSMeter.plotMilliseconds(1000 * Double(multiple) * refresh.numerator / refresh.denominator)
            }
            let label =
                distinct.count <= 1
                ? "\(multiple)× budget \(distinct.first.map(interval) ?? "")"
                : "\(multiple)× budget " + distinct.map { "\(interval($0)) at \($0.rateText)" }.joined(separator: ", ")
            // When the rate changes, each stretch of the 1× line names its own rate.
            let named = multiple == 1 && distinct.count > 1
            return ChartRule(
                y: refreshes.first.map(budgetSeconds) ?? 0, label: label, color: color,
                changes: refreshes.dropFirst().map {
                    ChartRule.Change(x: seconds($0.time), y: budgetSeconds($0), label: named ? $0.rateText : nil)
                }, tag: "\(multiple)×", levelLabel: named ? refreshes.first?.rateText : nil,
                scalesWithDataOnly: true)
        }
        let frameTimes = ChartPanel(
            yAxis: ChartAxis(label: data.barsAxis, lower: 0, quantity: .duration),
            series: [onTime] + late + data.extraBarSeries,
            rules: [budget(1, color: RGB(90, 90, 90)), budget(2, color: RGB(200, 60, 60))], weight: 2,
            markLabel: "hitch", emptyNote: data.barsEmptyNote)

        // The frames presented underneath, wide and solid; the label's reading over them, thinner
        // and dashed: where the two are equal, both show.
        var fpsSeries: [ChartSeries] = []
        if let shown = data.presented {
            var presented = ChartSeries(
                "frames presented per second", style: .steps, color: FPSMeter.presentedColor, symbol: "─",
                stroke: FPSMeter.presentedStroke)
            presented.points = shown.map { ChartPoint(x: seconds($0.to), y: $0.value, start: seconds($0.from)) }
            fpsSeries.append(presented)
        }
        if let shown = data.readings {
            var reading = ChartSeries(
                data.readingName, style: .steps, color: FPSMeter.labelReadingColor, symbol: "━",
                stroke: FPSMeter.labelReadingStroke)
            reading.points = shown.map { ChartPoint(x: seconds($0.to), y: $0.value, start: seconds($0.from)) }
            fpsSeries.append(reading)
        }
        let fps = ChartPanel(
            yAxis: ChartAxis(label: data.fpsAxis, lower: 0), series: fpsSeries, weight: 1,
            emptyNote: data.fpsEmptyNote, overlapLabel: "both")

        return Chart(
            title: data.title,
            xAxis: ChartAxis(label: "time (s)", unit: "s", lower: seconds(from), upper: seconds(to)),
            panels: [frameTimes, fps],
            spans: data.spans.map {
                ChartSpan(
                    from: seconds(max($0.from, from)), to: seconds(min($0.to, to)), label: "tracking",
                    color: FPSMeter.trackingColor)
            }, notes: data.notes)
    }

    /// The refresh rates of the span for the title: `60 Hz`; `60 Hz, 120 Hz from 1.016666666s`
    /// with up to three changes; `60–120 Hz, 5 rate changes` with more.
    static func ratesText(_ rates: [(time: SimTime, refresh: DisplayRefresh)]) -> String {
        guard let first = rates.first else { return "" }
        if rates.count == 1 { return first.refresh.rateText }
        if rates.count <= 4 {
            return "\(first.refresh.rateText), "
                + rates.dropFirst().map { "\($0.refresh.rateText) from \($0.time)" }.joined(separator: ", ")
        }
        let rates = rates.map(\.refresh.millihertz)
        let low = MetricNumber(thousandths: rates.min() ?? 0)
        let high = MetricNumber(thousandths: rates.max() ?? 0)
        return "\(low)–\(high) Hz, \(rates.count - 1) rate changes"
    }

    /// Milliseconds with three decimals: `16.667ms`.
    static func plotMilliseconds(_ ms: Double) -> String {
        SimDuration(nanoseconds: Int64((ms * 1e6).rounded())).millisecondsDescription
    }
}

extension HitchCause {
    /// The legend's name.
    var plotName: String {
        switch self {
        case .commit: return "commit hitch"
        case .render: return "render hitch"
        case .both: return "commit and render hitch"
        }
    }

    /// The letter under the bar in the terminal.
    var mark: Character {
        switch self {
        case .commit: return "c"
        case .render: return "r"
        case .both: return "b"
        }
    }
}

/// What the frame chart draws (`FPSMeter.frameChart`), from the meter's data or a recording's.
struct FrameChartData {
    /// One bar: the interval that ends at a present; `late` indexes ``late`` for a hitch.
    struct Bar {
        var present: SimTime
        var interval: Int64
        var late: Int?
    }

    /// A kind of hitch: its own series, colour and terminal mark.
    struct Late {
        var name: String
        var color: RGB
        var mark: Character
    }

    /// A value held over a window (frames presented per second, a label's reading).
    struct Window {
        var from: SimTime
        var to: SimTime
        var value: Double
    }

    /// A refresh interval in force from `time`: numerator / denominator seconds (n / max Hz for
    /// the display, ns / 1e9 for a recording), `key` telling rates apart.
    struct Refresh {
        var time: SimTime
        var numerator: Double
        var denominator: Double
        var key: Int64
        var rateText: String
    }

    var title: String
    /// The refresh rates of the span as the title says them (`60 Hz`, `120 Hz (assumed)`).
    var rates: String
    var from: SimTime
    var to: SimTime
    var barsAxis = "frame time per present ({unit})"
    var onTimeName = "on time"
    var bars: [Bar] = []
    var late: [Late]
    /// Drawn over the bars (a recording's hitches that match no present).
    var extraBarSeries: [ChartSeries] = []
    var barsEmptyNote: String
    var refreshes: [Refresh]
    /// Nil: no such line (a recording without frames, or without callbacks).
    var presented: [Window]? = nil
    var readings: [Window]? = nil
    var readingName = "FPS label's reading"
    var fpsAxis: String
    var fpsEmptyNote: String
    var spans: [TrackingSpan] = []
    var notes: [String] = []
}
