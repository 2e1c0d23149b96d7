import DebugShellTesting
import Testing

/// The rules of docs/Semantics.md as the inspector shows them, one test per rule or cause, cited by id.
@Suite struct LatenessCauseTests {
    /// K2 `busy`: the main thread was busy at the fire date (T-A's first firing).
    @Test func busy() throws {
        try expectTranscript(
            """
            > timer nstimer poll --interval 50ms
            > stall 80ms
            > run 100ms
            > timer show poll
            poll: nstimer, once after 50ms, tolerance 0s, default mode — done
            fires 1 · skipped 0 · max late 30ms (busy)
            #  scheduled  fired  late  cause  skipped
            1  50ms       80ms   30ms  busy   0
            """)
    }

    /// K2 `mode` and T7: a default-mode timer does not fire during tracking; when tracking ends
    /// it fires once, late, skipping the grid points passed (T4), then resumes its grid.
    @Test func modeT7() throws {
        try expectTranscript(
            """
            > timer nstimer clock --interval 100ms --repeats
            > timer nstimer common --interval 100ms --repeats --mode common
            > scroll 1s
            > run 1250ms
            > timer show clock
            clock: nstimer, repeats every 100ms, tolerance 0s, default mode — scheduled
            fires 3 · skipped 9 · max late 900ms (mode) · next fire 1.3s
            fix: add it to the common modes (--mode common; in the app, RunLoop.main.add(timer, forMode: .common)): in the default mode it cannot fire while a scroll runs the tracking mode (T7)
            #  scheduled  fired  late   cause  skipped
            1  100ms      1s     900ms  mode   9
            2  1.1s       1.1s   0s     -      0
            3  1.2s       1.2s   0s     -      0
            > get timer.common.fires
            timer.common.fires = 12
            > get timer.common.max_late
            timer.common.max_late = 0s
            """)
    }

    /// K2 `coalesced` and T5: with coalescing on, the mode's wake-up is at the smallest
    /// fire date + tolerance, and fires every timer due by then (A at 100 tol 20, B at 110).
    @Test func coalescedRunLoopTimers() throws {
        try expectTranscript(
            """
            > set runloop.coalescing on
            > timer nstimer a --interval 100ms --tolerance 20ms
            > timer nstimer b --interval 110ms
            > run 200ms
            > timer show a
            a: nstimer, once after 100ms, tolerance 20ms, default mode — done
            fires 1 · skipped 0 · max late 10ms (coalesced)
            #  scheduled  fired  late  cause      skipped
            1  100ms      110ms  10ms  coalesced  0
            > get timer.b.max_late
            timer.b.max_late = 0s
            """)
        // T5: with coalescing off (the default) tolerance does not change fire times.
        try expectTranscript(
            """
            > timer nstimer a --interval 100ms --tolerance 20ms
            > timer nstimer b --interval 110ms
            > run 200ms
            > get timer.a.max_late
            timer.a.max_late = 0s
            """)
    }

    /// K2 `coalesced` for GCD (D2): leeway moves the release with coalescing on; the grid does
    /// not drift.
    @Test func coalescedDispatchTimer() throws {
        try expectTranscript(
            """
            > set runloop.coalescing on
            > timer gcd g --interval 100ms --leeway 30ms
            > run 250ms
            > timer show g
            g: gcd, every 100ms, leeway 30ms, main queue — scheduled
            fires 2 · data 2 · last data 1 · max late 30ms (coalesced) · next fire 300ms
            #  scheduled  fired  late  cause      data
            1  100ms      130ms  30ms  coalesced  1
            2  200ms      230ms  30ms  coalesced  1
            """)
    }

