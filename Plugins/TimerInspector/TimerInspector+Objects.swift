import DebugShellCore

/// An object that went away, with the weak timers its deinit invalidated (K1).
struct Deallocation {
    var object: String
    var invalidated: [String]

    /// `vc deallocated; its deinit invalidated link`
    var text: String {
        var text = "\(object) deallocated"
        if !invalidated.isEmpty { text += "; its deinit invalidated \(invalidated.joined(separator: ", "))" }
        return text
    }

    var json: JSONValue {
        .fields(["object": .string(object), "invalidated": .array(invalidated.map { .string($0) })])
    }
}

extension TimerInspector {
    // MARK: Ownership (K1)

    /// A timer ended (invalidated, done, or invalidated by its owner's deinit): it no longer
    /// counts as live and releases its target, which may then be deallocated.
    @discardableResult
    func timerEnded(_ index: Int) -> [Deallocation] {
        guard entries[index].live else { return [] }
        entries[index].live = false
        liveCount -= 1
        guard let o = entries[index].target, !entries[index].weak else { return [] }
        objects[o].retainers -= 1
        guard objects[o].retainers == 0, objects[o].isLeaked else { return [] }
        // The last timer that kept a released object alive let it go: no longer a leak.
        leakCount -= 1
        return [deallocate(o)]
    }

    /// K1: the object goes away; its deinit invalidates every live timer that targets it weakly.
    private func deallocate(_ o: Int) -> Deallocation {
        objects[o].deallocated = true
        var invalidated: [String] = []
        for t in objects[o].timers where entries[t].weak && entries[t].live {
            invalidateTimer(t)
            timerEnded(t)
            invalidated.append(entries[t].name)
        }
        return Deallocation(object: objects[o].name, invalidated: invalidated)
    }

    /// The object named `name`, or an error with a did-you-mean.
    func object(named name: String) throws(CommandError) -> Int {
        if let o = objectByName[name] { return o }
        var message = "unknown object '\(name)'"
        if let guess = NameSuggestion.closest(to: name, in: objects.map(\.name)) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (make one with 'object new \(name)')"
        }
        throw CommandError(message)
    }

    /// The live timers that retain object `o` strongly.
    func retainers(of o: Int) -> [Int] {
        objects[o].timers.filter { !entries[$0].weak && entries[$0].live }
    }

    // MARK: Commands

    func newObject(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let name = inv[Self.newObject]
        if let o = objectByName[name] {
            throw CommandError("object '\(name)' already exists (\(objects[o].state)); names stay taken until 'reset'")
        }
        objectByName[name] = objects.count
        objects.append(ObjectEntry(name: name))
        used = true
        return CommandOutput(json: self.objectJSON(self.objects.count - 1))
    }

    /// `object release`: the shell drops its reference (K1). Prints what became of the object.
    func releaseObject(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        let o = try object(named: inv[Self.existingObject])
        guard objects[o].held else {
            throw CommandError("object '\(objects[o].name)' was already released (\(objects[o].state))")
        }
        objects[o].held = false
        if objects[o].retainers > 0 {
            leakCount += 1
            let names = retainers(of: o).map { entries[$0].name }
            let text =
                "\(objects[o].name) is still alive: retained by \(names.joined(separator: ", ")) — a leak (see 'timer leaks')"
            return CommandOutput(text: text, json: .fields(["object": self.objectJSON(o), "deallocated": .array([])]))
        }
        let freed = deallocate(o)
        return CommandOutput(
            text: freed.text, json: .fields(["object": self.objectJSON(o), "deallocated": .array([freed.json])]))
    }

    func objectList() -> CommandOutput {
        guard !objects.isEmpty else {
            return CommandOutput(
                text: "no objects (make one with 'object new <name>')", json: .fields(["objects": .array([])]))
        }
        let rows = objects.indices.map { o -> [String] in
            let strong = retainers(of: o).map { entries[$0].name }
            let weak = objects[o].timers.filter { entries[$0].weak }.map { entries[$0].name }
            return [
                objects[o].name, objects[o].state, strong.isEmpty ? "-" : strong.joined(separator: ", "),
                weak.isEmpty ? "-" : weak.joined(separator: ", "),
            ]
        }
        return CommandOutput(
            text: Format.table(["name", "state", "retained by", "weak timers"], rows),
            json: .fields(["objects": .array(self.objects.indices.map(self.objectJSON))]))
    }

    func objectJSON(_ o: Int) -> JSONValue {
        .fields([
            "name": .string(objects[o].name), "state": .string(objects[o].state),
            "retained_by": .array(retainers(of: o).map { .string(entries[$0].name) }),
            "weak_timers": .array(objects[o].timers.filter { entries[$0].weak }.map { .string(entries[$0].name) }),
        ])
    }

    // MARK: Leaks

    /// `timer leaks`: each released object a timer keeps alive, the timers that still fire for
    /// it, and the fix (seed 004).
    func leaks() -> CommandOutput {
        let leaked = objects.indices.filter { objects[$0].isLeaked }
        guard !leaked.isEmpty else {
            return CommandOutput(
                text: "no leaks: no released object is kept alive by a timer",
                json: .fields(["count": .int(0), "objects": .array([])]))
        }
        var lines = [
            "\(leaked.count) leaked object\(leaked.count == 1 ? "" : "s"): released by the shell, kept alive by timers (K1)"
        ]
        var json: [JSONValue] = []
        for o in leaked {
            let object = objects[o].name
            let timers = retainers(of: o)
            lines.append("\(object): a retain cycle through \(timers.map { entries[$0].name }.joined(separator: ", "))")
            var timerJSON: [JSONValue] = []
            for t in timers {
                let info = info(t)
                let state = info?.state ?? .invalidated
                let fires = info?.fires ?? 0
                let doing = state == .paused ? "is paused but still retains it" : "still fires for its released owner"
                lines.append("  \(entries[t].name) (\(entries[t].madeBy.name), \(fires) fires) \(doing)")
                let fix = self.fix(for: t, object: object)
                lines.append("    fix: \(fix)")
                timerJSON.append(
                    .fields([
                        "name": .string(entries[t].name), "kind": .string(entries[t].kind.rawValue),
                        "state": .string(state.rawValue), "fires": .int(fires), "fix": .string(fix),
                    ]))
            }
            json.append(.fields(["name": .string(object), "timers": .array(timerJSON)]))
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields(["count": .int(Int64(leaked.count)), "objects": .array(json)]))
    }

    /// How to break the cycle for this kind of timer: a weak proxy (seed 004) or a weak capture,
    /// and invalidation in the owner's deinit — which then runs.
    private func fix(for t: Int, object: String) -> String {
        let name = entries[t].name
        switch entries[t].kind {
        case .displayLink:
            return
                "make the link's target a weak proxy of \(object) (seed 004; --weak) and invalidate \(name) in \(object)'s deinit"
        case .runLoopTimer:
            return
                "target a weak proxy of \(object) or use the block API with [weak self] (--weak), and invalidate \(name) in \(object)'s deinit"
        case .dispatchTimer:
            return
                "capture \(object) weakly in the handler ([weak self]; --weak) and cancel \(name) in \(object)'s deinit"
        }
    }
}
