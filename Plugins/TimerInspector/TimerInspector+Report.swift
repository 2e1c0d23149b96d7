import DebugShellCore

/// One row of `timer list`: an app timer with the inspector's entry, or (with `--all`) a tool's
/// link or timer, or the app's UI link.
struct ListRow {
    var name: String
    var info: TimerInfo
    /// The inspector's entry, for app timers.
    var entry: Int?
    var maxLate: SimDuration?
    var maxLateCause: LatenessCause?
}

extension TimerInspector {
    static let states: [TimerState] = [.scheduled, .paused, .invalidated, .done]

    func row(entry index: Int) -> ListRow {
        let e = entries[index]
        let info =
            device.timerInfo(e.id)
            ?? TimerInfo(
                id: e.id, kind: e.kind, owner: .app, label: e.name, state: .invalidated, mode: nil, queue: nil,
                interval: .zero, repeats: false, slack: .zero, cost: .zero, dirtiesUI: false,
                preferredFramesPerSecond: 0,
                fires: 0, skipped: 0, maxLateness: .zero, lastData: 0, totalData: 0, nextFire: nil)
        let late = log.maxLate(index, fires: info.fires)
        return ListRow(name: e.name, info: info, entry: index, maxLate: late?.lateness, maxLateCause: late?.cause)
    }

    /// A tool's link or timer, or the app's UI link (`timer list --all`): `fps:fps meter`, `system:UI`.
    private func row(foreign info: TimerInfo) -> ListRow {
        ListRow(
            name: "\(info.owner):\(info.label)", info: info, entry: nil,
            maxLate: info.fires > 0 ? info.maxLateness : nil, maxLateCause: nil)
    }

    // MARK: timer list

