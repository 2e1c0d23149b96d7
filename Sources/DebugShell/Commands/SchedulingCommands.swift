import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// `after`: a command after a delay (S4.1).
struct AfterCommand: ScheduleCommand {
    static let delay = ArgumentSpec.duration("duration", abstract: "The delay.")

    static let spec = CommandSpec(
        "after", abstract: "Run a command after a delay (S4.1); '{ a; b }' runs several, ';' ends it.",
        discussion:
            "Scheduled commands may schedule more, for later or for the instant they run in; an instant takes "
            + "at most 10,000 of the latter (a command that schedules itself for its own instant never lets "
            + "time move), and at most 1,000,000 commands wait at once. The same holds for 'at' and 'every'.",
        arguments: [
            delay,
            ArgumentSpec.words("command", abstract: "The command, with its own options."),
        ],
        examples: [
            Example("> after 1s { echo first; echo second }\n> run 2s\nfirst\nsecond"),
            Example(
                "> after 1s echo later; echo now\nwarning: 'echo now' runs now: ';' ends the command 'after' schedules; to schedule both, write 'after 1s { echo later; echo now }'\nnow\n> run 2s\nlater"
            ),
        ])

    static func start(_ call: BuiltInCall, in session: Session) throws(CommandError) -> (SimTime, SimDuration) {
        (try later(session.engine.now, by: call[delay]), .zero)
    }
}

/// `at`: a command at a time measured from t = 0 (S4.1).
struct AtCommand: ScheduleCommand {
    static let time = ArgumentSpec.time("time", abstract: "When; not in the past.")

    static let spec = CommandSpec(
        "at", abstract: "Run a command at a time measured from t = 0 (S4.1).",
        arguments: [
            time,
            ArgumentSpec.words("command", abstract: "The command, with its own options."),
        ],
        examples: [Example("> at 0.5s echo half\n> run 1s\nhalf")])

    static func start(_ call: BuiltInCall, in session: Session) throws(CommandError) -> (SimTime, SimDuration) {
        let start = call[time]
        let now = session.engine.now
        guard start >= now else { throw CommandError("time \(start) is in the past (now is \(now))") }
        return (start, .zero)
    }
}

/// `every`: a command every interval, first after one interval (S4.1).
struct EveryCommand: ScheduleCommand {
    static let interval = ArgumentSpec.duration("duration", abstract: "The interval, at least 1us.")
    static let times = OptionSpec.integer(
        "times", in: 1...Int64.max, abstract: "Stop after this many runs.", defaultText: "forever")

    static let spec = CommandSpec(
        "every", abstract: "Run a command every interval, first after one interval (S4.1).",
        arguments: [
            interval,
            ArgumentSpec.words("command", abstract: "The command, with its own options."),
        ],
        options: [
            times
        ],
        examples: [Example("> every 100ms --times 2 echo tick\n> run 1s\ntick\ntick")])

    static func start(_ call: BuiltInCall, in session: Session) throws(CommandError) -> (SimTime, SimDuration) {
        let interval = call[interval]
        guard interval >= .minimumRepeatInterval else {
            throw CommandError("every needs an interval of at least 1us (got \(interval))")
        }
        return (try later(session.engine.now, by: interval), interval)
    }

    static func runs(_ call: BuiltInCall) -> Int64 { call[times] ?? Int64.max }
}

/// The commands that schedule a command: when it first runs and how often are theirs; the rest
/// — checking the command now, the bounds, the scheduling — is shared.
protocol ScheduleCommand: BuiltInCommand {
    /// When the command first runs, and the interval it repeats at (zero: once).
    static func start(_ call: BuiltInCall, in session: Session) throws(CommandError) -> (SimTime, SimDuration)
    /// How many times it runs.
    static func runs(_ call: BuiltInCall) -> Int64
}

extension ScheduleCommand {
    static var traits: CommandTraits { .takesCommand }

