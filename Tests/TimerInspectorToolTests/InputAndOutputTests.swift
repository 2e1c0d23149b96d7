import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

@testable import TimerInspectorTool

@Suite struct BadInputTests {
    @Test func clearErrors() throws {
        try expectTranscript(
            """
            > timer nstimer a
            error: 'timer nstimer' needs --interval <duration>, e.g. --interval 50ms
            > timer nstimer a --interval 0s
            error: --interval must be positive (got 0s)
            > timer nstimer a --interval -5ms
            error: --interval: negative duration '-5ms' is not allowed
            > timer gcd a --interval 0ms
            error: --interval must be positive (got 0s)
            > timer nstimer a --interval 10ms --mode fast
            error: --mode: 'fast' is not one of default, common, tracking
            > timer gcd a --interval 10ms --queue bg
            error: --queue: 'bg' is not one of main, background
            > timer displaylink a --mode commn
            error: --mode: 'commn' is not one of default, common, tracking; did you mean 'common'?
            > timer displaylink a --fps 1001
            error: --fps: '1001' is outside 0…1000
            > timer nstimer 9lives --interval 1s
            error: '9lives' is not a valid new timer name: a name starts with a letter or '_' and goes on with letters, digits, '_', '.' and '-' (e.g. poll_2)
            > timer nstimer a --interval 10ms
            > timer gcd a --interval 10ms
            error: timer 'a' already exists (nstimer, scheduled); names stay taken until 'reset' so that its history stays readable
            > timer show b
            error: unknown timer 'b'; did you mean 'a'?
            > timer pause zzz
            error: unknown timer 'zzz' (see 'timer list')
            > timer resume a
            error: timer 'a' is scheduled, not paused
            > timer invalidate a
            > timer invalidate a
            error: timer 'a' is already invalidated
            > timer countdown c -1
            error: '-1' is outside 0…1000000
            > timer after x 3s --target vc
            error: unknown option '--target' for 'timer after'
            > timer watch maybe
            error: 'maybe' is not one of on, late, off
            > timer frobnicate
            error: unknown verb 'frobnicate' for 'timer' (verbs: nstimer, gcd, displaylink, after, countdown, pause, resume, invalidate, list, show, plot, watch, leaks)
            > get timer.nope.fires
            error: unknown metric 'timer.nope.fires'; did you mean 'timer.a.fires'?
            > get timer.a.last_data
            timer.a.last_data = none
            """)
    }

    /// Beyond the 2^62 ns horizon is an error, never a trap (S1).
    @Test func horizon() throws {
        try expectTranscript(
            """
            > run 1s
            > timer nstimer far --interval 4611686018427387904ns
            error: the first fire would be beyond the 2^62 ns horizon (time 1s + 4611686018.427387904s is beyond the 2^62 ns horizon)
            > timer gcd far --interval 1s --start 4611686018427387904ns
            error: the first fire would be beyond the 2^62 ns horizon (time 1s + 4611686018.427387904s is beyond the 2^62 ns horizon)
            > timer after far 4611686018427387904ns
            error: the first fire would be beyond the 2^62 ns horizon (time 1s + 4611686018.427387904s is beyond the 2^62 ns horizon)
            """)
    }

    /// README's Limits: at most 10,000,000 timers, reported clearly.
    @Test func timerLimit() {
        #expect(TimerInspector.maxTimers == 10_000_000)
        #expect(throws: Never.self) { try TimerInspector.checkCapacity(existing: 9_999_999) }
        do {
            try TimerInspector.checkCapacity(existing: 10_000_000)
            Issue.record("the limit was not enforced")
        } catch {
            #expect(
                error.message == "too many timers: a session keeps at most 10,000,000 (use 'reset' to start afresh)")
        }
    }

    /// The limit stops the command: with a small limit the same check refuses the third timer.
    @Test func limitIsCheckedBeforeCreating() {
        #expect(throws: CommandError.self) { try TimerInspector.checkCapacity(existing: 2, limit: 2) }
    }
}

