import DebugShellCore

// MARK: - fps hitches (R8)

extension FPSMeter {
    /// `fps hitches`: the kept hitches with Instruments' type and severity, their phases and what
    /// delayed each.
    func hitchesTable(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        try requireStarted()
        if let path = invocation[Self.hitchesXCTrace] { return try hitchesXCTraceFile(path, invocation) }
        var candidates = hitchLog.elements
        if let type = invocation[Self.hitchType] { candidates = candidates.filter { $0.type.word == type.rawValue } }
        if let severity = invocation[Self.hitchSeverity] {
            candidates = candidates.filter { $0.severity.rawValue.lowercased() == severity.rawValue }
        }
        let filtered = invocation.has(Self.hitchType) || invocation.has(Self.hitchSeverity)
        let matching = Int64(candidates.count)
        let worst = invocation[Self.worst]
        if worst == nil || invocation.has(Self.lastHitches) {
            candidates = Array(candidates.suffix(Int(clamping: invocation[Self.lastHitches])))
        }
        var kept = candidates
        let total = filtered ? Int64(kept.count) : hitchLog.appended
        func what(_ n: Int64) -> String { n == 1 ? "hitch" : "hitches" }
        var title: String
        if let worst {
            kept = FPSMeter.longestFirst(candidates, worst, hitch: \.hitch)
            title = "the \(kept.count) worst of \(candidates.count) \(what(Int64(candidates.count)))"
        } else {
            let all = filtered ? matching : hitchLog.appended
            title =
                Int64(kept.count) == all
                ? "\(kept.count) \(what(all))" : "the last \(kept.count) of \(all) \(what(all))"
        }
        let json = JSONValue.fields([
            "hitches": .array(kept.map(hitchJSON)), "kept": .int(Int64(hitchLog.count)),
            "total": .int(hitchLog.appended),
        ])
        guard !kept.isEmpty else {
            let none =
                total == 0 && !filtered
                ? "no hitch since the start" : "no hitch of that kind among the \(hitchLog.count) kept"
            return CommandOutput(text: none, json: json)
        }
        var rows = [["present", "frame", "hitch", "severity", "type", "phases", "delayed by"]]
        for h in kept {
            rows.append([
                FPSMeter.fixedMilliseconds(h.present.nanoseconds), String(h.frame), FPSMeter.fixedMilliseconds(h.hitch),
                h.severity.rawValue, h.type.description, Self.phasesText(h.phases),
                h.delay.map(Self.delayText) ?? "-",
            ])
        }
        var text = "\(title); times in ms\n" + FPSMeter.table(rows, right: Set(0...2))
        if hitchLog.dropped > 0 {
            text +=
                "\n(only the last \(hitchLog.capacity) hitches are kept: \(hitchLog.dropped) older were dropped;\n"
                + "set fps.frames-kept to keep more, up to \(FPSMeter.frameLimitMaximum))"
        }
        return CommandOutput(text: text, json: json)
    }

    /// The phases that cost something, in ms: `u4 c2 g20 o12×0.5`.
    static func phasesText(_ p: FramePhases) -> String {
        func ms(_ d: SimDuration) -> String {
            SimFormat.decimal(
                Int64(clamping: SimFormat.roundedDivide(Int128(d.nanoseconds), by: 1_000)), scaleDigits: 3,
                minFraction: 0)
        }
        var parts: [String] = []
        for (key, value) in [
            ("u", p.update), ("l", p.layout), ("d", p.display), ("p", p.prepare), ("c", p.commit),
            ("rp", p.renderPrepare), ("g", p.gpu),
        ] where value > .zero {
            parts.append(key + ms(value))
        }
        if p.offscreenPasses > 0 { parts.append("o\(p.offscreenPasses)×\(ms(p.offscreenPass))") }
        return parts.isEmpty ? "-" : parts.joined(separator: " ")
    }

    /// What delayed a frame, its times in ms: `block 'stall' 300.000–350.000`.
    static func delayText(_ d: FrameDelay) -> String {
        "\(d.what) \(FPSMeter.fixedMilliseconds(d.start.nanoseconds))–\(FPSMeter.fixedMilliseconds(d.end.nanoseconds))"
    }

    func hitchJSON(_ h: HitchRecord) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("frame", .int(h.frame)), ("present_ns", JSONValue(h.present)), ("expected_ns", JSONValue(h.expected)),
            ("earliest_ns", JSONValue(h.earliest)), ("hitch_ns", .int(h.hitch)),
            ("latency_allowed_ns", JSONValue(h.latencyAllowed)), ("buffers", .int(Int64(h.buffers))),
            ("refresh_interval_ns", JSONValue(h.refresh)), ("severity", .string(h.severity.rawValue)),
            ("type", .string(h.type.word)), ("type_label", .string(h.type.description)),
            ("cause", .string(h.cause.rawValue)),
        ]
        var phases: [(String, JSONValue)] = []
        for (name, value) in [
            ("update_ns", h.phases.update), ("layout_ns", h.phases.layout), ("display_ns", h.phases.display),
            ("prepare_ns", h.phases.prepare), ("commit_ns", h.phases.commit),
            ("render_prepare_ns", h.phases.renderPrepare), ("gpu_ns", h.phases.gpu),
        ] {
            phases.append((name, JSONValue(value)))
        }
        phases.append(("offscreen_passes", .int(Int64(h.phases.offscreenPasses))))
        phases.append(("offscreen_pass_ns", JSONValue(h.phases.offscreenPass)))
        fields.append(("phases", .object(phases)))
        if let d = h.delay {
            var delay: [(String, JSONValue)] = [
                ("kind", .string(d.kind.rawValue)), ("label", .string(d.label)), ("start_ns", JSONValue(d.start)),
                ("end_ns", JSONValue(d.end)),
            ]
            if let frame = d.frame { delay.append(("frame", .int(frame))) }
            fields.append(("delayed_by", .object(delay)))
        } else {
            fields.append(("delayed_by", .null))
        }
        return .object(fields)
    }
}
