import DebugShellCharts
import DebugShellCore

/// `fps plot --recording`: the frame chart of `fps plot`, drawn from the imported recording
/// (`host.recording`) instead of the meter's data (docs/FPSMeter.md, docs/Import.md).
extension FPSMeter {
    static let unknownStageColor = RGB(140, 86, 75)

    /// The recording's data for `fps plot --recording` (and the recording's side of `--compare`).
    func recordingPlotParts(_ invocation: Invocation) throws(CommandError) -> PlotParts {
        guard let timeline = host.recording else {
            throw CommandError("no recording: 'import xctrace|csv|chrome <file>' reads one")
        }
        let plot = RecordingPlot(timeline)
        guard !plot.bars.isEmpty || !timeline.hitches.isEmpty || !plot.presented.isEmpty || !plot.readings.isEmpty
        else {
            throw CommandError(
                "nothing to plot: the recording (\(timeline.format.rawValue)) has no frames, no display-link "
                    + "callbacks and no hitches")
        }
        // --from and --to within the recording's span: by default all of it.
        let asked = invocation[Self.plotTo]
        let from = max(invocation[Self.plotFrom] ?? timeline.start, timeline.start)
        if let asked, from >= asked {
            throw CommandError("--from \(from) is not before --to \(asked)")
        }
        let to = min(asked ?? timeline.end, timeline.end)
        guard from < to else {
            throw CommandError(
                timeline.end > timeline.start
                    ? "nothing to plot from \(from): the recording ends at \(timeline.end)"
                    : "nothing to plot: the recording spans no time (it starts and ends at \(timeline.start))")
        }

        let bars = plot.bars.filter { $0.present >= from && $0.present <= to }
        let presents = timeline.frames.count { $0.present >= from && $0.present <= to }
        // A hitch belongs where its late frame reached the display: its end.
        let hitches = plot.hitches.filter { $0.end >= from && $0.end <= to }
        let presented = plot.presented.filter { $0.to > from && $0.from < to }
        let readings = plot.readings.filter { $0.to > from && $0.from < to }
        guard !bars.isEmpty || !hitches.isEmpty || !presented.isEmpty || !readings.isEmpty else {
            throw CommandError(
                "nothing to plot between \(from) and \(to): no \(plot.framesAreCallbacks ? "callback interval" : "frame time"), "
                    + "hitch or window of the recording there")
        }

        let data = plot.chartData(from: from, to: to, bars: bars, hitches: hitches)
        let byStage = RecordedStage.allCases.map { stage in hitches.count { $0.stage == stage } }
        let onPresents = hitches.count { $0.bar != nil }
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        var summary = "recording (\(timeline.format.rawValue)): "
        if plot.framesAreCallbacks {
            summary +=
                "no frames: the bars are \(count(bars.count, "display-link callback interval", "display-link callback intervals")), "
        } else {
            summary +=
                "\(count(presents, "present", "presents")), \(count(bars.count, "frame time", "frame times")), "
        }
        if timeline.hasHitchList || !hitches.isEmpty {
            summary +=
                "\(count(hitches.count, "hitch", "hitches")) (commit \(byStage[0]), render \(byStage[1]), "
                + "unknown \(byStage[2]); \(onPresents) on a present), "
        } else {
            summary += "no hitch list, "
        }
        if !plot.presented.isEmpty { summary += "\(count(presented.count, "window", "windows")), " }
        if !plot.readings.isEmpty {
            summary += "\(count(readings.count, "window", "windows")) of the label's reading, "
        }
        summary += "from \(from) to \(to)"
        let hitchJSON: JSONValue =
            timeline.hasHitchList || !hitches.isEmpty
            ? .fields([
                "commit": JSONValue(byStage[0]), "render": JSONValue(byStage[1]), "unknown": JSONValue(byStage[2]),
            ]) : .null
        return PlotParts(
            data: data, summary: summary,
            json: [
                ("from_ns", JSONValue(from)), ("to_ns", JSONValue(to)),
                ("recording", .string(timeline.format.rawValue)), ("presents", JSONValue(presents)),
                ("frame_times", JSONValue(plot.framesAreCallbacks ? 0 : bars.count)),
                ("callback_intervals", JSONValue(plot.framesAreCallbacks ? bars.count : 0)),
                ("hitches", hitchJSON), ("hitches_on_presents", JSONValue(onPresents)),
                ("windows", JSONValue(presented.count)), ("reading_windows", JSONValue(readings.count)),
                ("tracking_spans", JSONValue(0)),
            ])
    }
}

