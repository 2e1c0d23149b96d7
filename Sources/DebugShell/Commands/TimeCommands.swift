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

    enum Verb: String, BuiltInVerbs {
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let start = engine.now
        switch try call.verb(Verb.self) {
        case .forDuration:
            return try session.saysWhereTimeStopped(runFor(call[duration], in: session), call: call)
        case .until:
            return try session.saysWhereTimeStopped(runUntil(call, in: session), call: call)
        case .to:
            let end = call[end]
            guard end >= start else { throw CommandError("time \(end) is in the past (now is \(start))") }
            return try session.saysWhereTimeStopped(runFor(end - start, in: session), call: call)
        case .through:
            let end = call[last]
            guard end >= start else { throw CommandError("time \(end) is in the past (now is \(start))") }
            _ = try later(end, by: .zero)
            _ = try session.advanceTime("run through") {
                engine.advance(through: end, interrupted: session.timePoll("run", from: start, to: end))
            }
            let events = session.output.eventsPrinted
            return session.saysWhereTimeStopped(
                CommandOutput(
                    json: .fields([
                        "from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds),
                        "events": .int(Int64(events)),
                    ])), call: call)
        }
    }

    private static func runFor(_ duration: SimDuration, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let start = engine.now
        let end = try later(start, by: duration)
        _ = try session.advanceTime("run") {
            engine.advance(to: end, interrupted: session.timePoll("run", from: start, to: end))
        }
        let events = session.output.eventsPrinted
        return CommandOutput(
            json: .fields([
                "from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "events": .int(Int64(events)),
            ]))
    }

    private static func runUntil(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let condition = try session.parseCondition(call[Self.condition])
        let timeout = call[Self.timeout]
        let start = engine.now
        let limit = try later(start, by: timeout)
        var readers: [String: () -> MetricValue] = [:]
        for name in condition.metrics { readers[name] = session.metricReader(name) }
        let outcome = try session.advanceTime("run until") {
            engine.advance(
                until: { condition.evaluate { readers[$0]?() ?? .none }.holds }, limit: limit,
                interrupted: session.timePoll("run until", from: start, to: limit))
        }
        if outcome != .conditionMet {
            // Conditions are checked after instants at which something happened (Decisions.md, Time), not at
            // the timeout itself.
            let holdsNow = condition.evaluate(session.metricValueOrNone).holds
            throw CommandError(
                "timed out after \(timeout): \(condition.text) (\(session.describeValues(condition)))"
                    + (holdsNow
                        ? "; it holds at the timeout, but conditions are checked after instants where something happens"
                        : ""))
        }
        let end = engine.now
        return CommandOutput(
            json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "met": true]))
    }

    static func completeRest(label: String, words: [String], current: String, completer: Completer) -> Completion? {
        label == "run until" ? completer.conditionCompletion(words: words) : nil
    }
}

/// `step`: through the n-th vsync after now.
struct StepCommand: BuiltInCommand {
    static let count = ArgumentSpec.optional(
        "n", .integer(1...1_000_000_000), abstract: "How many vsyncs (default 1).", default: Int64(1))

    static let spec = CommandSpec(
        "step", abstract: "Run through the n-th vsync after now (a vsync at now counts as the first).",
        arguments: [
            count
        ],
        examples: [Example("> step 3\n> get clock.now\nclock.now = 33.333333ms")])

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let n = call[count]
        let target = engine.vsync(number: n)
        guard target <= .horizon else { throw CommandError("step \(n) goes beyond the 2^62 ns horizon") }
        _ = try session.advanceTime("step") {
            engine.advance(through: target, interrupted: session.timePoll("step", from: engine.now, to: target))
        }
        return session.saysWhereTimeStopped(
            CommandOutput(json: .fields(["vsync_ns": .int(target.nanoseconds)])), call: call, vsync: true)
    }
}

/// `play`: virtual time follows the wall clock (the interactive session).
struct PlayCommand: BuiltInCommand {
    static let speed = ArgumentSpec.optional(
        "speed", .decimal, abstract: "× real time, above 0 (default 1).", as: Double.self)

    static let spec = CommandSpec(
        "play",
        abstract:
            "Let virtual time follow the wall clock, at speed × real time, while the prompt stays usable (interactive).",
        arguments: [speed],
        examples: [
            Example(
                "> play 2\nerror: play needs the interactive session, where time can follow the wall clock; use 'run' here"
            )
        ])

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        guard session.playClock.isSupported else {
            throw CommandError(
                "play needs the interactive session, where time can follow the wall clock; use 'run' here")
        }
        let speed = call[Self.speed] ?? 1
        guard speed > 0, speed <= 1_000_000, speed.isFinite else {
            throw CommandError("play speed must be above 0 and at most 1000000 (got \(FrameRect.format(speed)))")
        }
        session.playClock.start(at: speed)
        return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
    }
}

/// `pause`: virtual time stops following the wall clock.
struct PauseCommand: BuiltInCommand {
    static let spec = CommandSpec(
        "pause", abstract: "Stop virtual time following the wall clock.",
        examples: [Example("> pause\nnot playing (now 0s)")])

