import DebugShellCharts
import DebugShellCore

/// `timer plot <name>`: a timer's lateness per firing over time, as an SVG file or drawn in the
/// terminal (docs/TimerInspector.md).
///
/// It reads the firings the inspector keeps through ``FiringLog/last(_:of:fires:)`` and
/// ``FiringLog/kept(_:fires:)``, nothing else of the log, so it draws the same whatever way the
/// log stores them.
extension TimerInspector {
    static let onTimeColor = RGB(120, 144, 156)
    static let thresholdColor = RGB(200, 60, 60)
    /// The time after a timer's invalidation, shaded.
    static let invalidatedColor = RGB(238, 226, 226)

    /// How each K2 cause of a late firing is drawn: its legend name, colour and terminal symbol.
    static let causeStyles: [(cause: LatenessCause?, name: String, color: RGB, symbol: Character)] = [
        (.mode, "late: mode", RGB(142, 68, 173), "m"),
        (.busy, "late: busy", RGB(214, 69, 65), "b"),
        (.coalesced, "late: coalesced", RGB(230, 145, 56), "c"),
        (.paused, "late: paused", RGB(23, 150, 170), "p"),
        (nil, "late", RGB(90, 90, 90), "l"),
    ]

    func plot(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let index = try entry(named: inv[Self.existingTimer])
        let name = entries[index].name
        let file = inv[Self.plotFile]
        if file != nil && (inv.has(Self.plotWidth) || inv.has(Self.plotHeight)) {
            throw CommandError("--width and --height size the chart in the terminal; an SVG file scales")
        }
        // Firings have started (K2) by the device's count; the log rebuilds them from its records.
        let total = info(index)?.fires ?? 0
        let kept = log.last(log.kept(index, fires: total), of: index, fires: total)
        guard let oldest = kept.first else {
            throw CommandError("timer '\(name)' has not fired yet: nothing to plot")
        }
        let dropped = total > Int64(kept.count)

        // By default from the timer's creation (or the oldest firing kept) to now; --to past now
        // stops at now.
        let created = entries[index].created
        let from = inv[Self.plotFrom] ?? (dropped ? max(created, oldest.record.scheduled) : created)
        let asked = inv[Self.plotTo]
        if let asked, from >= asked { throw CommandError("--from \(from) is not before --to \(asked)") }
        let to = min(asked ?? device.now, device.now)
        guard from < to else {
            throw CommandError("nothing to plot from \(from): the simulation is at \(device.now)")
        }
        let shown = kept.filter { $0.record.scheduled >= from && $0.record.scheduled <= to }
        guard let first = shown.first, let last = shown.last else {
            throw CommandError("timer '\(name)' has no firing kept between \(from) and \(to)")
        }

        func seconds(_ t: SimTime) -> Double { Double(t.nanoseconds) / 1e9 }
        var onTime = ChartSeries(
            "on time", style: .points, color: TimerInspector.onTimeColor, symbol: "·")
        var late = TimerInspector.causeStyles.map {
            ChartSeries($0.name, style: .points, color: $0.color, symbol: $0.symbol)
        }
        var lateCounts = Array(repeating: 0, count: late.count)
        var maxLateness = SimDuration.zero
        for (_, record) in shown {
            let point = ChartPoint(
                x: seconds(record.scheduled), y: Double(record.lateness.nanoseconds) / 1e9)
            maxLateness = max(maxLateness, record.lateness)
            if isLate(record.lateness) {
                let k = TimerInspector.causeStyles.firstIndex { $0.cause == record.cause } ?? late.count - 1
                late[k].points.append(point)
                lateCounts[k] += 1
            } else {
                onTime.points.append(point)
            }
        }
        // Only the causes that occur, so that the legend stays short; on time always.
        let series = [onTime] + late.indices.filter { lateCounts[$0] > 0 }.map { late[$0] }
        var notes: [String] = []
        if dropped && from < oldest.record.scheduled {
            notes.append(
                "only the last \(kept.count) of \(total) firings are kept: none before \(oldest.record.scheduled)")
        }
        // A display link: what it asks for and the rate it fired at over the span drawn.
        var title = "timer plot: \(name), \(from) to \(to)"
        var rateJSON: JSONValue = .null
        if entries[index].kind == .displayLink, let info = info(index) {
            let asked =
                info.frameRateRange.map { "range \($0)" }
                ?? (info.preferredFramesPerSecond == 0
                    ? "no range" : "preferred \(info.preferredFramesPerSecond) fps")
            var fired: MetricNumber?
            let elapsed = (last.record.scheduled - first.record.scheduled).nanoseconds
            if shown.count > 1, elapsed > 0 {
                // Firings per second between the first and the last drawn, to the thousandth.
                let millihertz = SimFormat.roundedDivide(
                    Int128(shown.count - 1) * 1_000_000_000_000, by: Int128(elapsed))
                fired = MetricNumber(thousandths: Int64(clamping: millihertz))
            }
            title += " · \(asked)" + (fired.map { ", fired at \($0) Hz" } ?? "")
            rateJSON = .fields(["asked": .string(asked), "fired_hz": fired.map { .string("\($0)") } ?? .null])
        }
        // Where it was invalidated: the rest of the span shaded from that instant.
        let invalidated = entries[index].invalidatedAt
        var spans: [ChartSpan] = []
        if let at = invalidated, at >= from, at <= to {
            if at < to {
                spans.append(
                    ChartSpan(
                        from: seconds(at), to: seconds(to), label: "invalidated",
                        color: TimerInspector.invalidatedColor))
            }
        }
        let threshold = Double(lateThreshold.nanoseconds) / 1e9
        let chart = Chart(
            title: title,
            xAxis: ChartAxis(label: "scheduled time (s)", unit: "s", lower: seconds(from), upper: seconds(to)),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(
                        label: "lateness ({unit}): how long after its scheduled time it ran", lower: 0,
                        quantity: .duration),
                    series: series,
                    rules: [
                        ChartRule(
                            y: threshold, label: "late threshold \(Format.duration(lateThreshold))",
                            color: TimerInspector.thresholdColor, tag: "late")
                    ])
            ], spans: spans, notes: notes)

        let lateTotal = lateCounts.reduce(0, +)
        let causes = TimerInspector.causeStyles.indices.filter { lateCounts[$0] > 0 }.map {
            "\(TimerInspector.causeStyles[$0].cause?.rawValue ?? "no cause") \(lateCounts[$0])"
        }
        let numbers = first.number == last.number ? "firing \(first.number)" : "firings \(first.number)–\(last.number)"
        let summary =
            "\(shown.count) \(shown.count == 1 ? "firing" : "firings") (\(numbers)), \(lateTotal) late"
            + (causes.isEmpty ? "" : " (\(causes.joined(separator: ", ")))")
            + ", max lateness \(Format.duration(maxLateness)), from \(from) to \(to)"
            + (invalidated.map { ", invalidated at \($0)" } ?? "")
        var causeJSON: [(String, JSONValue)] = []
        for (k, style) in TimerInspector.causeStyles.enumerated() where style.cause != nil || lateCounts[k] > 0 {
            causeJSON.append((style.cause?.rawValue ?? "none", JSONValue(lateCounts[k])))
        }
        return try chart.commandOutput(
            file: file, display: host.display, columns: inv[Self.plotWidth].map { Int($0) },
            rows: Int(inv[Self.plotHeight]), summary: summary,
            json: [
                ("name", .string(name)), ("from_ns", JSONValue(from)), ("to_ns", JSONValue(to)),
                ("firings", JSONValue(shown.count)), ("first", .int(first.number)), ("last", .int(last.number)),
                ("late", JSONValue(lateTotal)), ("causes", .object(causeJSON)),
                ("max_late_ns", JSONValue(maxLateness)), ("threshold_ns", JSONValue(lateThreshold)),
                ("link", rateJSON), ("invalidated_ns", invalidated.map { JSONValue($0) } ?? .null),
            ])
    }
}