    func list(_ inv: Invocation) -> CommandOutput {
        var rows: [ListRow]
        if inv[Self.all] {
            rows = device.allTimers().map { info in
                if let index = log.ring(ofTimer: info.id.rawValue) { return row(entry: index) }
                return row(foreign: info)
            }
        } else {
            rows = entries.indices.map { row(entry: $0) }
        }
        var states: [(String, Int)] = TimerInspector.states.map { ($0.rawValue, 0) }
        for r in rows {
            if let k = TimerInspector.states.firstIndex(of: r.info.state) { states[k].1 += 1 }
        }
        let statesJSON = JSONValue.object(states.map { ($0.0, .int(Int64($0.1))) })
        guard !rows.isEmpty else {
            return CommandOutput(
                text: "no timers (make one with 'timer nstimer', 'timer gcd', 'timer displaylink' or 'timer after')",
                json: .fields(["total": .int(0), "shown": .int(0), "timers": .array([]), "states": statesJSON]))
        }
        switch inv[Self.sort] {
        case .name?: rows.sort { $0.name < $1.name }
        case .late?:
            // Latest first; timers that never fired last; ties keep creation order.
            rows = rows.enumerated().sorted { a, b in
                let x = a.element.maxLate.map { $0.nanoseconds } ?? -1
                let y = b.element.maxLate.map { $0.nanoseconds } ?? -1
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
        case .fires?:
            rows = rows.enumerated().sorted { a, b in
                a.element.info.fires != b.element.info.fires
                    ? a.element.info.fires > b.element.info.fires : a.offset < b.offset
            }.map(\.element)
        case nil: break
        }
        let limit = Int(inv[Self.listLimit])
        let shown = rows.prefix(limit)
        var text = Format.fittedTable(
            [
                "name", "kind", "mode/queue", "interval", "tol/leeway", "state", "fires", "skipped", "max late",
                "next fire",
            ],
            shown.map(listCells))
        if rows.count > shown.count {
            let counts = states.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
            text += "\n… \(rows.count - shown.count) more (\(rows.count) timers: \(counts)); --limit n shows more"
        }
        return CommandOutput(
            text: text,
            json: .fields([
                "total": .int(Int64(rows.count)), "shown": .int(Int64(shown.count)),
                "timers": .array(shown.map(self.rowJSON)),
                "states": statesJSON,
            ]))
    }

    private func listCells(_ r: ListRow) -> [String] {
        let info = r.info
        var maxLate = r.maxLate.map(Format.readable) ?? "-"
        if let late = r.maxLate, isLate(late), let cause = r.maxLateCause { maxLate += " \(cause.rawValue)" }
        return [
            r.name, r.entry.map { entries[$0].madeBy.name } ?? info.kind.rawValue, placement(info),
            Format.readable(info.interval) + (info.repeats ? "" : " once"),
            info.kind == .displayLink ? "-" : Format.readable(info.slack), info.state.rawValue, String(info.fires),
            String(info.kind == .dispatchTimer ? 0 : info.skipped), maxLate,
            info.nextFire.map { SimFormat.readable($0.nanoseconds) } ?? "-",
        ]
    }

    /// A link's or run-loop timer's mode, a dispatch timer's queue.
    private func placement(_ info: TimerInfo) -> String {
        info.kind == .dispatchTimer ? info.queue?.rawValue ?? "main" : info.mode?.rawValue ?? "default"
    }

    /// The JSON of a timer: the same shape in `timer list`, `timer show` and the creating commands.
    func rowJSON(_ r: ListRow) -> JSONValue {
        let info = r.info
        let e = r.entry.map { entries[$0] }
        let late = r.maxLate.map(isLate) ?? false
        return .fields([
            "name": .string(r.name), "owner": .string(info.owner.description), "kind": .string(info.kind.rawValue),
            "made_by": JSONValue(e?.madeBy.name),
            "mode": JSONValue(info.kind == .dispatchTimer ? nil : info.mode?.rawValue),
            "queue": JSONValue(info.queue?.rawValue), "interval_ns": JSONValue(info.interval),
            "repeats": .bool(info.repeats),
            "slack_ns": JSONValue(info.slack),
            "preferred_fps": info.kind == .displayLink ? JSONValue(info.preferredFramesPerSecond) : .null,
            "cost_ns": JSONValue(info.cost), "ui": .bool(info.dirtiesUI), "fires": .int(info.fires),
            "skipped": .int(info.kind == .dispatchTimer ? 0 : info.skipped),
            "max_late_ns": r.maxLate.map { JSONValue($0) } ?? .null, "late": .bool(late),
            "max_late_cause": late ? JSONValue(r.maxLateCause?.rawValue) : .null,
            "last_data": info.kind == .dispatchTimer && info.fires > 0 ? .int(info.lastData) : .null,
            "total_data": info.kind == .dispatchTimer ? .int(info.totalData) : .null,
            "next_fire_ns": info.nextFire.map { JSONValue($0) } ?? .null, "state": .string(info.state.rawValue),
            "target": JSONValue(e?.target.map { objects[$0].name }), "weak": .bool(e?.weak ?? false),
        ])
    }

    // MARK: timer show

    func show(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = inv[Self.shownTimer]
        if inv[Self.fromRecording] {
            if let name {
                throw CommandError(
                    "give a timer's name or --recording, not both: '\(name)' is an app timer, --recording the "
                        + "imported display-link log")
            }
            return try recordedLinkReport(last: Int(inv[Self.last]))
        }
        guard let name else {
            throw CommandError(
                "timer show needs a timer's name (see 'timer list'), or --recording for the imported display-link log")
        }
        let index = try entry(named: name)
        let r = row(entry: index)
        let e = entries[index]
        let info = r.info
        var lines = ["\(e.name): \(describe(index, info)) — \(info.state.rawValue)"]
        var stats = ["fires \(info.fires)"]
        switch info.kind {
        case .dispatchTimer:
            stats.append("data \(info.totalData)")
            if info.fires > 0 { stats.append("last data \(info.lastData)") }
        case .runLoopTimer, .displayLink:
            stats.append("skipped \(info.skipped)")
        }
        if let late = r.maxLate {
            var text = "max late \(Format.duration(late))"
            if isLate(late), let cause = r.maxLateCause { text += " (\(cause.rawValue))" }
            stats.append(text)
        }
        let running = info.inCallback ? log.newest(index, fires: info.fires)?.start : nil
        if let running {
            stats.append(
                "\(info.kind == .dispatchTimer ? "handler" : "callback") running since \(Format.time(running))")
        }
        if let next = info.nextFire {
            stats.append("next fire \(Format.time(next))")
        } else if running != nil && info.kind == .runLoopTimer && info.repeats && info.state == .scheduled {
            // T4: the next fire date and the skips are decided when the callback returns.
            stats.append("next fire when it returns")
        }
        lines.append(stats.joined(separator: " · "))
        let fix = modeFix(r)
        if let fix { lines.append("fix: \(fix)") }
        if let cap = rateCapFix(info) { lines.append("fix: \(cap)") }
        let wanted = Int(inv[Self.last])
        let total = info.fires
        let firings = log.last(wanted, of: index, fires: total)
        let kept = log.kept(index, fires: total)
        /// How many firings the timer's history holds: 1,000, or fewer when the budget of
        /// records cut it short.
        func keepsText() -> String {
            log.isCutShort(index, fires: total)
                ? "\(kept): 1,500,000 off-grid firings in all are shared by \(entries.count) timers"
                : "\(FiringLog.capacity)"
        }
        // The newest firing's skips are not decided while its callback runs (T4).
        let undecided =
            running != nil && info.kind == .runLoopTimer && info.repeats && info.state != .invalidated ? total : nil
        if total == 0 {
            lines.append("no firings yet")
        } else {
            if Int64(firings.count) < total {
                lines.append(
                    "the last \(firings.count) of \(total) firings; --last n shows more (the last \(keepsText()) are kept)"
                )
            }
            let (first, extra): (String, String?) =
                switch info.kind {
                case .runLoopTimer: ("scheduled", "skipped")
                case .dispatchTimer: ("scheduled", "data")
                case .displayLink: ("timestamp", nil)
                }
            var header = ["#", first, "fired", "late", "cause"]
            if let extra { header.append(extra) }
            let rows = firings.map { f -> [String] in
                let r = f.record
                var cells = [
                    String(f.number), Format.time(r.scheduled), Format.time(r.start), Format.duration(r.lateness),
                    isLate(r.lateness) ? r.cause?.rawValue ?? "-" : "-",
                ]
                if extra != nil { cells.append(f.number == undecided ? "running" : String(r.extra)) }
                return cells
            }
            lines.append(Format.table(header, rows))
        }
        let json = JSONValue.fields([
            "timer": rowJSON(r), "total": .int(total), "kept": .int(Int64(kept)), "fix": JSONValue(fix),
            "title": JSONValue(e.countdown?.title),
            "firings": .array(
                firings.map { f in
                    let r = f.record
                    let late = isLate(r.lateness)
                    return .fields([
                        "n": .int(f.number), "scheduled_ns": JSONValue(r.scheduled), "start_ns": JSONValue(r.start),
                        "lateness_ns": JSONValue(r.lateness), "late": .bool(late),
                        "cause": late ? JSONValue(r.cause?.rawValue) : .null,
                        "data": .int(info.kind == .dispatchTimer ? r.extra : 1),
                        "skipped": f.number == undecided ? .null : .int(info.kind == .runLoopTimer ? r.extra : 0),
                        "running": .bool(running != nil && f.number == total),
                    ])
                }),
        ])
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    /// How to keep a timer that was late because its mode was not running (K2 `mode`) from
    /// being late: schedule it in the common modes (T7, DL1), as leaks get theirs (K1).
    func modeFix(_ r: ListRow) -> String? {
        guard let late = r.maxLate, isLate(late), r.maxLateCause == .mode, let mode = r.info.mode, mode != .common
        else { return nil }
        let (call, rule) =
            r.info.kind == .displayLink
            ? ("link.add(to: .main, forMode: .common)", "DL1") : ("RunLoop.main.add(timer, forMode: .common)", "T7")
        let blocked = mode == .tracking ? "the run loop runs the default mode" : "a scroll runs the tracking mode"
        return "add it to the common modes (--mode common; in the app, \(call)): in the \(mode.rawValue) mode it "
            + "cannot fire while \(blocked) (\(rule))"
    }

    /// On an adaptive display (V4, V6), what a link asks for and the rate it fires at now:
    /// `range 80,120,120, effective 60 Hz (16.666666ms)`; nil on a fixed display.
    func effectiveRate(_ info: TimerInfo) -> String? {
        guard info.kind == .displayLink, device.displayRefresh.isAdaptive else { return nil }
        let asked =
            info.frameRateRange.map { "range \($0)" }
            ?? (info.preferredFramesPerSecond == 0
                ? (info.setsFramesPerSecond ? "preferred 0 fps (native)" : "no range")
                : "preferred \(info.preferredFramesPerSecond) fps")
        let period = info.interval.nanoseconds
        guard period > 0 else { return asked }
        // 1 s over the link's interval at the current rate, to the thousandth of a hertz.
        let millihertz = (2_000_000_000_000 + period) / (2 * period)
        return "\(asked), effective \(MetricNumber(thousandths: millihertz)) Hz (\(Format.duration(info.interval)))"
    }

    /// V2: why a display link on an adaptive display runs below what it asks, and what lifts the
    /// cap; nil when it asks for 60 Hz or less, or nothing caps it.
    func rateCapFix(_ info: TimerInfo) -> String? {
        guard info.kind == .displayLink else { return nil }
        // V2: 0 set by the app asks for the native rate, the display's maximum.
        let native = info.setsFramesPerSecond && info.preferredFramesPerSecond == 0
        let request =
            info.frameRateRange.map { $0.preferred == 0 ? $0.minimum : $0.preferred }
            ?? (native ? device.displayRefresh.maximum : info.preferredFramesPerSecond)
        guard let cap = device.rateCap(request: request) else { return nil }
        return "'\(cap.fix)': \(cap.reason), and this one asks \(request) (V2)"
    }

    /// `nstimer, repeats every 50ms, tolerance 0ms, default mode, target vc (weak)`
    private func describe(_ index: Int, _ info: TimerInfo) -> String {
        let e = entries[index]
        var parts: [String]
        switch e.madeBy {
        case .nstimer:
            parts = [
                "nstimer",
                info.repeats
                    ? "repeats every \(Format.duration(info.interval))"
                    : "once after \(Format.duration(info.interval))",
                "tolerance \(Format.duration(info.slack))", "\(placement(info)) mode",
            ]
        case .displaylink:
            // DL3: on a fixed display a range sets the cadence as `preferredFramesPerSecond` would.
            let rate =
                info.frameRateRange.map { "range \($0)" }
                ?? (info.preferredFramesPerSecond == 0
                    ? "every vsync" : "preferred \(info.preferredFramesPerSecond) fps")
            if let effective = effectiveRate(info) {
                parts = ["displaylink", effective, "\(placement(info)) mode"]
            } else {
                parts = ["displaylink", "\(rate) (\(Format.duration(info.interval)))", "\(placement(info)) mode"]
            }
        case .after:
            parts = [
                "after \(Format.duration(info.interval)) (a one-shot gcd timer)",
                "leeway \(Format.duration(info.slack))", "main queue",
            ]
        case .countdown:
            let countdown = e.countdown ?? Countdown(from: 0, title: Countdown.restingTitle)
            parts = [
                "count-down from \(countdown.from)s (a gcd timer every 1s)", "background queue",
                "title \"\(countdown.title)\"",
            ]
        case .gcd:
            parts = [
                "gcd", info.repeats ? "every \(Format.duration(info.interval))" : "once",
                "leeway \(Format.duration(info.slack))",
                "\(placement(info)) queue",
            ]
        }
        if info.cost > .zero { parts.append("cost \(Format.duration(info.cost))") }
        if info.dirtiesUI { parts.append("dirties the UI") }
        if let o = e.target { parts.append("target \(objects[o].name)\(e.weak ? " (weak)" : "")") }
        return parts.joined(separator: ", ")
    }
}

/// Text for people: durations and times exactly, in the shell's one format (`50ms`,
/// `16.666667ms`, `1.5s`), so that any of them can be pasted into `expect`; JSON carries
/// nanoseconds.
enum Format {
    /// `16.666667ms`, `50ms`, `1s`, `1.5s`.
    static func duration(_ d: SimDuration) -> String { d.description }

    /// `50ms`, `1.016666667s`
    static func time(_ t: SimTime) -> String { t.description }

    /// A duration in a summary table (`timer list`): at most three decimals, `16.667ms`
    /// (`SimFormat.readable`, docs/Decisions.md, Time).
    static func readable(_ d: SimDuration) -> String { SimFormat.readable(d.nanoseconds) }

    /// `10,000,000`
    static func grouped(_ n: Int64) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }

    /// Reports are at most this wide, as help is in scripts.
    static let columns = 80

    /// A table at most `columns` wide: as it is when it fits, else wrapped by columns as R and
    /// pandas print a wide frame — blocks of columns one after the other, a blank line between,
    /// each starting with the first column (the name), so every row is found by its name.
    static func fittedTable(_ header: [String], _ rows: [[String]], columns: Int = Format.columns) -> String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (k, cell) in row.enumerated() where k < widths.count { widths[k] = max(widths[k], cell.count) }
        }
        guard widths.count > 1, widths.reduce(0, +) + 2 * (widths.count - 1) > columns else {
            return table(header, rows)
        }
        var blocks: [[Int]] = []
        var block: [Int] = []
        var used = widths[0]
        for k in 1..<widths.count {
            if !block.isEmpty && used + 2 + widths[k] > columns {
                blocks.append(block)
                block = []
                used = widths[0]
            }
            block.append(k)
            used += 2 + widths[k]
        }
        if !block.isEmpty { blocks.append(block) }
        return blocks.map { b in
            let pick = { (row: [String]) in [row[0]] + b.map { $0 < row.count ? row[$0] : "" } }
            return table(pick(header), rows.map(pick))
        }.joined(separator: "\n\n")
    }

    /// Left-aligned columns two spaces apart; no trailing spaces.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (k, cell) in row.enumerated() where k < widths.count { widths[k] = max(widths[k], cell.count) }
        }
        return all.map { row in
            var line = ""
            for (k, cell) in row.enumerated() {
                line += k == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[k] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n")
    }
}
