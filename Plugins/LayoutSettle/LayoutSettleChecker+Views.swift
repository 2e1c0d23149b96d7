import DebugShellCore

/// The `view` commands: the simulated app's view tree (docs/LayoutSettle.md, L1).
extension LayoutSettleChecker {
    /// The live view named `name`, or an error with a did-you-mean.
    func resolve(_ name: String, role: String = "view") throws(CommandError) -> ViewSlot {
        if let slot = tree.lookup(name) { return slot }
        var message = "unknown \(role) '\(name)'"
        if let guess = NameSuggestion.closest(to: name, in: tree.explicitNameList) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (see 'view tree')"
        }
        throw CommandError(message)
    }

    private func checked(alpha: Double) throws(CommandError) -> Double {
        guard alpha >= 0 && alpha <= 1 else {
            throw CommandError("alpha \(ViewFormat.number(alpha)) is outside 0…1")
        }
        return alpha
    }

    private func checkRoom(for count: Int) throws(CommandError) {
        guard tree.liveCount + count <= viewLimit else {
            throw CommandError(
                "the view tree holds at most \(ViewFormat.grouped(viewLimit)) views; it has "
                    + "\(ViewFormat.grouped(tree.liveCount)) and \(ViewFormat.grouped(count)) more would pass the limit"
            )
        }
    }

    // MARK: view add

    func addView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.newView]
        if tree.lookup(name) != nil {
            throw CommandError(
                name == "window"
                    ? "'window' is the root view and always exists" : "a view named '\(name)' already exists")
        }
        let parent = try resolve(invocation[Self.addParent], role: "parent view")
        try checkRoom(for: 1)
        var properties = ViewProperties.initial
        properties.frame = invocation[Self.addFrame]
        properties.alpha = try checked(alpha: invocation[Self.addAlpha])
        properties.hidden = invocation[Self.addHidden]
        let slot = tree.add(name: name, parent: parent, properties: properties)
        setCosts(of: slot, invocation)
        // L1: an added view is a change.
        changed(slot, .added, before: nil, at: device.now)
        return CommandOutput(json: self.viewJSON(slot))
    }

    // MARK: view set

    func setView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.existingView]
        let slot = try resolve(name)
        let costs = invocation.has(Self.layoutCost) || invocation.has(Self.displayCost)
        guard
            invocation.has(Self.setFrame) || invocation.has(Self.setAlpha) || invocation.has(Self.setHidden)
                || invocation.has(Self.setParent) || costs
        else {
            throw CommandError(
                "'view set' needs at least one of --frame, --alpha, --hidden, --parent, --layout-cost, --display-cost")
        }
        // A cost is what the view's changes will cost, not a change.
        if costs { setCosts(of: slot, invocation) }
        let before = tree.properties(slot)
        var properties = before
        if let frame = invocation[Self.setFrame] {
            properties.frame = frame
            // An explicit frame wins over a running `view animate` of the view, which stops.
            if let index = animations.firstIndex(where: { $0.slot == slot && isCurrent(slot, serial: $0.serial) }) {
                device.endAnimation(animations[index].token)
                animations.remove(at: index)
            }
        }
        if let alpha = invocation[Self.setAlpha] { properties.alpha = try checked(alpha: alpha) }
        if let hidden = invocation[Self.setHidden] { properties.hidden = hidden }
        var newParent: ViewSlot?
        if let parentName = invocation[Self.setParent] {
            let parent = try resolve(parentName, role: "parent view")
            guard slot != ViewTree.window else { throw CommandError("'window' is the root view and has no parent") }
            guard !tree.isWithin(parent, subtreeOf: slot) else {
                throw CommandError(
                    parent == slot
                        ? "view '\(name)' cannot be its own parent"
                        : "moving '\(name)' under '\(parentName)' would make a cycle: '\(parentName)' is inside '\(name)'"
                )
            }
            if parent != tree[slot].parent { newParent = parent }
        }
        // L1: setting a property to its current value is no change.
        var kinds = tree.set(slot, properties)
        var within: Bool?
        if let newParent {
            let wasWithin = watch.map { tree.isWithin(slot, subtreeOf: $0.root) } ?? false
            tree.move(slot, to: newParent)
            let isWithin = watch.map { tree.isWithin(slot, subtreeOf: $0.root) } ?? false
            within = wasWithin || isWithin
            kinds.insert(.parent)
        }
        // L1: a moved parent changes only itself; its children's frames are relative to it.
        if !kinds.isEmpty { changed(slot, kinds, before: before, at: device.now, within: within) }
        var json = viewJSON(slot)
        if case .object(var fields) = json {
            fields.append(("changed", .array(kinds.words.map { .string($0) })))
            json = .object(fields)
        }
        return CommandOutput(json: json)
    }

    /// R6: the view's layout and display costs from `--layout-cost` and `--display-cost`; both 0
    /// forget it.
    private func setCosts(of slot: ViewSlot, _ invocation: Invocation) {
        guard invocation.has(Self.layoutCost) || invocation.has(Self.displayCost) else { return }
        var phases = viewCosts[slot]?.phases ?? .zero
        if let layout = invocation[Self.layoutCost] { phases.layout = layout }
        if let display = invocation[Self.displayCost] { phases.display = display }
        viewCosts[slot] = phases == .zero ? nil : ViewCost(phases: phases, chargedAt: -1)
    }

    // MARK: view remove

    func removeView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.removedView]
        let slot = try resolve(name)
        guard slot != ViewTree.window else { throw CommandError("cannot remove 'window': it is the root view") }
        var warnings: [String] = []
        if let watch, !watch.detached, watch.state != .stopped, tree.isWithin(watch.root, subtreeOf: slot) {
            // The watched root goes: the watch ends, without an event.
            if watch.state == .settling {
                stopTimers(watch)
                watch.state = .stopped
                watch.endedAt = device.now
                watch.stopReason = "its root '\(watch.rootName)' was removed"
                warnings.append("stopped watching '\(watch.rootName)': it was removed")
            }
            watch.detached = true
        }
        let count = tree.count(slot)
        if let watch {
            let within = !watch.detached && watch.state != .stopped && tree.isWithin(slot, subtreeOf: watch.root)
            let now = device.now
            for (s, _) in tree.preorder(from: slot, maxDepth: Int.max, limit: Int.max) {
                watch.viewWillGo(s) { tree.name(s) }
                // L1: a removed subtree counts each view.
                if within { changed(s, .removed, before: tree.properties(s), at: now, within: true) }
            }
        }
        device.markUIDirty()
        if !viewCosts.isEmpty {
            for (s, _) in tree.preorder(from: slot, maxDepth: Int.max, limit: Int.max) { viewCosts[s] = nil }
        }
        tree.remove(slot) { _ in }
        dropAnimationsOfRemovedViews()
        return CommandOutput(json: .fields(["name": .string(name), "removed": .int(Int64(count))]), warnings: warnings)
    }

    // MARK: view animate

    func animateView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.existingView]
        let slot = try resolve(name)
        guard let to = invocation[Self.animateFrame] else { throw CommandError("'view animate' needs --frame x,y,w,h") }
        guard let over = invocation[Self.animateOver] else {
            throw CommandError("'view animate' needs --over <duration>")
        }
        guard over > .zero else { throw CommandError("'view animate' needs a positive --over duration") }
        let now = device.now
        do { _ = try now.adding(over) } catch { throw CommandError(error.description) }
        // A new animation of the view replaces a running one, from where the view is now.
        if let index = animations.firstIndex(where: { $0.slot == slot && isCurrent(slot, serial: $0.serial) }) {
            device.endAnimation(animations[index].token)
            animations.remove(at: index)
        }
        let from = tree.properties(slot).frame
        let token = device.beginAnimation()
        animations.append(
            FrameAnimation(
                slot: slot, serial: tree[slot].serial, from: from, to: to, start: now, duration: over, token: token))
        listenToTicks()
        return CommandOutput(
            json: .fields([
                "name": .string(name), "from": ViewFormat.frameJSON(from), "to": ViewFormat.frameJSON(to),
                "start_ns": JSONValue(now), "duration_ns": JSONValue(over),
            ]))
    }

    // MARK: view spin

    func spinView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.existingView]
        let slot = try resolve(name)
        let running = spins.firstIndex { $0.slot == slot && isCurrent(slot, serial: $0.serial) }
        if invocation[Self.spinStop] {
            guard !invocation.has(Self.spinFor) else {
                throw CommandError("'view spin' takes --for or --stop, not both")
            }
            let wasSpinning = spin(of: slot) != nil
            if let running {
                // A2: a spin stopped before its end animates no longer.
                device.endAnimation(spins[running].token)
                spins.remove(at: running)
            }
            return CommandOutput(
                json: .fields(["name": .string(name), "spinning": false, "was_spinning": .bool(wasSpinning)]))
        }
        let now = device.now
        var end: SimTime?
        if let duration = invocation[Self.spinFor] {
            guard duration > .zero else { throw CommandError("'view spin' needs a positive --for duration") }
            do { end = try now.adding(duration) } catch { throw CommandError(error.description) }
        }
        if let running {
            // L1: the new spin replaces the running one, whose animating time ends now (A2).
            device.endAnimation(spins[running].token)
            spins.remove(at: running)
        }
        // A1: a spin with an end animates like `animate d`, unless it ends early (L1).
        let token = end.map { device.beginAnimation(for: $0 - now) } ?? device.beginAnimation()
        spins.append(Spin(slot: slot, serial: tree[slot].serial, end: end, token: token, start: now))
        listenToTicks()
        return CommandOutput(
            json: .fields(["name": .string(name), "spinning": true, "until_ns": end.map { JSONValue($0) } ?? .null]))
    }

    // MARK: view grow

    func growView(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let parentName = invocation[Self.growParent]
        let parent = try resolve(parentName, role: "parent view")
        let count = Int(invocation[Self.growCount])
        guard count >= 1 else { throw CommandError("'view grow' needs a count of at least 1 (got \(count))") }
        guard count <= growLimit else {
            throw CommandError(
                "'view grow' adds at most \(ViewFormat.grouped(growLimit)) views at a time (asked for \(ViewFormat.grouped(count)))"
            )
        }
        try checkRoom(for: count)
        let fanout = Int(invocation[Self.fanout])
        let (batch, first, last) = tree.grow(under: parent, count: count, fanout: fanout)
        if let watch, !watch.detached, watch.state != .stopped, tree.isWithin(parent, subtreeOf: watch.root) {
            let now = device.now
            for slot in tree.batches[batch].slots {
                changed(slot, .added, before: nil, at: now, within: true)
            }
        } else {
            device.markUIDirty()
        }
        return CommandOutput(
            json: .fields([
                "parent": .string(parentName), "added": .int(Int64(count)), "fanout": .int(Int64(fanout)),
                "first": .string(first), "last": .string(last), "views": .int(Int64(self.tree.liveCount)),
            ]))
    }

    // MARK: view tree, view count

    func showTree(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let root = try resolve(invocation[Self.subtreeRoot])
        let maxDepth = Int(invocation[Self.treeDepth] ?? Int64(Int32.max))
        let limit = Int(invocation[Self.treeLimit])
        let rows = tree.preorder(from: root, maxDepth: maxDepth, limit: limit)
        // A row at the depth limit stands for its whole subtree.
        func hidden(_ row: (slot: ViewSlot, depth: Int)) -> Int {
            row.depth == maxDepth ? Int(tree[row.slot].count) - 1 : 0
        }
        let covered = rows.reduce(0) { $0 + 1 + hidden($1) }
        let omitted = tree.count(root) - covered
        // Streamed: the text of a deep tree grows with the square of its depth (each row is
        // indented by its depth), far beyond the rows themselves, so it is written line by line.
        return CommandOutput(
            streamed: StreamedOutput(
                text: { [self] write in
                    var more: [Bool] = []
                    for row in rows {
                        let node = tree[row.slot]
                        let depth = row.depth
                        if more.count <= depth {
                            more.append(contentsOf: repeatElement(false, count: depth + 1 - more.count))
                        }
                        more[depth] = node.next >= 0
                        var line = ""
                        if depth > 0 {
                            line.reserveCapacity(3 * depth + 40)
                            for k in 1..<depth { line += more[k] ? "│  " : "   " }
                            line += more[depth] ? "├─ " : "└─ "
                        }
                        line += tree.name(row.slot) + " " + ViewFormat.frame(node.properties.frame)
                        line += ViewFormat.attributes(node.properties)
                        if animation(of: row.slot) != nil { line += " (animating)" }
                        if spin(of: row.slot) != nil { line += " (spinning)" }
                        let below = hidden(row)
                        if below > 0 { line += "  +\(ViewFormat.grouped(below)) below" }
                        guard write(line) else { return }
                    }
                    if omitted > 0 {
                        _ = write(
                            "… \(ViewFormat.grouped(omitted)) more view\(omitted == 1 ? "" : "s") (--limit \(limit))")
                    }
                },
                json: { [self] in
                    let items: [JSONValue] = rows.map { row in
                        let node = tree[row.slot]
                        return .fields([
                            "name": .string(tree.name(row.slot)),
                            "parent": node.parent >= 0 ? .string(tree.name(node.parent)) : .null,
                            "depth": .int(Int64(row.depth)), "frame": ViewFormat.frameJSON(node.properties.frame),
                            "alpha": ViewFormat.numberJSON(node.alpha), "hidden": .bool(node.hidden),
                            "rotation": ViewFormat.numberJSON(node.rotation), "views": .int(Int64(node.count)),
                        ])
                    }
                    return .fields(["views": .array(items), "omitted": .int(Int64(omitted))])
                }))
    }

    func countViews(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        let name = invocation[Self.subtreeRoot]
        let slot = try resolve(name)
        let count = tree.count(slot)
        let text =
            "\(ViewFormat.grouped(count)) view\(count == 1 ? "" : "s")" + (slot == ViewTree.window ? "" : " in \(name)")
        return CommandOutput(text: text, json: .fields(["root": .string(name), "views": .int(Int64(count))]))
    }

    /// A view as JSON: name, parent, frame, alpha, hidden, rotation.
    func viewJSON(_ slot: ViewSlot) -> JSONValue {
        let node = tree[slot]
        return .fields([
            "name": .string(tree.name(slot)), "parent": node.parent >= 0 ? .string(tree.name(node.parent)) : .null,
            "frame": ViewFormat.frameJSON(node.properties.frame), "alpha": ViewFormat.numberJSON(node.alpha),
            "hidden": .bool(node.hidden), "rotation": ViewFormat.numberJSON(node.rotation),
        ])
    }
}

