import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// `run`: advance virtual time, processing what happens (S3–S4).
struct RunCommand: BuiltInCommand {
    static let duration = ArgumentSpec.duration("duration", abstract: "How long to run, e.g. 2s, 16ms, 30f.")
    static let condition = ArgumentSpec.words(
        "condition", abstract: "<metric> <op> <value>, joined by and/or.", allowsOptions: true)
    static let timeout = OptionSpec.duration("timeout", abstract: "Give up after this long.", default: .seconds(60))
    static let end = ArgumentSpec.time("time", abstract: "The time to stop at, from t = 0.")
    static let last = ArgumentSpec.time("time", abstract: "The last instant to process, from t = 0.")

    enum Verb: String, ToolVerbs {
        case forDuration = ""
        case until, to, through

        var declaration: VerbSpec {
            switch self {
            case .forDuration:
                return VerbSpec(
                    "", abstract: "Process the events before now + duration, then set now to it.",
                    arguments: [RunCommand.duration],
                    examples: [Example("> run 1s\n> get clock.now\nclock.now = 1s")])
            case .until:
                return VerbSpec(
                    "until", abstract: "Run until a condition holds after an instant, or fail at the timeout.",
                    arguments: [
                        RunCommand.condition
                    ],
                    options: [RunCommand.timeout],
                    examples: [
                        Example(
                            """
                            > stall 100ms
                            > run until main.hangs > 0 or main.busy_until > 1s --timeout 2s
                            error: timed out after 2s: main.hangs > 0 or main.busy_until > 1s (main.hangs = 0, main.busy_until = 100ms)
                            """),
                        Example(
                            "> every 250ms echo tick\n> run until clock.now >= 0.5s\ntick\ntick\n> get clock.now\nclock.now = 500ms"
                        ),
                    ])
            case .to:
                return VerbSpec(
                    "to", abstract: "Process the events before a time, then set now to it (run for the time between).",
                    arguments: [RunCommand.end],
                    examples: [Example("> run 1s\n> run to 2.5s\n> get clock.now\nclock.now = 2.5s")])
            case .through:
                return VerbSpec(
                    "through",
                    abstract: "Process the events up to and including a time's: now is then that instant, done.",
                    discussion:
                        "As 'step' does at a vsync: commands issued afterwards take effect after that instant's events. Recordings use it to stand for a 'step' or a 'run until'.",
                    arguments: [RunCommand.last],
                    examples: [Example("> run through 50ms\n> get clock.vsyncs\nclock.vsyncs = 4")])
            }
        }
    }

