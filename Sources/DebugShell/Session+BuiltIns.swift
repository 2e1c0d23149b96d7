import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

extension Session {
    /// Runs a built-in command.
    func runBuiltIn(_ parsed: ParsedCommand, at location: SourceLocation) throws -> CommandOutput {
        let inv = parsed.invocation
        switch (inv.command, inv.verb) {
        case ("help", _): return try help(inv.words("topic").map(\.text))
        case ("apropos", _): return apropos(inv.words("word").map(\.text).joined(separator: " "))
        case ("tools", _): return toolsList()
        case ("status", _): return try status(inv.words("target").map(\.text))
        case ("clock", _): return clock()
        case ("display", ""): return display()
        case ("display", "rate"):
            guard let rate = inv.rate("rate") else { return .silent }
            engine.setRefreshRate(rate)
            return CommandOutput(json: .fields(["rate_hz": .int(Int64(rate.hertz))]))
        case ("run", ""): return try saysWhereTimeStopped(run(inv.duration("duration") ?? .zero), at: location)
        case ("run", "until"): return try saysWhereTimeStopped(runUntil(inv), at: location)
        case ("run", "to"):
            let end = inv.time("time") ?? engine.now
            guard end >= engine.now else { throw CommandError("time \(end) is in the past (now is \(engine.now))") }
            return try saysWhereTimeStopped(run(end - engine.now), at: location)
        case ("run", "through"):
            return try saysWhereTimeStopped(runThrough(inv.time("time") ?? engine.now), at: location)
        case ("step", _):
            return try saysWhereTimeStopped(step(inv.integer("n") ?? 1), at: location, vsync: true)
        case ("load", _): return load(inv)
        case ("animate", _), ("scroll", _):
            let d = inv.duration("duration") ?? .zero
            guard d > .zero else { throw CommandError("\(inv.command) needs a positive duration") }
            _ = try later(engine.now, by: d)
            if inv.command == "animate" { engine.animate(for: d) } else { engine.scroll(for: d) }
            return CommandOutput(json: .fields(["until_ns": .int((self.engine.now + d).nanoseconds)]))
        case ("stall", _):
            let d = inv.duration("duration") ?? .zero
            try checkStallEnd(d)
            engine.stall(d, dirtiesUI: inv.flag("ui"))
            return CommandOutput(json: .fields(["cost_ns": .int(d.nanoseconds), "ui": .bool(inv.flag("ui"))]))
        case ("after", _), ("at", _), ("every", _):
            return try schedule(inv, words: parsed.rest ?? inv.words("command")[...], at: location)
        case ("get", _):
            let name = inv.word("metric") ?? ""
            let (type, value) = try readMetric(name)
            return CommandOutput(
                text: "\(name) = \(value.text)",
                json: .fields(["metric": .string(name), "type": .string(type.rawValue), "value": value.json]))
        case ("metrics", _): return try metricsList(prefix: inv.word("prefix") ?? "")
        case ("expect", _): return try expect(inv.words("condition"))
        case ("echo", _):
            let text = inv.words("words").map(\.text).joined(separator: " ")
            // Control characters are shown escaped unless asked for as they are; newlines and
            // tabs, which "\n" and "\t" write on purpose, stay.
            let shown = inv.flag("raw") ? text : VisibleText.escaped(text, keepingLayout: true)
            // An echo of nothing prints an empty line.
            return CommandOutput(text: shown.isEmpty ? "\n" : shown, json: .fields(["text": .string(text)]))
        case ("source", _): return try source(inv.word("file") ?? "", at: location)
        case ("alias", _): return try alias(inv.words("definition"))
        case ("unalias", _):
            let name = inv.word("name") ?? ""
            guard aliases.removeValue(forKey: name) != nil else { throw CommandError("unknown alias '\(name)'") }
            return .silent
        case ("history", _): return historyList(inv.integer("n"))
        case ("set", _): return try set(inv.word("setting") ?? "", inv.word("value") ?? "")
        case ("settings", "show"): return try settingsShow(prefix: inv.word("name") ?? "")
        case ("settings", "set"): return try set(inv.word("name") ?? "", inv.word("value") ?? "")
        case ("settings", _): return try settingsList(prefix: inv.word("prefix") ?? "")
        case ("reset", _):
            guard !scheduledContext else { throw CommandError("reset cannot run from a scheduled command") }
            resetSimulation()
            timeDidMove()
            return .silent
        case ("play", _): return try play(inv.decimal("speed"))
        case ("pause", _): return pause()
        case ("record", _): return try record(inv.words("target"))
        case ("plugin", _): return try pluginCommand(inv)
        case ("trace", _): return try traceCommand(inv)
        case ("quit", _), ("exit", _):
            // Reached through a `source` that a scheduled command runs: like `run`, it cannot.
            guard !scheduledContext else {
                throw CommandError(
                    "'\(inv.command)' cannot run from a scheduled command (it would end the session mid-run)")
            }
            if inv.command == "quit" { throw ControlFlow.exit(failures > 0 ? 1 : 0) }
            throw ControlFlow.exit(Int32(inv.integer("status") ?? 0))
        default:
            throw CommandError("'\(parsed.label)' is not implemented")
        }
    }

