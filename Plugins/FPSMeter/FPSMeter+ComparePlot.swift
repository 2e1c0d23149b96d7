import DebugShellCharts
import DebugShellCore

/// `fps plot --compare`: the imported recording and the meter's data (a replay of it, after
/// `replay start`) in one chart — the recording's frame times on top, exactly as `--recording`
/// draws them, the simulation's below, exactly as `fps plot` draws them, on one y scale; under
/// them one panel of frames per second with both sources' lines (docs/FPSMeter.md, docs/Replay.md).
///
/// Each source is drawn on its own clock: the recording's time and simulated time. A replay's
/// recording time is simulated time plus an offset below one refresh interval, which the plugin
/// cannot see; below one bar's width at any useful scale, it is said in a note, not corrected.
extension FPSMeter {
    /// The recording's lines in the frames-per-second panel: drawn first, wider and grey, so the
    /// simulation's (in the colours of `fps plot`) lie on them and a grey edge shows where equal.
    static let recordedPresentedColor = RGB(150, 150, 150)
    static let recordedReadingColor = RGB(95, 95, 95)
    static let recordedPresentedStroke = ChartStroke(width: 9)
    static let recordedReadingStroke = ChartStroke(width: 2.5, dash: [2, 4])
    /// The terminal chart's rows without --height: 8 for each frame-time panel, 6 for the lines.
    static let compareRows = 22

    func comparePlot(_ invocation: Invocation, file: String?) throws(CommandError) -> CommandOutput {
        if invocation[Self.plotRecording] {
            throw CommandError("--compare draws the recording already: give --compare or --recording, not both")
        }
        guard host.recording != nil else {
            throw CommandError(
                "--compare needs a recording: 'import xctrace|csv|chrome <file>' reads one, 'replay start' replays it")
        }
        guard hasStarted else {
            throw CommandError(
                "--compare needs the meter's data: the meter has not been started ('fps start' after 'replay start', "
                    + "then 'replay run')")
        }
        let recorded = try recordingPlotParts(invocation)
        let simulated = try meterPlotParts(invocation)
        let chart = FPSMeter.compareChart(recording: recorded.data, simulation: simulated.data)
        // Three panels: 22 rows unless --height says, so that the frames-per-second panel's lines
        // have rows of their own.
        let rows = invocation.has(Self.plotHeight) ? Int(invocation[Self.plotHeight]) : Self.compareRows
        return try chart.commandOutput(
            file: file, display: host.display, columns: invocation[Self.plotWidth].map { Int($0) },
            rows: rows, summary: "\(recorded.summary); simulation: \(simulated.summary)",
            json: [("recording", .object(recorded.json)), ("simulation", .object(simulated.json))])
    }

    /// The two frame charts as one: their frame-time panels stacked and labelled, on one y scale,
    /// and one frames-per-second panel with the recording's lines under the simulation's.
    static func compareChart(recording: FrameChartData, simulation: FrameChartData) -> Chart {
        func seconds(_ t: SimTime) -> Double { Double(t.nanoseconds) / 1e9 }
        let top = frameChart(recording)
        let bottom = frameChart(simulation)
        var recordedBars = top.panels[0]
        recordedBars.yAxis.label = "recording: " + recordedBars.yAxis.label
        var simulatedBars = bottom.panels[0]
        simulatedBars.yAxis.label = "simulation: " + simulatedBars.yAxis.label

        // The recording's lines first, grey, wide or dotted; the simulation's over them.
        var recordedLines = top.panels[1].series
        for k in recordedLines.indices {
            let presented = recordedLines[k].symbol == "─"
            recordedLines[k].name = "recording: " + recordedLines[k].name
            recordedLines[k].color = presented ? recordedPresentedColor : recordedReadingColor
            recordedLines[k].stroke = presented ? recordedPresentedStroke : recordedReadingStroke
            recordedLines[k].symbol = presented ? "·" : "┄"
        }
        var simulatedLines = bottom.panels[1].series
        for k in simulatedLines.indices { simulatedLines[k].name = "simulation: " + simulatedLines[k].name }
        let fps = ChartPanel(
            yAxis: ChartAxis(label: "fps: the recording's per second, the simulation's per window", lower: 0),
            series: recordedLines + simulatedLines, weight: 1,
            emptyNote: "no window closed from either source in this span", overlapLabel: "lines on one row")

        let from = min(recording.from, simulation.from)
        let to = max(recording.to, simulation.to)
        let chart = Chart(
            title: "fps plot --compare: recording at \(recording.rates) over simulation at \(simulation.rates)",
            xAxis: ChartAxis(label: "time (s)", unit: "s", lower: seconds(from), upper: seconds(to)),
            panels: [recordedBars, simulatedBars, fps],
            spans: bottom.spans.map {
                ChartSpan(from: $0.from, to: $0.to, label: "simulation: tracking", color: $0.color)
            },
            notes: [
                "each on its own clock: a replay's recording time is simulated time plus an offset below one "
                    + "refresh interval (docs/Replay.md), not corrected here"
            ] + recording.notes.map { "recording: \($0)" } + simulation.notes.map { "simulation: \($0)" })
        return chart.sharingYScale(of: [0, 1])
    }
}
