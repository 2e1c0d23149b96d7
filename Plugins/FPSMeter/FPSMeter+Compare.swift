import DebugShellCore

/// `fps compare`: each classic estimator's last reading beside the ground truth of the same span.
extension FPSMeter {
    /// One estimator's line in the lab.
    struct EstimatorResult {
        var name: String
        /// What it computes, in a few words.
        var definition: String
        /// The unit of `reading`, `truth` and `error` in JSON: `fps`, `vsyncs` or `ns`.
        var unit: String
        var reading: Int64?
        var truth: Int64?
        var readingText = "—"
        var truthText = "—"
        var spanText: String
        var span: (from: SimTime, to: SimTime)?
        var extra: [(String, JSONValue)] = []

        /// Fills in a reading and the truth over its span.
        mutating func measured(
            _ reading: Int64, _ readingText: String, truth: Int64?, _ truthText: String?,
            span: (from: SimTime, to: SimTime)?, _ spanText: String
        ) {
            self.reading = reading
            self.readingText = readingText
            self.truth = truth
            self.truthText = truthText ?? "—"
            self.span = span
            self.spanText = spanText
        }

        var error: Int64? {
            guard let reading, let truth else { return nil }
            return reading - truth
        }

        var errorText: String {
            guard let error else { return "—" }
            switch unit {
            case "ns": return FPSMeter.signedDuration(error)
            case "fps": return FPSMeter.signed(error, unit: " fps")
            default: return FPSMeter.signed(error)
            }
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [
                ("name", .string(name)), ("definition", .string(definition)), ("unit", .string(unit)),
                ("reading", reading.map { .int($0) } ?? .null), ("truth", truth.map { .int($0) } ?? .null),
                ("error", error.map { .int($0) } ?? .null),
                ("from_ns", span.map { JSONValue($0.from) } ?? .null),
                ("to_ns", span.map { JSONValue($0.to) } ?? .null),
            ]
            fields += extra
            return .object(fields)
        }
    }

    /// `round(count / span in s)`, half away from zero.
    static func perSecond(_ count: Int64, over span: SimDuration) -> Int64 {
        guard span > .zero else { return 0 }
        return Int64(clamping: SimFormat.roundedDivide(Int128(count) * 1_000_000_000, by: Int128(span.nanoseconds)))
    }

    func compareReport(recording: Bool = false) throws(CommandError) -> CommandOutput {
        let results: [EstimatorResult]
        var text: String
        if recording {
            guard let timeline = host.recording else {
                throw CommandError(
                    "no recording: 'import csv <display-link log>' or 'import xctrace <files>' reads one")
            }
            guard timeline.linkCallbacks.count >= 2 else {
                throw CommandError(
                    "the recording has \(timeline.linkCallbacks.isEmpty ? "no" : "one") display-link callback"
                        + "\(timeline.linkCallbacks.isEmpty ? "s" : ""): the FPS labels read callbacks "
                        + "(a display-link log, 'import csv', has them)")
            }
            let truth = RecordedTruth(timeline)
            results = FPSMeter.estimatorResults(
                lab: FPSMeter.lab(feeding: timeline), truth: truth, trackingTime: nil)
            text =
                "estimators on the recording's \(timeline.linkCallbacks.count) display-link callbacks "
                + "(\(timeline.format.rawValue)):\n"
            text += FPSMeter.compareTable(results)
            text +=
                truth.presents.isEmpty
                ? "\ntruth: the recording has no presents: what each label would have shown, and no error"
                : "\ntruth: frames the recording presented over the same span; missed = vsyncs with no\n"
                    + "present since the vsync before"
        } else {
            try requireStarted()
            results = estimatorResults()
            text = FPSMeter.compareTable(results)
            text +=
                "\ntruth: frames presented over the same span; missed = vsyncs that expected a\n"
                + "present (animating, R3) and had none"
        }
        // A table of dashes tells nothing that an error cannot say better (as 'fps history' does).
        guard results.contains(where: { $0.reading != nil }) else {
            throw CommandError(
                "no estimator has a reading yet: the first come after two of the meter's callbacks, most after 1s; run time first"
            )
        }
        return CommandOutput(text: text, json: .fields(["estimators": .array(results.map(\.json))]))
    }