/// A recorded hitch's stage, read from its description as docs/Import.md ("Stage") says:
/// `app update`, `Commit(s)`, `Pre-Commit` → commit; `render`, `GPU`, `offscreen` → render (so
/// `Commit to Render latency` is a render hitch); debugsh's own causes the same way (`both` as
/// render); empty or anything else → unknown. The import's `TimelineAnalysis.Stage` reads the
/// same; the plugin sees only DebugShellCore, so it reads its own, and a test holds the two equal.
enum RecordedStage: String, CaseIterable {
    case commit, render, unknown

    init(_ description: String) {
        let text = description.lowercased()
        if text == "commit" || text.contains("app update") || text.contains("commit(s)") || text.contains("pre-commit")
        {
            self = .commit
        } else if text == "render" || text == "both" || text.contains("render") || text.contains("gpu")
            || text.contains("offscreen")
        {
            self = .render
        } else {
            self = .unknown
        }
    }

    var plotName: String { "\(rawValue) hitch" }

    var mark: Character {
        switch self {
        case .commit: return "c"
        case .render: return "r"
        case .unknown: return "u"
        }
    }

    var color: RGB {
        switch self {
        case .commit: return FPSMeter.causeColors[.commit] ?? FPSMeter.onTimeColor
        case .render: return FPSMeter.causeColors[.render] ?? FPSMeter.onTimeColor
        case .unknown: return FPSMeter.unknownStageColor
        }
    }
}

/// A recording read for the frame chart, whole: the bars (frame times, or a display-link log's
/// callback intervals), its hitches with their stage and the bar each lands on, frames presented
/// per second and the YYFPSLabel reading of its callbacks.
struct RecordingPlot {
    struct Hitch {
        var end: SimTime
        var duration: SimDuration
        var stage: RecordedStage
        /// The index in `bars` of the present it ends at, if the recording has it.
        var bar: Int?
    }

    let timeline: RecordedTimeline
    /// Frame times by present; a recording without frames: its callbacks' intervals.
    var bars: [FrameChartData.Bar] = []
    var framesAreCallbacks = false
    var hitches: [Hitch] = []
    var presented: [FrameChartData.Window] = []
    var readings: [FrameChartData.Window] = []

    /// The refresh interval the budget lines use: the recording's, else 60 Hz.
    var refreshInterval: SimDuration { timeline.refreshInterval ?? SimDuration(nanoseconds: 16_666_667) }

    init(_ timeline: RecordedTimeline) {
        self.timeline = timeline
        let frames = timeline.frames
        // The bar each frame has, by the frame's index.
        var barOfFrame = [Int?](repeating: nil, count: frames.count)
        if !frames.isEmpty {
            // A frame log says which frames the meter counted (a hitch, zero or more, where
            // counted, A2): its frame times are between those, as the meter's are. Any other
            // recording: between every present.
            let countedOnly = timeline.format == .framesCSV && frames.contains { $0.hitch != nil }
            var previous: SimTime?
            for (k, frame) in frames.enumerated() where !countedOnly || frame.hitch != nil {
                if let previous {
                    barOfFrame[k] = bars.count
                    bars.append(
                        FrameChartData.Bar(present: frame.present, interval: (frame.present - previous).nanoseconds))
                }
                previous = frame.present
            }
        } else if timeline.linkCallbacks.count >= 2 {
            framesAreCallbacks = true
            for (a, b) in zip(timeline.linkCallbacks, timeline.linkCallbacks.dropFirst()) {
                bars.append(FrameChartData.Bar(present: b.timestamp, interval: (b.timestamp - a.timestamp).nanoseconds))
            }
        }

        // Each hitch to its frame: the same swap where both have swap ids, else the present
        // nearest its end within half a refresh interval (a frame log's hitch ends at its present).
        var frameOfSwap: [Int64: Int] = [:]
        for (k, frame) in frames.enumerated() {
            if let swap = frame.swapID, frameOfSwap[swap] == nil { frameOfSwap[swap] = k }
        }
        let tolerance = refreshInterval.nanoseconds / 2
        for row in timeline.hitches {
            let end = row.start + row.duration
            var frame: Int?
            if let swap = row.swapID, let k = frameOfSwap[swap] {
                frame = k
            } else if let k = Self.nearest(end, in: frames),
                Swift.abs((frames[k].present - end).nanoseconds) <= tolerance
            {
                frame = k
            }
            let stage = RecordedStage(row.description)
            let bar = frame.flatMap { barOfFrame[$0] }
            if let bar { bars[bar].late = RecordedStage.allCases.firstIndex(of: stage) }
            hitches.append(Hitch(end: end, duration: row.duration, stage: stage, bar: bar))
        }

        // Frames presented per second: the presents in (a, b] (as the meter's windows count them),
        // windows of 1 s from the recording's start; the last one ends at the recording's end and
        // is drawn when it is at least half a second long.
        let second = SimDuration.seconds(1)
        if !frames.isEmpty, timeline.end > timeline.start {
            var a = timeline.start
            var k = 0
            while a < timeline.end {
                let b = min(a + second, timeline.end)
                var n = 0
                while k < frames.count, frames[k].present <= b {
                    if frames[k].present > a { n += 1 }
                    k += 1
                }
                if b - a >= SimDuration.milliseconds(500) {
                    presented.append(
                        FrameChartData.Window(from: a, to: b, value: Double(n) * 1e9 / Double((b - a).nanoseconds)))
                }
                a = b
            }
        }
        // YYFPSLabel on the callbacks (F1 over 1 s windows, unclamped): what an FPS label read.
        if timeline.linkCallbacks.count >= 2 {
            var counter = WindowCounter()
            for c in timeline.linkCallbacks {
                if let closed = counter.feed(c.timestamp, window: second) {
                    readings.append(FrameChartData.Window(from: closed.from, to: closed.to, value: Double(closed.rate)))
                }
            }
        }
    }

