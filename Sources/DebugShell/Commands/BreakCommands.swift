import DebugShellCore
import DebugShellInterpreter

/// `break`: breakpoints on the simulation, as LLDB's watchpoints (docs/Decisions.md, Breakpoints).
struct BreakCommand: BuiltInCommand {
    // The verb's options may follow the words (`break when … --once`, `break on … --ignore 3`),
    // as `help break on` shows them.
    static let condition = ArgumentSpec.words(
        "condition", abstract: "<metric> <op> <value>, joined by and/or.", allowsOptions: true)
    static let event = ArgumentSpec.name("event", .event, abstract: "An event's name, e.g. fps.hitch, layout.settled.")
    static let text = ArgumentSpec.words(
        "text",
        abstract:
            "Only events whose message contains these words (e.g. a timer's name) and whose fields have each key=value given (e.g. type=gpu).",
        optional: true, allowsOptions: true)
    static let ids = ArgumentSpec.words("id", abstract: "Breakpoint numbers, or 'all'.", optional: true)
    static let once = OptionSpec.flag("once", abstract: "Delete it once it has stopped time (LLDB's one-shot).")
    /// `break command add|delete`.
    enum CommandAction: String, CommandLineChoice {
        case add, delete
    }
    static let action = ArgumentSpec.choice(
        "action", abstract: "add (replacing any) or delete the breakpoint's commands.", as: CommandAction.self)
    static let id = ArgumentSpec.integer("id", in: 1...Int64(Int32.max), abstract: "The breakpoint's number.")
    static let commands = ArgumentSpec.words(
        "commands", abstract: "'add': a command, or a block '{ a; b }' of them.", optional: true)
    static let ignore = OptionSpec.integer(
        "ignore", in: 0...1_000_000_000,
        abstract: "Let this many hits pass before one stops time (LLDB's ignore count).",
        default: 0)

    enum Verb: String, ToolVerbs {
        case list, when, on, command, delete, disable, enable

