import DebugShellCore

/// The meter's reports: `fps` (show), `fps frames`, `fps history`; their text and JSON shapes
/// are documented in docs/FPSMeter.md.
extension FPSMeter {
    // MARK: fps show

    /// V2: why the meter's link runs below its range on an adaptive display, and the fix.
    func rateCap(_ range: FrameRateRange?) -> String? {
        guard let (cap, request) = cappedRequest(range) else { return nil }
        return "60 Hz, not \(request): \(cap.reason) (V2); fix: '\(cap.fix)'"
    }

    /// What caps the meter's link at 60 Hz, and the rate it asks, if anything does (V2).
    func cappedRequest(_ range: FrameRateRange?) -> (RateCap, Int)? {
        guard let range else { return nil }
        let request = range.preferred == 0 ? range.minimum : range.preferred
        return device.rateCap(request: request).map { ($0, request) }
    }

    /// V2 in a few words, for the status line: `capped: Low Power Mode`.
    static func brief(_ cap: RateCap) -> String {
        switch cap {
        case .lowPower: return "capped: Low Power Mode"
        case .noHighFrameRates: return "capped: no CADisableMinimumFrameDurationOnPhone"
        }
    }

    func showReport() throws(CommandError) -> CommandOutput {
        try requireStarted()
        let c = configuration
        let since = FPSMeter.readable(since)
        let state =
            stoppedAt.map { "stopped at \(FPSMeter.readable($0)) (ran since \(since))" } ?? "running since \(since)"
        var rows: [[String]] = []
        rows.append([
            "meter",
            "\(state) · \(c.mode.rawValue) mode · window \(FPSMeter.readable(c.window)) · cost \(FPSMeter.readable(c.cost)) · label \(c.label ? "on" : "off")",
        ])

        if let cap = rateCap(c.range) { rows.append(["capped", cap]) }

        let window = windows.last
        if let reading, let window {
            rows.append([
                "reading",
                "\(reading) fps (last window \(FPSMeter.span(window.from, window.to, open: true)): \(window.callbacks) callbacks, \(window.presents) presents)",
            ])
        } else {
            rows.append(["reading", "— (no window has closed yet)"])
        }
        if let k = lastWholeSecond, let render = renderRate, let callbacks = callbacksInSecond {
            let second = "[\(k)s, \(k + 1)s)"
            rows.append(["render", "\(render) fps (presents in \(second))"])
            rows.append(["callbacks", "\(callbacks) in \(second) · skipped vsyncs \(skipped)"])
        } else {
            rows.append(["render", "— (no whole second since the start yet)"])
            rows.append(["callbacks", "— · skipped vsyncs \(skipped)"])
        }
        let h = hitches
        rows.append([
            "hitches",
            "\(h.count) (commit \(h.commit) · render \(h.render) · both \(h.both)), \(SimFormat.readable(h.time)) in \(FPSMeter.readable(animatingTime)) animating",
        ])
        if let ratio = hitchRatio {
            rows.append([
                "hitch ratio", "\(ratio) ms/s · \(tierScale.tier(for: ratio).rawValue) (\(tierScale.rawValue) tiers)",
            ])
        } else {
            rows.append(["hitch ratio", "— (no animating time yet)"])
        }
        if let p50 = intervals.percentile(50), let p95 = intervals.percentile(95), let p99 = intervals.percentile(99),
            let max = intervals.maximum
        {
            let text = [("p50", p50), ("p95", p95), ("p99", p99), ("max", max)]
                .map { "\($0.0) \(SimFormat.readable($0.1))" }.joined(separator: " · ")
            rows.append(["frame time", "\(text) (\(intervals.total) intervals)"])
        } else {
            rows.append(["frame time", "— (fewer than two counted presents)"])
        }
        return CommandOutput(text: FPSMeter.wrappedPairs(rows), json: self.showJSON())
    }

    func configurationJSON() -> JSONValue {
        .fields([
            "mode": .string(configuration.mode.rawValue), "window_ns": JSONValue(configuration.window),
            "cost_ns": JSONValue(configuration.cost), "label": .bool(configuration.label),
        ])
    }

    private func showJSON() -> JSONValue {
        func ns(_ v: Int64?) -> JSONValue { v.map { .int($0) } ?? .null }
        let second = lastWholeSecond
        var window = JSONValue.null
        if let w = windows.last {
            window = .fields([
                "from_ns": JSONValue(w.from), "to_ns": JSONValue(w.to), "callbacks": .int(w.callbacks),
                "presents": .int(w.presents),
            ])
        }
        var secondJSON = JSONValue.null
        if let k = second {
            secondJSON = .fields([
                "from_ns": .int(k * SecondTally.nanosecondsPerSecond),
                "to_ns": .int((k + 1) * SecondTally.nanosecondsPerSecond),
            ])
        }
        let hitchJSON = JSONValue.fields([
            "count": .int(hitches.count), "commit": .int(hitches.commit), "render": .int(hitches.render),
            "both": .int(hitches.both), "time_ns": .int(hitches.time), "animating_ns": JSONValue(animatingTime),
            "ratio": hitchRatio.map { .number($0) } ?? .null, "tier": JSONValue(tier?.rawValue),
            "tiers": .string(tierScale.rawValue),
        ])
        let frameTime = JSONValue.fields([
            "intervals": .int(intervals.total), "p50_ns": ns(intervals.percentile(50)),
            "p95_ns": ns(intervals.percentile(95)),
            "p99_ns": ns(intervals.percentile(99)), "max_ns": ns(intervals.maximum),
        ])
        let fields: [(String, JSONValue)] = [
            ("running", .bool(link != nil)), ("since_ns", JSONValue(since)),
            ("stopped_ns", stoppedAt.map { JSONValue($0) } ?? .null), ("config", configurationJSON()),
            ("reading", ns(reading)), ("window", window), ("second", secondJSON),
            ("render", ns(renderRate)), ("callbacks", ns(callbacksInSecond)),
            ("skipped", .int(skipped)), ("hitches", hitchJSON), ("frame_time", frameTime),
        ]
        return .object(fields)
    }

