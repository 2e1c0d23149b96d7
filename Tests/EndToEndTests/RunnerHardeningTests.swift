import Foundation
import Testing

/// `debugsh test` against what an adversarial campaign threw at it (issue 36): folder links that
/// loop, names that are not UTF-8, a FIFO named `*.dsh`, baselines with numbers no report can
/// print, brackets nested 100,000 deep, malformed tolerances, control characters in file names,
/// and a runner killed with SIGKILL. Each used to hang, crash, mangle or leak; each now ends
/// with a clear message and nothing lost.
@Suite struct RunnerHardeningTests {
    static let isolated = TestRunnerTests.isolated

    func run(_ arguments: [String], in folder: URL) throws -> Binary.Run {
        try Binary.run(["test"] + arguments, directory: folder, environment: Self.isolated, timeout: 600)
    }

    /// `loop -> ..` and a second link to a folder already walked: every file once, and the walk
    /// ends (two such links used to hang `test` and `test --list`).
    @Test func folderLinksAreWalkedOnce() throws {
        let dir = try Binary.folder(["s/a.dsh": "run 1s\n", "s/sub/b.dsh": "run 1s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("s/sub")
        try FileManager.default.createSymbolicLink(atPath: sub.path + "/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: sub.path + "/again", withDestinationPath: "../sub")
        let listed = try run(["--list", "s"], in: dir)
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout == "s/a.dsh\ns/sub/b.dsh\n", "\(listed)")
        let ran = try run(["s"], in: dir)
        #expect(ran.stdout.contains("2 passed, 0 failed, 0 errors, 0 skipped — 2 files"), "\(ran)")
    }

    /// A folder whose name is not UTF-8 stops the run before it starts, naming it with its bytes
    /// escaped (its files used to be skipped without a word).
    @Test func aNameThatIsNotUTF8IsAnError() throws {
        let dir = try Binary.folder(["s/a.dsh": "run 1s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        var bad = Array((dir.path + "/s/bad").utf8CString.dropLast())
        bad.append(CChar(bitPattern: 0xFF))
        bad.append(0)
        #expect(mkdir(bad, 0o755) == 0)
        let ran = try run(["s"], in: dir)
        #expect(ran.status == 2, "\(ran)")
        #expect(ran.stderr.contains("test: 's/bad\\xff': a name that is not UTF-8"), "\(ran)")
        #expect(!ran.stdout.contains("PASS"), "\(ran)")
    }

    /// A FIFO named like a test is refused at once (it used to hang the suite, waiting for a writer).
    @Test func aFIFONamedLikeATestIsRefused() throws {
        let dir = try Binary.folder(["s/a.dsh": "run 1s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.path + "/s/pipe.dsh", 0o644) == 0)
        let ran = try run(["s"], in: dir)
        #expect(ran.status == 2, "\(ran)")
        #expect(ran.stderr.contains("test: 's/pipe.dsh' is a FIFO, not a regular file"), "\(ran)")
        let given = try run(["s/pipe.dsh"], in: dir)
        #expect(given.status == 2, "\(given)")
    }

    /// Stored values no report can print as a number (`1e999`, `NaN`, 30 digits, `1e-300`) are
    /// compared as text: the file fails with its table and the run ends with its summary and
    /// JUnit (it used to crash with SIGILL after the whole suite ran).
    @Test(arguments: ["1e999", "NaN", "-inf", "123456789012345678901234567890", "1e-300"])
    func numbersNoReportCanPrintAreComparedAsText(_ value: String) throws {
        let dir = try Binary.folder(["a.dsh": "fps start\nanimate 2s\nstall 100ms\nrun 2s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["--update-baseline", "b.json", "."], in: dir).status == 0)
        let url = dir.appendingPathComponent("b.json")
        var json = try String(contentsOf: url, encoding: .utf8)
        for metric in ["clock.now", "main.hangs", "fps.value"] {
            json = json.replacingOccurrences(
                of: #""\#(metric)": "[^"]*""#, with: #""\#(metric)": "\#(value)""#, options: .regularExpression)
        }
        try json.write(to: url, atomically: true, encoding: .utf8)
        let ran = try run(["--baseline", "b.json", "--junit", "j.xml", "."], in: dir)
        #expect(ran.status == 1, "\(ran)")
        #expect(ran.stdout.contains("metrics that moved (from the baseline → this run):\n  a.dsh\n"), "\(ran)")
        let lines = ran.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("    clock.now   \(value) ") && $0.contains("→ 2s") }, "\(ran)")
        #expect(ran.stdout.contains("0 passed, 1 failed, 0 errors, 0 skipped — 1 file in "), "\(ran)")
        try TestRunnerTests.validateJUnit(dir.appendingPathComponent("j.xml").path)
    }

    /// 200 kB of nested brackets, and tolerances that are not tolerances, are refused when the
    /// baseline is read (the first used to crash with SIGSEGV; the others read as exact).
    @Test(arguments: [
        (String(repeating: "[", count: 200_000), "values nested deeper than 64 levels at byte 64"),
        (
            #"{"debugsh-baseline": 1, "tolerances": {"fps.*": "lots"}, "files": {}}"#,
            "the tolerance of 'fps.*' is 'lots': a percentage ('2%'), a number ('0.01', '3') or a duration ('1ms'), not negative"
        ),
        (#"{"debugsh-baseline": 1, "tolerances": {"a": "-2%"}, "files": {}}"#, "the tolerance of 'a' is '-2%'"),
        (#"{"debugsh-baseline": 1, "tolerances": {"a": "nan"}, "files": {}}"#, "the tolerance of 'a' is 'nan'"),
    ])
    func aBaselineThatCannotBeOneIsRefused(_ text: String, _ message: String) throws {
        let dir = try Binary.folder(["a.dsh": "run 1s\n", "b.json": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        let ran = try run(["--baseline", "b.json", "."], in: dir)
        #expect(ran.status == 2, "\(ran)")
        #expect(ran.stderr.contains("'b.json' is not a debugsh baseline: \(message)"), "\(ran)")
    }

    /// A file name with an escape sequence and a line feed is printed with both escaped: the
    /// runner's output never moves the cursor or colours the terminal.
    @Test func controlCharactersInNamesAreEscaped() throws {
        let name = "red\u{1B}[31m\nx.dsh"
        let dir = try Binary.folder([
            name: "# test: skip a\u{1B}[2Jreason\nrun 1s\n", "b.dsh": "expect clock.now == 1s\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let ran = try run(["--slowest", "5", "."], in: dir)
        #expect(!ran.stdout.contains("\u{1B}") && !ran.stderr.contains("\u{1B}"), "\(ran)")
        #expect(ran.stdout.contains("SKIP  red\\x1b[31m\\nx.dsh (a\\x1b[2Jreason)"), "\(ran)")
        #expect(ran.stdout.contains("FAIL  b.dsh:1: expectation failed"), "\(ran)")
    }

    /// A runner killed with SIGKILL — which can tell no one — takes its children with it: the
    /// kernel kills each when the runner goes (PR_SET_PDEATHSIG). They used to run for ever.
    @Test func aKilledRunnerTakesItsChildren() throws {
        let dir = try Binary.folder(["slow.dsh": "every 1us stall 1us\nrun 100000s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["test", "slow.dsh"]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(Self.isolated) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func children() -> [pid_t] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return pids.compactMap { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
                let line = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
                let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? ""
                return line.contains("--test-report") && cwd == dir.path ? pid_t(pid) : nil
            }
        }
        // The sign: the child is running (its command line names the runner's report).
        var waited = 0
        while children().isEmpty && waited < 1200 {
            usleep(50_000)
            waited += 1
        }
        let started = children()
        #expect(!started.isEmpty, "the child never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The sign: the children are gone (a zombie has no command line left to read).
        waited = 0
        while !children().isEmpty && waited < 1200 {
            usleep(50_000)
            waited += 1
        }
        let left = children()
        #expect(left.isEmpty, "a child outlived its SIGKILLed runner")
        for pid in left where pid > 1 { kill(pid, SIGKILL) }
    }
}
