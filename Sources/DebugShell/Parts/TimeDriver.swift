import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// Where the time driver is to take the simulation.
enum TimeTarget {
    /// The events before this time, then now is it (`run`, `run to`, `c` of those).
    case before(SimTime)
    /// The events up to and including this time's: now is then that instant, done (`step`,
    /// `run through`).
    case through(SimTime)
    /// Until a condition holds after an instant, or the limit (`run until`).
    case until(Condition, limit: SimTime, timeout: SimDuration)
    /// As far as `nanoseconds` of wall time at the play speed, while `outOfTime` says there is
    /// time left (a tick of `play`).
    case wallClock(nanoseconds: Int64, outOfTime: () -> Bool)
}

/// How an advance of time ended.
struct TimeStop {
    /// The engine's outcome; nil when time did not move at all (a tick with nothing to do).
    var outcome: AdvanceOutcome?
    /// The breakpoint that stopped time, if one did (then `c` can go on).
    var hit: Breakpoints.Hit?
    /// `run until`: its condition held after the instant time stopped at.
    var met = false
}

/// The one way virtual time moves, as swift-nio's EmbeddedEventLoop has one `advanceTime(to:)`:
/// ``advance(_:to:)`` takes the simulation to a target — a time, an instant done, a condition,
/// the wall clock's pace for `play` — and alone arms the breakpoints, polls for an interrupt and
/// the front end's progress line, holds back and reschedules the commands an interrupt kept
/// from running, and says where time stopped. `run`, `run to`, `run through`, `step`,
/// `run until`, `play`, `c`, and the scheduled commands that run while time moves, all come
/// through here.
public final class TimeDriver {
    /// `break when`, `break on`, and what a breakpoint stopped (`c`).
    let breakpoints = Breakpoints()
    /// `play`: virtual time following the wall clock.
    var playClock = PlayClock()
    /// The engine (a `reset` makes a new one) and the times already made instants for
    /// conditions on `clock.now`.
    private var timeChecks: (engine: ObjectIdentifier?, times: Set<Int64>) = (nil, [])
    /// Runs the commands of a breakpoint that stopped `play` (set by the session).
    var runStopCommands: () -> Void = {}
    /// Called after time moved (the live front end redraws its status block).
    public var timeDidMove: () -> Void = {}
    /// Set by the interactive front end: a `run` or `step` typed at its prompt prints where time
    /// stopped (`now 1.25s`). Transcripts and examples leave it off, so they show only what the
    /// commands themselves print.
    public var saysWhereTimeStops = false

    private let simulation: Simulation
    private let nesting: ScriptNesting
    private let output: OutputRouter
    private let scheduler: CommandScheduler
    private let recorder: SessionRecorder
    private let tracing: TraceSession
    private let metrics: MetricReader

    init(
        simulation: Simulation, nesting: ScriptNesting, output: OutputRouter, scheduler: CommandScheduler,
        recorder: SessionRecorder, tracing: TraceSession, metrics: MetricReader
    ) {
        self.simulation = simulation
        self.nesting = nesting
        self.output = output
        self.scheduler = scheduler
        self.recorder = recorder
        self.tracing = tracing
        self.metrics = metrics
    }

    private var isInterrupted: () -> Bool { output.isInterrupted }

    // MARK: The one entry point

