import BuiltInTools
import DebugShellInterpreter
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell

/// Issue 23: the time commands at the prompt — `after … { a; b }`, `step` that moves, a `run until`
/// that cannot hold, `get` of several metrics — and breakpoints on the simulation
/// (docs/Decisions.md, "Breakpoints and the time commands").
@Suite struct BreakpointTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: 1. `;` after `after`

    /// `after 300ms { a; b }` schedules both, in order, at 300 ms; `after 300ms a; b` says that
    /// `b` runs now.
    @Test func aBlockSchedulesSeveralCommandsAndASemicolonWarns() throws {
        try expectTranscript(
            """
            > after 300ms { stall 50ms; echo b }
            > run 299ms
            > get main.busy_until
            main.busy_until = 0s
            > run 1ms
            > get main.busy_until
            main.busy_until = 0s
            > step
            b
            > get main.busy_until
            main.busy_until = 350ms
            > after 1s echo a; echo b
            warning: 'echo b' runs now: ';' ends the command 'after' schedules; to schedule both, write 'after 1s { echo a; echo b }'
            b
            > every 100ms --times 2 { echo x; echo y }
            > run 2s
            x
            y
            x
            y
            a
            > after 1s { echo a; run 1s }
            error: 'run' cannot be scheduled: only commands that neither move time nor end the session can
            > after 1s { echo a
            error: the block '{ … }' is not closed: '}' must be its last word, alone
            > echo '{' ';' x
            { ; x
            """)
    }

    /// A recording writes the block as typed, and its replay runs both commands.
    @Test func aBlockIsRecordedAndReplayed() throws {
        let (_, replayed) = try recordAndReplay(
            ["stall 10ms", "after 300ms { stall 50ms; stall 20ms }", "run 1s"], then: "get main.busy_until")
        #expect(replayed == "main.busy_until = 370ms\n")
    }

    // MARK: 2. `s` after `r 1s`

    /// A vsync at now does not count: `step` after `run 1s` moves to the next frame.
    @Test func stepAfterRunMovesToTheNextVsync() throws {
        try expectTranscript(
            """
            > run 1s
            > step
            > get clock.now
            clock.now = 1.016666666s
            > step
            > get clock.now
            clock.now = 1.033333333s
            > reset
            > step 2
            > get clock.now
            clock.now = 33.333333ms
            """)
    }

    // MARK: 15. `run until` that nothing could make hold

    @Test func runUntilAMetricOfAnIdleToolFailsAtOnce() throws {
        try expectTranscript(
            """
            > animate 10s
            > run until fps.value > 30
            error: run until fps.value > 30: fps.value has no value, and nothing will give it one: the tool 'fps' is idle and no command is scheduled (start it first, see 'help fps')
            > get clock.now
            clock.now = 0s
            > after 100ms fps start
            > run until fps.value > 30
            > get clock.now
            clock.now = 1.1s
            """)
    }

    // MARK: `p a b`, `get 'clock.*'`

    @Test func getTakesSeveralMetricsAndPatterns() throws {
        try expectTranscript(
            """
            > p clock.rate main.hangs
            clock.rate = 60
            main.hangs = 0
            > get 'clock.*'
            clock.now = 0s
            clock.vsyncs = 0
            clock.rate = 60
            clock.mode = default
            > get clock.* render.presents
            clock.now = 0s
            clock.vsyncs = 0
            clock.rate = 60
            clock.mode = default
            render.presents = 0
            > get 'nothing.*'
            error: no metric matches 'nothing.*' (see 'metrics')
            > get clock.rate bogus.metric
            error: unknown metric 'bogus.metric' (see 'metrics')
            """)
        #expect(GetCommand.matches("timer.*", "timer.poll.late"))
        #expect(GetCommand.matches("timer.*.late", "timer.poll.late"))
        #expect(!GetCommand.matches("timer.*.late", "timer.poll.fires"))
        #expect(GetCommand.matches("fps.frame_p*", "fps.frame_p50"))
        #expect(!GetCommand.matches("clock.*", "clockx.now"))
    }

    // MARK: Breakpoints

    /// `break when` stops `run` after the instant it becomes true, says where and what the main
    /// thread runs; `c` runs the rest of the `run`.
    @Test func breakWhenStopsRunAndContinueFinishesIt() throws {
        try expectTranscript(
            """
            > break when main.hangs > 0
            breakpoint 1: when main.hangs > 0
            > after 300ms stall 300ms
            > run 1s
            stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (300ms to 600ms)
            > get clock.now
            clock.now = 300ms
            > c
            > get clock.now
            clock.now = 1s
            > break list
            #  state    hits  breakpoint
            1  enabled  1     when main.hangs > 0
            """)
    }

    /// A condition that holds already stops time only once it becomes true again (edge, as a
    /// watchpoint); disabled, it does not stop; deleted, it is gone.
    @Test func breakWhenIsEdgeTriggeredAndCanBeDisabled() throws {
        try expectTranscript(
            """
            > timer nstimer poll --interval 100ms --repeats --cost 10ms
            > break when main.busy_until > 250ms
            breakpoint 1: when main.busy_until > 250ms
            > run 1s
            stopped at 300ms by breakpoint 1, when main.busy_until > 250ms (main.busy_until = 310ms); main thread: timer 'poll' (300ms to 310ms)
            > c
            > get clock.now
            clock.now = 1s
            > break disable 1
            > break when main.busy_until > 1.35s and main.busy_until < 1.5s
            breakpoint 2: when main.busy_until > 1.35s and main.busy_until < 1.5s
            > break list
            #  state     hits  breakpoint
            1  disabled  1     when main.busy_until > 250ms
            2  enabled   0     when main.busy_until > 1.35s and main.busy_until < 1.5s
            > run 1s
            stopped at 1.4s by breakpoint 2, when main.busy_until > 1.35s and main.busy_until < 1.5s (main.busy_until = 1.41s); main thread: timer 'poll' (1.4s to 1.41s)
            > break delete all
            > break list
            no breakpoints
            > run 1s
            > get clock.now
            clock.now = 2.4s
            > break delete 3
            error: no breakpoint 3 (see 'break list')
            > break when bogus.metric > 1
            error: unknown metric 'bogus.metric' (see 'metrics')
            """)
    }

    /// `break on` an event stops after the instant the tool says it; the event prints first.
    /// `step` and `run until` stop too; `c` goes on with them.
    @Test func breakOnEventStopsStepAndRunUntil() throws {
        try expectTranscript(
            """
            > break on layout.setled
            error: unknown event 'layout.setled'; did you mean 'layout.settled'?
            > break on layout.settled
            warning: layout.settled is said only while it is watched ('layout watch'), which is off now: this breakpoint waits until it is on
            breakpoint 1: on layout.settled — The watched subtree settled: root, views, last change.
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > layout watch
            > step 60
            [0.500s] layout: settled (window, 2 views, last change 300ms)
            stopped at 500ms by breakpoint 1, on layout.settled; main thread: idle since 483.333533ms (last: displaylink 'layout checker')
            > c
            > get clock.now
            clock.now = 1s
            > timer nstimer poll --interval 50ms --repeats
            > timer watch on
            > break on timer.fired poll
            breakpoint 2: on timer.fired 'poll' — An app timer fired (timer watch on).
            > run until clock.now > 2s --timeout 5s
            [1.050s] timer: poll fired
            stopped at 1.05s by breakpoint 2, on timer.fired 'poll'; main thread: idle since 1.05s (last: timer 'poll')
            > break disable 2
            > timer watch off
            > c
            > get clock.now
            clock.now = 2.000000001s
            """)
        // `run until clock.now > 2s` holds at its first nanosecond past 2s: that time is an
        // instant of its own, whether or not a timer fires there (issue 37, 5).
    }

    /// `break on fps.hitch` stops at every hitch without `fps watch hitches`: the meter says the
    /// event silently for the breakpoint (ToolHost.isListening), so nothing prints but the stop;
    /// with the watch on, hitches held for the second's summary still stop it.
    @Test func breakOnAHitchNeedsNoWatch() throws {
        try expectTranscript(
            """
            > fps start
            > animate 3s
            > load gpu 20ms
            > break on fps.hitch
            breakpoint 1: on fps.hitch — A counted present was late, with its cause (fps watch hitches).
            > run 1s
            stopped at 50ms by breakpoint 1, on fps.hitch; main thread: idle since 33.333333ms (last: commit 'commit')
            > c
            stopped at 83.333333ms by breakpoint 1, on fps.hitch; main thread: idle since 66.666666ms (last: commit 'commit')
            > fps watch hitches
            > c
            [0.117s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 5 expected at 100ms
            stopped at 116.666666ms by breakpoint 1, on fps.hitch; main thread: idle since 100ms (last: commit 'commit')
            > c
            stopped at 150ms by breakpoint 1, on fps.hitch; main thread: idle since 133.333333ms (last: commit 'commit')
            > break delete 1
            > c
            > get fps.hitches
            fps.hitches = 29
            """)
    }

    /// A stop is not an error: a script goes on from the stop, and exits 0.
    @Test func aStopInAScriptIsNotAnError() throws {
        let script = """
            break when main.hangs > 0
            after 300ms stall 300ms
            run 1s
            expect clock.now == 300ms
            c
            expect clock.now == 1s
            """
        let (stdout, stderr, outcome) = try Transcript.run(script, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        #expect(
            stdout
                == "breakpoint 1: when main.hangs > 0\nstopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (300ms to 600ms)\n"
        )
        let (json, _, _) = try Transcript.run(
            script, tools: BuiltInTools.all, options: SessionOptions(json: true))
        #expect(json.contains("\"breakpoint\": 1, \"stopped_ns\": 300000000"), "\(json)")
    }

    /// A recording with breakpoints replays to the same answer.
    @Test func aRecordingWithBreakpointsReplaysToTheSameAnswer() throws {
        let (live, replayed) = try recordAndReplay(
            [
                "timer nstimer poll --interval 70ms --repeats --cost 5ms", "break when timer.poll.fires >= 3",
                "run 1s", "stall 20ms", "c", "break when main.busy_until > 1.5s", "step 50", "break disable 2",
                "step",
            ], then: "p clock.now timer.poll.fires main.busy_until")
        #expect(live == replayed)
        // Stopped at 210 ms (the third firing), continued to 1 s, stopped by the second breakpoint at
        // 1.54 s (the firing busy until 1.545 s), then one vsync on.
        #expect(live == "clock.now = 1.55s\ntimer.poll.fires = 22\nmain.busy_until = 1.545s\n", "\(live)")
    }

    /// Types `typed` into a recorded session, replays the recording, and returns the answer of
    /// `check` in the live session and in the replay.
    func recordAndReplay(_ typed: [String], then check: String) throws -> (live: String, replayed: String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-break-\(UUID().uuidString).dsh").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let liveSink = MemorySink()
        let live = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: liveSink)
        for line in ["record \(path)"] + typed + ["record stop"] {
            #expect(live.runLine(line) == .finished, "\(line)")
        }
        liveSink.clear()
        _ = live.runLine(check)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let sink = MemorySink()
        let replay = try Session(tools: BuiltInTools.all, sink: sink)
        #expect(
            replay.runScript(text, origin: ScriptOrigin(name: "replay.dsh")) == .finished, "\(text)\n\(sink.combined)")
        sink.clear()
        _ = replay.runLine(check)
        return (liveSink.combined, sink.combined)
    }
}