    static func runs(_ call: BuiltInCall) -> Int64 { 1 }

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let words = call.rest
        guard !words.isEmpty else { throw CommandError("'\(call.command)' needs a command to run") }
        let (start, interval) = try start(call, in: session)
        if let block = try Session.block(words) {
            // `{ a; b }`: every command is checked now; they run one after another when it comes.
            for command in block { try check(command, in: session) }
        } else {
            try check(words, in: session)
        }
        // S1: time ends at the horizon, so nothing at it ever runs.
        guard start < .horizon else {
            throw CommandError(
                "\(start) is the 2^62 ns horizon itself: time stops there, so a command scheduled for it could never run"
            )
        }
        let scheduler = session.scheduler
        guard scheduler.pending < scheduler.pendingLimit else {
            throw CommandError(
                "too many scheduled commands: at most \(grouped(scheduler.pendingLimit)) may wait at once")
        }
        let chain = try session.sameInstantChain(scheduling: words, at: start)
        session.schedule(words, at: start, every: interval, remaining: runs(call), chain: chain, from: call.location)
        // The command's text is made only for --json: a nested `after` would otherwise copy the
        // whole rest of its line once per level.
        return CommandOutput(
            json: .object([("at_ns", .int(start.nanoseconds)), ("command", .string(Session.text(of: words)))]))
    }

    /// Checks a command now, so that a typo fails here rather than later.
    private static func check(_ words: ArraySlice<Word>, in session: Session) throws {
        let expanded = try session.aliases.expand(words, registry: session.registry)
        guard !expanded.isEmpty else { throw CommandError("'\(spec.name)' needs a command to run") }
        let parsed = try session.parser.parse(expanded, text: "")
        guard parsed.command.traits.isSchedulable else {
            throw CommandError(
                "'\(parsed.label)' cannot be scheduled: only commands that neither move time nor end the session can")
        }
        try session.checkScheduledCondition(parsed)
    }

    static func completeRest(label: String, words: [String], current: String, completer: Completer) -> Completion? {
        // A scheduled command completes like a typed one.
        completer.complete(words: words, current: current)
    }
}

extension Session {
    /// Counts a command scheduled for the instant it is scheduled in by a scheduled command that
    /// runs in it: a chain of those never lets time move (`alias z = after 0s z`), so an instant
    /// takes at most ``Session/maxSameInstantCommands`` of them.
    ///
    /// - Returns: the chain the new command belongs to, or nil when it is not in one.
    func sameInstantChain(scheduling words: ArraySlice<Word>, at start: SimTime) throws(CommandError)
        -> SameInstantChain?
    {
        guard nesting.inScheduledCommand, start == engine.now else { return nil }
        if scheduler.sameInstantTime != engine.now {
            scheduler.sameInstantTime = engine.now
            scheduler.sameInstantCount = 0
        }
        var chain = scheduler.runningChain ?? SameInstantChain(head: [], length: 0)
        chain.length += 1
        if chain.head.count < 3 { chain.head.append(Session.text(of: words)) }
        scheduler.sameInstantCount += 1
        let count = scheduler.sameInstantCount
        let limit = CommandScheduler.maxSameInstantCommands
        guard count <= limit else {
            let shown = chain.head.joined(separator: " → ") + (chain.length > chain.head.count ? " → …" : "")
            throw CommandError(
                "'\(Session.text(of: words))' would be command \(grouped(count)) scheduled for \(engine.now) "
                    + "by commands running at \(engine.now), over the limit of \(grouped(limit)) "
                    + "per instant: a chain that schedules itself for the instant it runs in never lets time move "
                    + "(\(shown), \(grouped(chain.length)) long); delay it, e.g. 'after 1ns'")
        }
        return chain
    }

    /// Schedules a command on the device; when it runs, it goes through ``execute(_:text:as:)``
    /// as a scheduled command, and a repeating one schedules its next run first.
    func schedule(
        _ words: ArraySlice<Word>, at time: SimTime, every interval: SimDuration, remaining: Int64,
        chain: SameInstantChain?, from location: SourceLocation
    ) {
        scheduler.pending += 1
        engine.schedule(at: time) { [unowned self] in
            scheduler.pending -= 1
            if interval > .zero && remaining > 1, let next = try? time.adding(interval), next < .horizon {
                schedule(words, at: next, every: interval, remaining: remaining - 1, chain: nil, from: location)
            }
            guard !isInterrupted() else {
                // Ctrl-C: time stops after this instant; the command runs when time moves again.
                engine.stopAfterThisInstant()
                scheduler.heldByInterrupt.append { [unowned self] in
                    schedule(words, at: engine.now, every: .zero, remaining: 1, chain: chain, from: location)
                }
                return
            }
            runScheduled(words, chain: chain, from: location)
        }
    }

