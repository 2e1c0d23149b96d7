import Foundation
import Testing

/// Every file debugsh writes — `record`, `trace save`, `--trace`, `fps plot`/`timer plot` to an
/// SVG — is written atomically through a temporary file in the target's folder: one nobody can
/// plant a link for, that never replaces a read-only file, and that nothing leaves behind
/// (issue 26, points 9–11).
@Suite(.serialized) struct FileWriteTests {
    /// Runs `/bin/sh -c script debugsh` in `dir`: the script may prepare the folder, then
    /// `exec "$0" …` becomes debugsh with the same pid (`$$`).
    func shell(_ script: String, in dir: URL) throws -> Binary.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, Binary.path]
        process.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        process.environment = env
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Binary.Run(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            status: process.terminationStatus)
    }

    func names(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    /// Point 9: the temporary file's name used to be `<target>.tmp.<pid>`, opened without
    /// O_EXCL: a link planted under that name made debugsh truncate and overwrite the file it
    /// pointed to. Now such a link is left alone, and so is the file it points to.
    @Test func aPlantedLinkIsNotFollowed() throws {
        let dir = try Binary.folder(["victim": "precious\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(chmod(dir.appendingPathComponent("victim").path, 0o600) == 0)
        let r = try shell(
            """
            for f in r.dsh t.json chart.svg; do ln -s victim $f.tmp.$$ || exit 9; done
            exec "$0" --no-rc -c 'record r.dsh' -c 'trace start' -c 'fps start' -c 'animate 2s' -c 'run 1s' \
              -c 'trace save t.json' -c 'fps plot chart.svg' -c 'record stop'
            """, in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOf: dir.appendingPathComponent("victim"), encoding: .utf8) == "precious\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("victim").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        for name in ["r.dsh", "t.json", "chart.svg"] {
            let a = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
            #expect(a[.type] as? FileAttributeType == .typeRegular, "\(name)")
        }
        // The planted links stay as they were; nothing else is left.
        let left = try names(in: dir).filter { !["victim", "r.dsh", "t.json", "chart.svg"].contains($0) }
        #expect(left.count == 3 && left.allSatisfy { $0.contains(".tmp.") }, "\(left)")
    }

    /// Point 10: a read-only file — mode 0444, named directly or through a link — is refused, as
    /// `cp`, a shell redirection and an editor refuse it (root included, as vim does); it used
    /// to be replaced whenever its folder was writable.
    @Test func aReadOnlyFileIsRefused() throws {
        let dir = try Binary.folder(["ro.dsh": "old\n", "ro.json": "old\n", "ro.svg": "old\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["ro.dsh", "ro.json", "ro.svg"] {
            #expect(chmod(dir.appendingPathComponent(name).path, 0o444) == 0)
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent("link-" + name).path, withDestinationPath: name)
        }
        let r = try Binary.run(
            [
                "--no-rc", "-k", "-c", "record ro.dsh", "-c", "record link-ro.dsh", "-c", "trace start", "-c",
                "fps start; animate 1s", "-c", "run 100ms", "-c", "trace save ro.json", "-c", "trace save link-ro.json",
                "-c", "fps plot ro.svg", "-c", "fps plot link-ro.svg",
            ], directory: dir)
        #expect(r.status == 1, "\(r)")
        let refusal = "it is read-only (mode 0444): debugsh does not replace a file its user may not write"
        #expect(
            r.stderr == """
                <command-line>:1: error: cannot write 'ro.dsh': \(refusal)
                <command-line>:2: error: cannot write 'link-ro.dsh': \(refusal)
                <command-line>:6: error: cannot write 'ro.json': \(refusal)
                <command-line>:7: error: cannot write 'link-ro.json': \(refusal)
                <command-line>:8: error: cannot write 'ro.svg': \(refusal)
                <command-line>:9: error: cannot write 'link-ro.svg': \(refusal)

                """, "\(r)")
        for name in ["ro.dsh", "ro.json", "ro.svg"] {
            #expect(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) == "old\n", "\(name)")
        }
        // --trace, at the end of the run: the same refusal, and exit status 1.
        let option = try Binary.run(["--no-rc", "--trace", "ro.json", "-c", "run 10ms"], directory: dir)
        #expect(option.status == 1, "\(option)")
        #expect(option.stderr == "debugsh: --trace: cannot write 'ro.json': \(refusal)\n", "\(option)")
        #expect(try names(in: dir) == ["link-ro.dsh", "link-ro.json", "link-ro.svg", "ro.dsh", "ro.json", "ro.svg"])
    }

    /// Point 11: killed in the middle of a write (SIGKILL, the OOM killer), debugsh leaves
    /// nothing behind: the temporary file has no name until it is complete. It used to leave a
    /// half-written `<target>.tmp.<pid>` for ever.
    @Test func aKillInTheMiddleOfAWriteLeavesNothing() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = try Spawned(
            [
                "--no-rc", "-c", "trace start --limit 3000000", "-c", "timer gcd t --interval 50us", "-c", "run 10s",
                "-c", "echo started", "-c", "run 1ns", "-c", "trace save t.json",
            ], directory: dir)
        #expect(child.waitForStdout("started\n", seconds: 120))
        // Wait until debugsh has the temporary file open, then kill it.
        #expect(child.waitForOpenFile(in: dir), "debugsh never opened a file in the folder")
        kill(child.pid, SIGKILL)
        let end = child.wait(seconds: 20)
        #expect(end.status == 128 + SIGKILL || end.status == SIGKILL, "\(end)")
        #expect(try names(in: dir) == [], "\(end)")
    }
}
