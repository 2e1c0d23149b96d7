import Foundation
import Testing

/// The command line (README) and the output and exit statuses (docs/JSON.md), on the built binary.
@Suite struct CommandLineTests {
    @Test func commandsFromDashC() throws {
        let r = try Binary.run(["-c", "echo hello", "-c", "stall 300ms; run 1s", "-c", "get main.hangs"])
        #expect(r.stdout == "hello\nmain.hangs = 1\n")
        #expect(r.stderr == "")
        #expect(r.status == 0)
    }

    @Test func dashCErrorsNameTheCommandLine() throws {
        let r = try Binary.run(["-c", "echo ok", "-c", "expect clock.rate == 30", "-c", "echo never"])
        #expect(r.stdout == "ok\n")
        #expect(r.stderr == "<command-line>:2: error: expectation failed: clock.rate == 30 (clock.rate = 60)\n")
        #expect(r.status == 1)
    }

    @Test func pipedStdinIsAScript() throws {
        let r = try Binary.run([], stdin: "echo one\n# a comment\nfrobnicate\necho never\n")
        #expect(r.stdout == "one\n")
        #expect(r.stderr == "<stdin>:3: error: unknown command 'frobnicate' (try 'help')\n")
        #expect(r.status == 1)
        #expect(!r.stdout.contains("\u{1B}"), "no escape codes when not a terminal")
    }

    @Test func stdinContinuationAndKeepGoing() throws {
        let r = try Binary.run(["-k"], stdin: "echo a \\\n  b\nbogus\necho c\n")
        #expect(r.stdout == "a b\nc\n")
        #expect(r.stderr == "<stdin>:3: error: unknown command 'bogus' (try 'help')\n")
        #expect(r.status == 1)
    }

    /// The rules travel inside the binary: `help <rule>` works from a folder with no docs beside it.
    @Test func rulesNeedNoFilesBesideTheBinary() throws {
        let dir = try Binary.folder([:])
        let r = try Binary.run(["-c", "help dl7", "-c", "apropos stale"], directory: dir)
        #expect(r.stdout.hasPrefix("DL7 — A busy main thread drops vsyncs\n\nA busy main thread drops vsyncs;"))
        #expect(r.stdout.contains("\nSOURCE: doc, obs, model\n"))
        #expect(r.stdout.contains("\nrule DL7 — A busy main thread drops vsyncs\n"))
        #expect(r.stderr == "")
        #expect(r.status == 0)
    }

    @Test func scriptsRunInOrderThenCommands() throws {
        let dir = try Binary.folder(["a.dsh": "echo a\n", "b.dsh": "echo b\n"])
        let r = try Binary.run(["a.dsh", "b.dsh", "-c", "echo c"], directory: dir)
        #expect(r.stdout == "a\nb\nc\n")
        #expect(r.status == 0)
    }