    // MARK: fps frames

    func framesTable(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        try requireStarted()
        if let path = invocation[Self.framesCSV] { return try framesCSVFile(path, invocation) }
        let worst = invocation[Self.worst]
        // The worst frames are the longest hitches: frames on time have nothing to rank.
        let hitchesOnly = invocation[Self.hitchesOnly] || worst != nil
        func what(_ n: Int) -> String {
            hitchesOnly ? (n == 1 ? "hitch" : "hitches") : (n == 1 ? "present" : "presents")
        }
        let total = frames.appended
        var candidates = frames.elements
        if hitchesOnly { candidates = candidates.filter { $0.hitch > 0 } }
        // --last n narrows to the last n; without --worst, its default narrows too.
        if worst == nil || invocation.has(Self.lastFrames) {
            candidates = Array(candidates.suffix(Int(clamping: invocation[Self.lastFrames])))
        }
        var kept = candidates
        var title: String
        if let worst {
            kept = FPSMeter.longestFirst(candidates, worst, hitch: \.hitch)
            title = "the \(kept.count) worst of \(candidates.count) \(what(candidates.count))"
        } else {
            let all = hitchesOnly ? hitches.count : Int64(frames.count)
            title =
                Int64(kept.count) == all
                ? "\(kept.count) \(what(kept.count))" : "the last \(kept.count) of \(all) \(what(Int(all)))"
        }

        let json = JSONValue.fields([
            "frames": .array(kept.map(frameJSON)), "kept": .int(Int64(frames.count)), "presents": .int(total),
        ])
        guard !kept.isEmpty else {
            let none =
                total == 0
                ? "no frame has been presented since the start"
                : "no \(what(0)) among the \(frames.count) presents kept"
            return CommandOutput(text: none, json: json)
        }
        var rows = [["frame", "commit end", "render start", "render end", "present", "expected", "hitch", "verdict"]]
        for f in kept {
            rows.append([
                String(f.frame), FPSMeter.fixedMilliseconds(f.commitEnd.nanoseconds),
                FPSMeter.fixedMilliseconds(f.renderStart.nanoseconds),
                FPSMeter.fixedMilliseconds(f.renderEnd.nanoseconds),
                FPSMeter.fixedMilliseconds(f.present.nanoseconds), FPSMeter.fixedMilliseconds(f.expected.nanoseconds),
                f.counted ? FPSMeter.fixedMilliseconds(f.hitch) : "-", Self.verdictText(f),
            ])
        }
        var text = "\(title); times in ms, hitch - = not animating (A2)\n" + FPSMeter.table(rows, right: Set(0...6))
        if frames.dropped > 0 {
            text +=
                "\n(only the last \(frames.capacity) of \(total) presents are kept: \(frames.dropped) older were dropped;\n"
                + "set fps.frames-kept to keep more, up to \(FPSMeter.frameLimitMaximum))"
        }
        return CommandOutput(text: text, json: json)
    }

    /// The `n` with the longest hitches, longest first, ties in time order (`--worst n`).
    static func longestFirst<Row>(_ rows: [Row], _ n: Int64, hitch: (Row) -> Int64) -> [Row] {
        rows.enumerated().sorted { a, b in
            let (x, y) = (hitch(a.element), hitch(b.element))
            return x != y ? x > y : a.offset < b.offset
        }.prefix(Int(clamping: n)).map(\.element)
    }

    /// R9's verdict in a word: the hitch's cause, `on time`, `stuffed` (late only because the frame
    /// before was), `-` when not counted. (The frames dropped into it are in the JSON: the table
    /// stays within 80 columns.)
    static func verdictText(_ f: FrameRecord) -> String {
        switch f.verdict {
        case .hitch?: return f.cause?.rawValue ?? "render"
        case .stuffed?: return "stuffed"
        case .onTime?: return "on time"
        case .dropped?, nil: return "-"
        }
    }

