import Foundation
import Testing

/// The habits of LLDB users and the small things a new user hit (issue 11), on the built binary:
/// `settings`, `--help`, one-letter aliases, `apropos`, times that paste back, escaped input.
@Suite struct ConventionTests {
    /// Runs `-c` commands with --keep-going and returns the run.
    func run(_ commands: [String], stdin: String = "") throws -> Binary.Run {
        try Binary.run(["-k"] + commands.flatMap { ["-c", $0] }, stdin: stdin)
    }

    // MARK: LLDB conventions

    @Test func settingsShowSetAndListBesideSetAndSettings() throws {
        let r = try run([
            "settings show timer.late-threshold", "settings set timer.late-threshold 5ms",
            "settings show timer", "set timer.late-threshold 2ms", "settings timer", "settings list runloop",
            "settings show nope", "settings show timer.late-thresold", "settings set timer.late-threshold 5",
        ])
        #expect(
            r.stdout == """
                timer.late-threshold = 1ms
                timer.late-threshold = 5ms
                timer.late-threshold = 2ms  A firing is late when its lateness is above this (K2).
                runloop.coalescing = off  Coalesce timer wake-ups within tolerance and leeway (T5, D2).

                """, "\(r)")
        #expect(
            r.stderr == """
                <command-line>:7: error: no setting starts with 'nope' ('settings list' lists them)
                <command-line>:8: error: no setting starts with 'timer.late-thresold'; did you mean 'timer.late-threshold'?
                <command-line>:9: error: timer.late-threshold: '5' is not a duration: add a unit (ns, us, ms, s, min) or f for frames

                """, "\(r)")
        // `settings show` alone: every value, one `name = value` line each, as `set` takes it back.
        let all = try run(["settings show"])
        #expect(all.stdout.split(separator: "\n").first == "shell.stop-on-error = off", "\(all)")
        #expect(all.stdout.contains("\ntimer.late-threshold = 1ms\n"), "\(all)")
    }

    @Test func dashDashHelpPrintsTheHelpOfTheCommandOrVerb() throws {
        let help = try run(["help stall"])
        for command in ["stall --help", "stall 5ms --ui --help", "stal --help"] {
            #expect(try run([command]).stdout == help.stdout, "\(command)")
        }
        let verbHelp = try run(["help timer watch"])
        #expect(try run(["timer watch --help"]).stdout == verbHelp.stdout)
        #expect(verbHelp.stdout.hasPrefix("timer watch — Print each firing of an app timer"))
        // A command that needs a verb, and a command whose default verb is not asked about.
        #expect(try run(["view --help"]).stdout == run(["help view"]).stdout)
        #expect(try run(["timer --help"]).stdout == run(["help timer"]).stdout)
        // A rest argument keeps its words: `echo a --help` prints them; `echo --help` asks.
        #expect(try run(["echo a --help"]).stdout == "a --help\n")
        #expect(try run(["echo --help"]).stdout.hasPrefix("echo — Print the words.\n"))
        // `--` ends the options; a scheduled command asks when it runs.
        #expect(try run(["echo -- --help"]).stdout == "--help\n")
        #expect(try run(["after 1s stall --help", "run 2s"]).stdout == help.stdout)
        // No "unknown option" anywhere.
        let all = try run(["run --help", "run until --help", "fps start --help", "r --help", "settings show --help"])
        #expect(all.stderr == "", "\(all)")
        #expect(all.stdout.hasPrefix("run — Advance virtual time, processing what happens (S3–S4).\n"))
    }

    @Test func oneLetterAliasesAsInLLDB() throws {
        let r = try run(
            [], stdin: "r 1s\np clock.now\ns\np clock.now\nalias r = reset\nr\np clock.now\nunalias s\ns\nc\n")
        #expect(r.stdout == "clock.now = 1s\nclock.now = 1.016666666s\nclock.now = 0s\n", "\(r)")
        #expect(
            r.stderr == """
                <stdin>:9: error: ambiguous command 's': status, step, scroll, stall, source, set, settings
                <stdin>:10: error: play needs the interactive session, where time can follow the wall clock; use 'run' here

                """, "\(r)")
        let listed = try run(["alias", "alias twice = echo %1 %1", "alias r = run 1s", "alias"])
        #expect(
            listed.stdout == """
                built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):
                  c = play         LLDB's continue: time runs on, with the wall clock, until 'pause' or Ctrl-C
                  p = get          LLDB's print: one metric, as 'name = value'
                  q = quit         LLDB's quit
                  r = run          LLDB's run
                  s = step         LLDB's step: to the next vsync
                  continue = play  LLDB's continue, as 'c'
                  print = get      LLDB's print, as 'p'
                no aliases of your own: 'alias <name> = <expansion>' defines one
                built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):
                  c = play         LLDB's continue: time runs on, with the wall clock, until 'pause' or Ctrl-C
                  p = get          LLDB's print: one metric, as 'name = value'
                  q = quit         LLDB's quit
                  s = step         LLDB's step: to the next vsync
                  continue = play  LLDB's continue, as 'c'
                  print = get      LLDB's print, as 'p'
                yours:
                  r = run 1s
                  twice = echo %1 %1

                """, "\(listed)")
        // With every alias gone, `alias` says so rather than printing nothing.
        let none = try run([
            "unalias c; unalias p; unalias q; unalias r; unalias s; unalias continue; unalias print", "alias",
        ])
        #expect(none.stdout == "no aliases of your own: 'alias <name> = <expansion>' defines one\n", "\(none)")
        // `help r` says what the alias stands for, then shows the command's help.
        let help = try run(["help r"])
        #expect(help.stdout.hasPrefix("r is an alias (built-in): r = run\n\nrun — Advance virtual time"), "\(help)")
    }

    @Test func aproposRanksNamesAndWholeWordsFirstAndTakesAPhrase() throws {
        let hang = try run(["apropos hang"]).stdout.split(separator: "\n")
        #expect(
            hang.prefix(2) == [
                "metric main.hangs — Main-thread items of 250 ms or more (RL6).", "rule RL6 — Hangs and busy time",
            ])
        // Substrings (`cHANGes`) are left out when words match (issue 23).
        // Each line wraps at the width, its rest indented (issue 37).
        #expect(
            Array(hang.suffix(2)) == [
                "apropos — Search the help of every command, option, metric, setting and rule for", "    a word.",
            ])
        #expect(!hang.contains { $0.hasPrefix("rule L-A") })
        let phrase = try run(["apropos \"run loop\""]).stdout.split(separator: "\n")
        #expect(try run(["apropos run loop"]).stdout.split(separator: "\n") == phrase)
        #expect(
            Array(phrase.prefix(2)) == [
                "timer nstimer — Schedule an NSTimer on the main run loop: first fire now +", "    interval (T1).",
            ])
        #expect(!phrase.contains { $0.hasPrefix("run ") }, "'run' alone is not the phrase")
        let json = try Binary.run(["--json", "-c", "apropos hangs"])
        #expect(
            json.stdout.hasPrefix(
                #"{"command": "apropos hangs", "ok": true, "result": [{"topic": "metric main.hangs", "#))
        #expect(json.stdout.contains(#""match": "name""#))
    }

    // MARK: Times read back as written

    @Test func timesPrintExactlyAndPasteBackIntoExpect() throws {
        let r = try run([
            "load gpu 20ms", "load commit 16.666667ms", "load", "stall 100ms", "run 300ms", "get main.busy_until",
            "expect main.busy_until == 100ms", "step", "get clock.now", "expect clock.now == 316.666666ms",
        ])
        #expect(
            r.stdout == """
                frame 0s · commit 16.666667ms · gpu 20ms
                main.busy_until = 100ms
                clock.now = 316.666666ms

                """, "\(r)")
        #expect(r.stderr == "", "\(r)")
    }

    @Test func expectTakesAToleranceForStampsWithThreeDecimals() throws {
        let setUp = [
            "run 10ms", "view add a --frame 0,0,10,10", "view animate a --frame 0,0,20,10 --over 1s", "layout watch",
            "run 2s",
        ]
        let r = try run(
            setUp + [
                "expect layout.settled_at == 1.217s ± 1ms", "expect layout.settled_at == 1.217s +- 1ms",
                "expect layout.settled_at==1.217s±1ms", "expect layout.settled_at != 1.2s ± 10ms",
                "expect layout.settled_at == 1.217s ± 0.1ms", "expect layout.settled_at == 1.217s",
                "expect clock.vsyncs == 120 ± 1", "expect clock.mode == default ± 1", "expect clock.vsyncs < 3 ± 1",
            ])
        // The event's stamp, pasted with a tolerance, holds; pasted alone it does not.
        #expect(r.stdout == "[1.217s] layout: settled (window, 2 views, last change 1.016666666s)\n", "\(r)")
        #expect(
            r.stderr == """
                <command-line>:10: error: expectation failed: layout.settled_at == 1.217s ± 0.1ms (layout.settled_at = 1.216666666s)
                <command-line>:11: error: expectation failed: layout.settled_at == 1.217s (layout.settled_at = 1.216666666s)
                <command-line>:13: error: 'clock.mode == default ± 1': clock.mode is a word; a tolerance goes with numbers, durations and times
                <command-line>:14: error: 'clock.vsyncs < 3 ± 1': a tolerance goes with == and != only

                """, "\(r)")
    }

    // MARK: Control characters and bytes that are not UTF-8

    @Test func controlCharactersInInputAreShownEscaped() throws {
        let r = try Binary.run(
            ["-k"], stdin: "run\u{01}\necho a\u{1B}b\u{07}c \"d\\te\"\necho --raw x\u{1B}y\nhistory 3\n")
        #expect(
            r.stdout
                == "a\\x1bb\\x07c d\te\nx\u{1B}y\n    2  echo a\\x1bb\\x07c \"d\\te\"\n    3  echo --raw x\\x1by\n    4  history 3\n",
            "\(r)")
        #expect(r.stderr == "<stdin>:1: error: unknown command 'run\\x01'; did you mean 'run'?\n", "\(r)")
        // A line that is not UTF-8 shows its bytes escaped and does not run.
        let bad = try Binary.run([], stdinData: Data("echo ok\nrun 1s\u{01}".utf8) + Data([0xFF, 0x0A]))
        #expect(bad.stdout == "ok\n")
        #expect(bad.stderr == "<stdin>:2: error: not UTF-8 text: 'run 1s\\x01\\xff' (debugsh scripts are UTF-8)\n")
    }

    // MARK: Smaller things a new user hit

    @Test func smallerThingsSayWhatIsWrong() throws {
        let r = try run([
            "fps start", "fps compare", "alias 1poll = run", "timer nstimer 1poll --interval 1s", "object new 2x",
            "view grow window 100000", "view count",
        ])
        #expect(r.stdout == "100,001 views\n", "\(r)")
        let rule = "a name starts with a letter or '_' and goes on with letters, digits, '_', '.' and '-' (e.g. poll_2)"
        #expect(
            r.stderr == """
                <command-line>:2: error: no estimator has a reading yet: the first come after two of the meter's callbacks, most after 1s; run time first
                <command-line>:3: error: '1poll' is not a valid alias name: \(rule)
                <command-line>:4: error: '1poll' is not a valid new timer name: \(rule)
                <command-line>:5: error: '2x' is not a valid new object name: \(rule)

                """, "\(r)")
    }

    @Test func timerWatchLateAndAFixForATimerLateBecauseOfItsMode() throws {
        let r = try run([
            "timer nstimer poll --interval 50ms --repeats", "timer nstimer ok --interval 50ms --mode common --repeats",
            "timer watch late", "scroll 120ms", "run 300ms", "timer show poll --last 1", "timer show ok --last 1",
        ])
        #expect(
            r.stdout == """
                [0.120s] timer: poll fired 70ms late (mode, scheduled 50ms)
                poll: nstimer, repeats every 50ms, tolerance 0s, default mode — scheduled
                fires 4 · skipped 1 · max late 70ms (mode) · next fire 300ms
                fix: add it to the common modes (--mode common; in the app, RunLoop.main.add(timer, forMode: .common)): in the default mode it cannot fire while a scroll runs the tracking mode (T7)
                the last 1 of 4 firings; --last n shows more (the last 1000 are kept)
                #  scheduled  fired  late  cause  skipped
                4  250ms      250ms  0s    -      0
                ok: nstimer, repeats every 50ms, tolerance 0s, common mode — scheduled
                fires 5 · skipped 0 · max late 0s · next fire 300ms
                the last 1 of 5 firings; --last n shows more (the last 1000 are kept)
                #  scheduled  fired  late  cause  skipped
                5  250ms      250ms  0s    -      0

                """, "\(r)")
        #expect(r.stderr == "", "\(r)")
    }
}