    // MARK: Time

    private func checkTimeMayAdvance(_ what: String) throws(CommandError) {
        guard !scheduledContext else { throw CommandError("\(what) cannot run from a scheduled command") }
    }

    /// Runs time forward; events and scheduled commands print as they happen.
    private func advance(_ what: String, _ body: () -> AdvanceOutcome) throws -> AdvanceOutcome {
        try checkTimeMayAdvance(what)
        sink.flush()
        let start = engine.now
        scheduledFailures = 0
        eventsPrinted = 0
        let outcome = body()
        reportTraceLimit()
        scheduleHeldCommands()
        if engine.now != start || outcome != .completed { timeDidMove() }
        if outcome == .interrupted || isInterrupted() { throw ControlFlow.interrupted(reported: false) }
        if scheduledFailures > 0 {
            // The session may go on past this failure; a replay of its recording must too.
            recording.keepGoing = true
            let n = scheduledFailures
            throw CommandError("\(n) scheduled command\(n == 1 ? "" : "s") failed during '\(what)'")
        }
        return outcome
    }

    /// A `run` or `step` typed at the interactive prompt says where time stopped (`now 1.25s`,
    /// `now 50ms, vsync 4`) when the front end asks for it (``Session/saysWhereTimeStops``);
    /// scripts, sourced files and scheduled commands stay silent, as commands that change
    /// something are (docs/Decisions.md, Output).
    private func saysWhereTimeStopped(
        _ output: CommandOutput, at location: SourceLocation, vsync: Bool = false
    ) -> CommandOutput {
        guard saysWhereTimeStops, location.origin.name == nil, sourceDepth == 0, !scheduledContext else {
            return output
        }
        var said = output
        said.text = "now \(engine.now)" + (vsync ? ", vsync \(engine.vsyncCount)" : "")
        return said
    }

    private func run(_ duration: SimDuration) throws -> CommandOutput {
        let start = engine.now
        let end = try later(start, by: duration)
        _ = try advance("run") { engine.advance(to: end, interrupted: isInterrupted) }
        return CommandOutput(
            json: .fields([
                "from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds),
                "events": .int(Int64(self.eventsPrinted)),
            ]))
    }

