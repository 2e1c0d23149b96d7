import DebugShellTesting
import Foundation
import Testing

/// `record` on the built binary: what it writes to, what it refuses, and that recording costs
/// time in proportion to the commands recorded.
@Suite struct RecordFileTests {
    /// A symbolic link is followed: its target gets the recording and the link stays a link.
    @Test func aLinkIsFollowed() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("link.dsh").path,
            withDestinationPath: "target.dsh")
        let r = try Binary.run(
            ["--no-rc", "-c", "record link.dsh", "-c", "timer nstimer x --interval 1s", "-c", "record stop"],
            directory: dir)
        #expect(r.status == 0, "\(r)")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("link.dsh").path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        let text = try String(contentsOf: dir.appendingPathComponent("target.dsh"), encoding: .utf8)
        #expect(text.contains("\ntimer nstimer x --interval 1s\n"), "\(text)")
        let replay = try Binary.run(["--no-rc", "target.dsh", "-c", "get timer.count"], directory: dir)
        #expect(replay.stdout == "timer.count = 1\n", "\(replay)")
    }

    /// A script that ends without `record stop` — at its end, by `exit`, by a failure — leaves
    /// a complete recording, as the interactive session does: every command and the time it
    /// reached. (It used to keep only what the last periodic write had, for a short script the
    /// header.)
    @Test(arguments: ["", "exit 3", "expect clock.now == 0s"])
    func aScriptsRecordingIsFinishedHoweverItEnds(_ ending: String) throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var arguments = ["--no-rc", "-c", "record r.dsh", "-c", "timer nstimer a --interval 100ms", "-c", "run 1s"]
        if !ending.isEmpty { arguments += ["-c", ending] }
        let r = try Binary.run(arguments, directory: dir)
        #expect(r.status == (ending.isEmpty ? 0 : ending == "exit 3" ? 3 : 1), "\(r)")
        let text = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        #expect(text.hasSuffix("\ntimer nstimer a --interval 100ms\nrun to 1s\n"), "\(text)")
        let replay = try Binary.run(
            ["--no-rc", "r.dsh", "-c", "get clock.now", "-c", "get timer.a.fires"], directory: dir)
        #expect(replay.stdout == "clock.now = 1s\ntimer.a.fires = 1\n", "\(replay)")
    }

    /// What is not a regular file is refused and left as it was: a folder, a FIFO.
    @Test func notARegularFile() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        for target in ["fifo", "."] {
            let r = try Binary.run(["--no-rc", "-c", "record \(target)"], directory: dir)
            #expect(r.status == 1)
            #expect(r.stderr == "<command-line>:1: error: cannot write '\(target)': not a regular file\n", "\(r)")
        }
        var st = stat()
        #expect(stat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO)
    }

    /// A folder that does not exist: the reason, from the system.
    @Test func theReasonIsGiven() throws {
        let r = try Binary.run(["--no-rc", "-c", "record /nonexistent/x.dsh"])
        #expect(r.stderr == "<command-line>:1: error: cannot write '/nonexistent/x.dsh': No such file or directory\n")
    }

    /// Recording 100,000 commands of a script from the binary: the file is finished and replays.
    /// (That it is written a handful of times, not once per command, is
    /// RecordTests.aScriptsRecordingIsWrittenLogarithmicallyOften: counted, not timed.)
    @Test func aLongScriptsRecordingReplays() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var script = "record r.dsh\n"
        for k in 0..<100_000 { script += k % 10 == 0 ? "run 1ms\n" : "load gpu \(k % 7)ms\n" }
        script += "record stop\n"
        try script.write(to: dir.appendingPathComponent("s.dsh"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["--no-rc", "s.dsh"], directory: dir, timeout: 600)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix("recorded 90000 commands to r.dsh\n"))
        let replay = try Binary.run(["--no-rc", "r.dsh", "-c", "load", "-c", "get clock.now"], directory: dir)
        #expect(replay.stdout == "frame 0s · commit 0s · gpu 4ms\nclock.now = 10s\n", "\(replay)")
    }

    /// An empty config folder, so that no plugin of the machine's loads by itself.
    static let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// Issue 26: a plugin loaded during the session is required where it was loaded, not at the
    /// recording's top, so that the replay's earlier commands read as the session's did; the
    /// recording replays with the plugin loaded at start or not.
    @Test func aPluginIsRequiredWhereItWasLoaded() throws {
        let lib = try ExamplePlugin.library.get()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            [
                "--no-rc", "-c", "record r.dsh", "-c", "timer gcd x --interval 50ms", "-c", "run 20ms", "-c",
                "plugin load \(lib)", "-c", "hangs start --over 100ms", "-c", "stall 300ms", "-c", "run 1s",
                "-c", "record stop",
            ], directory: dir, environment: RecordFileTests.isolated)
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let resolved = URL(fileURLWithPath: lib).resolvingSymlinksInPath().path
        #expect(
            text.hasSuffix(
                "\ntimer gcd x --interval 50ms\nrun to 20ms\nplugin require hangs --from \(resolved)\nhangs start --over 100ms\nstall 300ms\nrun to 1.02s\n"
            ), "\(text)")
        #expect(text.components(separatedBy: "plugin require").count == 2, "\(text)")
        for arguments in [["r.dsh"], ["--plugin", lib, "r.dsh"]] {
            let replay = try Binary.run(
                ["--no-rc"] + arguments + ["-c", "get hangs.count"], directory: dir,
                environment: RecordFileTests.isolated)
            #expect(replay.status == 0 && replay.stdout.hasSuffix("hangs.count = 1\n"), "\(arguments): \(replay)")
        }
    }

    /// Issue 26 point 6: `after 10ms plugin load P` is recorded once, as the scheduled command
    /// (with P's absolute path); it used to be written twice — a `plugin require` at the top and
    /// the scheduled line — and the replay failed at 10 ms with "already loaded".
    @Test func aScheduledPluginLoadIsRecordedOnce() throws {
        let lib = try ExamplePlugin.library.get()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            [
                "--no-rc", "-c", "record r.dsh", "-c", "after 10ms plugin load \(lib)", "-c", "run 20ms", "-c",
                "hangs start --over 100ms", "-c", "stall 300ms", "-c", "run 1s", "-c", "record stop",
            ], directory: dir, environment: RecordFileTests.isolated)
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        #expect(!text.contains("plugin require"), "\(text)")
        #expect(text.contains("\nafter 10ms plugin load \(lib)\nrun to 20ms\nhangs start --over 100ms\n"), "\(text)")
        let replay = try Binary.run(
            ["--no-rc", "r.dsh", "-c", "get hangs.count"], directory: dir, environment: RecordFileTests.isolated)
        #expect(replay.status == 0 && replay.stdout.hasSuffix("hangs.count = 1\n"), "\(replay)")
    }

    /// Issue 36 (the record/replay differential with breakpoints): a `break when` on a timer's
    /// metric outlives the `reset` that removed the timer; the recording made across the reset
    /// defines it again, which refused the unknown metric and failed the replay. It is pending now.
    @Test func aBreakpointOnAMetricAResetRemovedReplays() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            [
                "--no-rc", "-c", "record r.dsh", "-c", "timer gcd t --interval 10ms", "-c",
                "break when timer.t.fires >= 3",
                "-c", "reset", "-c", "run 50ms", "-c", "timer gcd t --interval 10ms", "-c", "run 100ms", "-c",
                "get clock.now",
            ], directory: dir, environment: RecordFileTests.isolated)
        #expect(r.status == 0 && r.stdout.hasSuffix("clock.now = 80ms\n"), "\(r)")
        let replay = try Binary.run(
            ["--no-rc", "r.dsh", "-c", "get clock.now"], directory: dir, environment: RecordFileTests.isolated)
        #expect(replay.status == 0 && replay.stdout.hasSuffix("clock.now = 80ms\n"), "\(replay)")
        #expect(replay.stderr.contains("timer.t.fires does not exist yet"), "\(replay)")
    }

    /// Issue 26: a hundred random scripts (`scripts/fuzz-record`: aliases, prefixes, nested
    /// `after`/`at`/`every`, `source` typed and scheduled, `reset`, the example plugin loaded at
    /// top level or by a scheduled command) each record themselves and replay, from another
    /// folder, to the same metrics. The release run does 5,000.
    @Test func randomRecordingsReplayToTheSameMetrics() throws {
        let lib = try ExamplePlugin.library.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Binary.packageRoot.appendingPathComponent("scripts/fuzz-record").path, "--binary", Binary.path,
            "--count", "100", "--seed", "26", "--jobs", "2", "--plugin", lib,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("100 scripts, 100 replayed identically"), "\(text)")
    }
}
