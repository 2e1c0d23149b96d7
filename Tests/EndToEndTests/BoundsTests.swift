import Foundation
import Testing

/// Every input ends, costs what it says, and says what went wrong (issue 15): each test runs the
/// built binary under a time limit, and some measure its peak memory.
@Suite struct BoundsTests {
    // MARK: 1. Commands that schedule themselves at the same instant

    @Test func anAliasThatSchedulesItselfAtTheSameInstantStops() throws {
        let end = try Spawned.run(
            ["--no-rc", "-c", "alias z = after 0s z", "-c", "z", "-c", "run 1ms"], directory: try Binary.folder([:]),
            seconds: 30)
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr == """
                <command-line>:2: error: at 0s: 'z' would be command 10,001 scheduled for 0s by commands running at 0s, \
                over the limit of 10,000 per instant: a chain that schedules itself for the instant it runs in never \
                lets time move (z → z → z → …, 10,001 long); delay it, e.g. 'after 1ns'
                <command-line>:3: error: 1 scheduled command failed during 'run'

                """, "\(end)")
    }

    @Test(arguments: ["step", "run until clock.now > 1s"])
    func aScriptThatSourcesItselfAtTheSameInstantStops(_ mover: String) throws {
        let dir = try Binary.folder(["loop.dsh": "after 0s source loop.dsh\n"])
        let end = try Spawned.run(["--no-rc", "-c", "source loop.dsh", "-c", mover], directory: dir, seconds: 60)
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr.contains(
                "loop.dsh:1: error: at 0s: 'source loop.dsh' would be command 10,001 scheduled for 0s by commands running at 0s"
            ), "\(end)")
        #expect(end.stderr.contains("(source loop.dsh → source loop.dsh → source loop.dsh → …, 10,001 long)"), "\(end)")
    }

    // MARK: 3. The shortest interval of anything that repeats

    @Test(arguments: [
        ("timer gcd g --interval 1ns", "a repeating timer needs an interval of at least 1us (got 1ns)"),
        (
            "timer nstimer n --interval 999ns --repeats",
            "a repeating timer needs an interval of at least 1us (got 999ns)"
        ),
        (
            "layout watch --mode seed --poll 1ns",
            "--poll must be at least 1us, the shortest interval of anything that repeats (got 1ns)"
        ),
    ])
    func aRepeatingThingHasAMinimumInterval(_ command: String, _ message: String) throws {
        // On an older build the timer was made and `run 1s` took minutes.
        let end = try Spawned.run(
            ["--no-rc", "-c", command, "-c", "run 1s"], directory: try Binary.folder([:]), seconds: 30)
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 1, "\(end)")
        #expect(end.stderr.hasPrefix("<command-line>:1: error: \(message)"), "\(end)")
    }

    @Test func oneShotsAndTheMinimumItselfAreFine() throws {
        let end = try Spawned.run(
            [
                "--no-rc", "-c", "timer gcd once --interval 1ns --once", "-c", "timer nstimer n --interval 1ns",
                "-c", "timer gcd g --interval 1us --queue background", "-c", "run 1ms",
                "-c", "get timer.once.fires", "-c", "get timer.n.fires", "-c", "get timer.g.fires",
            ], directory: try Binary.folder([:]), seconds: 60)
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout == "timer.once.fires = 1\ntimer.n.fires = 1\ntimer.g.fires = 999\n", "\(end)")
    }

    // MARK: 6. Linear costs

    @Test func aHundredThousandAliasesCostLinearTime() throws {
        var script = ""
        for i in 0..<100_000 { script += "alias a\(i) = echo \(i)\n" }
        script += "a99999\nalias a5\nunalias a5\na6\n"
        let end = try Spawned.run(
            ["--no-rc", "many.dsh"], directory: try Binary.folder(["many.dsh": script]), seconds: 60)
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout == "99999\na5 = echo 5\n6\n", "\(end)")
    }

    @Test func aHundredThousandNestedAftersCostLinearTime() throws {
        let line = String(repeating: "after 1ns ", count: 100_000) + "echo deep"
        let end = try Spawned.run(
            ["--no-rc", "nested.dsh"],
            directory: try Binary.folder(["nested.dsh": line + "\nrun 1ms\nget clock.now\n"]), seconds: 60)
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout == "deep\nclock.now = 1ms\n", "\(end)")
    }

    // MARK: 7. Memory

    @Test func aDeepViewTreeIsWrittenWithoutHoldingIt() throws {
        // 10,000 views in a chain: the listing is 150 MB, for the indentation of each row.
        let end = try Spawned.run(
            ["--no-rc", "-c", "view grow window 10000 --fanout 1", "-c", "view tree --depth 10000 --limit 10000"],
            directory: try Binary.folder([:]), keepStdout: false, seconds: 120)
        #expect(end.status == 0, "\(end)")
        #expect(end.stdoutBytes > 100_000_000, "\(end)")
        #expect(end.peakMB < 100, "streamed, not built whole (an older build peaked at 600 MB)\n\(end)")
    }

    @Test func theSessionHistoryIsBounded() throws {
        // Commands of 250 characters from a pipe: 4,000 of them, then ten times as many. The
        // history keeps the last 10,000, so the second run needs hardly more memory than the
        // first; an older build kept every command, 10 MB more.
        let padding = String(repeating: "p", count: 234)
        func run(_ commands: Int) throws -> Spawned.Ended {
            let dir = try Binary.folder([
                "in.dsh": String(repeating: "alias q = echo \(padding)\n", count: commands - 1) + "history 1\n"
            ])
            return try Spawned.run(
                ["--no-rc"], directory: dir, stdinPath: dir.appendingPathComponent("in.dsh").path, seconds: 120)
        }
        let few = try run(4_000)
        let many = try run(40_000)
        #expect(few.status == 0 && many.status == 0, "\(few)\n\(many)")
        #expect(many.stdout == "40000  history 1\n", "numbers go on past the commands let go\n\(many)")
        #expect(many.peakMB - few.peakMB < 5, "\(few)\n\(many)")
    }

    /// Runs debugsh on a named pipe that `writer` (a shell command) fills without end.
    func sourcePipe(_ writer: String) throws -> Spawned.Ended {
        let dir = try Binary.folder([:])
        let fifo = dir.appendingPathComponent("endless.dsh").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: "/bin/sh")
        feeder.arguments = ["-c", "\(writer) > endless.dsh"]
        feeder.currentDirectoryURL = dir
        try feeder.run()
        defer {
            if feeder.isRunning { feeder.terminate() }
            feeder.waitUntilExit()
        }
        return try Spawned.run(["--no-rc", "-c", "source endless.dsh"], directory: dir, seconds: 60)
    }

    @Test func sourceStopsAtTheFirstNulOfAnEndlessPipe() throws {
        let end = try sourcePipe("yes '' | tr '\\n' '\\0'")
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr
                == "endless.dsh:1: error: binary file (a NUL byte): debugsh scripts are text (sourced from <command-line>:1)\n",
            "\(end)")
        #expect(end.peakMB < 60, "an older build read 256 MiB first\n\(end)")
    }

    @Test func sourceStopsAtTheLineLimitOfAnEndlessPipe() throws {
        let end = try sourcePipe("yes | tr -d '\\n'")
        #expect(!end.timedOut, "\(end)")
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr
                == "endless.dsh:1: error: line longer than 1 MiB (the limit): reading the pipe stopped there (sourced from <command-line>:1)\n",
            "\(end)")
        #expect(end.peakMB < 60, "an older build read 256 MiB first\n\(end)")
    }

    @Test func aScriptLargerThanTheLimitIsRefusedUnread() throws {
        let dir = try Binary.folder([:])
        let path = dir.appendingPathComponent("huge.dsh").path
        // A sparse file: 300 MiB of zeros that take no disk space.
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(fd, 300 << 20) == 0)
        close(fd)
        let end = try Spawned.run(["--no-rc", "-c", "source huge.dsh"], directory: dir, seconds: 60)
        #expect(end.status == 1, "\(end)")
        #expect(end.stderr == "<command-line>:1: error: 'huge.dsh' is larger than 256 MiB\n", "\(end)")
        #expect(end.peakMB < 60, "\(end)")
    }

    // MARK: 9. Output that cannot be written

    @Test func aFullDeviceEndsTheRunWithAMessage() throws {
        // /dev/full: every write fails with ENOSPC (it is opened for writing, never replaced).
        let end = try Spawned.run(
            ["--no-rc", "-c", "metrics", "-c", "echo after"], directory: try Binary.folder([:]),
            stdoutPath: "/dev/full",
            seconds: 30)
        #expect(end.status == 1, "\(end)")
        #expect(end.stderr == "debugsh: cannot write to standard output: No space left on device\n", "\(end)")
    }

    @Test func aClosedPipeEndsTheRunQuietly() throws {
        // `debugsh … | head -n 2` while a long run prints: it ends when head does.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [
            "-c",
            "\"$0\" --no-rc -c 'every 1ms echo tick' -c 'run 1000000s' 2>err | head -n 2 >out; echo \"${PIPESTATUS[0]}\" >status",
            Binary.path,
        ]
        let dir = try Binary.folder([:])
        shell.currentDirectoryURL = dir
        let started = Date()
        try shell.run()
        while shell.isRunning && Date().timeIntervalSince(started) < 600 { usleep(20_000) }
        if shell.isRunning { shell.terminate() }
        shell.waitUntilExit()
        let status = try String(contentsOf: dir.appendingPathComponent("status"), encoding: .utf8)
        let stderr = try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)
        #expect(status == "141\n", "killed by SIGPIPE, as other tools are")
        #expect(stderr == "")
        #expect(try String(contentsOf: dir.appendingPathComponent("out"), encoding: .utf8) == "tick\ntick\n")
        // No wall-clock bound: a run that ignored SIGPIPE would print on (and be terminated after
        // 60 s, failing the status check above).
    }

    // MARK: 10. Messages that say what happened

    @Test func aDeepAliasChainIsADepthLimitNotALoop() throws {
        var arguments = ["--no-rc"]
        for i in 1...17 { arguments += ["-c", "alias a\(i) = a\(i + 1)"] }
        arguments += ["-c", "alias a18 = echo hi", "-c", "a3", "-c", "a1"]
        let end = try Spawned.run(arguments, directory: try Binary.folder([:]), seconds: 30)
        #expect(end.stdout == "hi\n", "16 deep is fine\n\(end)")
        #expect(
            end.stderr
                == "<command-line>:20: error: aliases nest at most 16 deep: 'a1' goes deeper (a1 → a2 → a3 → a4 → a5 → a6 → a7 → a8 → a9 → a10 → a11 → a12 → a13 → a14 → a15 → a16 → a17)\n",
            "\(end)")
    }

    @Test func exitInAScheduledSourceSaysItCannot() throws {
        let end = try Spawned.run(
            ["--no-rc", "-c", "after 1ms source f.dsh", "-c", "run 2ms"],
            directory: try Binary.folder(["f.dsh": "exit 2\n"]), seconds: 30)
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr == """
                f.dsh:1: error: at 1ms: 'exit' cannot run from a scheduled command (it would end the session mid-run) \
                (sourced from <command-line>:1)
                <command-line>:2: error: 1 scheduled command failed during 'run'

                """, "\(end)")
    }

    @Test(arguments: [
        (
            "stall 4611686018s; stall 4611686018s; stall 4611686018s",
            "stall 4611686018s would end at or beyond the 2^62 ns horizon: the main thread's work already queued ends at 4611686018s at the earliest"
        ),
        (
            "at 4611686018427387904ns echo never",
            "4611686018.427387904s is the 2^62 ns horizon itself: time stops there, so a command scheduled for it could never run"
        ),
        (
            "timer after t 4611686018427387904ns",
            "the first fire would be at the 2^62 ns horizon, where time ends: it would never come"
        ),
    ])
    func valuesAtTheHorizonAreErrors(_ commands: String, _ message: String) throws {
        let end = try Spawned.run(["--no-rc", "-c", commands], directory: try Binary.folder([:]), seconds: 30)
        #expect(end.status == 1, "\(end)")
        #expect(end.stderr == "<command-line>:1: error: \(message)\n", "\(end)")
    }

    @Test func largeFramesPrintAsInputTakesThem() throws {
        let end = try Spawned.run(
            [
                "--no-rc", "-c", "view add a --frame 100000000000000000000,0.5,1,2",
                "-c", "view tree", "-c", "view set a --frame 100000000000000000000,0.5,1,2",
            ], directory: try Binary.folder([:]), seconds: 30)
        #expect(end.status == 0, "\(end)")
        #expect(end.stdout == "window 0,0,390,844\n└─ a 100000000000000000000,0.5,1,2\n", "\(end)")
    }

    @Test func invalidUTF8OnTheCommandLineIsRefused() throws {
        // Written through bash's $'…', since the test's own strings are UTF-8.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "\"$0\" --no-rc -c $'echo \\xc3\\x28'", Binary.path]
        let out = Pipe()
        let err = Pipe()
        shell.standardOutput = out
        shell.standardError = err
        try shell.run()
        shell.waitUntilExit()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shell.terminationStatus == 2)
        #expect(stdout == "")
        #expect(stderr == "debugsh: argument 3 is not UTF-8 text: debugsh reads UTF-8, as its scripts are\n")
    }

    @Test func aScriptThatSourcesItselfFailsOnce() throws {
        let dir = try Binary.folder(["loop.dsh": "source loop.dsh\nbogus\n"])
        let end = try Spawned.run(["--no-rc", "-k", "loop.dsh"], directory: dir, seconds: 30)
        #expect(end.status == 1, "\(end)")
        #expect(
            end.stderr == """
                loop.dsh:1: error: source nesting deeper than 64 (does a script source itself?) (sourced from loop.dsh:1 ×64)
                loop.dsh:2: error: unknown command 'bogus' (try 'help')

                """, "\(end)")
    }
}
