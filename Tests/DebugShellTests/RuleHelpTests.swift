import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// `help <rule>` and the rules in help texts and `apropos` (docs/Semantics.md, Decisions.md).
@Suite struct RuleHelpTests {
    @Test func helpPrintsARuleItsSourcesAndWhatItTouches() throws {
        try expectTranscript(
            """
            > help rl6
            RL6 — Hangs and busy time

            main.hangs counts main-thread items of 250 ms or more (Apple's hang threshold);
            main.busy_ratio is the main thread's busy time over the last whole second.

            SOURCE: doc, model

            WHY:
              [doc] Apple calls a main run loop that is unresponsive for 250 ms or more a
              hang (Xcode's hang detection and MetricKit use that threshold). [model] The
              busy ratio's window, the last whole second of virtual time, is chosen here.

            TOUCHES:
              stall, main.hangs, main.busy_ratio

            In docs/Semantics.md under RL6.
            """)
    }

    @Test func aStepPointsToItsRuleAndAWorkedExampleSaysWhatItIs() throws {
        try expectTranscript(
            """
            > help S4.6
            S4.6 — One instant's order, step 6 (a step of S4)

            The main thread, if it is free at t, runs run-loop iterations (RL4). A
            main-thread item that ends at t sees everything of steps 1–5 at t as having
            happened before it ended.

            SOURCE: model

            WHY: see 'help S4' (One instant's order).

            TOUCHES:
              after, at, every, scroll, run

            SEE ALSO: RL4

            In docs/Semantics.md under S4.
            > help T-A
            T-A — Worked example: an NSTimer under a stall

            timer nstimer poll --interval 50ms --repeats; stall 100ms; run 300ms: the timer
            fires at 100 (fire date 50: late 50 ms, cause busy), 150, 200 and 250:
            timer.poll.fires = 4, timer.poll.skipped = 1 — the grid point 100, which equals
            the time the late callback returned (T4 skips a point equal to now).

            SOURCE: a worked example, computed from the rules it cites

            TOUCHES:
              timer nstimer, stall, timer show, timer.<name>.fires, timer.<name>.skipped

            SEE ALSO: T4

            In docs/Semantics.md under T-A.
            """)
    }

    @Test func aRuleWithStepsPrintsThemAsAList() throws {
        let out = try Transcript.run("help RL4\n", tools: [CounterTool.self]).stdout
        #expect(out.hasPrefix("RL4 — A run-loop iteration\n\nWhile the main thread is free and there is work"))
        #expect(
            out.contains("\n  1. RL4.1 If the main queue has blocks and the previous iteration did not drain\n     it:")
        )
        #expect(out.contains("\n  3. RL4.3 Service the ready source"))
        #expect(out.contains("\nSOURCE: src, model\n"))
        #expect(out.contains("\nSEE ALSO: DL8, DL-A, T3, R1\n"))
    }

    @Test func unknownRulesAndExtraWordsAreErrors() throws {
        let unknown = "RL" + "9"
        try expectTranscript(
            """
            > help \(unknown)
            error: no rule '\(unknown)' in docs/Semantics.md ('help' lists the rules)
            > help T4 now
            error: unexpected argument 'now' after rule T4
            > help x.y
            error: no help for 'x.y': not a command, metric, setting or rule
            """)
    }

    @Test func helpTextsNameTheRulesTheyCite() throws {
        try expectTranscript(
            """
            > help main.busy_ratio
            main.busy_ratio (metric, number) — Main-thread busy time over the last whole second (RL6).
            RULES: RL6 (type 'help RL6')
            > help runloop.coalescing
            runloop.coalescing (setting, on|off, default off) — Coalesce timer wake-ups within tolerance and leeway (T5, D2).
            RULES: T5, D2 (type 'help <rule>', e.g. 'help T5')
            """)
        let run = try Transcript.run("help run\nhelp after\n", tools: [CounterTool.self]).stdout
        #expect(run.contains("\nRULES: S3, S4 (type 'help <rule>', e.g. 'help S3')\n"))
        #expect(run.contains("\nRULES: S4.1 (type 'help S4.1')\n"))
        let overview = try Transcript.run("help\n", tools: [CounterTool.self]).stdout
        #expect(
            overview.contains("RULES OF THE SIMULATED DEVICE (docs/Semantics.md):\n  S1–S4     time and ordering\n"))
        #expect(overview.contains("\n  examples  DL-A, DL-B, T-A, D-A, R-A, R-B, R-C, R-D, L-A\n"))
    }

    @Test func helpCompletesRuleIDs() throws {
        let session = try Session(tools: [CounterTool.self], sink: MemorySink())
        #expect(session.complete("help DL").candidates == (1...8).map { "DL\($0)" } + ["DL-A", "DL-B"])
        #expect(session.complete("help S4.").candidates == (1...6).map { "S4.\($0)" })
        #expect(!session.complete("help ").candidates.contains("T1"))
    }

    @Test func aproposFindsRules() throws {
        try expectTranscript(
            """
            > apropos hang threshold
            rule RL6 — Hangs and busy time
            > apropos threshold
            rule RL6 — Hangs and busy time
            rule K2 — Lateness and its cause
            """)
    }

    @Test func theJSONResultCarriesTheRule() throws {
        let json = try Session(tools: [], sink: MemorySink()).context.helpTopics.topic(["dl7"]).json
        let text = json.serialized
        #expect(
            text.hasPrefix(#"{"rule": "DL7", "title": "A busy main thread drops vsyncs", "part_of": null, "text": "#))
        #expect(text.contains(#""sources": ["doc", "obs", "model"]"#))
        #expect(text.contains(#""touches": ["fps start", "fps.skipped", "timer displaylink", "timer.<name>.skipped"]"#))
    }

    /// Ids in text: the longest defined id, whole words only, ranges expanded within one level.
    @Test(arguments: [
        ("see T4 and DL7.", ["DL7", "T4"]),
        ("S4.1–S4.3 and S3–S4", ["S3", "S4", "S4.1", "S4.2", "S4.3"]),
        ("T1–T8", ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"]),
        ("DL-A, R-A", ["DL-A", "R-A"]),
        ("ST4 T" + "44 XT4 t4 T4x", []),
        ("RL4.2.", ["RL4.2"]),
    ])
    func citedIDsAreFoundInText(_ text: String, _ ids: [String]) {
        #expect(RuleBook.citedIDs(in: text) == ids)
    }

    @Test func listsOfIDsAreShortenedToRanges() {
        #expect(RuleBook.compactList(["T1", "T2", "T3", "K2"]) == "T1–T3, K2")
        #expect(RuleBook.compactList(["T1", "T2", "K2"]) == "T1, T2, K2")
        #expect(RuleBook.compactList(["RL3", "RL4", "RL5"]) == "RL3–RL5")
        #expect(RuleBook.compactList(["S4.1", "S4.2", "S4.3", "S4"]) == "S4, S4.1–S4.3")
    }

    @Test func ruleShapes() {
        for word in ["RL6", "rl6", "S4.1", "T-A", "X" + "-B", "QQ" + "12"] {
            #expect(RuleBook.looksLikeRuleID(word), "\(word)")
        }
        for word in ["run", "fps", "S", "S4.", "RLX4", "T--A", "4T", "ABC1"] {
            #expect(!RuleBook.looksLikeRuleID(word), "\(word)")
        }
    }
}
