import BuiltInTools
import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTesting
import Testing

@testable import DebugShell

/// Issue 38: breakpoints that cost what changes (docs/Decisions.md, "Breakpoints that cost what
/// changes"). A `break when` on the shell's metrics compares their stamps after each instant and
/// evaluates only on a change; `break on` watches nothing per item. These tests hold the stops
/// to where a read of every metric after every instant finds them, so that a read skipped when
/// something had changed fails here.
@Suite struct BreakpointCostTests {
    // MARK: Against a read after every instant

    /// The metrics a random condition compares, with values that the random workloads cross.
    static let terms: [(metric: String, values: [String])] = [
        ("main.hangs", ["0", "1", "2"]),
        ("clock.vsyncs", ["5", "40", "61", "100"]),
        ("clock.rate", ["60", "120"]),
        ("clock.mode", ["default", "tracking"]),
        ("clock.now", ["250ms", "1s", "1.3s"]),
        ("main.busy_until", ["100ms", "600ms", "1.2s"]),
        ("main.busy_ratio", ["0.05", "0.3"]),
        ("render.commits", ["3", "30", "70"]),
        ("render.presents", ["2", "25", "60"]),
        ("fps.hitches", ["0", "1", "3"]),
        ("fps.value", ["30", "59", "60"]),
        ("timer.t.fires", ["2", "9", "15"]),
        ("timer.count", ["0", "1"]),
    ]