    /// `fps frames --csv FILE`: every kept present as a row of a frame log, times in ns since the
    /// simulation's start (docs/Import.md, "CSV"): what `import csv` reads back. The session
    /// writes the file atomically.
    private func framesCSVFile(_ path: String, _ invocation: Invocation) throws(CommandError) -> CommandOutput {
        if invocation[Self.hitchesOnly] || invocation.has(Self.lastFrames) || invocation.has(Self.worst) {
            throw CommandError("--csv writes every kept present: --hitches, --last and --worst choose the table's rows")
        }
        guard path.lowercased().hasSuffix(".csv"), path.count > 4 else {
            throw CommandError("the frames are written as CSV: name the file <name>.csv (got '\(path)')")
        }
        let total = frames.appended
        guard total > 0 else { throw CommandError("no frame has been presented since the start: nothing to write") }
        let kept = frames.elements
        let what = kept.count == total ? "\(total) presents" : "the last \(kept.count) of \(total) presents"
        var csv =
            "# debugsh fps frames: \(what); times in ns since the simulation's start; hitch empty: not counted (A2)\n"
        csv +=
            "frame,vsync,commit_start,commit_end,render_start,render_end,present,expected_present,hitch,cause,refresh_interval\n"
        csv.reserveCapacity(csv.utf8.count + kept.count * 120)
        var hitched = 0
        for f in kept {
            if f.hitch > 0 { hitched += 1 }
            let fields = [
                String(f.frame), f.tick.map { String($0.nanoseconds) } ?? "", String(f.commitStart.nanoseconds),
                String(f.commitEnd.nanoseconds), String(f.renderStart.nanoseconds), String(f.renderEnd.nanoseconds),
                String(f.present.nanoseconds), String(f.expected.nanoseconds), f.counted ? String(f.hitch) : "",
                f.cause?.rawValue ?? "", String(f.refresh.nanoseconds),
            ]
            csv += fields.joined(separator: ",")
            csv += "\n"
        }
        let bytes = csv.utf8.count
        return CommandOutput(
            text: "wrote \(path) (\(bytes) bytes): \(what), \(hitched) \(hitched == 1 ? "hitch" : "hitches")",
            json: .fields([
                "file": .string(path), "bytes": .int(Int64(bytes)), "presents": .int(Int64(kept.count)),
                "total": .int(total), "hitches": .int(Int64(hitched)),
            ]),
            files: [OutputFile(path: path, contents: csv)])
    }

    private func frameJSON(_ f: FrameRecord) -> JSONValue {
        .fields([
            "frame": .int(f.frame), "commit_end_ns": JSONValue(f.commitEnd),
            "render_start_ns": JSONValue(f.renderStart),
            "render_end_ns": JSONValue(f.renderEnd), "present_ns": JSONValue(f.present),
            "expected_ns": JSONValue(f.expected), "counted": .bool(f.counted),
            "hitch_ns": f.counted ? .int(f.hitch) : .null, "cause": JSONValue(f.cause?.rawValue),
            "verdict": JSONValue(f.verdict.map { $0 == .stuffed ? "stuffed" : $0.rawValue }),
            "dropped": .int(Int64(f.dropped)),
        ])
    }

    // MARK: fps history

    func historyTable(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        try requireStarted()
        guard !windows.isEmpty else {
            throw CommandError(
                "no window has closed yet: the first closes at the first callback \(configuration.window) after the meter's first one"
            )
        }
        let all = windows.elements
        let shown = Array(all.suffix(Int(clamping: invocation[Self.lastWindows])))
        let firstNumber = windows.appended - Int64(shown.count) + 1
        // The scale is the display's highest rate (a fixed display's rate, an adaptive one's
        // maximum), not the rate it runs at now: on an adaptive display a window read at 120 and
        // one at 10 stay comparable, and the scale does not move as the rate does.
        let rate = Int64(device.displayRefresh.maximum)
        var text =
            "\(FPSMeter.sparkline(shown.map(\.reading), rate: rate))  windows \(firstNumber)–\(windows.appended), 0–\(rate) fps\n"
        var rows = [["window", "from", "to", "callbacks", "presents", "fps"]]
        for (offset, w) in shown.enumerated() {
            rows.append([
                String(firstNumber + Int64(offset)), FPSMeter.readable(w.from), FPSMeter.readable(w.to),
                String(w.callbacks),
                String(w.presents), String(w.reading),
            ])
        }
        text += FPSMeter.table(rows, right: [0, 1, 2, 3, 4, 5])
        if windows.dropped > 0 {
            text +=
                "\n(only the last \(FPSMeter.historyLimit) windows are kept: windows 1–\(windows.dropped) were dropped)"
        }
        let json = JSONValue.fields([
            "windows": .array(
                shown.enumerated().map { offset, w in
                    .fields([
                        "window": .int(firstNumber + Int64(offset)), "from_ns": JSONValue(w.from),
                        "to_ns": JSONValue(w.to),
                        "closed_ns": JSONValue(w.closedAt), "callbacks": .int(w.callbacks),
                        "presents": .int(w.presents),
                        "reading": .int(w.reading),
                    ])
                }),
            "total": .int(windows.appended), "kept": .int(Int64(windows.count)),
            "limit": .int(Int64(FPSMeter.historyLimit)),
        ])
        return CommandOutput(text: text, json: json)
    }
}
