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
            _ reading: Int64, _ readingText: String, truth: Int64, _ truthText: String,
            span: (from: SimTime, to: SimTime)?, _ spanText: String
        ) {
            self.reading = reading
            self.readingText = readingText
            self.truth = truth
            self.truthText = truthText
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

    func compareReport() throws(CommandError) -> CommandOutput {
        try requireStarted()
        let results = estimatorResults()
        // A table of dashes tells nothing that an error cannot say better (as 'fps history' does).
        guard results.contains(where: { $0.reading != nil }) else {
            throw CommandError(
                "no estimator has a reading yet: the first come after two of the meter's callbacks, most after 1s; run time first"
            )
        }
        // Four columns fit 80; each estimator's span goes on a line of its own under its reading,
        // where a fifth column would not fit.
        var rows = [["estimator", "reading", "truth", "error"]]
        for r in results { rows.append([r.name, r.readingText, r.truthText, r.errorText]) }
        let indent = String(repeating: " ", count: (rows.map { $0[0].count }.max() ?? 0) + 2)
        var lines = FPSMeter.table(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (k, r) in results.enumerated().reversed() { lines.insert(indent + r.spanText, at: k + 2) }
        let text =
            lines.joined(separator: "\n")
            + "\ntruth: frames presented over the same span; missed = vsyncs that expected a\n"
            + "present (animating, R3) and had none"
        return CommandOutput(text: text, json: .fields(["estimators": .array(results.map(\.json))]))
    }

    func estimatorResults() -> [EstimatorResult] {
        [tumbling(clamp: nil), tumbling(clamp: 60), sliding(), tracking(), geiger(), sentry(), matrix()]
    }

    /// YYFPSLabel (F1, 1 s windows, no clamp) and HyFPSLabel (the same, clamped to 60).
    private func tumbling(clamp: Int64?) -> EstimatorResult {
        var r = EstimatorResult(
            name: clamp == nil ? "YYFPSLabel" : "HyFPSLabel",
            definition: clamp == nil ? "F1 over 1s windows, no clamp" : "F1 over 1s windows, clamped to 60",
            unit: "fps", spanText: "no 1s window yet")
        guard let w = lab.lastWindow else { return r }
        let reading = clamp.map { min(w.rate, $0) } ?? w.rate
        let truth = FPSMeter.perSecond(lab.lastWindowPresents, over: w.span)
        r.measured(
            reading, "\(reading) fps", truth: truth, "\(truth) fps", span: (w.from, w.to),
            "over " + FPSMeter.span(w.from, w.to, open: true))
        return r
    }

    /// GDPerformanceView: callbacks in the sliding second before the last one, inclusive.
    private func sliding() -> EstimatorResult {
        var r = EstimatorResult(
            name: "GDPerformanceView", definition: "callbacks in [last - 1s, last]", unit: "fps",
            spanText: "no full second of callbacks yet")
        guard lab.hasFullSecond, let last = lab.lastTimestamp else { return r }
        let from = last - EstimatorLab.second
        let presents = ledger.span(after: from - SimDuration(nanoseconds: 1), through: last).presents
        r.measured(
            lab.slidingCount, "\(lab.slidingCount) fps", truth: presents, "\(presents) fps", span: (from, last),
            "over " + FPSMeter.span(from, last, open: false))
        return r
    }

    /// DXFPSLabel: callbacks per second of tracking time only, clamped to 60.
    private func tracking() -> EstimatorResult {
        let time = trackingTimeNow
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
    private func geiger() -> EstimatorResult {
        var r = EstimatorResult(
            name: "KMCGeigerCounter", definition: "vsyncs without a callback in (last - 1s, last]", unit: "vsyncs",
            spanText: "no full second of callbacks yet")
        r.extra = [("drawn", .null), ("clicks", .int(lab.clicks))]
        guard lab.hasFullSecond, let last = lab.lastTimestamp else { return r }
        let from = last - EstimatorLab.second
        let one = SimDuration(nanoseconds: 1)
        let vsyncs = device.vsyncs(from: from + one, to: last + one)
        let drawn = lab.callbacksInOpenSecond
        let dropped = max(0, vsyncs - drawn)
        let missed = ledger.span(after: from, through: last).missed
        r.measured(
            dropped, "\(dropped) dropped · \(lab.clicks) clicks", truth: missed, "\(missed) missed", span: (from, last),
            "over " + FPSMeter.span(from, last, open: true))
        r.extra = [("drawn", .int(drawn)), ("clicks", .int(lab.clicks))]
        return r
    }

    /// The span from the first callback's timestamp to the last one's, for the since-start
    /// estimators.
    private var callbackSpan: (from: SimTime, to: SimTime)? {
        guard let first = lab.firstTimestamp, let last = lab.lastTimestamp, last > first else { return nil }
        return (first, last)
    }

    /// Sentry: slow and frozen frames, and the frames delay Σ(interval − expected).
    private func sentry() -> EstimatorResult {
        var r = EstimatorResult(
            name: "Sentry",
            definition: "frames delay: sum of (interval - period); slow above 1/(rate-1) s, frozen above 700ms",
            unit: "ns", spanText: "no interval yet")
        r.extra = [("frames", .int(lab.frames)), ("slow", .int(lab.slowFrames)), ("frozen", .int(lab.frozenFrames))]
        guard let span = callbackSpan else { return r }
        let missed = ledger.span(after: span.from, through: span.to)
        let delay = SimFormat.readable(lab.framesDelay)
        r.measured(
            lab.framesDelay, "delay \(delay) · slow \(lab.slowFrames) · frozen \(lab.frozenFrames)",
            truth: missed.missedTime, FPSMeter.missedText(missed), span: span,
            "over " + FPSMeter.span(span.from, span.to, open: true))
        return r
    }

    /// Matrix: dropped frames per interval, (Δ − T) / T rounded, and their time in frame intervals.
    private func matrix() -> EstimatorResult {
        var r = EstimatorResult(
            name: "Matrix", definition: "dropped time: (d - T) / T frames for each interval d, T the frame interval",
            unit: "ns", spanText: "no interval yet")
        r.extra = [
            ("dropped_frames", .int(lab.matrixDroppedFrames)), ("slow_intervals", .int(lab.matrixSlowIntervals)),
        ]
        guard let span = callbackSpan else { return r }
        let missed = ledger.span(after: span.from, through: span.to)
        let frames = lab.matrixDroppedFrames == 1 ? "1 frame" : "\(lab.matrixDroppedFrames) frames"
        let text = "drop \(SimFormat.readable(lab.matrixDropTime)) (\(frames))"
        r.measured(
            lab.matrixDropTime, text, truth: missed.missedTime, FPSMeter.missedText(missed), span: span,
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