    @Test func sourcedErrorsNameTheChain() throws {
        let dir = try Binary.folder([
            "outer.dsh": "echo outer\n\n\n\n\n\nsource sub/inner.dsh\necho never\n",
            "sub/inner.dsh": "echo inner\nsource deeper.dsh\n",
            "sub/deeper.dsh": "echo deeper\n\nbogus 1\n",
        ])
        let r = try Binary.run(["outer.dsh"], directory: dir)
        #expect(r.stdout == "outer\ninner\ndeeper\n")
        #expect(
            r.stderr
                == "sub/deeper.dsh:3: error: unknown command 'bogus' (try 'help') (sourced from sub/inner.dsh:2, outer.dsh:7)\n"
        )
        #expect(r.status == 1)
    }

    @Test func runawaySourceRecursionIsAnError() throws {
        let dir = try Binary.folder(["loop.dsh": "source loop.dsh\n"])
        let r = try Binary.run(["loop.dsh"], directory: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: source nesting deeper than 64 (does a script source itself?)"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func exitStatuses() throws {
        #expect(try Binary.run(["-c", "exit 3"]).status == 3)
        let dir = try Binary.folder(["inner.dsh": "exit 4\necho never\n"])
        let nested = try Binary.run(["-c", "source inner.dsh; echo never"], directory: dir)
        #expect(nested.status == 4)
        #expect(nested.stdout == "")
        #expect(try Binary.run(["-c", "quit"]).status == 0)
    }

    @Test func usageErrorsExitTwo() throws {
        let unknown = try Binary.run(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("debugsh: Unknown option '--frobnicate'"))
        let missing = try Binary.run(["no-such-script.dsh"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "debugsh: cannot open 'no-such-script.dsh': No such file or directory\n")
        let noValue = try Binary.run(["-c"])
        #expect(noValue.status == 2)
    }

    /// A tool's JSON result is made only when it is shown (`CommandOutput(json:)` is evaluated
    /// under `--json`): with `--json` the new timer's row is there, field for field; without it
    /// nothing is printed.
    @Test func aNewTimersRowIsShownUnderJSONOnly() throws {
        let make = ["-c", "timer nstimer t --interval 10ms --repeats --cost 1ms"]
        let json = try Binary.run(["--no-rc", "--json"] + make)
        #expect(
            json.stdout
                == #"{"command": "timer nstimer t --interval 10ms --repeats --cost 1ms", "ok": true, "result": "#
                + #"{"name": "t", "owner": "app", "kind": "nstimer", "made_by": "nstimer", "mode": "default", "#
                + #""queue": null, "interval_ns": 10000000, "repeats": true, "slack_ns": 0, "preferred_fps": null, "#
                + #""cost_ns": 1000000, "ui": false, "fires": 0, "skipped": 0, "max_late_ns": null, "late": false, "#
                + #""max_late_cause": null, "last_data": null, "total_data": null, "next_fire_ns": 10000000, "#
                + #""state": "scheduled", "target": null, "weak": false}}"# + "\n")
        let text = try Binary.run(["--no-rc"] + make)
        #expect(text.status == 0 && text.stdout.isEmpty && text.stderr.isEmpty)
    }

    @Test func versionAndHelp() throws {
        let v = try Binary.run(["--version"])
        // The fingerprint is the hash of this checkout's DebugShellCore sources, made at build time.
        let core = try PluginTests.fingerprint()
        #expect(
            v.status == 0
                && v.stdout == "debugsh 0.2.0 (plugin API 6, Swift 6.3, DebugShellCore fingerprint \(core))\n",
            "\(v)")
        let h = try Binary.run(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("--keep-going") && h.stdout.contains("--no-rc"))
        #expect(h.stdout.contains("--plugin <path>") && h.stdout.contains("--no-plugins"))
    }

    @Test func jsonAndEchoFlags() throws {
        let json = try Binary.run(["--json", "-c", "echo hi; get clock.rate"])
        #expect(
            json.stdout == """
                {"command": "echo hi", "ok": true, "result": {"text": "hi"}}
                {"command": "get clock.rate", "ok": true, "result": {"metric": "clock.rate", "type": "integer", "value": 60}}

                """)
        let echo = try Binary.run(["--echo", "-c", "echo hi"])
        #expect(echo.stdout == "> echo hi\nhi\n")
    }

    @Test func sameInputSameBytes() throws {
        let script = "animate 2s\nload gpu 20ms\nstall 120ms --ui\nevery 333ms echo tick\nrun 3s\nmetrics\nclock\n"
        let first = try Binary.run([], stdin: script)
        let second = try Binary.run([], stdin: script)
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout && first.stderr == second.stderr)
        #expect(first.stdout.contains("render.presents = 57"))
    }

    @Test func interruptStopsARunAndExits130() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["-c", "echo started; animate 1000000s; run 1000000s; echo never"]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Output before a run is flushed before time runs: wait for it, then interrupt.
        let first = output.fileHandleForReading.availableData
        #expect(String(decoding: first, as: UTF8.self) == "started\n")
        Thread.sleep(forTimeInterval: 0.2)
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            Issue.record("SIGINT did not stop the run")
            return
        }
        #expect(process.terminationStatus == 130)
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(err.hasPrefix("<command-line>:1: error: interrupted at "))
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest == "")
    }
}

/// The README's main job: `debugsh Examples/tour.dsh`.
@Suite struct TourTests {
    @Test func theTourRunsFromTheBinary() throws {
        let r = try Binary.run(["Examples/tour.dsh"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.stdout.contains("== the simulated device"))
    }
}