    private func runUntil(_ inv: Invocation) throws -> CommandOutput {
        let condition = try parseCondition(inv.words("condition"))
        let timeout = inv.duration("timeout") ?? .seconds(60)
        let start = engine.now
        let limit = try later(start, by: timeout)
        var readers: [String: () -> MetricValue] = [:]
        for name in condition.metrics { readers[name] = metricReader(name) }
        let outcome = try advance("run until") {
            engine.advance(
                until: { condition.evaluate { readers[$0]?() ?? .none }.holds }, limit: limit,
                interrupted: isInterrupted)
        }
        if outcome != .conditionMet {
            // Conditions are checked after instants at which something happened (Decisions.md, Time), not at
            // the timeout itself.
            let holdsNow = condition.evaluate(metricValueOrNone).holds
            throw CommandError(
                "timed out after \(timeout): \(condition.text) (\(describeValues(condition)))"
                    + (holdsNow
                        ? "; it holds at the timeout, but conditions are checked after instants where something happens"
                        : ""))
        }
        return CommandOutput(
            json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(self.engine.now.nanoseconds), "met": true])
        )
    }

    /// `run through <time>`: the events up to and including those at `end` (S3, S4); now is `end`,
    /// its instant done.
    private func runThrough(_ end: SimTime) throws -> CommandOutput {
        let start = engine.now
        guard end >= start else { throw CommandError("time \(end) is in the past (now is \(start))") }
        _ = try later(end, by: .zero)
        _ = try advance("run through") { engine.advance(through: end, interrupted: isInterrupted) }
        return CommandOutput(
            json: .fields([
                "from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds),
                "events": .int(Int64(self.eventsPrinted)),
            ]))
    }

    private func step(_ n: Int64) throws -> CommandOutput {
        let target = engine.vsync(number: n)
        guard target <= .horizon else { throw CommandError("step \(n) goes beyond the 2^62 ns horizon") }
        _ = try advance("step") { engine.advance(through: target, interrupted: isInterrupted) }
        return CommandOutput(json: .fields(["vsync_ns": .int(target.nanoseconds)]))
    }

    private func schedule(
        _ inv: Invocation, words: ArraySlice<Word>, at location: SourceLocation
    ) throws -> CommandOutput {
        guard !words.isEmpty else { throw CommandError("'\(inv.command)' needs a command to run") }
        let start: SimTime
        var interval = SimDuration.zero
        switch inv.command {
        case "at":
            start = inv.time("time") ?? engine.now
            guard start >= engine.now else {
                throw CommandError("time \(start) is in the past (now is \(engine.now))")
            }
        case "every":
            interval = inv.duration("duration") ?? .zero
            guard interval >= .minimumRepeatInterval else {
                throw CommandError("every needs an interval of at least 1us (got \(interval))")
            }
            start = try later(engine.now, by: interval)
        default:
            start = try later(engine.now, by: inv.duration("duration") ?? .zero)
        }
        // S1: time ends at the horizon, so nothing at it ever runs.
        guard start < .horizon else {
            throw CommandError(
                "\(start) is the 2^62 ns horizon itself: time stops there, so a command scheduled for it could never run"
            )
        }
        // Check the command now, so a typo fails here rather than later.
        let expanded = try expandAliases(words)
        guard !expanded.isEmpty else { throw CommandError("'\(inv.command)' needs a command to run") }
        let parsed = try parse(expanded, text: "")
        if parsed.command.owner == .builtIn, Session.notSchedulable.contains(parsed.command.spec.name) {
            throw CommandError(
                "'\(parsed.label)' cannot be scheduled: only commands that neither move time nor end the session can")
        }
        guard pendingScheduled < pendingLimit else {
            throw CommandError("too many scheduled commands: at most \(grouped(pendingLimit)) may wait at once")
        }
        let chain = try sameInstantChain(scheduling: words, at: start)
        let times = inv.integer("times") ?? Int64.max
        scheduleCommand(words, at: start, every: interval, remaining: times, chain: chain, scheduledAt: location)
        // The command's text is made only for --json: a nested `after` would otherwise copy the
        // whole rest of its line once per level.
        var fields: [(String, JSONValue)] = [("at_ns", .int(start.nanoseconds))]
        if options.json { fields.append(("command", .string(Session.text(of: words)))) }
        return CommandOutput(json: .object(fields))
    }

    /// Counts a command scheduled for the instant it is scheduled in by a scheduled command that
    /// runs in it: a chain of those never lets time move (`alias z = after 0s z`), so an instant
    /// takes at most ``Session/maxSameInstantCommands`` of them.
    ///
    /// - Returns: the chain the new command belongs to, or nil when it is not in one.
    private func sameInstantChain(
        scheduling words: ArraySlice<Word>, at start: SimTime
    ) throws(CommandError) -> SameInstantChain? {
        guard scheduledContext, start == engine.now else { return nil }
        if sameInstantTime != engine.now {
            sameInstantTime = engine.now
            sameInstantCount = 0
        }
        var chain = runningChain ?? SameInstantChain(head: [], length: 0)
        chain.length += 1
        if chain.head.count < 3 { chain.head.append(Session.text(of: words)) }
        sameInstantCount += 1
        guard sameInstantCount <= Session.maxSameInstantCommands else {
            let shown = chain.head.joined(separator: " → ") + (chain.length > chain.head.count ? " → …" : "")
            throw CommandError(
                "'\(Session.text(of: words))' would be command \(grouped(sameInstantCount)) scheduled for \(engine.now) "
                    + "by commands running at \(engine.now), over the limit of \(grouped(Session.maxSameInstantCommands)) "
                    + "per instant: a chain that schedules itself for the instant it runs in never lets time move "
                    + "(\(shown), \(grouped(chain.length)) long); delay it, e.g. 'after 1ns'")
        }
        return chain
    }

    private func scheduleCommand(
        _ words: ArraySlice<Word>, at time: SimTime, every interval: SimDuration, remaining: Int64,
        chain: SameInstantChain?, scheduledAt location: SourceLocation
    ) {
        pendingScheduled += 1
        engine.schedule(at: time) { [unowned self] in
            pendingScheduled -= 1
            if interval > .zero && remaining > 1, let next = try? time.adding(interval), next < .horizon {
                scheduleCommand(
                    words, at: next, every: interval, remaining: remaining - 1, chain: nil, scheduledAt: location)
            }
            guard !isInterrupted() else {
                // Ctrl-C: time stops after this instant; the command runs when time moves again.
                engine.stopAfterInstant = true
                heldByInterrupt.append { [unowned self] in
                    scheduleCommand(
                        words, at: engine.now, every: .zero, remaining: 1, chain: chain, scheduledAt: location)
                }
                return
            }
            runScheduled(words, chain: chain, scheduledAt: location)
        }
    }

    /// Schedules again, where time stopped, the commands an interrupt kept from running.
    func scheduleHeldCommands() {
        let held = heldByInterrupt
        heldByInterrupt.removeAll()
        for schedule in held { schedule() }
    }

    /// A scheduled command runs: errors name where it was scheduled and when it ran (docs/JSON.md).
    private func runScheduled(_ words: ArraySlice<Word>, chain: SameInstantChain?, scheduledAt location: SourceLocation)
    {
        let wasScheduled = scheduledContext
        let outerChain = runningChain
        let outerBase = sourceBaseDepth
        scheduledContext = true
        runningChain = chain
        sourceBaseDepth = sourceDepth
        defer {
            scheduledContext = wasScheduled
            runningChain = outerChain
            sourceBaseDepth = outerBase
            abandoningSources = false
            // Ctrl-C while it ran: time stops after this instant.
            if isInterrupted() { engine.stopAfterInstant = true }
        }
        let stamp: [(String, JSONValue)] = [
            ("t_ns", .int(engine.now.nanoseconds)), ("scheduled_at", JSONValue(location.text)),
        ]
        if settings.boolean("shell.echo") {
            sink.write(
                "> [\(engine.now.eventStamp)] \(Session.text(of: words))\n",
                to: options.json ? .standardError : .standardOutput)
        }
        do {
            let expanded = try expandAliases(words)
            var parsed = try parse(expanded, text: "")
            let output: CommandOutput
            switch parsed.command.owner {
            case _ where parsed.asksForHelp: output = helpAsked(by: parsed)
            case .builtIn: output = try runBuiltIn(parsed, at: location)
            case .tool(let index):
                parsed.invocation.text = Session.text(of: words)
                output = try tools[index].run(parsed.invocation)
            }
            render(output, command: Session.text(of: words), at: location, extra: stamp)
        } catch let error as CommandError {
            scheduledFailures += 1
            if !error.message.isEmpty {
                reportError(
                    "at \(engine.now): \(error.message)", command: Session.text(of: words), at: location, extra: stamp)
            } else {
                failures += 1
            }
        } catch ControlFlow.interrupted {
            // A scheduled `source` stopped by Ctrl-C: the `run` around it reports where time stopped.
        } catch {
            scheduledFailures += 1
            reportError("at \(engine.now): \(error)", command: Session.text(of: words), at: location, extra: stamp)
        }
    }

    /// A scheduled command's text, as written.
    static func text(of words: ArraySlice<Word>) -> String { words.map(\.raw).joined(separator: " ") }

    // MARK: Conditions and metrics

    func parseCondition(_ words: [Word]) throws(CommandError) -> Condition {
        try Condition.parse(words, rate: engine.refreshRate.hertz) { name throws(CommandError) in
            try readMetric(name).0
        }
    }

    private func expect(_ words: [Word]) throws -> CommandOutput {
        let condition = try parseCondition(words)
        let (holds, missing) = condition.evaluate(metricValueOrNone)
        guard holds else {
            if let missing { throw CommandError("expectation failed: \(missing) has no value yet") }
            throw CommandError("expectation failed: \(condition.text) (\(describeValues(condition)))")
        }
        return CommandOutput(json: .fields(["condition": .string(condition.text), "holds": true]))
    }

    private func describeValues(_ condition: Condition) -> String {
        condition.metrics.map { "\($0) = \(metricValueOrNone($0).text)" }.joined(separator: ", ")
    }

    // MARK: Scripts

    private func source(_ path: String, at location: SourceLocation) throws -> CommandOutput {
        guard sourceDepth < Session.maxSourceDepth else {
            // Every `source` of the chain stops, --keep-going or not: reported once, here.
            if sourceDepth > sourceBaseDepth { abandoningSources = true }
            throw CommandError("source nesting deeper than \(Session.maxSourceDepth) (does a script source itself?)")
        }
        let resolved = FileIO.join(location.origin.directory, path)
        var includedFrom = location.origin.includedFrom
        if let here = location.text { includedFrom.insert(here, at: 0) }
        let origin = ScriptOrigin(name: resolved, directory: FileIO.directory(of: resolved), includedFrom: includedFrom)
        let text: String
        do {
            text = try FileIO.readScript(resolved, interrupted: isInterrupted)
        } catch {
            if isInterrupted() { throw ControlFlow.interrupted(reported: false) }
            guard let line = error.line else { throw CommandError(error.message) }
            reportError(error.message, command: nil, at: SourceLocation(origin: origin, line: line))
            throw alreadyReported
        }
        sourceDepth += 1
        let outcome = runScript(text, origin: origin)
        sourceDepth -= 1
        if abandoningSources {
            if sourceDepth <= sourceBaseDepth { abandoningSources = false }
            throw alreadyReported
        }
        switch outcome {
        case .finished: return CommandOutput(json: .fields(["file": .string(resolved)]))
        case .failed: throw alreadyReported
        case .exited(let status): throw ControlFlow.exit(status)
        case .interrupted: throw ControlFlow.interrupted(reported: true)
        }
    }

    // MARK: Aliases and history

    private func alias(_ words: [Word]) throws(CommandError) -> CommandOutput {
        if words.isEmpty { return aliasList() }
        let name = words[0].text
        if words.count == 1 {
            guard let found = aliases[name] else { throw CommandError("unknown alias '\(name)'") }
            return CommandOutput(
                text: "\(name) = \(Session.escaped(found.expansion))\(found.builtIn ? " (built-in)" : "")",
                json: .fields([
                    "name": .string(name), "expansion": .string(found.expansion), "built_in": .bool(found.builtIn),
                ]))
        }
        guard words[1].text == "=", !words[1].quoted else {
            throw CommandError("expected 'alias \(name) = <expansion>'")
        }
        guard ValueParser.isName(name) else {
            throw CommandError("'\(Session.escaped(name))' is not a valid alias name: \(ValueParser.nameRule)")
        }
        if registry.command(exactly: name) != nil {
            throw CommandError("'\(name)' is a command; an alias cannot replace it")
        }
        let expansion = words.dropFirst(2).map(\.raw).joined(separator: " ")
        guard !expansion.isEmpty else { throw CommandError("alias '\(name)' needs an expansion") }
        if aliases[name] != nil {
            aliases[name]?.expansion = expansion
            aliases[name]?.builtIn = false
        } else {
            aliases[name] = UserAlias(expansion: expansion, order: nextAliasOrder)
            nextAliasOrder += 1
        }
        return CommandOutput(json: .fields(["name": .string(name), "expansion": .string(expansion)]))
    }

    /// `alias`: the built-in one-letter aliases still in force, then the user's, each in the
    /// order first defined; says so when the user has none.
    private func aliasList() -> CommandOutput {
        let all = aliasesInOrder
        let builtIns = all.filter { aliases[$0.name]?.builtIn == true }
        let own = all.filter { aliases[$0.name]?.builtIn != true }
        var lines: [String] = []
        if !builtIns.isEmpty {
            let width = builtIns.map { $0.name.count + 3 + $0.expansion.count }.max() ?? 0
            lines.append("built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):")
            for alias in builtIns {
                let lldb = Session.builtInAliases.first { $0.name == alias.name }?.lldb ?? ""
                lines.append("  " + "\(alias.name) = \(alias.expansion)".padding(width) + "  LLDB's \(lldb)")
            }
        }
        if own.isEmpty {
            lines.append("no aliases of your own: 'alias <name> = <expansion>' defines one")
        } else {
            if !builtIns.isEmpty { lines.append("yours:") }
            let indent = builtIns.isEmpty ? "" : "  "
            lines += own.map { "\(indent)\($0.name) = \(Session.escaped($0.expansion))" }
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .array(
                all.map {
                    .fields([
                        "name": .string($0.name), "expansion": .string($0.expansion),
                        "built_in": .bool(aliases[$0.name]?.builtIn == true),
                    ])
                }))
    }

    /// The last n commands (of the ``Session/historyLimit`` kept), numbered since the start.
    private func historyList(_ n: Int64?) -> CommandOutput {
        let kept = historyEntries.count
        let count = n.map { Int(min($0, Int64(kept))) } ?? kept
        let start = kept - count
        var lines: [String] = []
        for i in start..<kept {
            let number = String(historyDropped + i + 1)
            lines.append(
                String(repeating: " ", count: max(0, 5 - number.count)) + number + "  "
                    + Session.escaped(historyEntries[i]))
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"), json: .array(self.historyEntries[start...].map { .string($0) }))
    }

    // MARK: Settings

    private func set(_ name: String, _ value: String) throws(CommandError) -> CommandOutput {
        try settings.set(name, text: value, rate: engine.refreshRate.hertz)
        if name == "runloop.coalescing" { engine.coalescing = settings.boolean(name) }
        if let index = registry.toolIndex(forNamespace: name),
            registry.toolDescriptors[index].settings.contains(where: { $0.name == name })
        {
            tools[index].settingDidChange(name)
        }
        return CommandOutput(
            json: .fields(["setting": .string(name), "value": self.settings.value(name)?.json ?? .null]))
    }

    /// The settings whose names start with `prefix`, or an error with a did-you-mean.
    private func settingSpecs(prefix: String) throws(CommandError) -> [SettingSpec] {
        let specs = settings.specs.filter { $0.name.hasPrefix(prefix) }
        guard specs.isEmpty else { return specs }
        var message = "no setting starts with '\(prefix)'"
        if let guess = Suggest.closest(to: prefix, in: settings.specs.map(\.name)) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " ('settings list' lists them)"
        }
        throw CommandError(message)
    }

    /// `settings show [name]`: values only, as `name = value` lines that `set` takes back.
    private func settingsShow(prefix: String) throws(CommandError) -> CommandOutput {
        let specs = try settingSpecs(prefix: prefix)
        let lines = specs.map { "\($0.name) = \(settings.value($0.name)?.description ?? "none")" }
        let json = JSONValue.array(
            specs.map { .fields(["name": .string($0.name), "value": settings.value($0.name)?.json ?? .null]) })
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    private func settingsList(prefix: String) throws(CommandError) -> CommandOutput {
        let specs = try settingSpecs(prefix: prefix)
        let heads = specs.map { "\($0.name) = \(settings.value($0.name)?.description ?? "none")" }
        let width = heads.map(\.count).max() ?? 0
        let lines = zip(heads, specs).map { head, spec in head.padding(width) + "  " + spec.abstract }
        let json = JSONValue.array(
            specs.map {
                .fields([
                    "name": .string($0.name), "value": settings.value($0.name)?.json ?? .null,
                    "abstract": .string($0.abstract),
                ])
            })
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    // MARK: Tools and status

    private func toolsList() -> CommandOutput {
        guard !registry.toolDescriptors.isEmpty else {
            return CommandOutput(text: "no tools registered", json: .array([]))
        }
        let width = registry.toolDescriptors.map(\.name.count).max() ?? 0
        let lines = registry.toolDescriptors.map { d in
            "\(d.name.padding(width))  \(d.abstract) (commands: \(d.commands.map(\.name).joined(separator: ", ")))"
        }
        let json = JSONValue.array(
            registry.toolDescriptors.map { d in
                .fields([
                    "name": .string(d.name), "abstract": .string(d.abstract),
                    "commands": .array(d.commands.map { .string($0.name) }),
                ])
            })
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }

    private func status(_ words: [String]) throws(CommandError) -> CommandOutput {
        switch words.count {
        case 0:
            var lines: [String] = []
            var json: [JSONValue] = []
            for (index, d) in registry.toolDescriptors.enumerated() {
                let line = tools[index].statusLine()?.plain
                lines.append(line ?? "\(d.name) —")
                json.append(
                    .fields([
                        "tool": .string(d.name), "line": JSONValue(line), "shown": .bool(toolStatusEnabled[index]),
                    ]))
            }
            if lines.isEmpty { lines = ["no tools registered"] }
            return CommandOutput(
                text: lines.joined(separator: "\n"),
                json: .fields(["block": .bool(self.statusBlockEnabled), "tools": .array(json)]))
        case 1:
            statusBlockEnabled = try ValueParser.boolean(words[0])
            return CommandOutput(json: .fields(["block": .bool(self.statusBlockEnabled)]))
        case 2:
            guard let index = registry.toolDescriptors.firstIndex(where: { $0.name == words[0] }) else {
                var message = "unknown tool '\(words[0])'"
                if let guess = Suggest.closest(to: words[0], in: registry.toolDescriptors.map(\.name)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw CommandError(message)
            }
            toolStatusEnabled[index] = try ValueParser.boolean(words[1])
            return CommandOutput(
                json: .fields(["tool": .string(words[0]), "shown": .bool(self.toolStatusEnabled[index])]))
        default:
            throw CommandError("usage: status [on|off] or status <tool> on|off")
        }
    }

    // MARK: The device

    private func clock() -> CommandOutput {
        let busy = engine.busyUntil > engine.now
        let main = busy ? "busy until \(engine.busyUntil)" : "idle"
        let text = [
            "now     \(engine.now)",
            "vsyncs  \(engine.vsyncCount)",
            "rate    \(displayText())",
            "mode    \(engine.mode.rawValue)",
            "main    \(main)",
        ].joined(separator: "\n")
        return CommandOutput(
            text: text,
            json: .fields([
                "now_ns": .int(self.engine.now.nanoseconds), "vsyncs": .int(self.engine.vsyncCount),
                "rate_hz": .int(Int64(self.engine.refreshRate.hertz)), "mode": .string(self.engine.mode.rawValue),
                "busy_until_ns": .int(self.engine.busyUntil.nanoseconds), "busy": .bool(busy),
            ]))
    }

    private func displayText() -> String {
        var text = "\(engine.refreshRate)"
        if let pending = engine.pendingRate { text += " (\(pending.rate) from \(pending.at))" }
        return text
    }

    private func display() -> CommandOutput {
        var json: [(String, JSONValue)] = [("rate_hz", .int(Int64(engine.refreshRate.hertz)))]
        if let pending = engine.pendingRate {
            json += [
                ("pending_rate_hz", .int(Int64(pending.rate.hertz))), ("pending_from_ns", .int(pending.at.nanoseconds)),
            ]
        }
        return CommandOutput(text: displayText(), json: .object(json))
    }

    /// A `stall` must end before the horizon (S1): blocks run one after another, so it ends no
    /// earlier than the thread's current item, the stalls queued before it and its own cost.
    private func checkStallEnd(_ d: SimDuration) throws(CommandError) {
        let after = max(engine.now, engine.busyUntil, stallsEndNoEarlierThan)
        guard let end = try? after.adding(d), end < .horizon else {
            throw CommandError(
                "stall \(d) would end at or beyond the 2^62 ns horizon: the main thread's work already queued ends at \(after) at the earliest"
            )
        }
        stallsEndNoEarlierThan = end
    }

    private func load(_ inv: Invocation) -> CommandOutput {
        let d = inv.duration("duration") ?? .zero
        switch inv.verb {
        case "frame": engine.frameCost = d
        case "commit": engine.commitCost = d
        case "gpu": engine.gpuCost = d
        case "off":
            engine.frameCost = .zero
            engine.commitCost = .zero
            engine.gpuCost = .zero
        default:
            return CommandOutput(
                text: "frame \(engine.frameCost) · commit \(engine.commitCost) · gpu \(engine.gpuCost)",
                json: .fields([
                    "frame_ns": .int(self.engine.frameCost.nanoseconds),
                    "commit_ns": .int(self.engine.commitCost.nanoseconds),
                    "gpu_ns": .int(self.engine.gpuCost.nanoseconds),
                ]))
        }
        return .silent
    }
}

/// `t + d`, or a command error beyond the 2^62 ns horizon (S1).
func later(_ t: SimTime, by d: SimDuration) throws(CommandError) -> SimTime {
    do {
        return try t.adding(d)
    } catch {
        throw CommandError(error.description)
    }
}