    /// K2 `paused` and D4: a suspended source counts the targets that pass and its resume
    /// delivers them in one invocation, late from the oldest.
    @Test func pausedD4() throws {
        try expectTranscript(
            """
            > timer gcd poll --interval 100ms
            > timer gcd bg --interval 100ms --queue background
            > run 150ms
            > timer pause poll
            > timer pause bg
            > run 300ms
            > get timer.poll.state
            timer.poll.state = paused
            > timer resume poll
            > timer resume bg
            > run 200ms
            > timer show poll
            poll: gcd, every 100ms, leeway 0s, main queue — scheduled
            fires 4 · data 6 · last data 1 · max late 250ms (paused) · next fire 700ms
            #  scheduled  fired  late   cause   data
            1  100ms      100ms  0s     -       1
            2  200ms      450ms  250ms  paused  3
            3  500ms      500ms  0s     -       1
            4  600ms      600ms  0s     -       1
            > timer show bg --last 1
            bg: gcd, every 100ms, leeway 0s, background queue — scheduled
            fires 4 · data 6 · last data 1 · max late 250ms (paused) · next fire 700ms
            the last 1 of 4 firings; --last n shows more (the last 1000 are kept)
            #  scheduled  fired  late  cause  data
            4  600ms      600ms  0s    -      1
            """)
    }

    /// K2's threshold: late means above `timer.late-threshold`, which may change afterwards.
    @Test func lateThreshold() throws {
        try expectTranscript(
            """
            > timer nstimer poll --interval 50ms --repeats
            > stall 100ms
            > run 300ms
            > get timer.late
            timer.late = 1
            > set timer.late-threshold 50ms
            > get timer.late
            timer.late = 0
            > timer list
            name  kind     mode/queue  interval  tol/leeway  state      fires  skipped
            poll  nstimer  default     50ms      0s          scheduled  4      1

            name  max late  next fire
            poll  50ms      300ms
            > set timer.late-threshold 49999999ns
            > get timer.late
            timer.late = 1
            """)
    }
}

@Suite struct RunLoopTimerTests {
    /// T5: above the interval an error; above interval/2 for a repeating timer clamped, with a
    /// warning; a one-shot keeps a tolerance up to its interval.
    @Test func toleranceT5() throws {
        try expectTranscript(
            """
            > timer nstimer tick --interval 100ms --repeats --tolerance 80ms
            warning: --tolerance 80ms is above half the interval of a repeating timer: clamped to 50ms (T5)
            > timer nstimer once --interval 100ms --tolerance 80ms
            > timer nstimer bad --interval 100ms --tolerance 101ms
            error: --tolerance 101ms is above the interval 100ms (T5)
            > timer list
            name  kind     mode/queue  interval    tol/leeway  state      fires  skipped
            tick  nstimer  default     100ms       50ms        scheduled  0      0
            once  nstimer  default     100ms once  80ms        scheduled  0      0

            name  max late  next fire
            tick  -         100ms
            once  -         100ms
            """)
    }

    /// The T5 warning goes to stderr as `file:line: warning:` in a script, and the script goes on.
    @Test func clampWarningInAScript() throws {
        let (stdout, stderr, outcome) = try Transcript.run(
            "timer nstimer tick --interval 10ms --repeats --tolerance 6ms\nget timer.count\n", tools: tools)
        #expect(
            stderr
                == "test.dsh:1: warning: --tolerance 6ms is above half the interval of a repeating timer: clamped to 5ms (T5)\n"
        )
        #expect(stdout == "timer.count = 1\n")
        #expect(outcome == .finished)
    }

    /// T8: no firing while paused; on resume the next fire date is the first grid point after
    /// now, and the points passed count as skipped.
    @Test func pauseResumeT8() throws {
        try expectTranscript(
            """
            > timer nstimer poll --interval 100ms --repeats
            > run 150ms
            > timer pause poll
            > run 300ms
            > get timer.poll.fires
            timer.poll.fires = 1
            > timer resume poll
            > run 200ms
            > timer show poll
            poll: nstimer, repeats every 100ms, tolerance 0s, default mode — scheduled
            fires 3 · skipped 3 · max late 0s · next fire 700ms
            #  scheduled  fired  late  cause  skipped
            1  100ms      100ms  0s    -      0
            2  500ms      500ms  0s    -      0
            3  600ms      600ms  0s    -      0
            """)
    }

    /// T6: a one-shot is done after it fires, and no longer counts as live.
    @Test func oneShotT6() throws {
        try expectTranscript(
            """
            > timer nstimer once --interval 100ms
            > get timer.count
            timer.count = 1
            > run 150ms
            > get timer.once.state
            timer.once.state = done
            > get timer.count
            timer.count = 0
            > timer pause once
            error: timer 'once' is done: only a scheduled timer can be paused
            """)
    }

    /// T4 with a long callback: the next fire date is the first grid point after it returns.
    @Test func longCallbackT4() throws {
        try expectTranscript(
            """
            > timer nstimer slow --interval 50ms --repeats --cost 70ms
            > run 330ms
            > timer show slow
            slow: nstimer, repeats every 50ms, tolerance 0s, default mode, cost 70ms — scheduled
            fires 3 · skipped 3 · max late 0s · next fire 350ms
            #  scheduled  fired  late  cause  skipped
            1  50ms       50ms   0s    -      1
            2  150ms      150ms  0s    -      1
            3  250ms      250ms  0s    -      1
            """)
    }
}