    static let traits: CommandTraits = .movesTime

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let wasPlaying = session.playClock.speed != nil
        session.stopPlaying()
        let now = session.engine.now
        return CommandOutput(
            text: wasPlaying ? "paused at \(now)" : "not playing (now \(now))",
            json: .fields(["now_ns": .int(now.nanoseconds), "was_playing": .bool(wasPlaying)]))
    }
}

extension Session {
    /// Runs time forward; events and scheduled commands print as they happen.
    ///
    /// - Throws: from a scheduled command or a sourced file that a scheduled command runs (time
    ///   cannot move there); an interrupt; scheduled commands that failed meanwhile.
    func advanceTime(_ what: String, _ body: () -> AdvanceOutcome) throws -> AdvanceOutcome {
        guard !nesting.inScheduledCommand else { throw CommandError("\(what) cannot run from a scheduled command") }
        output.flush()
        let start = engine.now
        scheduler.failuresDuringAdvance = 0
        output.startCounting()
        let outcome = body()
        reportTraceLimit()
        scheduleHeldCommands()
        if engine.now != start || outcome != .completed { timeDidMove() }
        if outcome == .interrupted || isInterrupted() { throw SessionControl.interrupted(reported: false) }
        if scheduler.failuresDuringAdvance > 0 {
            // The session may go on past this failure; a replay of its recording must too.
            recorder.replayMustKeepGoing()
            let n = scheduler.failuresDuringAdvance
            throw CommandError("\(n) scheduled command\(n == 1 ? "" : "s") failed during '\(what)'")
        }
        return outcome
    }

    /// A `run` or `step` typed at the interactive prompt says where time stopped (`now 1.25s`,
    /// `now 50ms, vsync 4`) when the front end asks for it (``Session/saysWhereTimeStops``);
    /// scripts, sourced files and scheduled commands stay silent, as commands that change
    /// something are (docs/Decisions.md, Output).
    func saysWhereTimeStopped(_ result: CommandOutput, call: BuiltInCall, vsync: Bool = false) -> CommandOutput {
        guard saysWhereTimeStops, call.isTyped, nesting.depth == 0, !nesting.inScheduledCommand else { return result }
        var said = result
        said.text = "now \(engine.now)" + (vsync ? ", vsync \(engine.vsyncCount)" : "")
        return said
    }

    // MARK: play

    /// Set by a front end where virtual time can follow the wall clock (`play`).
    public var supportsPlay: Bool {
        get { playClock.isSupported }
        set { playClock.isSupported = newValue }
    }

    /// The speed of `play` (× real time), or nil when time does not follow the wall clock.
    public var playSpeed: Double? { playClock.speed }

    /// While `play` cannot keep up: how fast virtual time moves (× real time), measured over the
    /// last half second of wall time; nil while it keeps up.
    public var playPace: Double? { playClock.pace }

    /// Stops `play` (Ctrl-C at the prompt while playing).
    public func stopPlaying() { playClock.stop() }

    /// Moves virtual time on by `wallNanoseconds` × the play speed, processing what happens;
    /// called by the front end between keystrokes. Returns false when time could not move (not
    /// playing, the horizon, an interrupt — which leaves `play` on: the front end pauses).
    ///
    /// - Parameter outOfTime: polled between instants, as often as it sets
    ///   ``interruptPollMask``; when it returns true the tick stops where
    ///   time is, so that a heavy simulation never keeps the prompt from the keyboard for long.
    ///   The virtual time not reached is given up, not owed: time then runs slower than asked,
    ///   and ``playPace`` says how much.
    @discardableResult
    public func playTick(wallNanoseconds: Int64, outOfTime: () -> Bool = { false }) -> Bool {
        guard let speed = playClock.speed, wallNanoseconds > 0 else { return false }
        let exact = Double(wallNanoseconds) * speed + playClock.remainder
        let whole = exact.rounded(.down)
        playClock.remainder = exact - whole
        guard whole >= 1 else { return false }
        let step = SimDuration(nanoseconds: Int64(min(whole, Double(SimTime.horizon.nanoseconds))))
        guard let end = try? engine.now.adding(step) else {
            playClock.stop()
            output.notice("error: play stopped at the 2^62 ns horizon")
            return false
        }
        scheduler.failuresDuringAdvance = 0
        let start = engine.now
        let outcome = engine.advance(to: end) { isInterrupted() || outOfTime() }
        scheduleHeldCommands()
        if scheduler.failuresDuringAdvance > 0 { recorder.replayMustKeepGoing() }
        reportTraceLimit()
        timeDidMove()
        // Ctrl-C: time stops where it is, and the front end pauses as for a Ctrl-C between
        // slices (Decisions.md, Time), whatever the simulation's weight.
        if outcome == .interrupted && isInterrupted() { return false }
        if outcome == .interrupted { playClock.remainder = 0 }
        playClock.note(wallNanoseconds: wallNanoseconds, virtualNanoseconds: (engine.now - start).nanoseconds)
        return true
    }
}
