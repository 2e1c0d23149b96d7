import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// Replays a transcript with the counter tool registered and checks it.
func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let result = try Transcript.replay(transcript, tools: [CounterTool.self])
    #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
}

func runScript(_ script: String, options: SessionOptions = SessionOptions()) throws -> (
    stdout: String, stderr: String, outcome: ScriptOutcome
) {
    try Transcript.run(script, tools: [CounterTool.self], options: options)
}

@Suite struct CommandLanguageTests {
    @Test func prefixesAliasesAndDidYouMean() throws {
        try expectTranscript(
            """
            > counter add 1
            > ctr add 2
            > cou a 3
            > counter
            count 6
            > c
            error: play needs the interactive session, where time can follow the wall clock; use 'run' here
            > cuonter
            error: unknown command 'cuonter'; did you mean 'counter'?
            > fsp
            error: unknown command 'fsp' (try 'help')
            > counter ad 1 --lab x
            > counter s
            count 7
            > counter fly
            error: unknown verb 'fly' for 'counter' (verbs: add, show, tick)
            > counter shw
            error: unknown verb 'shw' for 'counter'; did you mean 'show'?
            > r 1s
            """)
    }

    @Test func optionsAnywhereEqualsFormAndDoubleDash() throws {
        try expectTranscript(
            """
            > counter add --label=a 1
            > counter add --label b 2
            > get counter.total
            counter.total = 3
            > counter add 1 --label
            error: option '--label' of 'counter add' needs a value (<counter-label>)
            > counter add 1 --lbael x
            error: unknown option '--lbael' for 'counter add'; did you mean '--label'?
            > counter add 1 --label x --label y
            error: option '--label' is given twice for 'counter add'
            > echo -- --not-an-option "--quoted"
            --not-an-option --quoted
            > counter add -- 1
            > counter add 1 2
            error: unexpected argument '2' for 'counter add'
            > counter add
            error: missing <amount> for 'counter add' (usage: counter add <amount> [--label <counter-label>])
            > counter add 1001
            error: '1001' is outside 0…1000
            > stall 1ms --ui=yes
            error: option '--ui' of 'stall' takes no value
            """)
    }

    @Test func userAliasesBeatPrefixesAndTakeArguments() throws {
        try expectTranscript(
            """
            > alias co = echo alias wins over counter
            > co
            alias wins over counter
            > alias say = echo [%1] [%2]
            > say "a b" c
            [a b] [c]
            > say a
            error: alias 'say' needs 2 arguments (%2)
            > alias all = echo <%*>
            > all x  y
            <x y>
            > alias more = echo base
            > more extra words
            base extra words
            > alias loop = loop2
            > alias loop2 = loop
            > loop
            error: alias 'loop' expands to itself (loop → loop2 → loop)
            > alias run = echo no
            error: 'run' is a command; an alias cannot replace it
            > alias 9x = echo
            error: '9x' is not a valid alias name: a name starts with a letter or '_' and goes on with letters, digits, '_', '.' and '-' (e.g. poll_2)
            """)
    }

    @Test func metricsGetAndExpect() throws {
        try expectTranscript(
            """
            > counter add 4 --label red
            > get counter.red.hits
            counter.red.hits = 1
            > get counter.blue.hits
            error: unknown metric 'counter.blue.hits'; did you mean 'counter.red.hits'?
            > get counter.last
            counter.last = red
            > expect counter.total == 4 and counter.last == red
            > expect counter.total > 4 or counter.last != red
            error: expectation failed: counter.total > 4 or counter.last != red (counter.total = 4, counter.last = red)
            > expect counter.total == 4s
            error: counter.total is an integer: '4s' is not an integer
            > metrics counter
            counter.total = 4
            counter.last = red
            counter.red.hits = 1
            > metrics nothing
            error: no metric starts with 'nothing'
            """)
    }

    @Test func settingsAreTypedAndReachTools() throws {
        try expectTranscript(
            """
            > set counter.step 3
            > counter tick --until 2
            > run 20ms
            [0.017s] counter: reached 2 ticks
            > get counter.total
            counter.total = 6
            > set counter.step 11
            error: counter.step: '11' is outside 1…10
            > set counter.stpe 1
            error: unknown setting 'counter.stpe'; did you mean 'counter.step'?
            > settings counter
            counter.step = 3  Added per tick.
            """)
    }

    @Test func eventsPrintDuringRunWithTheirTime() throws {
        try expectTranscript(
            """
            > counter tick --until 3
            > run 1s
            [0.033s] counter: reached 3 ticks
            """)
    }

    @Test func statusLinesAndToggles() throws {
        let sink = MemorySink()
        let session = try Session(tools: [CounterTool.self], options: SessionOptions(), sink: sink)
        _ = session.runLine("counter add 2")
        _ = session.runLine("status")
        #expect(sink.standardOutput == "counter 2\n")
        #expect(session.liveStatusLines().map(\.plain) == ["counter 2"])
        _ = session.runLine("status counter off")
        #expect(session.liveStatusLines().isEmpty)
        _ = session.runLine("status counter on")
        _ = session.runLine("status off")
        #expect(session.liveStatusLines().isEmpty)
        _ = session.runLine("status on")
        #expect(session.liveStatusLines().count == 1)
        sink.clear()
        _ = session.runLine("status countr on")
        #expect(sink.standardError == "error: unknown tool 'countr'; did you mean 'counter'?\n")
    }