/// Text and JSON for view properties: numbers with up to three decimals.
enum ViewFormat {
    /// `390`, `0.5`, `194.444`: rounded half away from zero to three decimals.
    static func number(_ v: Double) -> String {
        let scaled = (v * 1000).rounded(.toNearestOrAwayFromZero)
        guard scaled.magnitude < 9e15 else { return FrameRect.format(v) }
        return SimFormat.decimal(Int64(scaled), scaleDigits: 3, minFraction: 0)
    }

    static func numberJSON(_ v: Double) -> JSONValue {
        let scaled = (v * 1000).rounded(.toNearestOrAwayFromZero)
        guard scaled.magnitude < 9e15 else { return .string(FrameRect.format(v)) }
        return .number(MetricNumber(thousandths: Int64(scaled)))
    }

    static func frame(_ f: FrameRect) -> String {
        [f.x, f.y, f.width, f.height].map(number).joined(separator: ",")
    }

    static func frameJSON(_ f: FrameRect) -> JSONValue {
        .array([f.x, f.y, f.width, f.height].map(numberJSON))
    }

    /// ` alpha 0.5 hidden rotation 30°` for the values that differ from the defaults.
    static func attributes(_ p: ViewProperties) -> String {
        var out = ""
        if p.alpha != 1 { out += " alpha \(number(p.alpha))" }
        if p.hidden { out += " hidden" }
        if p.rotation != 0 { out += " rotation \(number(p.rotation))°" }
        return out
    }

    /// `1,000,000`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}