    /// The index of the frame whose present is nearest `time` (frames in time order).
    static func nearest(_ time: SimTime, in frames: [RecordedFrame]) -> Int? {
        guard !frames.isEmpty else { return nil }
        var low = 0
        var high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].present < time { low = mid + 1 } else { high = mid }
        }
        if low == frames.count { return low - 1 }
        if low > 0, (time - frames[low - 1].present) < (frames[low].present - time) { return low - 1 }
        return low
    }

    /// What the chart draws over `[from, to]`.
    func chartData(from: SimTime, to: SimTime, bars: [FrameChartData.Bar], hitches: [Hitch]) -> FrameChartData {
        let interval = refreshInterval
        let millihertz = interval > .zero ? Int64((1e12 / Double(interval.nanoseconds)).rounded()) : 0
        let refresh = FrameChartData.Refresh(
            time: from, numerator: Double(interval.nanoseconds), denominator: 1e9, key: millihertz,
            rateText: "\(MetricNumber(thousandths: millihertz)) Hz")
        let hasFrames = !timeline.frames.isEmpty
        let hasReading = !readings.isEmpty
        let rates = refresh.rateText + (timeline.refreshSource == .assumed ? " (assumed)" : "")
        var data = FrameChartData(
            title: "fps plot --recording (\(timeline.format.rawValue)): \(from) to \(to) at \(rates)", rates: rates,
            from: from, to: to,
            late: framesAreCallbacks
                ? []
                : RecordedStage.allCases.map { FrameChartData.Late(name: $0.plotName, color: $0.color, mark: $0.mark) },
            barsEmptyNote: framesAreCallbacks
                ? "no display-link callback interval from \(from) to \(to)"
                : "no frame time from \(from) to \(to): the recording presented no two frames there",
            refreshes: [refresh],
            fpsAxis: hasFrames && hasReading
                ? "fps per second: the frames presented, the YYFPSLabel reading"
                : hasFrames
                    ? "frames presented per second of the recording" : "fps: the YYFPSLabel reading of the callbacks",
            fpsEmptyNote:
                hasFrames || hasReading
                ? "no window from \(from) to \(to): windows are 1s from the recording's start"
                : "no frames and no display-link callbacks: nothing to count per second")
        data.bars = bars
        if framesAreCallbacks {
            data.barsAxis = "display-link callback interval ({unit})"
            data.onTimeName = "callback interval"
        }
        if hasFrames { data.presented = presented }
        if hasReading {
            data.readings = readings
            data.readingName = "YYFPSLabel's reading (callbacks)"
        }
        // Hitches whose frame the recording lacks: a point at the end of each, as high as it is long.
        let unplaced = hitches.filter { $0.bar == nil }
        for stage in RecordedStage.allCases {
            let points = unplaced.filter { $0.stage == stage }.map {
                ChartPoint(x: Double($0.end.nanoseconds) / 1e9, y: Double($0.duration.nanoseconds) / 1e9)
            }
            guard !points.isEmpty else { continue }
            data.extraBarSeries.append(
                ChartSeries(
                    "\(stage.plotName) with no present: its length", style: .points, color: stage.color, symbol: "×",
                    mark: stage.mark, points: points))
        }
        if !unplaced.isEmpty {
            data.notes.append(
                "\(unplaced.count) of \(hitches.count) hitches match no present of the recording (by swap id, or a "
                    + "present at their end): drawn as points (× in the terminal) at their length, not as frame times")
        }
        if framesAreCallbacks {
            data.notes.append("a display-link log has no frames: the bars are its callbacks' intervals")
        }
        return data
    }
}