    static let spec = CommandSpec(
        "run", abstract: "Advance virtual time, processing what happens (S3–S4).", verbs: Verb.declarations,
        defaultVerb: Verb.forDuration.rawValue)

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        let start = engine.now
        let time = context.time
        switch try call.verb(Verb.self) {
        case .forDuration:
            return try time.saysWhereTimeStopped(runFor(call[duration], in: context), call: call)
        case .until:
            let condition = try context.metrics.parseCondition(call[Self.condition])
            let timeout = call[Self.timeout]
            let limit = try later(start, by: timeout)
            try context.metrics.checkCanEverHold(
                condition, what: "run until", commandsWaiting: context.scheduler.pending)
            return try time.saysWhereTimeStopped(
                runUntil(condition, limit: limit, timeout: timeout, in: context), call: call)
        case .to:
            let end = call[end]
            guard end >= start else { throw CommandError("time \(end) is in the past (now is \(start))") }
            return try time.saysWhereTimeStopped(runFor(end - start, in: context), call: call)
        case .through:
            let end = call[last]
            guard end >= start else { throw CommandError("time \(end) is in the past (now is \(start))") }
            _ = try later(end, by: .zero)
            let stop = try time.advance("run through", to: .through(end))
            return time.saysWhereTimeStopped(time.said(stop.hit, moved(from: start, in: context)), call: call)
        }
    }

    private static func runFor(_ duration: SimDuration, in context: CommandContext) throws -> CommandOutput {
        let start = context.engine.now
        let end = try later(start, by: duration)
        let stop = try context.time.advance("run", to: .before(end))
        return context.time.said(stop.hit, moved(from: start, in: context))
    }

    /// A time command's JSON result: where time went, and the events printed meanwhile.
    private static func moved(from start: SimTime, in context: CommandContext) -> CommandOutput {
        CommandOutput(
            json: .fields([
                "from_ns": .int(start.nanoseconds), "to_ns": .int(context.engine.now.nanoseconds),
                "events": .int(Int64(context.output.eventsPrinted)),
            ]))
    }

    /// `run until <condition>`, and `c` of one a breakpoint stopped: with the breakpoints armed
    /// too. A breakpoint that stops it first leaves the rest to `c`; the timeout fails it.
    static func runUntil(_ condition: Condition, limit: SimTime, timeout: SimDuration, in context: CommandContext)
        throws -> CommandOutput
    {
        let start = context.engine.now
        let stop = try context.time.advance("run until", to: .until(condition, limit: limit, timeout: timeout))
        let end = context.engine.now
        if let hit = stop.hit, !stop.met {
            return context.time.said(
                hit,
                CommandOutput(
                    json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "met": false])))
        }
        if !stop.met {
            // Conditions are checked after instants at which something happened (Decisions.md,
            // Time), not at the timeout itself.
            let metrics = context.metrics
            let holdsNow = condition.evaluate(metrics.valueOrNone).holds
            throw CommandError(
                "timed out after \(timeout): \(condition.text) (\(metrics.describeValues(condition)))"
                    + (holdsNow
                        ? "; it holds at the timeout, but conditions are checked after instants where something happens"
                        : ""))
        }
        return context.time.said(
            stop.hit,
            CommandOutput(
                json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "met": true])))
    }

    static func condition(of call: BuiltInCall) -> [Word]? { call.is(Verb.until) ? call[condition] : nil }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        Verb(rawValue: verb) == .until ? completer.conditionCompletion(words: words) : nil
    }
}

/// `step`: through the n-th vsync after now.
struct StepCommand: BuiltInCommand {
    static let count = ArgumentSpec.optional(
        "n", .integer(1...1_000_000_000), abstract: "How many vsyncs (default 1).", default: Int64(1))

    static let spec = CommandSpec(
        "step",
        abstract:
            "Run through the n-th vsync after now (a vsync at now does not count: its instant is processed on the way).",
        arguments: [
            count
        ],
        examples: [
            Example(
                "> step 3\n> get clock.now\nclock.now = 50ms\n> run 1s\n> step\n> get clock.now\nclock.now = 1.066666666s"
            )
        ])

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        let n = call[count]
        // A vsync at now does not count: `s` after `r 1s` steps to the next frame, as LLDB's
        // `s` moves on (docs/Decisions.md, Time). The instant at now is processed on the way.
        let target = engine.vsync(number: engine.vsync(number: 1) == engine.now ? n + 1 : n)
        guard target <= .horizon else { throw CommandError("step \(n) goes beyond the 2^62 ns horizon") }
        let time = context.time
        let stop = try time.advance("step", to: .through(target))
        return time.saysWhereTimeStopped(
            time.said(stop.hit, CommandOutput(json: .fields(["vsync_ns": .int(target.nanoseconds)]))),
            call: call, vsync: stop.hit == nil)
    }
}

/// `play`: virtual time follows the wall clock (the interactive session); `c`, its alias, first
/// goes on with a time command a breakpoint stopped.
struct PlayCommand: BuiltInCommand {
    static let speed = ArgumentSpec.optional(
        "speed", .decimal, abstract: "× real time, above 0 (default 1).", as: Double.self)
    static let condition = ArgumentSpec.words(
        "condition", abstract: "<metric> <op> <value>, joined by and/or.", allowsOptions: true)
    static let untilSpeed = OptionSpec.decimal("speed", abstract: "× real time, above 0.", default: 1)

    enum Verb: String, ToolVerbs {
        case play = ""
        case until