/// The enabled `break on` events are kept as breakpoints come and go (so that n of them cost
/// O(n) to define, issue 36): after any sequence of adds, deletes, enables and disables they are
/// what a recount of the list gives.
@Suite struct BreakpointEventCountTests {
    @Test func theEventsAreTheListsRecount() {
        var rng = SplitMix(state: 36)
        let breakpoints = Breakpoints()
        let names = ["a.x", "b.y", "c.z"]
        for _ in 0..<2_000 {
            let roll = Int.random(in: 0..<10, using: &rng)
            let ids = breakpoints.all.map(\.id)
            switch roll {
            case 0..<4:
                let name = names[Int.random(in: 0..<names.count, using: &rng)]
                _ = breakpoints.add(.on(event: name, text: ""), text: "on \(name)")
            case 4, 5:
                if let id = ids.randomElement(using: &rng) { breakpoints.delete(id) }
            case 6, 7:
                if let id = ids.randomElement(using: &rng) { breakpoints.setEnabled(id, Bool.random(using: &rng)) }
            case 8:
                if Int.random(in: 0..<20, using: &rng) == 0 { breakpoints.deleteAll() }
            default:
                breakpoints.delete(Int.random(in: 1...3_000, using: &rng))
            }
            var recount = Set<String>()
            for b in breakpoints.all where b.enabled {
                if case .on(let name, _) = b.kind { recount.insert(name) }
            }
            #expect(Set(breakpoints.events) == recount)
            if Set(breakpoints.events) != recount { return }
            // Ids stay in order, so that the binary search finds each.
            for b in breakpoints.all { #expect(breakpoints.index(of: b.id).map { breakpoints.all[$0].id } == b.id) }
        }
    }
}

/// Breakpoints that would never fire, fixed or said (issue 37, 5).
@Suite struct SilentBreakpointTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// A condition on time alone stops at its time on an idle device, as `run until` does.
    @Test func aConditionOnTimeAloneStopsAtItsTime() throws {
        try expectTranscript(
            """
            > break when clock.now >= 1s
            breakpoint 1: when clock.now >= 1s
            > run 2s
            stopped at 1s by breakpoint 1, when clock.now >= 1s (clock.now = 1s); main thread: idle
            > c
            > get clock.now
            clock.now = 2s
            > run until clock.now == 2.5s ± 100ms
            > get clock.now
            clock.now = 2.4s
            """)
    }