    @Test func resetKeepsToolsSettingsAliasesAndRate() throws {
        try expectTranscript(
            """
            > set counter.step 2
            > alias hi = echo hi
            > display rate 120
            > counter add 5
            > load gpu 3ms
            > after 1s echo never
            > run 10ms
            > reset
            > get counter.total
            counter.total = 0
            > get clock.now
            clock.now = 0s
            > get clock.rate
            clock.rate = 120
            > load
            frame 0s · commit 0s · gpu 0s
            > settings counter.step
            counter.step = 2  Added per tick.
            > hi
            hi
            > run 2s
            """)
    }

    @Test func helpIsGeneratedWithExamples() throws {
        try expectTranscript(
            """
            > help counter tick
            counter tick — Count vsync callbacks of a display link; emit an event at a
                           target.

            USAGE: counter tick [--until <n>] [--mode common|default|tracking]

            OPTIONS:
              --until <n>                   Emit counter.reached at this many callbacks.
                                            (default: 10)
              --mode common|default|tracking
                                            The link's mode. (default: common)

            EXAMPLES:
              > counter tick --until 3
              > run 100ms
              [0.033s] counter: reached 3 ticks
            > help counter.total
            counter.total (metric, integer) — The count.
            > help counter.step
            counter.step (setting, <n>, default 1) — Added per tick.
            > help nothing
            error: unknown command 'nothing' (try 'help')
            > help counter fly
            error: unknown verb 'fly' for 'counter' (verbs: add, show, tick)
            > apropos vsync callbacks
            counter tick — Count vsync callbacks of a display link; emit an event at a
                target.
            > apropos callbacks
            metric rec.callbacks — Display-link callbacks the recording logged.
            import csv — Import a CSV log: a display link's callbacks (timestamp, …) or
                frames (vsync, commit, render, present, …).
            counter tick — Count vsync callbacks of a display link; emit an event at a
                target.
            option --until of counter tick — Emit counter.reached at this many callbacks.
            recording save — Write the recording as a Chrome trace for Perfetto's UI
                (atomically); 'import chrome' reads it back whole.
            rule DL8 — One wake-up for all links
            rule DL-A — Worked example: the FPS meter under a stall
            rule L4 — Quiet mode
            """)
    }

    @Test func completionOffersCommandsVerbsOptionsAndNames() throws {
        let session = try Session(tools: [CounterTool.self], sink: MemorySink())
        #expect(session.complete("cou").candidates == ["counter"])
        #expect(session.complete("counter ").candidates == ["add", "show", "tick"])
        #expect(session.complete("ctr ti").candidates == ["tick"])
        #expect(session.complete("counter tick --").candidates == ["--until", "--mode"])
        #expect(session.complete("counter tick --mode ").candidates == ["common", "default", "tracking"])
        _ = session.runLine("counter add 1 --label red")
        #expect(session.complete("counter add 2 --label r").candidates == ["red"])
        #expect(session.complete("get counter.r").candidates == ["counter.red.hits"])
        #expect(session.complete("set runloop.coalescing ").candidates == ["on", "off"])
        #expect(session.complete("after 1s counter t").candidates == ["tick"])
        #expect(session.complete("echo a; sta").candidates == ["status", "stall"])
        #expect(session.complete("source ").filePaths)
        #expect(session.complete("expect counter.total ").candidates.contains(">="))
    }
}

@Suite struct ScriptTests {
    @Test func errorsNameTheFileAndLineAndStopTheScript() throws {
        let r = try runScript("echo one\n\nbogus\necho never\n")
        #expect(r.stdout == "one\n")
        #expect(r.stderr == "test.dsh:3: error: unknown command 'bogus' (try 'help')\n")
        #expect(r.outcome == .failed)
    }

