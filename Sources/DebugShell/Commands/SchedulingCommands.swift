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

    static func start(_ call: BuiltInCall, in context: CommandContext) throws(CommandError) -> (SimTime, SimDuration) {
        (try later(context.engine.now, by: call[delay]), .zero)
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

    static func start(_ call: BuiltInCall, in context: CommandContext) throws(CommandError) -> (SimTime, SimDuration) {
        let start = call[time]
        let now = context.engine.now
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

    static func start(_ call: BuiltInCall, in context: CommandContext) throws(CommandError) -> (SimTime, SimDuration) {
        let interval = try checkedInterval(call)
        return (try later(context.engine.now, by: interval), interval)
    }

    /// The interval, at least 1 µs: a run and `--check` refuse the same.
    static func checkedInterval(_ call: BuiltInCall) throws(CommandError) -> SimDuration {
        let interval = call[interval]
        guard interval >= .minimumRepeatInterval else {
            throw CommandError("every needs an interval of at least 1us (got \(interval))")
        }
        return interval
    }

    static func checkTiming(_ call: BuiltInCall) throws(CommandError) { _ = try checkedInterval(call) }

    static func runs(_ call: BuiltInCall) -> Int64 { call[times] ?? Int64.max }
}

/// The commands that schedule a command: when it first runs and how often are theirs; the rest
/// — checking the command now, the bounds, the scheduling — is shared.
protocol ScheduleCommand: BuiltInCommand {
    /// When the command first runs, and the interval it repeats at (zero: once).
    static func start(_ call: BuiltInCall, in context: CommandContext) throws(CommandError) -> (SimTime, SimDuration)
    /// How many times it runs.
    static func runs(_ call: BuiltInCall) -> Int64
    /// What `--check` can refuse of the timing without a device (`every 0s`); nothing by default.
    static func checkTiming(_ call: BuiltInCall) throws(CommandError)
}

extension ScheduleCommand {
    static var traits: CommandTraits { .takesCommand }

    static func runs(_ call: BuiltInCall) -> Int64 { 1 }

    static func checkTiming(_ call: BuiltInCall) throws(CommandError) {}

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let words = call.rest
        guard !words.isEmpty else { throw CommandError("'\(call.command)' needs a command to run") }
        let (start, interval) = try start(call, in: context)
        if let block = try CommandScheduler.block(words) {
            // `{ a; b }`: every command is checked now; they run one after another when it comes.
            for command in block { try check(command, in: context) }
        } else {
            try check(words, in: context)
        }
        try context.scheduler.schedule(words, at: start, every: interval, runs: runs(call), from: call.location)
        // The command's text is made only for --json: a nested `after` would otherwise copy the
        // whole rest of its line once per level.
        return CommandOutput(
            json: .object([("at_ns", .int(start.nanoseconds)), ("command", .string(words.commandText))]))
    }

    /// Checks a command now, so that a typo fails here rather than later.
    private static func check(_ words: ArraySlice<Word>, in context: CommandContext) throws {
        let vocabulary = context.vocabulary
        let expanded = try vocabulary.expand(words)
        guard !expanded.isEmpty else { throw CommandError("'\(spec.name)' needs a command to run") }
        let parsed = try vocabulary.parser.parse(expanded, text: "")
        guard parsed.command.traits.isSchedulable else {
            throw CommandError(
                "'\(parsed.label)' cannot be scheduled: only commands that neither move time nor end the session can")
        }
        try ScriptChecker.checkScheduledCondition(parsed, vocabulary: vocabulary)
    }

    /// `--check` checks the scheduled command, or each command of the block, as scheduling it
    /// would.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        let rest = call.rest
        guard !rest.isEmpty else { throw CommandError("'\(call.command)' needs a command to run") }
        try checkTiming(call)
        if let block = try CommandScheduler.block(rest) {
            for command in block { checker.schedule(command, at: call.location) }
        } else {
            checker.schedule(rest, at: call.location)
        }
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        // A scheduled command completes like a typed one.
        completer.complete(words: words, current: current)
    }
}