    /// The verb's options may follow the words, as `help break on` shows them (they were read as
    /// words of the event's text, and as a term of the condition).
    @Test func optionsMayFollowTheWords() throws {
        try expectTranscript(
            """
            > timer watch on
            > break on timer.fired tick --once
            breakpoint 1: on timer.fired 'tick' (once) — An app timer fired (timer watch on).
            > break when clock.now >= 1s --ignore 2
            breakpoint 2: when clock.now >= 1s (ignore 2)
            """)
    }

    /// A count of vsyncs is a clock too (issue 36's record/replay differential): on an idle device,
    /// where no vsync is an instant, the breakpoint stops at the 50th vsync (90 Hz: 544.444444 ms),
    /// not at the next instant that happens to come — which a replay, whose time lines differ,
    /// would not share.
    @Test func aCountOfVsyncsStopsAtItsVsync() throws {
        try expectTranscript(
            """
            > display rate 90
            > run 507ms
            > break when clock.vsyncs >= 50
            breakpoint 1: when clock.vsyncs >= 50
            > timer gcd retry --interval 298ms --once
            > run 93ms
            stopped at 544.444444ms by breakpoint 1, when clock.vsyncs >= 50 (clock.vsyncs = 50); main thread: idle
            """)
    }

    /// A breakpoint's stop in the same advance as a scheduled command's failure is still said and
    /// recorded: the run goes on past the failure to the stop, then fails, time standing there.
    @Test func aStopBesideAFailedScheduledCommandIsKept() throws {
        try expectTranscript(
            """
            > break when clock.now >= 30ms
            breakpoint 1: when clock.now >= 30ms
            > after 10ms fps stop
            > run 100ms
            error: at 10ms: the meter is not running; start it with 'fps start'
            stopped at 30ms by breakpoint 1, when clock.now >= 30ms (clock.now = 30ms); main thread: idle
            error: 1 scheduled command failed during 'run'
            > get clock.now
            clock.now = 30ms
            """)
    }