    @Test func keepGoingRunsEverythingAndFails() throws {
        let r = try runScript(
            "bogus\necho after\nexpect clock.rate == 30\necho end\n", options: SessionOptions(keepGoing: true))
        #expect(r.stdout == "after\nend\n")
        #expect(
            r.stderr
                == "test.dsh:1: error: unknown command 'bogus' (try 'help')\ntest.dsh:3: error: expectation failed: clock.rate == 30 (clock.rate = 60)\n"
        )
        #expect(r.outcome == .finished)
    }

    @Test func lexErrorsComeAfterTheCommandsBeforeThem() throws {
        let r = try runScript("echo a\necho 'b\necho c\n")
        #expect(r.stdout == "a\n")
        #expect(r.stderr == "test.dsh:2: error: unterminated ' quote\n")
        #expect(r.outcome == .failed)
    }

    @Test func echoOptionPrintsCommands() throws {
        let r = try runScript("echo a ; echo b # c\n", options: SessionOptions(echo: true))
        #expect(r.stdout == "> echo a\na\n> echo b\nb\n")
    }

    @Test func jsonLinesHaveOneObjectPerCommandAndEvent() throws {
        let r = try runScript(
            "echo hi\ncounter tick --until 1\nrun 10ms\nget clock.now\nget counter.last\nbogus\n",
            options: SessionOptions(json: true, keepGoing: true))
        #expect(
            r.stdout == """
                {"command": "echo hi", "ok": true, "result": {"text": "hi"}}
                {"command": "counter tick --until 1", "ok": true, "result": {}}
                {"event": "counter.reached", "t_ns": 0, "message": "reached 1 ticks"}
                {"command": "run 10ms", "ok": true, "result": {"from_ns": 0, "to_ns": 10000000, "events": 1}}
                {"command": "get clock.now", "ok": true, "result": {"metric": "clock.now", "type": "time", "value": 10000000}}
                {"command": "get counter.last", "ok": true, "result": {"metric": "counter.last", "type": "word", "value": null}}
                {"command": "bogus", "ok": false, "error": "unknown command 'bogus' (try 'help')"}

                """)
        #expect(r.stderr == "test.dsh:6: error: unknown command 'bogus' (try 'help')\n")
    }

    @Test func scheduledCommandsRunInOrderAtTheirInstant() throws {
        // S4.1: commands issued at t, then commands scheduled for t, in scheduling order; a
        // command scheduled for exactly the end of a run runs at the start of the next one.
        let r = try runScript(
            """
            at 1s echo b1
            after 500ms echo a
            every 500ms --times 3 echo e
            at 1s echo b2
            run 1s
            echo between
            run 1s
            """)
        // The every's second run was scheduled at 0.5 s, after b2 was scheduled at 0 s.
        #expect(r.stdout == "a\ne\nbetween\nb1\nb2\ne\ne\n")
    }

    @Test func aFailingScheduledCommandNamesWhereItWasScheduledAndFailsTheRun() throws {
        let r = try runScript("echo start\nafter 250ms expect clock.rate == 30\nrun 1s\necho never\n")
        #expect(r.stdout == "start\n")
        #expect(
            r.stderr == """
                test.dsh:2: error: at 250ms: expectation failed: clock.rate == 30 (clock.rate = 60)
                test.dsh:3: error: 1 scheduled command failed during 'run'

                """)
        #expect(r.outcome == .failed)
    }

    @Test func schedulingChecksTheCommandNow() throws {
        try expectTranscript(
            """
            > after 1s bogus
            error: unknown command 'bogus' (try 'help')
            > after 1s run 1s
            error: 'run' cannot be scheduled: only commands that neither move time nor end the session can
            > at 2s quit
            error: 'quit' cannot be scheduled: only commands that neither move time nor end the session can
            > every 1s pause
            error: 'pause' cannot be scheduled: only commands that neither move time nor end the session can
            > at 1s echo ok
            > run 2s
            ok
            > at 1s echo late
            error: time 1s is in the past (now is 2s)
            > every 999ns echo x
            error: every needs an interval of at least 1us (got 999ns)
            > every 1us --times 0 echo x
            error: --times: '0' is outside 1…9223372036854775807
            > after 1s
            error: missing <command…> for 'after' (usage: after <duration> <command…>)
            """)
    }

    @Test func timeLimitsAreErrorsNotTraps() throws {
        try expectTranscript(
            """
            > run 146000000000s
            error: '146000000000s' is beyond the 2^62 ns horizon (about 146 years)
            > run 3000000000s
            > run 3000000000s
            error: time 3000000000s + 3000000000s is beyond the 2^62 ns horizon
            > run -1s
            error: negative duration '-1s' is not allowed
            > display rate 0
            error: rate '0' is outside 1…1000 Hz
            > display rate 1001Hz
            error: rate '1001Hz' is outside 1…1000 Hz
            > run until bogus.metric > 1
            error: unknown metric 'bogus.metric' (see 'metrics')
            > exit 256
            error: '256' is outside 0…255
            """)
    }

    @Test func idleTimeIsFree() throws {
        // Nothing observes vsyncs: a million seconds returns at once (README, Performance).
        try expectTranscript(
            """
            > run 1000000s
            > get clock.vsyncs
            clock.vsyncs = 60000000
            """)
    }

    @Test func exitLeavesFromAnywhere() throws {
        #expect(try runScript("echo a\nexit 7\necho b\n").outcome == .exited(7))
        #expect(try runScript("bogus\nquit\n", options: SessionOptions(keepGoing: true)).outcome == .exited(1))
        #expect(try runScript("quit\n").outcome == .exited(0))
    }

    @Test func historyListsTheSessionsCommands() throws {
        try expectTranscript(
            """
            > echo a
            a
            > echo b
            b
            > history
                1  echo a
                2  echo b
                3  history
            """)
    }
}