        var declaration: VerbSpec {
            switch self {
            case .play:
                return VerbSpec(
                    "",
                    abstract:
                        "Let virtual time follow the wall clock, at speed × real time, while the prompt stays usable (interactive).",
                    discussion:
                        "After a breakpoint stopped 'run', 'step', 'run until' or 'play', 'play' with no speed (or 'c') "
                        + "goes on with it first — the rest of 'run 1s' runs at once, in scripts too — as LLDB's "
                        + "'continue' resumes after a stop (docs/Decisions.md, Breakpoints).",
                    arguments: [PlayCommand.speed],
                    examples: [
                        Example(
                            "> play 2\nerror: play needs the interactive session, where time can follow the wall clock; use 'run' here"
                        ),
                        Example(
                            """
                            > break when main.hangs > 0
                            breakpoint 1: when main.hangs > 0
                            > after 300ms stall 300ms
                            > run 1s
                            stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (300ms to 600ms)
                            > c
                            > get clock.now
                            clock.now = 1s
                            """),
                    ])
            case .until:
                return VerbSpec(
                    "until",
                    abstract: "Play until a condition holds after an instant, then pause (interactive).",
                    arguments: [PlayCommand.condition], options: [PlayCommand.untilSpeed],
                    examples: [
                        Example(
                            "> play until main.hangs > 0\nerror: play needs the interactive session, where time can follow the wall clock; use 'run until' here"
                        )
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "play",
        abstract:
            "Let virtual time follow the wall clock, at speed × real time, while the prompt stays usable (interactive).",
        verbs: Verb.declarations, defaultVerb: Verb.play.rawValue)

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let verb = try call.verb(Verb.self)
        let time = context.time
        if verb == .play, call[Self.speed] == nil, let continued = try continueStopped(in: context) {
            return time.playClock.speed == nil ? time.saysWhereTimeStopped(continued, call: call) : continued
        }
        time.breakpoints.stopped = nil
        guard time.playClock.isSupported else {
            throw CommandError(
                "play needs the interactive session, where time can follow the wall clock; use '\(verb == .until ? "run until" : "run")' here"
            )
        }
        let speed = verb == .until ? call[Self.untilSpeed] : call[Self.speed] ?? 1
        guard speed > 0, speed <= 1_000_000, speed.isFinite else {
            throw CommandError("play speed must be above 0 and at most 1000000 (got \(FrameRect.format(speed)))")
        }
        if verb == .until {
            let condition = try context.metrics.parseCondition(call[Self.condition])
            try context.metrics.checkCanEverHold(
                condition, what: "play until", commandsWaiting: context.scheduler.pending)
            time.breakpoints.playUntil = condition
        } else {
            time.breakpoints.playUntil = nil
        }
        time.playClock.start(at: speed)
        return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
    }

    /// `c`: goes on with what a breakpoint stopped; nil when nothing was stopped.
    private static func continueStopped(in context: CommandContext) throws -> CommandOutput? {
        let time = context.time
        guard let stopped = time.breakpoints.stopped else { return nil }
        let start = context.engine.now
        switch stopped {
        case .run(let end), .through(let end):
            let target: TimeTarget
            if case .run = stopped { target = .before(max(end, start)) } else { target = .through(max(end, start)) }
            let stop = try time.advance("c", to: target)
            let now = context.engine.now
            return time.said(
                stop.hit,
                CommandOutput(json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(now.nanoseconds)])))
        case .until(let condition, let limit, let timeout):
            return try RunCommand.runUntil(condition, limit: max(limit, start), timeout: timeout, in: context)
        case .play(let speed):
            time.breakpoints.stopped = nil
            guard time.playClock.isSupported else { return nil }
            time.playClock.start(at: speed)
            return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
        }
    }

    static func condition(of call: BuiltInCall) -> [Word]? { call.is(Verb.until) ? call[condition] : nil }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        Verb(rawValue: verb) == .until ? completer.conditionCompletion(words: words) : nil
    }
}

/// `pause`: virtual time stops following the wall clock.
struct PauseCommand: BuiltInCommand {
    static let spec = CommandSpec(
        "pause", abstract: "Stop virtual time following the wall clock.",
        examples: [Example("> pause\nnot playing (now 0s)")])

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let time = context.time
        let wasPlaying = time.playClock.speed != nil
        time.stopPlaying()
        time.breakpoints.stopped = nil
        let now = context.engine.now
        return CommandOutput(
            text: wasPlaying ? "paused at \(now)" : "not playing (now \(now))",
            json: .fields(["now_ns": .int(now.nanoseconds), "was_playing": .bool(wasPlaying)]))
    }
}
