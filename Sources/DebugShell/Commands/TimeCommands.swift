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
            let stop = try session.moveTime("run through", .through(end: end))
            let events = session.output.eventsPrinted
            return session.saysWhereTimeStopped(
                session.saysBreakpoint(
                    stop,
                    CommandOutput(
                        json: .fields([
                            "from_ns": .int(start.nanoseconds), "to_ns": .int(engine.now.nanoseconds),
                            "events": .int(Int64(events)),
                        ]))), call: call)
        }
    }

    private static func runFor(_ duration: SimDuration, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let start = engine.now
        let end = try later(start, by: duration)
        let stop = try session.moveTime("run", .run(end: end))
        let events = session.output.eventsPrinted
        return session.saysBreakpoint(
            stop,
            CommandOutput(
                json: .fields([
                    "from_ns": .int(start.nanoseconds), "to_ns": .int(engine.now.nanoseconds),
                    "events": .int(Int64(events)),
                ])))
    }

    private static func runUntil(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let condition = try session.parseCondition(call[Self.condition])
        let timeout = call[Self.timeout]
        let limit = try later(session.engine.now, by: timeout)
        try session.checkCanEverHold(condition, what: "run until")
        return try session.runUntil(condition, limit: limit, timeout: timeout)
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let engine = session.engine
        let n = call[count]
        // A vsync at now does not count: `s` after `r 1s` steps to the next frame, as LLDB's
        // `s` moves on (docs/Decisions.md, Time). The instant at now is processed on the way.
        let target = engine.vsync(number: engine.vsync(number: 1) == engine.now ? n + 1 : n)
        guard target <= .horizon else { throw CommandError("step \(n) goes beyond the 2^62 ns horizon") }
        let stop = try session.moveTime("step", .through(end: target))
        return session.saysWhereTimeStopped(
            session.saysBreakpoint(stop, CommandOutput(json: .fields(["vsync_ns": .int(target.nanoseconds)]))),
            call: call, vsync: stop == nil)
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

    enum Verb: String, BuiltInVerbs {
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let verb = try call.verb(Verb.self)
        if verb == .play, call[Self.speed] == nil, let continued = try session.continueStopped() {
            return session.playClock.speed == nil ? session.saysWhereTimeStopped(continued, call: call) : continued
        }
        session.breakpoints.stopped = nil
        guard session.playClock.isSupported else {
            throw CommandError(
                "play needs the interactive session, where time can follow the wall clock; use '\(verb == .until ? "run until" : "run")' here"
            )
        }
        let speed = verb == .until ? call[Self.untilSpeed] : call[Self.speed] ?? 1
        guard speed > 0, speed <= 1_000_000, speed.isFinite else {
            throw CommandError("play speed must be above 0 and at most 1000000 (got \(FrameRect.format(speed)))")
        }
        if verb == .until {
            let condition = try session.parseCondition(call[Self.condition])
            try session.checkCanEverHold(condition, what: "play until")
            session.breakpoints.playUntil = condition
        } else {
            session.breakpoints.playUntil = nil
        }
        session.playClock.start(at: speed)
        return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
    }

    static func completeRest(label: String, words: [String], current: String, completer: Completer) -> Completion? {
        label == "play until" ? completer.conditionCompletion(words: words) : nil
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
        session.breakpoints.stopped = nil
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
        if (outcome == .interrupted && !breakpoints.hasHit) || isInterrupted() {
            throw SessionControl.interrupted(reported: false)
        }
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
        // A breakpoint's stop says where already.
        guard saysWhereTimeStops, call.isTyped, nesting.depth == 0, !nesting.inScheduledCommand, result.text.isEmpty
        else { return result }
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
    public func stopPlaying() {
        playClock.stop()
        breakpoints.playUntil = nil
    }

    /// Moves virtual time on by `wallNanoseconds` × the play speed, processing what happens;
    /// called by the front end between keystrokes. Returns false when time could not move (not
    /// playing, the horizon, an interrupt).
    ///
    /// - Parameter outOfTime: polled between events; when it returns true the tick stops where
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
        // Breakpoints and `play until` stop play after the instant where one becomes true.
        let bp = breakpoints
        let armed = bp.anyEnabled || bp.playUntil != nil
        let outcome: AdvanceOutcome
        if armed {
            bp.arm(session: self, until: bp.playUntil)
            if bp.anyConditions {
                outcome = engine.advance(until: { bp.checkConditions(session: self) }, limit: end) {
                    isInterrupted() || outOfTime() || bp.hasHit
                }
            } else {
                outcome = engine.advance(to: end) { isInterrupted() || outOfTime() || bp.hasHit }
            }
        } else {
            outcome = engine.advance(to: end) { isInterrupted() || outOfTime() }
        }
        scheduleHeldCommands()
        if armed, let hit = bp.takeHit() {
            let speed = playClock.speed ?? 1
            bp.stopped = hit.id == 0 ? nil : .play(speed: speed)
            let line = breakpointLine(hit)
            playClock.stop()
            bp.playUntil = nil
            if scheduler.failuresDuringAdvance > 0 { recorder.replayMustKeepGoing() }
            reportTraceLimit()
            timeDidMove()
            output.breakpointStop(hit, line: line)
            return true
        }
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

// MARK: Breakpoints in the time commands

extension Session {
    /// Moves time for a time command with the enabled breakpoints armed; returns the breakpoint
    /// that stopped it, if one did (then `c` can go on with the rest). With no breakpoint
    /// enabled this is the engine's plain advance: a breakpoint costs nothing until one is set.
    func moveTime(_ what: String, _ target: Breakpoints.Stopped) throws -> Breakpoints.Hit? {
        breakpoints.stopped = nil
        let bp = breakpoints
        // The interrupt, and the interactive front end's eye on the wall clock (a progress line).
        let poll: () -> Bool
        switch target {
        case .run(let end), .through(let end):
            poll = timePoll(what == "run through" ? "run" : what, from: engine.now, to: end)
        case .until, .play: poll = isInterrupted
        }
        guard bp.anyEnabled else {
            _ = try advanceTime(what) {
                switch target {
                case .run(let end): return engine.advance(to: end, interrupted: poll)
                case .through(let end): return engine.advance(through: end, interrupted: poll)
                case .until, .play: return .completed
                }
            }
            return nil
        }
        bp.arm(session: self)
        let interrupted: () -> Bool = { poll() || bp.hasHit }
        let conditions = bp.anyConditions
        let check: () -> Bool = { [unowned self] in bp.checkConditions(session: self) }
        _ = try advanceTime(what) {
            switch target {
            case .run(let end):
                return conditions
                    ? engine.advance(until: check, limit: end, interrupted: interrupted)
                    : engine.advance(to: end, interrupted: interrupted)
            case .through(let end):
                // The instants before `end` as `run until` checks them, then `end`'s own.
                if conditions {
                    let before = engine.advance(until: check, limit: end, interrupted: interrupted)
                    if before != .completed { return before }
                }
                let outcome = engine.advance(through: end, interrupted: interrupted)
                if outcome == .completed && conditions && check() { return .conditionMet }
                return outcome
            case .until, .play:
                return .completed
            }
        }
        guard let hit = bp.takeHit() else { return nil }
        switch target {
        case .through(let end) where engine.now >= end && engine.instantDone: break
        default: bp.stopped = target
        }
        return hit
    }

    /// `run until <condition>`: with the breakpoints armed too. A breakpoint that stops it
    /// first leaves the rest to `c`; the timeout fails it.
    func runUntil(_ condition: Condition, limit: SimTime, timeout: SimDuration) throws -> CommandOutput {
        breakpoints.stopped = nil
        let start = engine.now
        var readers: [String: () -> MetricValue] = [:]
        for name in condition.metrics { readers[name] = metricReader(name) }
        let holds: () -> Bool = { condition.evaluate { readers[$0]?() ?? .none }.holds }
        let bp = breakpoints
        let armed = bp.anyEnabled
        if armed { bp.arm(session: self) }
        let poll = timePoll("run until", from: start, to: limit)
        let interrupted: () -> Bool = armed ? { poll() || bp.hasHit } : poll
        let outcome = try advanceTime("run until") {
            engine.advance(
                until: armed ? { [unowned self] in bp.checkConditions(session: self) || holds() } : holds,
                limit: limit, interrupted: interrupted)
        }
        let hit = armed ? bp.takeHit() : nil
        let met = outcome == .conditionMet && holds()
        let end = engine.now
        if let hit, !met {
            bp.stopped = .until(condition, limit: limit, timeout: timeout)
            return saysBreakpoint(
                hit,
                CommandOutput(
                    json: .fields([
                        "from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "met": false,
                    ])))
        }
        if !met {
            // Conditions are checked after instants at which something happened (Decisions.md, Time), not at
            // the timeout itself.
            let holdsNow = condition.evaluate(metricValueOrNone).holds
            throw CommandError(
                "timed out after \(timeout): \(condition.text) (\(describeValues(condition)))"
                    + (holdsNow
                        ? "; it holds at the timeout, but conditions are checked after instants where something happens"
                        : ""))
        }
        return saysBreakpoint(
            hit,
            CommandOutput(
                json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(end.nanoseconds), "met": true])
            ))
    }

    /// Fails at once a condition that nothing could make hold before a timeout: a metric it
    /// compares has no value, its tool is idle (it shows no status line), and no scheduled
    /// command waits that could start it (docs/Decisions.md, Breakpoints).
    func checkCanEverHold(_ condition: Condition, what: String) throws(CommandError) {
        guard condition.evaluate(metricValueOrNone).missing != nil, scheduler.pending == 0 else { return }
        for name in condition.metrics where ShellMetrics.named(name) == nil {
            guard case .none = metricValueOrNone(name), let index = registry.toolIndex(forNamespace: name) else {
                continue
            }
            let tool = toolSet.instances[index]
            guard calling(.statusLine, tool: index, { tool.statusLine() }) == nil else { continue }
            let toolName = registry.toolDescriptors[index].name
            throw CommandError(
                "\(what) \(condition.text): \(name) has no value, and nothing will give it one: "
                    + "the tool '\(toolName)' is idle and no command is scheduled (start it first, see 'help \(toolName)')"
            )
        }
    }

    /// The result of a time command a breakpoint stopped: the stop, where, and what the main
    /// thread was running, printed in scripts too (a stop is not an error: the script goes on).
    func saysBreakpoint(_ hit: Breakpoints.Hit?, _ result: CommandOutput) -> CommandOutput {
        guard let hit else { return result }
        return CommandOutput(
            text: breakpointLine(hit), json: Session.stopJSON(result, id: hit.id, at: hit.time),
            warnings: result.warnings)
    }

    /// A time command's JSON result with the stop: `"breakpoint"` and `"stopped_ns"` added.
    private static func stopJSON(_ result: CommandOutput, id: Int, at time: SimTime) -> JSONValue {
        let stop: [(String, JSONValue)] = [("breakpoint", .int(Int64(id))), ("stopped_ns", .int(time.nanoseconds))]
        guard case .object(let fields) = result.json else { return .object(stop) }
        return .object(fields + stop)
    }

    /// `stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: …`.
    func breakpointLine(_ hit: Breakpoints.Hit) -> String {
        let which = hit.id == 0 ? "" : " by breakpoint \(hit.id),"
        let detail = hit.detail.isEmpty ? "" : " " + hit.detail
        return "stopped at \(hit.time)\(which) \(breakpoints.text(of: hit.id))\(detail); main thread: \(hit.mainThread)"
    }

    /// `c`: goes on with what a breakpoint stopped; nil when nothing was stopped.
    func continueStopped() throws -> CommandOutput? {
        guard let stopped = breakpoints.stopped else { return nil }
        let start = engine.now
        switch stopped {
        case .run(let end), .through(let end):
            let target: Breakpoints.Stopped
            if case .run = stopped {
                target = .run(end: max(end, start))
            } else {
                target = .through(end: max(end, start))
            }
            let hit = try moveTime("c", target)
            let now = engine.now
            return saysBreakpoint(
                hit, CommandOutput(json: .fields(["from_ns": .int(start.nanoseconds), "to_ns": .int(now.nanoseconds)])))
        case .until(let condition, let limit, let timeout):
            return try runUntil(condition, limit: max(limit, start), timeout: timeout)
        case .play(let speed):
            breakpoints.stopped = nil
            guard playClock.isSupported else { return nil }
            playClock.start(at: speed)
            return CommandOutput(json: .fields(["speed": .string(FrameRect.format(speed))]))
        }
    }
}