    /// `break on` an event whose watch is off says so, and with the watch on it does not.
    @Test func anEventWhoseWatchIsOffIsSaid() throws {
        try expectTranscript(
            """
            > break on timer.fired
            warning: timer.fired is said only while it is watched ('timer watch on'), which is off now: this breakpoint waits until it is on
            breakpoint 1: on timer.fired — An app timer fired (timer watch on).
            > timer watch on
            > break on timer.fired
            breakpoint 2: on timer.fired — An app timer fired (timer watch on).
            > break on fps.window
            warning: fps.window is said only while it is watched ('fps watch windows'), which is off now: this breakpoint waits until it is on
            breakpoint 3: on fps.window — The meter closed a window, with its reading (fps watch windows).
            """)
    }
}

/// LLDB's habits (issue 37, 8): one-shot and ignore counts, `command alias NAME EXPANSION`,
/// `break on <Tab>`.
@Suite struct LLDBHabitTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    @Test func oneShotAndIgnoreCounts() throws {
        try expectTranscript(
            """
            > break when --once main.hangs > 0
            breakpoint 1: when main.hangs > 0 (once)
            > every 1s stall 300ms
            > run 5s
            stopped at 1s by breakpoint 1, when main.hangs > 0 (once) (main.hangs = 1); main thread: block 'stall 300ms' (1s to 1.3s)
            > break list
            no breakpoints
            > c
            > get clock.now
            clock.now = 5s
            > timer nstimer t --interval 100ms --repeats
            > timer watch on
            > break on --ignore 2 timer.fired
            breakpoint 2: on timer.fired (ignore 2) — An app timer fired (timer watch on).
            > run 1s
            [5.300s] timer: t fired 200ms late (busy, scheduled 5.1s)
            [5.400s] timer: t fired
            [5.500s] timer: t fired
            stopped at 5.5s by breakpoint 2, on timer.fired (ignore 2); main thread: idle since 5.5s (last: timer 't')
            > break list
            #  state    hits  breakpoint
            2  enabled  3     on timer.fired (ignore 2)
            """)
    }

    @Test func lldbAliasFormAndEventCompletion() throws {
        try expectTranscript(
            """
            > command alias rr run 100ms
            > rr
            > get clock.now
            clock.now = 100ms
            > alias x run
            error: expected 'alias x = <expansion>' (or LLDB's 'command alias x <expansion>')
            """)
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        #expect(session.complete("break on fps.").candidates == ["fps.hitch", "fps.hitches", "fps.window"])
        #expect(session.complete("break on ").candidates.contains("timer.fired"))
        #expect(session.complete("break on layout.settled ").candidates.isEmpty)
    }
}