    /// Four columns fit 80; each estimator's span goes on a line of its own under its reading,
    /// where a fifth column would not fit.
    static func compareTable(_ results: [EstimatorResult]) -> String {
        var rows = [["estimator", "reading", "truth", "error"]]
        for r in results { rows.append([r.name, r.readingText, r.truthText, r.errorText]) }
        let indent = String(repeating: " ", count: (rows.map { $0[0].count }.max() ?? 0) + 2)
        var lines = FPSMeter.table(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (k, r) in results.enumerated().reversed() { lines.insert(indent + r.spanText, at: k + 2) }
        return lines.joined(separator: "\n")
    }

    /// A lab fed with a recording's display-link callbacks, as the meter's own link feeds it: the
    /// recording knows no run-loop mode, so nothing is tracking.
    static func lab(feeding timeline: RecordedTimeline) -> EstimatorLab {
        var lab = EstimatorLab()
        let truth = RecordedTruth(timeline)
        for (k, c) in timeline.linkCallbacks.enumerated() {
            // Without a targetTimestamp, the next callback's vsync is the best reading of it.
            let target =
                c.targetTimestamp ?? c.duration.map { c.timestamp + $0 }
                ?? (k + 1 < timeline.linkCallbacks.count ? timeline.linkCallbacks[k + 1].timestamp : c.timestamp)
            let callback = TimerCallback(
                id: TimerID(rawValue: 0), kind: .displayLink, start: c.timestamp, scheduled: c.timestamp,
                timestamp: c.timestamp, targetTimestamp: target, duration: c.duration ?? (target - c.timestamp),
                data: 1, invocation: Int64(k + 1))
            lab.feed(callback, tracking: false) { from, to in truth.span(after: from, through: to).presents }
        }
        return lab
    }

    /// The estimators' results on the meter's own callbacks, against the simulation.
    func estimatorResults() -> [EstimatorResult] {
        FPSMeter.estimatorResults(
            lab: lab, truth: LiveTruth(ledger: ledger, device: device), trackingTime: trackingTimeNow)
    }

    static func estimatorResults(lab: EstimatorLab, truth: some GroundTruth, trackingTime: SimDuration?)
        -> [EstimatorResult]
    {
        [
            tumbling(lab, truth, clamp: nil), tumbling(lab, truth, clamp: 60), sliding(lab, truth),
            tracking(lab, trackingTime), geiger(lab, truth), sentry(lab, truth), matrix(lab, truth),
        ]
    }

    /// YYFPSLabel (F1, 1 s windows, no clamp) and HyFPSLabel (the same, clamped to 60).
    private static func tumbling(_ lab: EstimatorLab, _ truth: some GroundTruth, clamp: Int64?) -> EstimatorResult {
        var r = EstimatorResult(
            name: clamp == nil ? "YYFPSLabel" : "HyFPSLabel",
            definition: clamp == nil ? "F1 over 1s windows, no clamp" : "F1 over 1s windows, clamped to 60",
            unit: "fps", spanText: "no 1s window yet")
        guard let w = lab.lastWindow else { return r }
        let reading = clamp.map { min(w.rate, $0) } ?? w.rate
        let presents = truth.hasPresents ? FPSMeter.perSecond(lab.lastWindowPresents, over: w.span) : nil
        r.measured(
            reading, "\(reading) fps", truth: presents, presents.map { "\($0) fps" }, span: (w.from, w.to),
            "over " + FPSMeter.span(w.from, w.to, open: true))
        return r
    }

    /// GDPerformanceView: callbacks in the sliding second before the last one, inclusive.
    private static func sliding(_ lab: EstimatorLab, _ truth: some GroundTruth) -> EstimatorResult {
        var r = EstimatorResult(
            name: "GDPerformanceView", definition: "callbacks in [last - 1s, last]", unit: "fps",
            spanText: "no full second of callbacks yet")
        guard lab.hasFullSecond, let last = lab.lastTimestamp else { return r }
        let from = last - EstimatorLab.second
        let presents =
            truth.hasPresents ? truth.span(after: from - SimDuration(nanoseconds: 1), through: last).presents : nil
        r.measured(
            lab.slidingCount, "\(lab.slidingCount) fps", truth: presents, presents.map { "\($0) fps" },
            span: (from, last), "over " + FPSMeter.span(from, last, open: false))
        return r
    }

    /// DXFPSLabel: callbacks per second of tracking time only, clamped to 60; nil tracking time:
    /// the source knows no run-loop mode (a recording).
    private static func tracking(_ lab: EstimatorLab, _ trackingTime: SimDuration?) -> EstimatorResult {
        guard let time = trackingTime else {
            var r = EstimatorResult(
                name: "DXFPSLabel", definition: "callbacks per second of tracking time, clamped to 60", unit: "fps",
                spanText: "a recording has no run-loop mode: no tracking time")
            r.extra = [("tracking_ns", .null)]
            return r
        }
        var r = EstimatorResult(
            name: "DXFPSLabel", definition: "callbacks per second of tracking time, clamped to 60", unit: "fps",
            spanText: "\(SimFormat.readable(time.nanoseconds)) of tracking, under 1s")
        r.extra = [("tracking_ns", JSONValue(time))]
        guard time >= EstimatorLab.second else { return r }
        let reading = min(60, FPSMeter.perSecond(lab.trackingCallbacks, over: time))
        let truth = FPSMeter.perSecond(lab.trackingPresents, over: time)
        r.measured(
            reading, "\(reading) fps", truth: truth, "\(truth) fps", span: nil,
            "over \(SimFormat.readable(time.nanoseconds)) of tracking")
        return r
    }

    /// KMCGeigerCounter: vsyncs without a callback in the last second; clicks.
    private static func geiger(_ lab: EstimatorLab, _ truth: some GroundTruth) -> EstimatorResult {
        var r = EstimatorResult(
            name: "KMCGeigerCounter", definition: "vsyncs without a callback in (last - 1s, last]", unit: "vsyncs",
            spanText: "no full second of callbacks yet")
        r.extra = [("drawn", .null), ("clicks", .int(lab.clicks))]
        guard lab.hasFullSecond, let last = lab.lastTimestamp else { return r }
        let from = last - EstimatorLab.second
        let one = SimDuration(nanoseconds: 1)
        let drawn = lab.callbacksInOpenSecond
        r.extra = [("drawn", .int(drawn)), ("clicks", .int(lab.clicks))]
        // The vsyncs of the second: the device's, or a recording's; without them the reading
        // counts the callbacks' own grid (the link fired at each vsync it did not drop).
        guard let vsyncs = truth.vsyncs(from: from + one, to: last + one) else {
            r.readingText = "\(drawn) drawn · \(lab.clicks) clicks"
            r.spanText = "over " + FPSMeter.span(from, last, open: true) + "; no vsyncs recorded"
            return r
        }
        let dropped = max(0, vsyncs - drawn)
        let missed = truth.span(after: from, through: last).missed
        r.measured(
            dropped, "\(dropped) dropped · \(lab.clicks) clicks", truth: missed, "\(missed) missed", span: (from, last),
            "over " + FPSMeter.span(from, last, open: true))
        return r
    }

    /// The span from the first callback's timestamp to the last one's, for the since-start
    /// estimators.
    private static func callbackSpan(_ lab: EstimatorLab) -> (from: SimTime, to: SimTime)? {
        guard let first = lab.firstTimestamp, let last = lab.lastTimestamp, last > first else { return nil }
        return (first, last)
    }

    /// Sentry: slow and frozen frames, and the frames delay Σ(interval − expected).
    private static func sentry(_ lab: EstimatorLab, _ truth: some GroundTruth) -> EstimatorResult {
        var r = EstimatorResult(
            name: "Sentry",
            definition: "frames delay: sum of (interval - period); slow above 1/(rate-1) s, frozen above 700ms",
            unit: "ns", spanText: "no interval yet")
        r.extra = [("frames", .int(lab.frames)), ("slow", .int(lab.slowFrames)), ("frozen", .int(lab.frozenFrames))]
        guard let span = callbackSpan(lab) else { return r }
        let missed = truth.hasVsyncs ? truth.span(after: span.from, through: span.to) : nil
        let delay = SimFormat.readable(lab.framesDelay)
        r.measured(
            lab.framesDelay, "delay \(delay) · slow \(lab.slowFrames) · frozen \(lab.frozenFrames)",
            truth: missed?.missedTime, missed.map(FPSMeter.missedText), span: span,
            "over " + FPSMeter.span(span.from, span.to, open: true))
        return r
    }

    /// Matrix: dropped frames per interval, (Δ − T) / T rounded, and their time in frame intervals.
    private static func matrix(_ lab: EstimatorLab, _ truth: some GroundTruth) -> EstimatorResult {
        var r = EstimatorResult(
            name: "Matrix", definition: "dropped time: (d - T) / T frames for each interval d, T the frame interval",
            unit: "ns", spanText: "no interval yet")
        r.extra = [
            ("dropped_frames", .int(lab.matrixDroppedFrames)), ("slow_intervals", .int(lab.matrixSlowIntervals)),
        ]
        guard let span = callbackSpan(lab) else { return r }
        let missed = truth.hasVsyncs ? truth.span(after: span.from, through: span.to) : nil
        let frames = lab.matrixDroppedFrames == 1 ? "1 frame" : "\(lab.matrixDroppedFrames) frames"
        let text = "drop \(SimFormat.readable(lab.matrixDropTime)) (\(frames))"
        r.measured(
            lab.matrixDropTime, text, truth: missed?.missedTime, missed.map(FPSMeter.missedText), span: span,
            "over " + FPSMeter.span(span.from, span.to, open: true))
        return r
    }

    /// The truth of the since-start estimators: `1.483s missed (89)`.
    static func missedText(_ span: (presents: Int64, missed: Int64, missedTime: Int64)) -> String {
        "\(SimFormat.readable(span.missedTime)) missed (\(span.missed))"
    }
}

extension FPSMeter {
    /// A span of time for a report: `(1s, 2s]` (open: excluding its start) or `[1.983s, 2.983s]`.
    static func span(_ from: SimTime, _ to: SimTime, open: Bool) -> String {
        "\(open ? "(" : "[")\(SimFormat.readable(from.nanoseconds)), \(SimFormat.readable(to.nanoseconds))]"
    }
}

/// What the estimators' readings are compared with: presents and vsyncs that missed their
/// present over a span, and vsyncs counted — the simulated device's, or a recording's.
protocol GroundTruth {
    /// Presents and missed vsyncs in `(from, to]`, and the missed vsyncs' time.
    func span(after from: SimTime, through to: SimTime) -> (presents: Int64, missed: Int64, missedTime: Int64)
    /// Vsyncs in `[from, to)`, or nil when the source has none.
    func vsyncs(from: SimTime, to: SimTime) -> Int64?
    var hasPresents: Bool { get }
    var hasVsyncs: Bool { get }
}

/// The simulation's truth: the meter's ledger and the device's grid.
struct LiveTruth: GroundTruth {
    let ledger: VsyncLedger
    let device: any SimulatedDevice

    func span(after from: SimTime, through to: SimTime) -> (presents: Int64, missed: Int64, missedTime: Int64) {
        ledger.span(after: from, through: to)
    }
    func vsyncs(from: SimTime, to: SimTime) -> Int64? { device.vsyncs(from: from, to: to) }
    var hasPresents: Bool { true }
    var hasVsyncs: Bool { true }
}

/// A recording's truth: its presents, and its vsyncs with, for each, whether a present landed
/// since the vsync before (none did: a missed vsync, its gap the missed time). A recording knows
/// no animating time, so every vsync after the first expects a present.
struct RecordedTruth: GroundTruth {
    let presents: [Int64]
    let vsyncTimes: [Int64]
    /// Missed vsyncs and their time up to and including each vsync.
    let missedCount: [Int64]
    let missedTime: [Int64]

    init(_ timeline: RecordedTimeline) {
        presents = timeline.frames.map(\.present.nanoseconds).sorted()
        vsyncTimes = timeline.vsyncs.map(\.nanoseconds).sorted()
        var count: [Int64] = []
        var time: [Int64] = []
        count.reserveCapacity(vsyncTimes.count)
        time.reserveCapacity(vsyncTimes.count)
        var missed: Int64 = 0
        var missedNs: Int64 = 0
        var p = 0
        for (k, v) in vsyncTimes.enumerated() {
            var landed = false
            while p < presents.count && presents[p] <= v {
                if k > 0 && presents[p] > vsyncTimes[k - 1] { landed = true }
                p += 1
            }
            if k > 0 && !landed {
                missed += 1
                missedNs += v - vsyncTimes[k - 1]
            }
            count.append(missed)
            time.append(missedNs)
        }
        missedCount = count
        missedTime = time
    }

    /// How many of `sorted` are at or before `t`.
    static func upTo(_ t: Int64, in sorted: [Int64]) -> Int {
        var lo = 0
        var hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func span(after from: SimTime, through to: SimTime) -> (presents: Int64, missed: Int64, missedTime: Int64) {
        let shown = Self.upTo(to.nanoseconds, in: presents) - Self.upTo(from.nanoseconds, in: presents)
        let a = Self.upTo(from.nanoseconds, in: vsyncTimes)
        let b = Self.upTo(to.nanoseconds, in: vsyncTimes)
        func at(_ n: Int, _ values: [Int64]) -> Int64 { n > 0 ? values[n - 1] : 0 }
        return (
            Int64(max(0, shown)), at(b, missedCount) - at(a, missedCount), at(b, missedTime) - at(a, missedTime)
        )
    }

    func vsyncs(from: SimTime, to: SimTime) -> Int64? {
        guard hasVsyncs else { return nil }
        return Int64(Self.upTo(to.nanoseconds - 1, in: vsyncTimes) - Self.upTo(from.nanoseconds - 1, in: vsyncTimes))
    }
    var hasPresents: Bool { !presents.isEmpty }
    var hasVsyncs: Bool { !vsyncTimes.isEmpty }
}