@Suite struct DispatchTimerTests {
    /// D1: the first target is now + --start; --once makes it done after one handler.
    @Test func startAndOnce() throws {
        try expectTranscript(
            """
            > timer gcd now --interval 100ms --start 0s --queue background
            > timer gcd one --interval 100ms --start 30ms --once
            > run 250ms
            > timer show now
            now: gcd, every 100ms, leeway 0s, background queue — scheduled
            fires 3 · data 3 · last data 1 · max late 0s · next fire 300ms
            #  scheduled  fired  late  cause  data
            1  0s         0s     0s    -      1
            2  100ms      100ms  0s    -      1
            3  200ms      200ms  0s    -      1
            > timer show one
            one: gcd, once, leeway 0s, main queue — done
            fires 1 · data 1 · last data 1 · max late 0s
            #  scheduled  fired  late  cause  data
            1  30ms       30ms   0s    -      1
            """)
    }

    /// D2: leeway above interval/2 is clamped for a repeating timer, with a warning.
    @Test func leewayClampD2() throws {
        try expectTranscript(
            """
            > timer gcd g --interval 100ms --leeway 70ms
            warning: --leeway 70ms is above half the interval of a repeating timer: clamped to 50ms (D2)
            > timer gcd o --interval 100ms --leeway 70ms --once
            > timer list
            name  kind  mode/queue  interval    tol/leeway  state      fires  skipped
            g     gcd   main        100ms       50ms        scheduled  0      0
            o     gcd   main        100ms once  70ms        scheduled  0      0

            name  max late  next fire
            g     -         100ms
            o     -         100ms
            """)
    }

    /// D4: a handler never runs concurrently with itself; targets passed while it runs add to
    /// its data.
    @Test func handlerBusyD4() throws {
        try expectTranscript(
            """
            > timer gcd slow --interval 50ms --queue background --cost 120ms
            > run 300ms
            > timer show slow
            slow: gcd, every 50ms, leeway 0s, background queue, cost 120ms — scheduled
            fires 3 · data 5 · last data 2 · max late 90ms (busy) · handler running since 290ms · next fire 300ms
            #  scheduled  fired  late  cause  data
            1  50ms       50ms   0s    -      1
            2  100ms      170ms  70ms  busy   2
            3  200ms      290ms  90ms  busy   2
            """)
    }

    /// D6: `timer after` is a one-shot main-queue timer with leeway 10% of the delay, clamped to
    /// 1 ms…60 s; a delay of 0 is a plain async.
    @Test func afterD6() throws {
        try expectTranscript(
            """
            > timer after short 5ms
            > timer after toast 250ms
            > timer after long 20min
            > timer after now 0s
            > run 1ms
            > timer list
            name   kind   mode/queue  interval    tol/leeway  state      fires  skipped
            short  after  main        5ms once    1ms         scheduled  0      0
            toast  after  main        250ms once  25ms        scheduled  0      0
            long   after  main        1200s once  60s         scheduled  0      0
            now    after  main        1ns once    0s          done       1      0

            name   max late  next fire
            short  -         5ms
            toast  -         250ms
            long   -         1200s
            now    0s        -
            """)
    }
}