    /// Schedules again, where time stopped, the commands an interrupt kept from running.
    func scheduleHeldCommands() {
        let held = scheduler.heldByInterrupt
        scheduler.heldByInterrupt.removeAll()
        for schedule in held { schedule() }
    }

    /// A scheduled command runs: nothing it runs may move time, and its errors say when it ran
    /// and where it was scheduled (docs/JSON.md).
    private func runScheduled(_ words: ArraySlice<Word>, chain: SameInstantChain?, from location: SourceLocation) {
        let outer = (nesting.inScheduledCommand, scheduler.runningChain, nesting.baseDepth)
        nesting.inScheduledCommand = true
        scheduler.runningChain = chain
        nesting.baseDepth = nesting.depth
        defer {
            (nesting.inScheduledCommand, scheduler.runningChain, nesting.baseDepth) = outer
            nesting.abandoning = false
            // Ctrl-C while it ran: time stops after this instant.
            if isInterrupted() { engine.stopAfterThisInstant() }
        }
        guard let block = try? Session.block(words) else {
            _ = execute(words, text: Session.text(of: words), as: .scheduled(from: location))
            return
        }
        // `{ a; b }`: one after another at the instant, each as a scheduled command of its own.
        for command in block {
            _ = execute(command, text: Session.text(of: command), as: .scheduled(from: location))
        }
    }

    /// The commands of a block `{ a; b }` (the lexer keeps its `;` as words), or nil when the
    /// words are not one.
    ///
    /// - Throws: a block that is not closed, or that holds no command.
    static func block(_ words: ArraySlice<Word>) throws(CommandError) -> [ArraySlice<Word>]? {
        guard let first = words.first, !first.quoted, first.text == "{" else { return nil }
        guard let last = words.last, words.count > 1, !last.quoted, last.text == "}" else {
            throw CommandError("the block '{ … }' is not closed: '}' must be its last word, alone")
        }
        var commands: [ArraySlice<Word>] = []
        var depth = 0
        var start = words.index(after: words.startIndex)
        let end = words.index(before: words.endIndex)
        var i = start
        while i < end {
            let word = words[i]
            if !word.quoted {
                if word.text == "{" { depth += 1 }
                if word.text == "}" { depth -= 1 }
                if word.text == ";" && depth == 0 {
                    if i > start { commands.append(words[start..<i]) }
                    start = i + 1
                }
            }
            i += 1
        }
        if start < end { commands.append(words[start..<end]) }
        guard !commands.isEmpty else { throw CommandError("the block '{ }' holds no command") }
        return commands
    }

    /// `after 300ms a; b` schedules `a` and runs `b` now, which is rarely what was meant: says
    /// so, and how to schedule both (docs/Decisions.md, "`;` after `after`").
    func warnAboutSemicolonsAfterScheduling(_ commands: [LexedCommand], origin: ScriptOrigin) {
        for (k, command) in commands.enumerated().dropLast() {
            guard let first = command.words.first, !first.quoted, ["after", "at", "every"].contains(first.text),
                command.words.count >= 3, command.words[2].text != "{"
            else { continue }
            // `at 1s a; at 1s b` schedules each on purpose.
            let following = commands[k + 1]
            if let word = following.words.first, !word.quoted, ["after", "at", "every"].contains(word.text) {
                continue
            }
            let next = following.text
            let head = command.words.prefix(2).map(\.raw).joined(separator: " ")
            let rest = command.words.dropFirst(2).map(\.raw).joined(separator: " ")
            let location = SourceLocation(origin: origin, line: command.line)
            output.notice(
                VisibleText.escaped(
                    "\(location.prefix("warning"))'\(next)' runs now: ';' ends the command '\(first.text)' schedules; "
                        + "to schedule both, write '\(head) { \(rest); \(next) }'\(location.suffix)"))
        }
    }
}