    /// Advances the simulation to `target`; events and scheduled commands print as they happen.
    /// `what` names the command in messages (`run cannot run from a scheduled command`).
    ///
    /// With no breakpoint enabled this is the engine's plain advance: a breakpoint costs nothing
    /// until one is set. A tick of `play` (``TimeTarget/wallClock(nanoseconds:outOfTime:)``)
    /// never throws; it reports a breakpoint's stop itself, as nothing prints a result for it.
    ///
    /// - Throws: from a scheduled command or a sourced file that a scheduled command runs (time
    ///   cannot move there); an interrupt; scheduled commands that failed meanwhile.
    func advance(_ what: String, to target: TimeTarget) throws -> TimeStop {
        let bp = breakpoints
        let engine = simulation.engine
        let start = engine.now
        let end: SimTime
        // `run until`'s own condition.
        var until: WatchedCondition?
        switch target {
        case .wallClock(let wall, let outOfTime):
            return tick(wallNanoseconds: wall, outOfTime: outOfTime)
        case .before(let time), .through(let time):
            end = time
        case .until(let condition, let limit, _):
            end = limit
            until = WatchedCondition(condition, metrics)
        }
        bp.stopped = nil
        // A condition on clock.now holds at a time, not after an event: that time is an instant.
        var timed: [Condition] = []
        if case .until(let condition, _, _) = target { timed.append(condition) }
        if bp.anyEnabled { timed += bp.enabledConditions }
        scheduleTimeChecks(timed, through: end)
        // The interrupt, and the interactive front end's eye on the wall clock (a progress line).
        let poll = timePoll(what == "run through" ? "run" : what, from: start, to: end)
        let armed = bp.anyEnabled
        // Checked by closures that do not escape (ConditionWatch).
        var watch = armed ? bp.arm(metrics) : ConditionWatch()
        let interrupted: () -> Bool = armed ? { poll() || bp.hasHit } : poll
        let conditions = armed && !watch.isEmpty
        // A scheduled command's failure fails the command — after a breakpoint's stop in the same
        // advance is said and recorded, so that a replay stops where the session did.
        var failed: CommandError?
        let outcome = try guarded(what, failed: &failed) { () -> AdvanceOutcome in
            switch target {
            case .before:
                guard conditions else { return engine.advance(to: end, interrupted: interrupted) }
                return engine.advance(until: { watch.check(bp, on: engine) }, limit: end, interrupted: interrupted)
            case .through:
                // The instants before `end` as `run until` checks them, then `end`'s own.
                if conditions {
                    let before = engine.advance(
                        until: { watch.check(bp, on: engine) }, limit: end, interrupted: interrupted)
                    if before != .completed { return before }
                }
                let outcome = engine.advance(through: end, interrupted: interrupted)
                if outcome == .completed && conditions && watch.check(bp, on: engine) { return .conditionMet }
                return outcome
            case .until:
                guard armed else {
                    return engine.advance(until: { until!.holds() }, limit: end, interrupted: interrupted)
                }
                return engine.advance(
                    until: { watch.check(bp, on: engine) || until!.holds() }, limit: end, interrupted: interrupted)
            case .wallClock:
                return .completed
            }
        }
        guard armed else {
            if let failed { throw failed }
            if case .until = target {
                return TimeStop(outcome: outcome, met: outcome == .conditionMet && until!.holds())
            }
            return TimeStop(outcome: outcome)
        }
        let hit = bp.takeHit()
        if let hit {
            recorder.markStop()
            noteStop(hit)
        }
        if let failed {
            if let hit {
                // The stop is said with the failure: it is where time stopped.
                output.notice(breakpointLine(hit))
                switch target {
                case .before: bp.stopped = .run(end: end)
                case .through where !(engine.now >= end && engine.instantDone): bp.stopped = .through(end: end)
                case .until(let condition, let limit, let timeout):
                    bp.stopped = .until(condition, limit: limit, timeout: timeout)
                default: break
                }
            }
            throw failed
        }
        switch target {
        case .until(let condition, let limit, let timeout):
            let met = outcome == .conditionMet && until!.holds()
            if hit != nil, !met { bp.stopped = .until(condition, limit: limit, timeout: timeout) }
            return TimeStop(outcome: outcome, hit: hit, met: met)
        case .before where hit != nil:
            bp.stopped = .run(end: end)
        case .through where hit != nil && !(engine.now >= end && engine.instantDone):
            bp.stopped = .through(end: end)
        default:
            break
        }
        return TimeStop(outcome: outcome, hit: hit)
    }

    /// Makes each time at which a condition on `clock.now` may change, from now through `end`,
    /// an instant (an event that does nothing), so that it is checked there on an idle device.
    private func scheduleTimeChecks(_ conditions: [Condition], through end: SimTime) {
        guard !conditions.isEmpty else { return }
        let engine = simulation.engine
        if timeChecks.engine != ObjectIdentifier(engine) { timeChecks = (ObjectIdentifier(engine), []) }
        for condition in conditions {
            var times = condition.thresholds(of: "clock.now").filter { $0 > engine.now && $0 <= end }
            // A count of vsyncs changes at vsyncs, which an idle device does not process.
            for n in condition.countThresholds(of: "clock.vsyncs") {
                if let t = engine.timeWhenVsyncCount(reaches: n, by: end) { times.append(t) }
            }
            for t in times {
                guard timeChecks.times.insert(t.nanoseconds).inserted else { continue }
                engine.schedule(at: t) {}
            }
        }
    }

