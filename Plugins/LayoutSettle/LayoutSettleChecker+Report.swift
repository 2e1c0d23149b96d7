import DebugShellCore

/// `layout show`, `layout diff` and the status line.
extension LayoutSettleChecker {
    // MARK: layout show

    func showWatch() -> CommandOutput {
        guard let w = watch else {
            let views = tree.count(ViewTree.window)
            return CommandOutput(
                text:
                    "layout idle: no watch ('layout watch' starts one); window has \(ViewFormat.grouped(views)) view\(views == 1 ? "" : "s")",
                json: self.showJSON(nil))
        }
        var lines: [String] = []
        let views = watchedViews
        switch w.state {
        case .settling: lines.append("layout settling since \(w.start)")
        case .settled: lines.append("layout settled at \(w.settledAt ?? w.start)")
        case .timeout: lines.append("layout timeout at \(w.endedAt ?? w.start): not settled")
        case .stopped:
            lines.append("layout idle: the watch stopped at \(w.endedAt ?? w.start) (\(w.stopReason ?? "stopped"))")
        }
        var rows: [(String, String)] = []
        switch w.mode {
        case .quiet:
            rows.append(
                (
                    "mode",
                    "quiet: settled once \(w.quiet) pass without a change; timeout \(w.timeout)"
                ))
        case .seed:
            rows.append(
                (
                    "mode",
                    "seed: two equal snapshots in a row, polled every \(w.poll) (leeway \(w.leeway)); timeout \(w.timeout)"
                ))
        }
        rows.append(
            (
                "root",
                w.detached
                    ? "\(w.rootName) (removed)"
                    : "\(w.rootName) (\(ViewFormat.grouped(views)) view\(views == 1 ? "" : "s"))"
            ))
        var watched = "\(w.start) → \(w.endedAt.map { $0.description } ?? "now (\(device.now))")"
        if w.mode == .seed, let flagSetAt = w.flagSetAt { watched += "; equal snapshots first at \(flagSetAt)" }
        rows.append(("watched", watched))
        if let name = w.lastChangedView(in: tree) {
            rows.append(("last change", "\(w.lastChange), \(name)"))
        } else {
            rows.append(("last change", "none since the watch started (\(w.lastChange))"))
        }
        var changes = "\(w.changedCallbacks) of \(w.callbacks) checker frame\(w.callbacks == 1 ? "" : "s")"
        if w.state != .settled {
            let still = max(w.longestStill, (w.endedAt ?? device.now) - w.lastChange)
            changes += "; longest still period \(still)"
        }
        rows.append(("changes", changes))
        switch w.mode {
        case .quiet:
            rows.append(
                (
                    "cost",
                    "\(SettleWatch.quietBaseCost.description) + \(w.costPerView.description) per changed view per frame; \(w.totalCost.description) in all"
                ))
        case .seed:
            rows.append(
                ("cost", "\(w.costPerView.description) per view per frame; \(w.totalCost.description) in all"))
        }
        if w.lateChanges > 0, let last = w.lateLast {
            let after = w.state == .settled ? "it settled" : "it ended"
            var text = "\(w.lateChanges) change\(w.lateChanges == 1 ? "" : "s") after \(after), the last at \(last)"
            if let name = w.lateName { text += " (\(name))" }
            if w.state == .settled { text += ": it settled too early" }
            rows.append(("late", text))
        }
        if let d = w.diagnosis { rows.append(("states", "the tree \(d.states.text)")) }
        lines += table(rows)
        if let d = w.diagnosis {
            lines.append("  kept changing in the last \(LayoutSettleChecker.recentWindow(w)):")
            var culpritRows: [(String, String)] = []
            for c in d.culprits.prefix(LayoutSettleChecker.culpritLimit) {
                var text =
                    "\(c.kinds.words.joined(separator: ", ")) \(frequency(c.frames, of: d.callbacks).replacingPrefix("changed ")), last at \(c.last)"
                if let cause = c.cause { text += " — \(cause)" }
                if c.removed { text += " (removed)" }
                culpritRows.append((c.name, text))
            }
            lines += table(culpritRows, indent: "    ")
            if d.culprits.count > LayoutSettleChecker.culpritLimit {
                lines.append(
                    "    … and \(ViewFormat.grouped(d.culprits.count - LayoutSettleChecker.culpritLimit)) more")
            }
            if d.culprits.isEmpty { lines.append("    none (the last change was at \(w.lastChange))") }
        }
        return CommandOutput(text: lines.joined(separator: "\n"), json: self.showJSON(w))
    }

    /// The stable shape of `layout show`'s result (docs/LayoutSettle.md).
    func showJSON(_ w: SettleWatch?) -> JSONValue {
        guard let w else {
            return .fields([
                "state": "idle", "mode": .null, "root": .null, "views": .int(Int64(watchedViews)), "start_ns": .null,
                "end_ns": .null, "settled_at_ns": .null, "last_change_ns": .null, "last_changed_view": .null,
                "changes": 0, "frames": 0, "cost_ns": 0, "flag_set_ns": .null, "late_changes": 0,
                "late_last_ns": .null, "stop_reason": .null, "diagnosis": .null,
            ])
        }
        return .fields([
            "state": .string(stateWord), "mode": .string(w.mode.rawValue), "root": .string(w.rootName),
            "views": .int(Int64(watchedViews)), "start_ns": JSONValue(w.start),
            "end_ns": w.endedAt.map { JSONValue($0) } ?? .null,
            "settled_at_ns": w.settledAt.map { JSONValue($0) } ?? .null, "last_change_ns": JSONValue(w.lastChange),
            "last_changed_view": JSONValue(w.lastChangedView(in: tree)), "changes": .int(w.changedCallbacks),
            "frames": .int(w.callbacks), "cost_ns": JSONValue(w.totalCost),
            "flag_set_ns": w.flagSetAt.map { JSONValue($0) } ?? .null, "late_changes": .int(w.lateChanges),
            "late_last_ns": w.lateLast.map { JSONValue($0) } ?? .null, "stop_reason": JSONValue(w.stopReason),
            "diagnosis": w.diagnosis.map { diagnosisJSON($0) } ?? .null,
        ])
    }