/// ProMotion explained (issue 37, 6): a capped link says why and how to lift the cap, and `reset`
/// says which device settings it keeps.
@Suite struct RateCapExplainedTests {
    @Test func aCappedLinkSaysWhyAndResetSaysWhatItKeeps() throws {
        let run = try Transcript.run(
            """
            display adaptive
            timer displaylink g --range 80,120,120
            run 100ms
            timer show g --last 1
            fps start --range 120,120,120
            fps
            set system.low_power on
            timer show g --last 1
            set app.high_frame_rates on
            set system.low_power off
            timer show g --last 1
            reset
            """, tools: BuiltInTools.all)
        let out = run.stdout
        #expect(
            out.contains(
                "fix: 'set app.high_frame_rates on': without CADisableMinimumFrameDurationOnPhone in its Info.plist an iPhone app's link is capped at 60 Hz, and this one asks 120 (V2)"
            ), "\(out)")
        #expect(
            out.contains("capped       60 Hz, not 120: without CADisableMinimumFrameDurationOnPhone in its"), "\(out)")
        #expect(
            out.contains(
                "fix: 'set system.low_power off': Low Power Mode caps every link at 60 Hz, and this one asks 120 (V2)"),
            "\(out)")
        // Three fixes (timer show, fps, Low Power Mode); with the key on and Low Power Mode off,
        // nothing caps it: none the last time.
        #expect(out.components(separatedBy: "fix: ").count == 4, "\(out)")
        #expect(out.hasSuffix("reset keeps the settings: app.high_frame_rates = on ('set <name> …' to change them)\n"))
    }
}

/// Nested blocks (issue 36, 14): the lexer notes each `{`'s `}`, so a block steps over the blocks
/// it holds instead of scanning them at every level; commands after a nested block still run.
@Suite struct NestedBlockTests {
    @Test func commandsAfterANestedBlockRunInOrder() throws {
        let run = try Transcript.run(
            "after 1ms { after 1ms { echo a; echo b }; echo c; after 2ms { echo d }; echo e }\nrun 10ms\n",
            tools: BuiltInTools.all)
        #expect(run.stdout == "c\ne\na\nb\nd\n", "\(run.stdout)")
    }

    @Test func theLexerNotesEachBracesPartner() throws {
        let words = try #require(try Lexer.lexLine("after 1ms { a { b ; c } ; d }", line: 1).first?.words)
        let opens = words.indices.filter { words[$0].text == "{" }
        #expect(opens.map { Int(words[$0].partner) } == [9, 4])
        for open in opens { #expect(words[open + Int(words[open].partner)].text == "}") }
        // A quoted brace is a word, not a block.
        let quoted = try #require(try Lexer.lexLine("echo '{' x", line: 1).first?.words)
        #expect(quoted.allSatisfy { $0.partner == 0 })
    }

    @Test func tenThousandLevelsRunTheirDeepestCommand() throws {
        let n = 10_000
        let line =
            "after 1ms " + String(repeating: "{ after 1ms ", count: n - 1) + "{ echo deep"
            + String(repeating: " }", count: n)
        let run = try Transcript.run(line + "\nrun 20s\n", tools: BuiltInTools.all)
        #expect(run.stdout == "deep\n")
    }
}