    /// What every advance of a time command shares: time cannot move from a scheduled command;
    /// output is flushed first, so that what came before a long `run` is seen while it runs; the
    /// trace's limit is said, held-back commands scheduled again, the front end told; an
    /// interrupt and scheduled commands' failures fail the command.
    private func guarded(_ what: String, failed: inout CommandError?, _ body: () -> AdvanceOutcome) throws
        -> AdvanceOutcome
    {
        guard !nesting.inScheduledCommand else { throw CommandError("\(what) cannot run from a scheduled command") }
        output.flush()
        let engine = simulation.engine
        let start = engine.now
        scheduler.failuresDuringAdvance = 0
        output.startCounting()
        let outcome = body()
        tracing.reportLimit()
        scheduler.scheduleHeldCommands()
        if engine.now != start || outcome != .completed { timeDidMove() }
        if (outcome == .interrupted && !breakpoints.hasHit) || isInterrupted() {
            tracing.noteStop(
                TraceStop(reason: "interrupt", title: "interrupted", detail: "an interrupt stopped '\(what)'"))
            throw SessionControl.interrupted(reported: false)
        }
        if scheduler.failuresDuringAdvance > 0 {
            // The session may go on past this failure; a replay of its recording must too.
            recorder.replayMustKeepGoing()
            let n = scheduler.failuresDuringAdvance
            failed = CommandError("\(n) scheduled command\(n == 1 ? "" : "s") failed during '\(what)'")
        }
        return outcome
    }

    /// A tick of `play`: virtual time moves on by `wallNanoseconds` × the play speed. Breakpoints
    /// and `play until` stop play after the instant where one becomes true.
    private func tick(wallNanoseconds: Int64, outOfTime: () -> Bool) -> TimeStop {
        guard let speed = playClock.speed, wallNanoseconds > 0 else { return TimeStop() }
        let exact = Double(wallNanoseconds) * speed + playClock.remainder
        let whole = exact.rounded(.down)
        playClock.remainder = exact - whole
        guard whole >= 1 else { return TimeStop() }
        let engine = simulation.engine
        let step = SimDuration(nanoseconds: Int64(min(whole, Double(SimTime.horizon.nanoseconds))))
        guard let end = try? engine.now.adding(step) else {
            playClock.stop()
            output.notice("error: play stopped at the 2^62 ns horizon")
            return TimeStop()
        }
        scheduler.failuresDuringAdvance = 0
        let start = engine.now
        let bp = breakpoints
        let armed = bp.anyEnabled || bp.playUntil != nil
        let isInterrupted = isInterrupted
        let outcome: AdvanceOutcome
        if armed {
            var watch = bp.arm(metrics, until: bp.playUntil)
            if !watch.isEmpty {
                outcome = engine.advance(until: { watch.check(bp, on: engine) }, limit: end) {
                    isInterrupted() || outOfTime() || bp.hasHit
                }
            } else {
                outcome = engine.advance(to: end) { isInterrupted() || outOfTime() || bp.hasHit }
            }
        } else {
            outcome = engine.advance(to: end) { isInterrupted() || outOfTime() }
        }
        scheduler.scheduleHeldCommands()
        if armed, let hit = bp.takeHit() {
            recorder.markStop()
            noteStop(hit)
            bp.stopped = hit.id == 0 ? nil : .play(speed: playClock.speed ?? 1)
            let line = breakpointLine(hit)
            playClock.stop()
            bp.playUntil = nil
            if scheduler.failuresDuringAdvance > 0 { recorder.replayMustKeepGoing() }
            tracing.reportLimit()
            timeDidMove()
            output.breakpointStop(hit, line: line)
            runStopCommands()
            return TimeStop(outcome: outcome, hit: hit)
        }
        if scheduler.failuresDuringAdvance > 0 { recorder.replayMustKeepGoing() }
        tracing.reportLimit()
        timeDidMove()
        // Ctrl-C: time stops where it is, and the front end pauses as for a Ctrl-C between
        // slices (Decisions.md, Time), whatever the simulation's weight.
        if outcome == .interrupted && isInterrupted() {
            tracing.noteStop(TraceStop(reason: "interrupt", title: "interrupted", detail: "an interrupt paused 'play'"))
            return TimeStop()
        }
        if outcome == .interrupted { playClock.remainder = 0 }
        playClock.note(wallNanoseconds: wallNanoseconds, virtualNanoseconds: (engine.now - start).nanoseconds)
        return TimeStop(outcome: outcome)
    }

