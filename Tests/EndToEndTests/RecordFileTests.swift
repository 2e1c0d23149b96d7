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

    /// Recording 100,000 commands of a script writes the file a handful of times, not once per
    /// command: linear, a few seconds at most even in a debug build.
    @Test func recordingIsLinear() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var script = "record r.dsh\n"
        for k in 0..<100_000 { script += k % 10 == 0 ? "run 1ms\n" : "load gpu \(k % 7)ms\n" }
        script += "record stop\n"
        try script.write(to: dir.appendingPathComponent("s.dsh"), atomically: true, encoding: .utf8)
        let start = Date()
        let r = try Binary.run(["--no-rc", "s.dsh"], directory: dir, timeout: 60)
        let elapsed = Date().timeIntervalSince(start)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix("recorded 90000 commands to r.dsh\n"))
        #expect(elapsed < 20, "took \(elapsed) s")
        let replay = try Binary.run(["--no-rc", "r.dsh", "-c", "load", "-c", "get clock.now"], directory: dir)
        #expect(replay.stdout == "frame 0s · commit 0s · gpu 4ms\nclock.now = 10s\n", "\(replay)")
    }
}