        var declaration: VerbSpec {
            switch self {
            case .list:
                return VerbSpec(
                    "list", abstract: "List the breakpoints: number, state, hits, what.",
                    examples: [
                        Example(
                            """
                            > break list
                            no breakpoints
                            > break when clock.vsyncs >= 3
                            breakpoint 1: when clock.vsyncs >= 3
                            > break list
                            #  state    hits  breakpoint
                            1  enabled  0     when clock.vsyncs >= 3
                            """)
                    ])
            case .when:
                return VerbSpec(
                    "when",
                    abstract: "Stop time after the first instant at which a condition becomes true.",
                    discussion:
                        "Any condition 'expect' takes. It is read after each instant at which something happened, "
                        + "as 'run until' reads its own, never between: a condition that holds already stops "
                        + "time only once it has stopped holding and holds again. 'run', 'step', 'run until', "
                        + "'play' and 'c' stop there and say which breakpoint, when, and what the main thread "
                        + "was running; 'c' goes on. A stop is not an error: a script goes on from it.",
                    arguments: [BreakCommand.condition],
                    options: [BreakCommand.once, BreakCommand.ignore],
                    examples: [
                        Example(
                            """
                            > break when main.hangs > 0
                            breakpoint 1: when main.hangs > 0
                            > stall 300ms
                            > run 1s
                            stopped at 0s by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (0s to 300ms)
                            > get clock.now
                            clock.now = 0s
                            """)
                    ])
            case .on:
                return VerbSpec(
                    "on",
                    abstract:
                        "Stop time after the instant at which a tool says an event (optionally with given words).",
                    discussion:
                        "The event is any a tool declares (see 'help <tool>'): fps.hitch, fps.window, "
                        + "layout.settled, timer.fired, a plugin's. The FPS meter says fps.hitch while it runs "
                        + "('fps start'), watched or not; the others while you watch for them ('fps watch windows', "
                        + "'layout watch', 'timer watch on'); with such a watch off, 'break on' warns. A watched event prints, then the stop. A word "
                        + "key=value matches one of the event's JSON fields instead of its message: "
                        + "'break on fps.hitch type=gpu severity=high' (docs/FPSMeter.md lists fps.hitch's).",
                    arguments: [BreakCommand.event, BreakCommand.text],
                    options: [BreakCommand.once, BreakCommand.ignore],
                    examples: [
                        Example(
                            """
                            > view add a --frame 0,0,100,100
                            > layout watch
                            > break on layout.settled
                            breakpoint 1: on layout.settled — The watched subtree settled: root, views, last change.
                            > run 2s
                            [0.200s] layout: settled (window, 2 views, last change 0s)
                            stopped at 200ms by breakpoint 1, on layout.settled; main thread: idle since 183.333533ms (last: displaylink 'layout checker')
                            """)
                    ])
            case .command:
                return VerbSpec(
                    "command", abstract: "Commands to run when a breakpoint stops time (LLDB's 'breakpoint command').",
                    discussion:
                        "'break command add <id> { a; b }' runs a and b, in order, each time breakpoint <id> "
                        + "stops time: after the stop is said, before the prompt returns or the script goes on. "
                        + "They are commands 'after' could schedule (none moves time or ends the session), "
                        + "checked and their aliases expanded when added; a new 'add' replaces them. "
                        + "A failed one fails the stop as a failed command would. 'break list' shows them, "
                        + "'record' keeps them; 'break command delete <id>' removes them.",
                    arguments: [BreakCommand.action, BreakCommand.id, BreakCommand.commands],
                    examples: [
                        Example(
                            """
                            > timer nstimer t --interval 100ms --repeats
                            > break when timer.t.fires >= 2
                            breakpoint 1: when timer.t.fires >= 2
                            > break command add 1 { get clock.now; echo stopped }
                            > break list
                            #  state    hits  breakpoint
                            1  enabled  0     when timer.t.fires >= 2
                                              { get clock.now; echo stopped }
                            > run 1s
                            stopped at 200ms by breakpoint 1, when timer.t.fires >= 2 (timer.t.fires = 2); main thread: idle since 200ms (last: timer 't')
                            clock.now = 200ms
                            stopped
                            > break command delete 1
                            > c
                            > get clock.now
                            clock.now = 1s
                            """)
                    ])
            case .delete:
                return VerbSpec(
                    "delete", abstract: "Delete breakpoints by number, or all of them.", arguments: [BreakCommand.ids],
                    examples: [
                        Example(
                            "> break when clock.vsyncs > 1\nbreakpoint 1: when clock.vsyncs > 1\n> break delete 1\n> break list\nno breakpoints"
                        )
                    ])
            case .disable:
                return VerbSpec(
                    "disable", abstract: "Keep breakpoints but let time run past them.", arguments: [BreakCommand.ids],
                    examples: [
                        Example(
                            "> break when clock.vsyncs > 1\nbreakpoint 1: when clock.vsyncs > 1\n> break disable 1\n> run 1s\n> get clock.now\nclock.now = 1s"
                        )
                    ])
            case .enable:
                return VerbSpec(
                    "enable", abstract: "Let disabled breakpoints stop time again.", arguments: [BreakCommand.ids],
                    examples: [
                        Example(
                            "> break when clock.vsyncs > 1\nbreakpoint 1: when clock.vsyncs > 1\n> break disable all\n> break enable 1\n> break list\n#  state    hits  breakpoint\n1  enabled  0     when clock.vsyncs > 1"
                        )
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "break",
        abstract: "Breakpoints on the simulation: stop time when a condition becomes true or an event happens.",
        verbs: Verb.declarations, defaultVerb: Verb.list.rawValue)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let breakpoints = context.time.breakpoints
        let registry = context.vocabulary.registry
        switch try call.verb(Verb.self) {
        case .list:
            return list(breakpoints)
        case .when:
            // A family's member that does not exist yet (a timer made later, or gone with a
            // `reset` the breakpoint outlived) is pending, as in LLDB: it reads none until it
            // exists. A recording made after a `reset` defines such breakpoints again.
            var pending: [String] = []
            let condition = try context.metrics.parseCondition(call[Self.condition]) { pending.append($0) }
            let added = breakpoints.add(
                .when(condition), text: "when \(condition.text)" + Self.modifiers(call), ignore: Int(call[Self.ignore]),
                once: call[Self.once])
            var output = said(added)
            for name in pending {
                output.warnings.append(
                    "\(name) does not exist yet: it reads none until it does, and the breakpoint waits")
            }
            return output
        case .on:
            let name = call[Self.event]
            let event = try Self.event(name, in: registry)
            let words = call[Self.text].map(\.text).joined(separator: " ")
            let added = breakpoints.add(
                .on(event: name, text: words),
                text: "on \(name)" + (words.isEmpty ? "" : " '\(words)'") + Self.modifiers(call),
                ignore: Int(call[Self.ignore]), once: call[Self.once])
            var output = said(added)
            output.text += " — \(event.abstract)"
            // An event said only while watched, with its watch off, would never stop time.
            let tools = context.tools
            if let index = registry.toolDescriptors.firstIndex(where: { $0.events.contains { $0.name == name } }),
                index < tools.instances.count,
                !tools.calling(.isSaying, tool: index, label: name, { tools.instances[index].isSaying(name) })
            {
                let watch = event.watch.map { " ('\($0)')" } ?? ""
                output.warnings.append(
                    "\(name) is said only while it is watched\(watch), which is off now: this breakpoint waits until it is on"
                )
            }
            return output
        case .command:
            return try command(call, in: context)
        case .delete, .disable, .enable:
            let verb = try call.verb(Verb.self)
            let chosen = try ids(call[Self.ids], in: breakpoints, verb: verb.rawValue)
            // All of them at once: one step, not n removals from the list's front.
            if verb == .delete && Set(chosen).count == breakpoints.all.count {
                breakpoints.deleteAll()
            }
            for id in chosen where !breakpoints.isEmpty {
                switch verb {
                case .delete: breakpoints.delete(id)
                case .disable: breakpoints.setEnabled(id, false)
                default: breakpoints.setEnabled(id, true)
                }
            }
            if breakpoints.isEmpty { breakpoints.stopWatching(context.engine) }
            return CommandOutput(json: .fields(["breakpoints": .array(chosen.map { .int(Int64($0)) })]))
        }
    }

    /// `break command add <id> { a; b }`, `break command delete <id>`.
    private static func command(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let breakpoints = context.time.breakpoints
        let id = Int(call[Self.id])
        guard breakpoints.index(of: id) != nil else { throw CommandError("no breakpoint \(id) (see 'break list')") }
        let words = call[Self.commands][...]
        switch call[Self.action] ?? .add {
        case .delete:
            guard words.isEmpty else {
                throw CommandError("'break command delete' takes only the breakpoint's number")
            }
            breakpoints.setCommands(id, [], at: call.location)
            return CommandOutput(json: .fields(["breakpoint": .int(Int64(id)), "commands": .array([])]))
        case .add:
            guard !words.isEmpty else {
                throw CommandError("'break command add \(id)' needs a command, or a block '{ a; b }' of them")
            }
            let commands = try (CommandScheduler.block(words) ?? [words]).map {
                try stopCommand($0, vocabulary: context.vocabulary)
            }
            breakpoints.setCommands(id, commands, at: call.location)
            return CommandOutput(
                json: .fields([
                    "breakpoint": .int(Int64(id)),
                    "commands": .array(commands.map { .string($0.map(\.raw).joined(separator: " ")) }),
                ]))
        }
    }

    /// A breakpoint's command, checked now as `after` checks what it schedules, its aliases
    /// expanded and its name in full (a replay of a recording has no aliases).
    static func stopCommand(_ words: ArraySlice<Word>, vocabulary: Vocabulary) throws -> [Word] {
        let expanded = try vocabulary.expand(words)
        guard !expanded.isEmpty else { throw CommandError("'break command add' needs a command to run") }
        let parsed = try vocabulary.parser.parse(expanded, text: "")
        guard parsed.command.traits.isSchedulable else {
            throw CommandError(
                "'\(parsed.label)' cannot be a breakpoint's command: only commands that neither move time nor end the session can"
            )
        }
        try ScriptChecker.checkScheduledCondition(parsed, vocabulary: vocabulary)
        var out = Array(expanded)
        if out[0].raw != parsed.command.spec.name { out[0] = Word(parsed.command.spec.name) }
        return out
    }

    /// What `record` logs of `break command add`: its commands as they are kept, aliases
    /// expanded (a replay has none); nil for anything else.
    static func recorded(_ parsed: ParsedCommand, vocabulary: Vocabulary) -> ArraySlice<Word>? {
        let values = parsed.invocation.values
        guard parsed.verb.name == Verb.command.rawValue, !parsed.asksForHelp,
            values[Self.action.argumentSpec.name] == .word(CommandAction.add.rawValue),
            case .integer(let id)? = values[Self.id.argumentSpec.name],
            case .words(let given)? = values[Self.commands.argumentSpec.name], !given.isEmpty,
            let blocks = try? CommandScheduler.block(given[...]) ?? [given[...]],
            let commands = try? blocks.map({ try stopCommand($0, vocabulary: vocabulary) })
        else { return nil }
        var out = [spec.name, Verb.command.rawValue, CommandAction.add.rawValue, String(id), "{"].map { Word($0) }
        for (k, command) in commands.enumerated() {
            if k > 0 { out.append(Word(";")) }
            out += command
        }
        out.append(Word("}"))
        return out[...]
    }

    /// ` (once)`, ` (ignore 3)`: how the breakpoint was set, in its text.
    private static func modifiers(_ call: BuiltInCall) -> String {
        var parts: [String] = []
        if call[once] { parts.append("once") }
        if call[ignore] > 0 { parts.append("ignore \(call[ignore])") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    private static func said(_ b: Breakpoints.Breakpoint) -> CommandOutput {
        CommandOutput(
            text: "breakpoint \(b.id): \(b.text)",
            json: .fields(["breakpoint": .int(Int64(b.id)), "what": .string(b.text)]))
    }

    private static func list(_ breakpoints: Breakpoints) -> CommandOutput {
        guard !breakpoints.isEmpty else {
            return CommandOutput(text: "no breakpoints", json: .fields(["breakpoints": .array([])]))
        }
        var rows = [["#", "state", "hits", "breakpoint"]]
        for b in breakpoints.all {
            rows.append([String(b.id), b.enabled ? "enabled" : "disabled", String(b.hits), b.text])
            // Its commands, on a line of their own under what it is.
            if !b.commands.isEmpty { rows.append(["", "", "", b.commandsText]) }
        }
        var widths = [0, 0, 0]
        for row in rows {
            for c in 0..<3 { widths[c] = max(widths[c], row[c].count) }
        }
        var lines: [String] = []
        for row in rows {
            var line = ""
            for c in 0..<3 {
                line += row[c] + String(repeating: " ", count: widths[c] - row[c].count) + "  "
            }
            lines.append(line + row[3])
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields([
                "breakpoints": .array(
                    breakpoints.all.map {
                        .object([
                            ("id", .int(Int64($0.id))), ("enabled", .bool($0.enabled)), ("hits", .int(Int64($0.hits))),
                            ("what", .string($0.text)),
                            ("commands", .array($0.commands.map { .string($0.map(\.raw).joined(separator: " ")) })),
                        ])
                    })
            ]))
    }

    /// The numbers a verb names: `all` (or none given) is every breakpoint.
    private static func ids(_ words: [Word], in breakpoints: Breakpoints, verb: String) throws(CommandError) -> [Int] {
        if words.isEmpty || (words.count == 1 && words[0].text == "all") {
            guard !breakpoints.isEmpty else { throw CommandError("no breakpoints to \(verb)") }
            return breakpoints.all.map(\.id)
        }
        var chosen: [Int] = []
        for word in words {
            guard let id = Int(word.text), id > 0 else {
                throw CommandError("'\(word.text)' is not a breakpoint number (see 'break list')")
            }
            guard breakpoints.index(of: id) != nil else {
                throw CommandError("no breakpoint \(id) (see 'break list')")
            }
            chosen.append(id)
        }
        return chosen
    }

    static func condition(of call: BuiltInCall) -> [Word]? { call.is(Verb.when) ? call[condition] : nil }

    /// The event `break on` names, by the tools' declarations: a run and `--check` refuse the same.
    static func event(_ name: String, in registry: ToolRegistry) throws(CommandError) -> EventSpec {
        guard let event = registry.toolDescriptors.lazy.flatMap(\.events).first(where: { $0.name == name }) else {
            let names = registry.toolDescriptors.flatMap(\.events).map(\.name)
            var message = "unknown event '\(name)'"
            if let guess = Suggest.closest(to: name, in: names) {
                message += "; did you mean '\(guess)'?"
            } else {
                message += " (events: \(names.joined(separator: ", ")))"
            }
            throw CommandError(message)
        }
        return event
    }

    /// `--check`: `break on`'s event must be declared (a plugin's, when plugins may load, is left
    /// to the run, with a note).
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        if call.is(Verb.command), call[Self.action] == .add {
            let words = call[Self.commands][...]
            guard !words.isEmpty else {
                throw CommandError("'break command add' needs a command, or a block '{ a; b }' of them")
            }
            // Checked as a scheduled command is: parsed, and neither moving time nor ending the session.
            for command in try CommandScheduler.block(words) ?? [words] { checker.schedule(command, at: call.location) }
            return
        }
        guard call.is(Verb.on) else { return }
        try checker.checkEvent(call[Self.event], at: call.location)
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        switch Verb(rawValue: verb) {
        case .when: return completer.conditionCompletion(words: words)
        // A breakpoint's command completes like a typed one; in a block, the one after its last
        // `{` or `;`.
        case .command:
            let start = words.lastIndex { $0 == "{" || $0 == ";" }.map { $0 + 1 } ?? 0
            return completer.complete(words: Array(words[start...]), current: current)
        default: return nil
        }
    }
}