    private func table(_ rows: [(String, String)], indent: String = "  ") -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { indent + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
    }

    // MARK: layout diff

    func showDiff(_ invocation: Invocation) -> CommandOutput {
        let limit = Int(invocation[Self.diffLimit])
        guard let w = watch, let frame = w.lastFrame else {
            let text = watch == nil ? "no watch: 'layout watch' starts one" : "no checker frame has seen a change yet"
            return CommandOutput(
                text: text,
                json: .fields(["t_ns": .null, "views": 0, "changes": .array([]), "omitted": 0]))
        }
        var lines = [
            "checker frame at \(frame.time): \(ViewFormat.grouped(frame.views)) view\(frame.views == 1 ? "" : "s") changed"
        ]
        var rows: [(String, String)] = []
        var items: [JSONValue] = []
        for change in frame.changes.prefix(limit) {
            let name = name(of: change)
            rows.append((name, describe(change)))
            items.append(
                .fields([
                    "view": .string(name), "changed": .array(change.kinds.words.map { .string($0) }),
                    "before": change.before.map(propertiesJSON) ?? .null,
                    "after": change.after.map(propertiesJSON) ?? .null, "parent": JSONValue(change.parentName),
                ]))
        }
        lines += table(rows)
        let omitted = frame.views - min(limit, frame.changes.count)
        if omitted > 0 { lines.append("  … and \(ViewFormat.grouped(omitted)) more") }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields([
                "t_ns": JSONValue(frame.time), "views": .int(Int64(frame.views)), "changes": .array(items),
                "omitted": .int(Int64(omitted)),
            ]))
    }

    private func describe(_ change: ViewChange) -> String {
        switch (change.before, change.after) {
        case (nil, nil): return "added and removed"
        case (nil, let after?): return "added " + ViewFormat.frame(after.frame) + ViewFormat.attributes(after)
        case (_?, nil): return "removed"
        case (let before?, let after?):
            var parts: [String] = []
            if before.frame != after.frame {
                parts.append("frame \(ViewFormat.frame(before.frame)) → \(ViewFormat.frame(after.frame))")
            }
            if before.alpha != after.alpha {
                parts.append("alpha \(ViewFormat.number(before.alpha)) → \(ViewFormat.number(after.alpha))")
            }
            if before.hidden != after.hidden {
                parts.append("hidden \(before.hidden ? "on" : "off") → \(after.hidden ? "on" : "off")")
            }
            if before.rotation != after.rotation {
                parts.append("rotation \(ViewFormat.number(before.rotation))° → \(ViewFormat.number(after.rotation))°")
            }
            if change.kinds.contains(.parent), let parent = change.parentName { parts.append("moved under \(parent)") }
            return parts.isEmpty ? "changed and changed back" : parts.joined(separator: ", ")
        }
    }

    private func propertiesJSON(_ p: ViewProperties) -> JSONValue {
        .fields([
            "frame": ViewFormat.frameJSON(p.frame), "alpha": ViewFormat.numberJSON(p.alpha), "hidden": .bool(p.hidden),
            "rotation": ViewFormat.numberJSON(p.rotation),
        ])
    }

    // MARK: Status line

    public func statusLine() -> StyledText? {
        guard let w = watch, w.state != .stopped else { return nil }
        var line = StyledText([("layout ", .bold)])
        let views = watchedViews
        let viewsText = "\(ViewFormat.grouped(views)) view\(views == 1 ? "" : "s")"
        switch w.state {
        case .settling:
            line.append("settling", .color(RGB(230, 180, 0)))
            switch w.mode {
            case .quiet:
                let still = min(max(.zero, device.now - w.lastChange), w.quiet)
                let stillText = SimFormat.milliseconds(still.nanoseconds).dropLast(2)
                line.append(" · quiet \(stillText)/\(w.quiet.millisecondsDescription)")
            case .seed:
                line.append(" · seed · flag \(w.flag ? "set" : "clear")")
            }
            if let name = w.lastChangedView(in: tree) {
                line.append(" · last change \(name)")
            } else {
                line.append(" · no change yet")
            }
        case .settled:
            line.append("settled", .color(RGB(40, 180, 60)))
            line.append(" at \(w.settledAt ?? w.start) · \(viewsText)")
            if w.lateChanges > 0 { line.append(" · changed since", .color(RGB(220, 60, 50))) }
        case .timeout:
            line.append("timeout", .color(RGB(220, 60, 50)))
            line.append(" at \(w.endedAt ?? w.start) · \(viewsText)")
            if let top = w.diagnosis?.culprits.first { line.append(" · \(top.name) kept changing") }
        case .stopped:
            return nil
        }
        return line
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