@Suite struct JSONTests {
    @Test func shapes() throws {
        let driver = try Driver(json: true)
        #expect(
            driver.run("timer list")
                == #"{"command": "timer list", "ok": true, "result": {"total": 0, "shown": 0, "timers": [], "states": {"scheduled": 0, "paused": 0, "invalidated": 0, "done": 0}}}"#
        )
        #expect(
            driver.run("timer nstimer poll --interval 50ms --repeats --tolerance 30ms")
                == #"""
                warning: --tolerance 30ms is above half the interval of a repeating timer: clamped to 25ms (T5)
                {"command": "timer nstimer poll --interval 50ms --repeats --tolerance 30ms", "ok": true, "result": {"name": "poll", "owner": "app", "kind": "nstimer", "made_by": "nstimer", "mode": "default", "queue": null, "interval_ns": 50000000, "repeats": true, "slack_ns": 25000000, "preferred_fps": null, "cost_ns": 0, "ui": false, "fires": 0, "skipped": 0, "max_late_ns": null, "late": false, "max_late_cause": null, "last_data": null, "total_data": null, "next_fire_ns": 50000000, "state": "scheduled", "target": null, "weak": false}}
                """#)
        driver.run("timer gcd g --interval 50ms", "stall 100ms", "run 160ms", "timer watch on")
        #expect(
            driver.run("run 50ms")
                == #"""
                {"event": "timer.fired", "t_ns": 200000000, "message": "poll fired", "name": "poll", "kind": "nstimer", "scheduled_ns": 200000000, "start_ns": 200000000, "end_ns": 200000000, "lateness_ns": 0, "late": false, "cause": null, "data": 1}
                {"event": "timer.fired", "t_ns": 200000000, "message": "g fired, data 1", "name": "g", "kind": "gcd", "scheduled_ns": 200000000, "start_ns": 200000000, "end_ns": 200000000, "lateness_ns": 0, "late": false, "cause": null, "data": 1}
                {"command": "run 50ms", "ok": true, "result": {"from_ns": 160000000, "to_ns": 210000000, "events": 2}}
                """#)
        #expect(
            driver.run("timer show g --last 1")
                == #"""
                {"command": "timer show g --last 1", "ok": true, "result": {"timer": {"name": "g", "owner": "app", "kind": "gcd", "made_by": "gcd", "mode": null, "queue": "main", "interval_ns": 50000000, "repeats": true, "slack_ns": 0, "preferred_fps": null, "cost_ns": 0, "ui": false, "fires": 3, "skipped": 0, "max_late_ns": 50000000, "late": true, "max_late_cause": "busy", "last_data": 1, "total_data": 4, "next_fire_ns": 250000000, "state": "scheduled", "target": null, "weak": false}, "total": 3, "kept": 3, "fix": null, "title": null, "firings": [{"n": 3, "scheduled_ns": 200000000, "start_ns": 200000000, "lateness_ns": 0, "late": false, "cause": null, "data": 1, "skipped": 0, "running": false}]}}
                """#)
        let list = driver.run("timer list --limit 1")
        #expect(
            list.hasPrefix(
                #"{"command": "timer list --limit 1", "ok": true, "result": {"total": 2, "shown": 1, "timers": [{"name": "poll", "#
            ))
        #expect(list.hasSuffix(#"}], "states": {"scheduled": 2, "paused": 0, "invalidated": 0, "done": 0}}}"#))
        #expect(
            driver.run("timer watch off")
                == #"{"command": "timer watch off", "ok": true, "result": {"watch": false, "late_only": false}}"#)
        #expect(
            driver.run("object new vc")
                == #"{"command": "object new vc", "ok": true, "result": {"name": "vc", "state": "alive", "retained_by": [], "weak_timers": []}}"#
        )
        driver.run("timer displaylink link --target vc", "timer displaylink proxy --target vc --weak")
        #expect(
            driver.run("object release vc")
                == #"{"command": "object release vc", "ok": true, "result": {"object": {"name": "vc", "state": "leaked", "retained_by": ["link"], "weak_timers": ["proxy"]}, "deallocated": []}}"#
        )
        #expect(
            driver.run("timer leaks")
                == #"{"command": "timer leaks", "ok": true, "result": {"count": 1, "objects": [{"name": "vc", "timers": [{"name": "link", "kind": "displaylink", "state": "scheduled", "fires": 0, "fix": "make the link's target a weak proxy of vc (seed 004; --weak) and invalidate link in vc's deinit"}]}]}}"#
        )
        #expect(
            driver.run("timer invalidate link")
                == #"{"command": "timer invalidate link", "ok": true, "result": {"name": "link", "state": "invalidated", "deallocated": [{"object": "vc", "invalidated": ["proxy"]}]}}"#
        )
        #expect(
            driver.run("object list")
                == #"{"command": "object list", "ok": true, "result": {"objects": [{"name": "vc", "state": "deallocated", "retained_by": [], "weak_timers": ["proxy"]}]}}"#
        )
        #expect(
            driver.run("timer pause g")
                == #"{"command": "timer pause g", "ok": true, "result": {"name": "g", "state": "paused"}}"#)
    }
}

@Suite struct SessionIntegrationTests {
    /// T5 and D2: coalescing saves wake-ups; `timer.wakeups` against the same run with it off.
    @Test func coalescingSavesWakeups() throws {
        let script = """
            timer nstimer a --interval 100ms --repeats --tolerance 50ms
            timer nstimer b --interval 70ms --repeats --tolerance 35ms
            timer nstimer c --interval 30ms --repeats --tolerance 15ms --mode common
            timer gcd d --interval 90ms --leeway 45ms
            timer gcd e --interval 110ms --leeway 55ms --queue background
            timer gcd f --interval 40ms --leeway 20ms --queue background
            run 10s
            get timer.wakeups
            get timer.a.fires
            """
        let off = try Transcript.run(script, tools: tools).stdout
        let on = try Transcript.run("set runloop.coalescing on\n" + script, tools: tools).stdout
        func value(_ text: String, _ metric: String) -> Int? {
            text.split(separator: "\n").first { $0.hasPrefix(metric + " = ") }.flatMap {
                Int($0.split(separator: " ").last ?? "")
            }
        }
        let wakeupsOff = try #require(value(off, "timer.wakeups"))
        let wakeupsOn = try #require(value(on, "timer.wakeups"))
        // Off: one wake-up per distinct fire date of the run-loop timers (484), of the main-queue
        // timer (111) and of the background timers (317).
        #expect(wakeupsOff == 912)
        #expect(wakeupsOn == 691)
        #expect(wakeupsOn < wakeupsOff)
        // The grid never drifts (T5): the same number of firings either way.
        #expect(value(off, "timer.a.fires") == 99)
        #expect(value(on, "timer.a.fires") == 99)
    }

    /// Completion of timer and object names, through the plugin API's domains.
    @Test func completion() throws {
        let driver = try Driver()
        driver.run(
            "object new viewController", "object new vm", "timer nstimer poll --interval 1s",
            "timer gcd ping --interval 1s")
        #expect(driver.session.complete("timer show p").candidates == ["poll", "ping"])
        #expect(driver.session.complete("timer pause pi").candidates == ["ping"])
        #expect(driver.session.complete("timer nstimer x --target v").candidates == ["viewController", "vm"])
        #expect(driver.session.complete("object release vi").candidates == ["viewController"])
        #expect(driver.session.complete("timer nstimer p").candidates == [])
        #expect(driver.session.complete("get timer.poll.").candidates.contains("timer.poll.fires"))
    }

    /// `reset` makes a fresh inspector: timers, objects, history and names are gone.
    @Test func resetStartsAfresh() throws {
        try expectTranscript(
            """
            > object new vc
            > timer nstimer poll --interval 10ms --repeats --target vc
            > run 50ms
            > reset
            > timer list
            no timers (make one with 'timer nstimer', 'timer gcd', 'timer displaylink' or 'timer after')
            > object list
            no objects (make one with 'object new <name>')
            > timer nstimer poll --interval 10ms --repeats
            > run 50ms
            > get timer.poll.fires
            timer.poll.fires = 4
            > status
            timers 1 · late 0 · leaks 0 · wakeups 4
            probe —
            """)
    }

    /// Metric names include each timer's own; `last_data` only for GCD timers.
    @Test func metricNames() throws {
        try expectTranscript(
            """
            > timer nstimer n --interval 10ms
            > timer gcd g --interval 10ms
            > metrics timer
            timer.count = 2
            timer.late = 0
            timer.leaks = 0
            timer.wakeups = 0
            timer.n.fires = 0
            timer.n.skipped = 0
            timer.n.max_late = none
            timer.n.state = scheduled
            timer.g.fires = 0
            timer.g.skipped = 0
            timer.g.max_late = none
            timer.g.last_data = none
            timer.g.state = scheduled
            > expect timer.n.max_late == none
            """)
    }

    /// A modest scale check in a debug build: many timers are created, listed (summarised) and
    /// run; the release-build numbers are in docs/TimerInspector.md.
    @Test func manyTimers() throws {
        let driver = try Driver()
        for i in 0..<2_000 {
            driver.run(
                i % 2 == 0
                    ? "timer nstimer t\(i) --interval \(100 + i % 97)ms --repeats"
                    : "timer gcd t\(i) --interval \(100 + i % 89)ms --queue background")
        }
        driver.run("run 2s")
        #expect(driver.get("timer.count") == "2000")
        let list = driver.run("timer list --sort fires").split(separator: "\n")
        // Two blocks of columns (header and 50 rows each; split drops the blank line between).
        #expect(list.count == 103)
        #expect(list.last == "… 1950 more (2000 timers: 2000 scheduled); --limit n shows more")
        #expect(driver.get("timer.t1.fires") == "19")
    }
}
