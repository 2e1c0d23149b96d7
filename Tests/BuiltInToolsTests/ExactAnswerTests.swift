import BuiltInTools
import DebugShellTesting
import Testing

/// Answers that were wrong once, each pinned with its exact value and the rule that decides it.
@Suite struct ExactAnswerTests {
    func expectTranscript(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// K2, D5: a background dispatch timer's handlers run while a main-thread callback runs; they
    /// must not take that callback's firing with them. t1's callback due at 1,485 ms starts at
    /// 1,539 ms, after the 80 ms stall that began at 1,497 ms and the callback before it.
    @Test func aBackgroundTimerKeepsTheMainThreadsFirings() throws {
        try expectTranscript(
            """
            > timer gcd bg --interval 16ms --queue background --cost 1ms
            > timer nstimer t1 --interval 33ms --repeats --cost 40ms
            > after 1497ms stall 80ms
            > run 3000ms
            > get timer.t1.max_late
            timer.t1.max_late = 54ms
            > get timer.late
            timer.late = 1
            > get timer.t1.fires
            timer.t1.fires = 45
            """)
    }

    /// K2: lateness is start − scheduled, known when the callback starts; a late callback still
    /// running counts in `max_late` and `timer.late` as it does in `fires`.
    @Test func aLateCallbackStillRunningCounts() throws {
        try expectTranscript(
            """
            > timer nstimer poll --interval 50ms --repeats --cost 40ms
            > stall 100ms
            > run 120ms
            > get timer.poll.fires
            timer.poll.fires = 1
            > get timer.poll.max_late
            timer.poll.max_late = 50ms
            > get timer.late
            timer.late = 1
            > timer show poll
            poll: nstimer, repeats every 50ms, tolerance 0s, default mode, cost 40ms — scheduled
            fires 1 · skipped 0 · max late 50ms (busy) · callback running since 100ms · next fire when it returns
            #  scheduled  fired  late  cause  skipped
            1  50ms       100ms  50ms  busy   running
            """)
    }

    /// T4 with S3: the next fire date comes from the moment the callback returns, so the grid
    /// points it skips count only then — never while the callback runs, whatever has passed. A
    /// 10 ms timer whose callback runs 10–45 ms skips 20, 30 and 40 and fires next at 50.
    @Test func skipsCountWhenTheCallbackReturns() throws {
        try expectTranscript(
            """
            > timer nstimer t --interval 10ms --repeats --cost 35ms
            > run 20ms
            > get timer.t.skipped
            timer.t.skipped = 0
            > run to 45ms
            > get timer.t.skipped
            timer.t.skipped = 0
            > timer list
            name  kind     mode/queue  interval  tol/leeway  state      fires  skipped
            t     nstimer  default     10ms      0s          scheduled  1      0

            name  max late  next fire
            t     0s        -
            > run through 45ms
            > get timer.t.skipped
            timer.t.skipped = 3
            > timer show t
            t: nstimer, repeats every 10ms, tolerance 0s, default mode, cost 35ms — scheduled
            fires 1 · skipped 3 · max late 0s · next fire 50ms
            #  scheduled  fired  late  cause  skipped
            1  10ms       10ms   0s    -      3
            """)
    }

    /// T4: a timer invalidated while its callback runs gets no next fire date and skips nothing.
    @Test func invalidatedDuringItsCallbackItSkipsNothing() throws {
        try expectTranscript(
            """
            > timer nstimer t --interval 10ms --repeats --cost 35ms
            > run 30ms
            > timer invalidate t
            > run 100ms
            > timer show t
            t: nstimer, repeats every 10ms, tolerance 0s, default mode, cost 35ms — invalidated
            fires 1 · skipped 0 · max late 0s
            #  scheduled  fired  late  cause  skipped
            1  10ms       10ms   0s    -      0
            """)
    }

    /// A1: the UI link's slot filled at 50 ms belongs to the animation [0, 100); when the stall
    /// ends at 200 ms, [150, 250) is running, but that is another animation: the stale tick does
    /// nothing. Commits: `view add`'s, the ticks at 0, 16.7 and 33.3, then 216.7 and 233.3 — and a
    /// view animation also ticks at 250, where it reaches progress 1 (L1).
    @Test(arguments: [
        ("after 150ms animate 100ms", 6),
        ("after 150ms view animate a --frame 0,0,20,20 --over 100ms", 7),
    ])
    func aStaleTickDoesNothingDuringALaterAnimation(later: String, commits: Int) throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,10,10
            > animate 100ms
            > after 50ms stall 150ms
            > \(later)
            > run 1s
            > get render.commits
            render.commits = \(commits)
            """)
    }

    /// A2: a frame into which older waiting frames were merged (R1) counts if any merged commit
    /// started during animating time. The commit at 100 ms (the stall's) is merged with nothing
    /// animating, but frame 7's present carries the tick of frame 6 merged into it: 4 hitches.
    @Test func aMergedFrameCountsIfAnyMergedCommitAnimated() throws {
        try expectTranscript(
            """
            > fps start --label off
            > load gpu 30ms
            > animate 100ms
            > after 100ms stall 1ms --ui
            > run 1s
            > get fps.hitches
            fps.hitches = 4
            """)
    }

    /// A second `view spin` of a spinning view replaces the first: the endless spin ends when the
    /// one that lasts 200 ms from 100 ms ends, at 300 ms (its last tick at 283.3 ms).
    @Test func aSecondSpinReplacesTheFirst() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,10,10
            > view spin a
            > after 100ms view spin a --for 200ms
            > run 250ms
            > view tree a
            a 0,0,10,10 rotation 90° (spinning)
            > run 150ms
            > view tree a
            a 0,0,10,10 rotation 180°
            > get render.commits
            render.commits = 19
            > run 1s
            > get render.commits
            render.commits = 19
            """)
    }
}
