import Foundation
import Testing

/// Issue 24: `debugsh --check` reads scripts without running them, and a misspelt word in a
/// condition is an error naming the metric's words (docs/Decisions.md, "Checking a script
/// without running it"; "Words a metric can take").
@Suite struct CheckTests {
    /// On the binary: `expect layout.state != setled` passed on main; now it fails naming the
    /// words, and nothing after it runs.
    @Test func aMisspeltWordIsAnErrorThroughTheBinary() throws {
        let r = try Binary.run(["-c", "expect layout.state != setled", "-c", "echo never"])
        #expect(r.stdout == "")
        #expect(
            r.stderr
                == "<command-line>:1: error: 'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)\n"
        )
        #expect(r.status == 1)
    }

    /// Every problem of a file, each at its line, on stderr; exit 1; nothing runs in between
    /// (the `echo` lines print nothing).
    @Test func checkReportsEveryProblemWithItsLine() throws {
        let dir = try Binary.folder([
            "suite.dsh": """
            echo not printed
            fps start
            run until fps.tier == goood
            expect clock.mode < default
            frobnicate
            run 5s --bogus
            alias settled = expect layout.state == setled
            settled
            after 1s { echo a; expect timer.t.state == don }
            after 1s run 1s
            source part.dsh
            expect "unterminated
            expect clock.now >= 1s
            """,
            "part.dsh": "echo fine\nexpect main.hangz == 0\n",
        ])
        let r = try Binary.run(["--check", "suite.dsh"], directory: dir)
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                suite.dsh:3: error: 'goood' is not a value of fps.tier; it is one of good, warning, critical, severe (did you mean 'good'?)
                suite.dsh:4: error: 'clock.mode < default': only == and != apply here (clock.mode is a word: default, tracking)
                suite.dsh:5: error: unknown command 'frobnicate' (try 'help')
                suite.dsh:6: error: unknown option '--bogus' for 'run'
                suite.dsh:8: error: 'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)
                suite.dsh:9: error: 'don' is not a value of timer.t.state; it is one of scheduled, paused, invalidated, done (did you mean 'done'?)
                suite.dsh:10: error: 'run' cannot be scheduled: only commands that neither move time nor end the session can
                part.dsh:2: error: unknown metric 'main.hangz'; did you mean 'main.hangs'? (sourced from suite.dsh:11)
                suite.dsh:12: error: unterminated " quote

                """)
        #expect(r.status == 1)
    }

    /// A clean file: exit 0, nothing printed, no file written — not the recording, the trace,
    /// the chart — and no plugin loaded.
    @Test func aCleanFileWritesNothingAndExitsZero() throws {
        let dir = try Binary.folder([
            "clean.dsh": """
            record rec.dsh
            trace start
            fps start
            stall 300ms
            run 2s
            fps plot chart.svg
            trace save trace.json
            expect fps.tier == good or fps.tier != severe
            expect layout.state == idle and clock.mode == default
            timer nstimer poll --interval 100ms --repeats
            expect timer.poll.state == scheduled
            break when main.hangs > 0
            run until clock.mode == tracking --timeout 1s
            after 1s { echo later; expect clock.now >= 1s }
            plugin load ./missing.so
            hangs show
            expect hangs.count == 0
            """,
            "lldb.dsh": """
            command alias hi = expect clock.mode == default
            hi
            command source part.dsh
            command unalias hi
            """,
            "part.dsh": "alias lo = echo low\nlo\n",
        ])
        let r = try Binary.run(["--check", "clean.dsh"], directory: dir)
        #expect(r.stdout == "")
        #expect(
            r.stderr
                == "clean.dsh:16: note: a command or metric no built-in tool declares is not checked here or after in this script: a plugin may declare it, and --check loads none\n"
        )
        #expect(r.status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["clean.dsh", "lldb.dsh", "part.dsh"])
        // LLDB's spellings: `command alias`, `command source`, `command unalias` are followed too.
        let lldb = try Binary.run(["--check", "lldb.dsh"], directory: dir)
        #expect(lldb.stderr == "" && lldb.status == 0, "\(lldb)")
    }

    /// Standard input is checked as `<stdin>`, and `-c` commands as `<command-line>`.
    @Test func stdinAndDashCAreChecked() throws {
        let piped = try Binary.run(["--check"], stdin: "echo a\nexpect clock.mode == tracknig\n")
        #expect(
            piped.stderr
                == "<stdin>:2: error: 'tracknig' is not a value of clock.mode; it is one of default, tracking (did you mean 'tracking'?)\n"
        )
        #expect(piped.status == 1)
        let dashC = try Binary.run(["--check", "-c", "echo a", "-c", "run 1s"])
        #expect(dashC.stdout == "" && dashC.stderr == "" && dashC.status == 0)
    }

    /// A missing script is a usage error, as without --check.
    @Test func aMissingScriptIsAUsageError() throws {
        let r = try Binary.run(["--check", "no-such.dsh"], directory: try Binary.folder([:]))
        #expect(r.stderr == "debugsh: cannot open 'no-such.dsh': No such file or directory\n")
        #expect(r.status == 2)
    }

    /// A `--plugin` that names no file is the usage error a run gives, though --check loads nothing.
    @Test func aMissingPluginIsAUsageError() throws {
        let dir = try Binary.folder(["a.dsh": "echo a\n"])
        let r = try Binary.run(["--check", "--plugin", "no-such.so", "a.dsh"], directory: dir)
        #expect(r.stderr == "debugsh: --plugin: cannot load plugin 'no-such.so': No such file or directory\n", "\(r)")
        #expect(r.status == 2)
        let run = try Binary.run(["--plugin", "no-such.so", "a.dsh"], directory: dir)
        #expect(run.stderr == r.stderr && run.status == 2, "\(run)")
    }

    /// Under --json each problem is a JSON line on stdout, with its place, and a summary ends them;
    /// the text still goes to stderr.
    @Test func jsonGivesALinePerProblemAndASummary() throws {
        let dir = try Binary.folder([
            "outer.dsh": "echo a\nsource inner.dsh\n",
            "inner.dsh": "# inner\nexpect layout.state == setled\n",
        ])
        let r = try Binary.run(["--check", "--json", "outer.dsh", "-c", "nosuch 1"], directory: dir)
        let message =
            "'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)"
        #expect(
            r.stdout == """
                {"file": "inner.dsh", "line": 2, "severity": "error", "message": "\(message)", "sourced_from": ["outer.dsh:2"]}
                {"file": "<command-line>", "line": 1, "severity": "error", "message": "unknown command 'nosuch' (try 'help')", "sourced_from": []}
                {"summary": {"errors": 2, "notes": 0}}

                """, "\(r)")
        #expect(r.stderr.contains("inner.dsh:2: error: \(message) (sourced from outer.dsh:2)\n"), "\(r)")
        #expect(r.status == 1)
        let clean = try Binary.run(["--check", "--json", "-c", "echo a"])
        #expect(clean.stdout == "{\"summary\": {\"errors\": 0, \"notes\": 0}}\n" && clean.stderr == "")
        #expect(clean.status == 0)
    }

    /// Issue 30: a frame-rate range is a value kind, so --check refuses the range a run refuses —
    /// for `fps start`, `timer displaylink`, `animate`, and a scheduled command — with the same
    /// message at the same line; a good range passes. On main, --check passed them all.
    @Test func checkRefusesTheRangesARunRefuses() throws {
        let dir = try Binary.folder([
            "ranges.dsh": """
            display adaptive
            fps start --range 200,10
            timer displaylink g --range 10Hz,abc
            timer displaylink ok --range 80,120,120
            animate 1s --range 80,120,121
            after 1s animate 1s --range 0,0
            """
        ])
        let errors = """
            ranges.dsh:2: error: frame rate range: minimum 200 Hz is above maximum 10 Hz
            ranges.dsh:3: error: '10Hz,abc' is not a frame rate range: 'abc' is not a whole number of hertz (min,max[,preferred], e.g. 80,120,120)
            ranges.dsh:5: error: frame rate range: preferred 121 Hz is outside 80…120 Hz (0: no preference)
            ranges.dsh:6: error: frame rate range: minimum 0 Hz is outside 1…1000 Hz

            """
        let check = try Binary.run(["--check", "ranges.dsh"], directory: dir)
        #expect(check.stdout == "" && check.stderr == errors, "\(check)")
        #expect(check.status == 1)
        let run = try Binary.run(["--keep-going", "ranges.dsh"], directory: dir)
        #expect(run.stderr == errors, "\(run)")
        #expect(run.status == 1)
        let clean = try Binary.run(["--check", "-c", "fps start --range 10,120", "-c", "animate 1s --range=80,120,120"])
        #expect(clean.stdout == "" && clean.stderr == "" && clean.status == 0, "\(clean)")
    }

    /// Every example scenario passes --check.
    @Test func everyExampleScriptPassesCheck() throws {
        let examples = Binary.packageRoot.appendingPathComponent("Examples")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".dsh") }.sorted()
        #expect(scripts.count > 10)
        let r = try Binary.run(["--check"] + scripts.map { "Examples/\($0)" })
        #expect(r.stderr == "")
        #expect(r.status == 0)
    }
    /// `--check` reads nesting as deep as a run takes (issue 36, 6: it crashed with SIGSEGV at
    /// about 5,000 levels, which a run handles at 100,000): a chain of 100,000 `after`s, and
    /// nested blocks with an error at the bottom, found at the line, in the order a run meets it.
    @Test func deepNestingIsChecked() throws {
        let chain = String(repeating: "after 1ns ", count: 100_000) + "expect clock.mode == tracknig\n"
        let blocks =
            "after 1ms " + String(repeating: "{ after 1ms ", count: 3_000) + "bogus"
            + String(repeating: " }", count: 3_000) + "\nafter 1ms { echo a; run 1s }\n"
        let dir = try Binary.folder(["chain.dsh": chain, "blocks.dsh": blocks])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["--check", "chain.dsh", "blocks.dsh"], directory: dir)
        #expect(r.status == 1, "\(r)")
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "chain.dsh:1: error: 'tracknig' is not a value of clock.mode; it is one of default, tracking (did you mean 'tracking'?)",
                "blocks.dsh:1: error: unknown command 'bogus' (try 'help')",
                "blocks.dsh:2: error: 'run' cannot be scheduled: only commands that neither move time nor end the session can",
            ], "\(r)")
    }
    /// `--check` refuses what a run refuses, with the same words, from the same declarations
    /// (issue 36, 15: `every 0s` and an unknown `break on` event passed the check).
    @Test(arguments: [
        "every 0s echo a", "break on bogus.event", "break on fps.hitc", "fps start --range 60,10",
        "stall -1ms", "every 999ns --times 2 echo b", "fps start --window 0s", "timer nstimer t --interval 0s",
        "timer gcd g --interval 0s", "view add a\nview animate a --frame 0,0,1,1 --over 0s",
    ])
    func checkRefusesWhatARunRefuses(_ line: String) throws {
        let run = try Binary.run(["--no-plugins", "-c", line])
        let check = try Binary.run(["--no-plugins", "--check", "-c", line])
        #expect(run.status == 1 && check.status == 1, "\(run)\n\(check)")
        func errors(_ text: String) -> [String] {
            text.split(separator: "\n").filter { $0.contains(": error: ") }.map {
                String($0.replacingOccurrences(of: "at 1ms: ", with: ""))
            }
        }
        #expect(!errors(check.stderr).isEmpty && errors(check.stderr) == errors(run.stderr), "\(run)\n\(check)")
    }
}