    /// The engine's poll for one advance of time: the interrupt, and the front end's watch if it
    /// keeps one (then the first poll comes after the first instant).
    private func timePoll(_ what: String, from start: SimTime, to end: SimTime) -> () -> Bool {
        guard let watch = playClock.watch else { return isInterrupted }
        let interrupted = isInterrupted
        let watching = watch(what, start, end)
        simulation.engine.interruptPollMask = 0
        return { interrupted() || watching() }
    }

    // MARK: Saying where time stopped

    /// A breakpoint's stop, for a trace that ends there (`play until`'s condition is no
    /// breakpoint: not noted).
    private func noteStop(_ hit: Breakpoints.Hit) {
        guard hit.id != 0 else { return }
        tracing.noteStop(TraceStop(reason: "breakpoint", title: "breakpoint \(hit.id)", detail: breakpointLine(hit)))
    }

    /// The result of a time command a breakpoint stopped: the stop, where, and what the main
    /// thread was running, printed in scripts too (a stop is not an error: the script goes on).
    func said(_ hit: Breakpoints.Hit?, _ result: CommandOutput) -> CommandOutput {
        guard let hit else { return result }
        let stop: [(String, JSONValue)] = [
            ("breakpoint", .int(Int64(hit.id))), ("stopped_ns", .int(hit.time.nanoseconds)),
        ]
        let json: JSONValue
        if case .object(let fields) = result.json { json = .object(fields + stop) } else { json = .object(stop) }
        return CommandOutput(text: breakpointLine(hit), json: json, warnings: result.warnings)
    }

    /// `stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: …`.
    private func breakpointLine(_ hit: Breakpoints.Hit) -> String {
        let which = hit.id == 0 ? "" : " by breakpoint \(hit.id),"
        let detail = hit.detail.isEmpty ? "" : " " + hit.detail
        return "stopped at \(hit.time)\(which) \(breakpoints.text(of: hit.id))\(detail); main thread: \(hit.mainThread)"
    }

    /// A `run` or `step` typed at the interactive prompt says where time stopped (`now 1.25s`,
    /// `now 50ms, vsync 4`) when the front end asks for it (``saysWhereTimeStops``); scripts,
    /// sourced files and scheduled commands stay silent, as commands that change something are
    /// (docs/Decisions.md, Output).
    func saysWhereTimeStopped(_ result: CommandOutput, call: BuiltInCall, vsync: Bool = false) -> CommandOutput {
        // A breakpoint's stop says where already.
        guard saysWhereTimeStops, call.isTyped, nesting.depth == 0, !nesting.inScheduledCommand, result.text.isEmpty
        else { return result }
        let engine = simulation.engine
        var said = result
        said.text = "now \(engine.now)" + (vsync ? ", vsync \(engine.vsyncCount)" : "")
        return said
    }

    // MARK: play, for the front end

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
        withoutActuallyEscaping(outOfTime) { outOfTime in
            let stop = try? advance("play", to: .wallClock(nanoseconds: wallNanoseconds, outOfTime: outOfTime))
            return stop?.outcome != nil
        }
    }

    /// Set by an interactive front end that keeps an eye on the wall clock while `run`, `step`
    /// or `run until` moves time (a progress line, issue 23): called as each advance begins with
    /// what moves time, where from and where to, it returns the poll for that advance, asked
    /// between instants together with the interrupt — after every instant at first; the poll sets
    /// ``interruptPollMask`` to keep its looks about a millisecond of wall time apart. Returning
    /// true stops time where it is, as an interrupt does. Scripts and pipes leave it nil: nothing
    /// then changes, byte for byte.
    public var watchTimeMoving: ((_ what: String, _ from: SimTime, _ to: SimTime) -> () -> Bool)? {
        get { playClock.watch }
        set { playClock.watch = newValue }
    }

    /// How often the engine polls while time moves: after the instants whose count, masked with
    /// this (a power of two less one), is zero; 255 unless a front end that watches the wall
    /// clock lowers it while instants are heavy (DeviceEngine.interruptPollMask).
    public var interruptPollMask: Int {
        get { simulation.engine.interruptPollMask }
        set { simulation.engine.interruptPollMask = newValue }
    }

    /// A fresh simulation: nothing is playing or stopped.
    func resetSimulation() {
        playClock.stop()
        breakpoints.stopped = nil
        breakpoints.playUntil = nil
    }
}