    /// A random workload for 2 s: the display's rate changed while time moves (a setting of the
    /// device), stalls (some of them hangs), a scroll (tracking mode), an animation, a timer that
    /// dirties the UI or not, the FPS meter.
    static func workload(_ g: inout SplitMix) -> [String] {
        var lines = ["fps start"]
        if Bool.random(using: &g) { lines.append("animate \(Int.random(in: 100...1500, using: &g))ms") }
        let interval = Int.random(in: 20...200, using: &g)
        lines.append("timer nstimer t --interval \(interval)ms --repeats --cost \(Int.random(in: 0...30, using: &g))ms")
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            let at = Int.random(in: 0...1800, using: &g)
            let cost = [5, 40, 120, 260, 400].randomElement(using: &g)!
            lines.append("after \(at)ms stall \(cost)ms")
        }
        if Bool.random(using: &g) {
            lines.append(
                "after \(Int.random(in: 0...1500, using: &g))ms display rate \([120, 60, 30].randomElement(using: &g)!)"
            )
        }
        if Bool.random(using: &g) { lines.append("after \(Int.random(in: 0...1500, using: &g))ms scroll 300ms") }
        if Int.random(in: 0..<4, using: &g) == 0 {
            lines.append("after \(Int.random(in: 0...1500, using: &g))ms timer invalidate t")
        }
        return lines
    }

    static func condition(_ g: inout SplitMix) -> String {
        func term() -> String {
            let (metric, values) = terms.randomElement(using: &g)!
            let words = metric == "clock.mode"
            let op =
                words
                ? ["==", "!="].randomElement(using: &g)! : [">=", ">", "==", "!=", "<", "<="].randomElement(using: &g)!
            return "\(metric) \(op) \(values.randomElement(using: &g)!)"
        }
        var text = term()
        if Int.random(in: 0..<3, using: &g) == 0 { text += " \(Bool.random(using: &g) ? "and" : "or") " + term() }
        return text
    }

    /// The instants at which `text` becomes true in (now, `end`], found as breakpoints read before
    /// issue 38: every metric read by name after every instant (`Condition.evaluate` over
    /// ``MetricReader/valueOrNone(_:)``), edge-triggered, the times at which a condition on the
    /// clock can change made instants as the time driver makes them.
    static func referenceStops(setup: [String], condition text: String, end: SimTime) throws -> [SimTime] {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        for line in setup { #expect(session.runLine(line) == .finished, "\(line)") }
        let metrics = session.metrics
        let words = try #require(Lexer.lex(text).commands.first).words
        let condition = try metrics.parseCondition(words)
        let engine = session.simulation.engine
        var times = condition.thresholds(of: "clock.now").filter { $0 > engine.now && $0 <= end }
        for n in condition.countThresholds(of: "clock.vsyncs") {
            if let t = engine.timeWhenVsyncCount(reaches: n, by: end) { times.append(t) }
        }
        for t in Set(times.map(\.nanoseconds)).sorted() { engine.schedule(at: SimTime(nanoseconds: t)) {} }
        var held = condition.evaluate(metrics.valueOrNone).holds
        var stops: [SimTime] = []
        while true {
            let outcome = engine.advance(
                until: {
                    let holds = condition.evaluate(metrics.valueOrNone).holds
                    defer { held = holds }
                    return holds && !held
                }, limit: end)
            guard outcome == .conditionMet else { break }
            stops.append(engine.now)
        }
        return stops
    }

    /// The stops of `break when text` over the same workload: `run`, then `c` after each stop.
    static func breakpointStops(setup: [String], condition text: String, end: SimTime) throws -> [SimTime] {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        for line in setup + ["break when \(text)"] { #expect(session.runLine(line) == .finished, "\(line)") }
        var stops: [SimTime] = []
        var line = "run to \(end)"
        while stops.count < 200 {
            let before = sink.standardOutput.count
            #expect(session.runLine(line) == .finished, "\(line)\n\(sink.combined)")
            guard sink.standardOutput.dropFirst(before).contains("stopped at ") else { break }
            stops.append(session.simulation.engine.now)
            line = "c"
        }
        return stops
    }

    /// Random conditions over each family of metrics — the device's counts and times, its rate
    /// changed while time moves, its mode, the FPS meter's, the timer inspector's — and random
    /// workloads: `break when` stops at every instant at which a read of every metric after every
    /// instant sees the condition become true, and nowhere else. A stamp that missed a change
    /// would stop late or never.
    @Test func randomConditionsStopWhereAReadAfterEveryInstantFindsThem() throws {
        var (g, seed) = SplitMix.seeded()
        let end = SimTime(nanoseconds: 2_000_000_000)
        var stopped = 0
        for _ in 0..<80 {
            let setup = Self.workload(&g)
            let condition = Self.condition(&g)
            let expected = try Self.referenceStops(setup: setup, condition: condition, end: end)
            let actual = try Self.breakpointStops(setup: setup, condition: condition, end: end)
            #expect(
                actual == expected,
                "seed \(seed): break when \(condition)\n\(setup.joined(separator: "\n"))")
            if !expected.isEmpty { stopped += 1 }
        }
        // The workloads cross the conditions' values: most cases stop somewhere.
        #expect(stopped >= 15, "seed \(seed): only \(stopped) of 80 conditions became true")
    }

    /// The same against fixed cases, one per way a shell metric changes: a hang, the rate set
    /// while time moves, the mode a scroll sets, a commit, the end of an item, a time.
    @Test(arguments: [
        (["after 300ms stall 260ms"], "main.hangs > 0"),
        (["animate 1s", "after 500ms display rate 120"], "clock.rate == 120"),
        (["after 700ms scroll 300ms"], "clock.mode == tracking"),
        (["animate 1s"], "render.commits >= 20"),
        (["animate 1s", "fps start"], "render.presents >= 20 and fps.value > 0"),
        (["after 250ms stall 100ms"], "main.busy_until >= 350ms"),
        (["animate 2s", "after 250ms stall 400ms"], "main.busy_ratio >= 0.3"),
        (["animate 1s"], "clock.now >= 1.5s or clock.vsyncs == 30"),
        (["timer nstimer t --interval 100ms --repeats"], "timer.t.fires >= 3 and main.hangs == 0"),
    ])
    func eachWayAShellMetricChanges(setup: [String], condition: String) throws {
        let end = SimTime(nanoseconds: 2_000_000_000)
        let expected = try Self.referenceStops(setup: setup, condition: condition, end: end)
        #expect(!expected.isEmpty, "the case crosses its condition")
        #expect(try Self.breakpointStops(setup: setup, condition: condition, end: end) == expected)
    }

    // MARK: What a check costs

    /// A condition on the device's metrics is evaluated only after an instant that changed one of
    /// them: 60 s of a 1 ms timer (about 60,000 instants) and one hang evaluate `main.hangs > 0` a
    /// handful of times, not 60,000.
    @Test func aConditionOnTheDeviceIsEvaluatedOnlyWhenItsMetricsChange() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        for line in ["timer nstimer t --interval 1ms --repeats", "after 30s stall 300ms"] {
            #expect(session.runLine(line) == .finished)
        }
        let words = try #require(Lexer.lex("main.hangs > 0").commands.first).words
        var watched = WatchedCondition(try session.metrics.parseCondition(words), session.metrics)
        let engine = session.simulation.engine
        var checks = 0
        var heldAt: [SimTime] = []
        _ = engine.advance(
            until: {
                checks += 1
                if watched.becameTrue() { heldAt.append(engine.now) }
                return false
            }, limit: SimTime(nanoseconds: 60_000_000_000))
        #expect(checks >= 50_000)
        #expect(heldAt == [SimTime(nanoseconds: 30_000_000_000)])
        #expect(watched.evaluations <= 3, "\(watched.evaluations) evaluations in \(checks) checks")
    }

    /// A condition that reads a tool's metric is evaluated after every instant, as before: the
    /// tool's read is its own code.
    @Test func aConditionOnAToolIsReadAfterEveryInstant() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        #expect(session.runLine("timer nstimer t --interval 10ms --repeats") == .finished)
        let words = try #require(Lexer.lex("timer.t.fires >= 50").commands.first).words
        var watched = WatchedCondition(try session.metrics.parseCondition(words), session.metrics)
        let engine = session.simulation.engine
        var checks = 0
        _ = engine.advance(
            until: {
                checks += 1
                return watched.becameTrue()
            }, limit: SimTime(nanoseconds: 1_000_000_000))
        #expect(engine.now == SimTime(nanoseconds: 500_000_000))
        #expect(watched.evaluations == checks)
    }

    // MARK: What the main thread ran, read at the stop

    /// The stop says the item the main thread runs, or ran last — of those begun since the
    /// breakpoints watch it, as the observer of every item said it before issue 38: an item begun
    /// before the first breakpoint (or after the last was deleted) is `busy until`, after `reset`
    /// (a new device) nothing has run, and a `break on` says the item running at the event.
    @Test func theStopSaysTheItemsBegunSinceTheBreakpointsWatch() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        let script = """
            stall 300ms
            run 10ms
            break when clock.now >= 50ms
            run 100ms
            break when clock.now >= 500ms
            after 400ms stall 20ms
            c
            run 1s
            reset
            run 600ms
            break delete 1 2
            stall 100ms
            run 10ms
            break when clock.now >= 80ms
            run 100ms
            stall 10ms
            break on fps.hitch
            fps start
            animate 2s
            after 100ms stall 200ms
            run 2s
            """
        #expect(session.runScript(script, origin: ScriptOrigin(name: "main.dsh")) == .finished, "\(sink.combined)")
        #expect(
            sink.standardOutput == """
                breakpoint 1: when clock.now >= 50ms
                stopped at 50ms by breakpoint 1, when clock.now >= 50ms (clock.now = 50ms); main thread: busy until 300ms
                breakpoint 2: when clock.now >= 500ms
                stopped at 500ms by breakpoint 2, when clock.now >= 500ms (clock.now = 500ms); main thread: idle since 470ms (last: block 'stall 20ms')
                stopped at 50ms by breakpoint 1, when clock.now >= 50ms (clock.now = 50ms); main thread: idle
                breakpoint 3: when clock.now >= 80ms
                stopped at 80ms by breakpoint 3, when clock.now >= 80ms (clock.now = 80ms); main thread: busy until 150ms
                breakpoint 4: on fps.hitch — A counted present was late, with its cause (fps watch hitches).
                stopped at 183.333333ms by breakpoint 4, on fps.hitch; main thread: block 'stall 200ms' (180ms to 380ms)

                """)
    }
}
