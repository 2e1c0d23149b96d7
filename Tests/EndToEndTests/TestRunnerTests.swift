import DebugShellTesting
import Foundation
import Testing

/// `debugsh test` (docs/Testing.md) on the built binary: every path of a failure — a failed
/// `expect`, an error, a crash of the child, a timeout — in the summary, the JUnit XML (checked
/// against Jenkins' junit-10.xsd) and the GitHub annotations; shards, --list, --filter, exit
/// statuses, -j, baselines, and `debugsh test Examples` as the repository's CI runs it.
@Suite struct TestRunnerTests {
    /// An empty config folder, so that no plugin of the machine's loads by itself.
    static let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path,
        "GITHUB_ACTIONS": "false",
    ]

    static let twoFailures = """
        stall 300ms
        run 1s
        expect main.hangs == 2
        expect clock.now == 2s
        get clock.now
        """

    static let anError = """
        run 1s
        expect main.hangs == 3
        bogus command
        expect main.hangs == 4
        """

    static let passes = """
        stall 300ms
        run 1s
        expect main.hangs == 1
        """

    func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Binary.Run {
        try Binary.run(["test"] + arguments, directory: folder, environment: Self.isolated.merging(environment) { $1 })
    }

    /// Validates a JUnit file against the vendored XSD with python3's xmlschema; fails (never
    /// skips) when xmlschema is missing (.ci/run installs it).
    static func validateJUnit(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xsd = Binary.packageRoot.appendingPathComponent("Tests/Fixtures/junit-10.xsd").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])", xsd, path,
        ]
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "JUnit XML invalid (or xmlschema missing): \(message)",
            sourceLocation: sourceLocation)
    }

    func annotations(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("::error ") }.map(String.init)
    }

    /// Two failed `expect`s in one file are both reported, each with its line, condition, values
    /// and virtual time, and the file goes on (its `get` prints); an error ends its file (the
    /// `expect` after it is not reached) — in the summary, the JUnit XML and the annotations.
    @Test func failedExpectsAndAnErrorShowEverywhere() throws {
        let dir = try Binary.folder(["two.dsh": Self.twoFailures, "err.dsh": Self.anError, "ok.dsh": Self.passes])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["--junit", "report.xml", "--annotations", "github", "."], in: dir)
        #expect(r.status == 1, "\(r)")
        let out = r.stdout
        #expect(out.contains("FAIL  two.dsh ("), "\(r)")
        #expect(out.contains("ERROR err.dsh ("), "\(r)")
        #expect(out.contains("PASS  ok.dsh ("), "\(r)")
        #expect(
            out.contains("  FAIL  two.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s]\n"), "\(r)")
        #expect(
            out.contains("  FAIL  two.dsh:4: expectation failed: clock.now == 2s (clock.now = 1s) [at 1s]\n"), "\(r)")
        #expect(
            out.contains("  FAIL  err.dsh:2: expectation failed: main.hangs == 3 (main.hangs = 0) [at 1s]\n"), "\(r)")
        #expect(out.contains("  ERROR err.dsh:3: unknown command 'bogus'"), "\(r)")
        #expect(!out.contains("main.hangs == 4"), "an error ends its file: \(r)")
        #expect(out.contains("1 passed, 1 failed, 1 error, 0 skipped — 3 files in "), "\(r)")
        #expect(
            annotations(out) == [
                "::error file=err.dsh,line=2,title=debugsh test%3A expect failed::expectation failed: main.hangs == 3 (main.hangs = 0) [at 1s]",
                "::error file=err.dsh,line=3,title=debugsh test%3A error::unknown command 'bogus' (try 'help') [at 1s]",
                "::error file=two.dsh,line=3,title=debugsh test%3A expect failed::expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s]",
                "::error file=two.dsh,line=4,title=debugsh test%3A expect failed::expectation failed: clock.now == 2s (clock.now = 1s) [at 1s]",
            ], "\(r)")
        let xmlPath = dir.appendingPathComponent("report.xml").path
        try Self.validateJUnit(xmlPath)
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(
            xml.contains("<testsuite name=\"debugsh test\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\""),
            "\(xml)")
        // One <failure> for the file, its message the first, its text every failed expect.
        #expect(
            xml.contains(
                "<failure message=\"two.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) (and 1 more)\" type=\"expect\">two.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s]\ntwo.dsh:4: expectation failed: clock.now == 2s (clock.now = 1s) [at 1s]</failure>"
            ),
            "\(xml)")
        #expect(
            xml.contains("<error message=\"err.dsh:3: unknown command &apos;bogus&apos;")
                || xml.contains("<error message=\"err.dsh:3: unknown command 'bogus'"), "\(xml)")
        // The file went on after its failed expects: its `get` printed, kept as its standard output.
        #expect(xml.contains("<system-out>clock.now = 1s\n</system-out>"), "\(xml)")
        #expect(xml.contains("<system-err>two.dsh:3: error: expectation failed"), "\(xml)")
    }

    /// On a terminal a progress line is drawn on standard error, redrawn in place and erased at
    /// the end; piped, nothing of it (`script` gives the runner a terminal).
    @Test func progressLineOnlyOnATerminal() throws {
        let dir = try Binary.folder(["a.dsh": "every 1ms stall 10us\nrun 20s\n", "b.dsh": Self.passes])
        defer { try? FileManager.default.removeItem(at: dir) }
        let piped = try run(["-j", "1", "."], in: dir)
        #expect(piped.status == 0 && piped.stderr.isEmpty && !piped.stdout.contains("\u{1B}"), "\(piped)")
        let command = "'\(Binary.path)' test -j 1 --slowest 0 ."
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(Self.isolated) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(out)")
        // Carriage return and erase-line, written apart from the count that follows: the scan for
        // rule ids would read the two as one.
        let erase = "\r\u{1B}[K"
        #expect(out.hasPrefix(erase + "0/2 files · 0 failed · "), "\(out.debugDescription)")
        #expect(out.contains(" · running a.dsh" + erase + "PASS  a.dsh ("), "\(out.debugDescription)")
        // Erased before the summary: the last thing before it is the erase, not a progress line.
        #expect(out.contains(erase + "1/2 files · 0 failed · "), "\(out.debugDescription)")
        #expect(
            out.hasSuffix(
                "2 passed, 0 failed, 0 errors, 0 skipped — 2 files in "
                    + (out.components(separatedBy: " files in ").last ?? "")))
        let tail = out.components(separatedBy: "PASS  b.dsh").last ?? ""
        #expect(!tail.contains("files · "), "\(out.debugDescription)")
    }

    /// A cancelled CI job (SIGTERM to the runner) stops the children too — they are in process
    /// groups of their own — reports what finished, and exits 130.
    @Test func aStoppedRunnerStopsItsChildren() throws {
        let dir = try Binary.folder(["slow.dsh": "every 1us stall 1us\nrun 100000s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["test", "slow.dsh"]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(Self.isolated) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        func children() -> [String] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return pids.compactMap { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
                let line = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
                let cwd = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? ""
                return line.contains("--test-report") && cwd == dir.path ? pid : nil
            }
        }
        var waited = 0
        while children().isEmpty && waited < 200 {
            usleep(50_000)
            waited += 1
        }
        #expect(!children().isEmpty, "the child never started")
        // Let it reach its `run` (a child stopped while it starts has no line to say).
        usleep(1_000_000)
        let stray = children()
        kill(process.processIdentifier, SIGTERM)
        waited = 0
        while process.isRunning && waited < 400 {
            usleep(50_000)
            waited += 1
        }
        if process.isRunning {
            Issue.record("the runner did not stop at SIGTERM")
            for pid in stray.compactMap({ pid_t($0) }) where pid > 1 { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(out)")
        #expect(out.contains("ERROR slow.dsh ("), "\(out)")
        #expect(out.contains("  ERROR slow.dsh:2: interrupted [at "), "\(out)")
        usleep(200_000)
        #expect(children().isEmpty, "a child outlived the runner")
    }

    /// A file that is not UTF-8 text, and one that leaves with `exit 3`, are errors; `exit 0`
    /// early passes. An `exit 3` carries its line (issue 37), in a file it sources too.
    @Test func unreadableAndExitingFilesAreErrors() throws {
        let dir = try Binary.folder([
            "exit3.dsh": "run 1s\nexit 3\n", "exit0.dsh": "exit 0\nbogus\n",
            "sources.dsh": "run 1s\nsource inner.dsh.txt\necho after\n", "inner.dsh.txt": "echo in\n\nexit 4\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data([0x72, 0x75, 0x6E, 0x20, 0x31, 0x73, 0x0A, 0xFF, 0xFE, 0x0A]).write(
            to: dir.appendingPathComponent("bytes.dsh"))
        let r = try run(["--annotations", "github", "--slowest", "0", "."], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("  ERROR bytes.dsh:2: not UTF-8 text: "), "\(r)")
        #expect(r.stdout.contains("  ERROR exit3.dsh:2: exited with status 3\n"), "\(r)")
        #expect(r.stdout.contains("PASS  exit0.dsh ("), "\(r)")
        #expect(
            r.stdout.contains("::error file=exit3.dsh,line=2,title=debugsh test%3A error::exited with status 3\n"),
            "\(r)")
        #expect(
            r.stdout.contains("::error file=inner.dsh.txt,line=3,title=debugsh test%3A error::exited with status 4\n"),
            "\(r)")
        #expect(r.stdout.contains("1 passed, 0 failed, 3 errors, 0 skipped"), "\(r)")
    }

    /// A plain `debugsh file.dsh` keeps today's answer: the first failed expect ends the script.
    @Test func aPlainRunStillStopsAtTheFirstFailedExpect() throws {
        let dir = try Binary.folder(["two.dsh": Self.twoFailures])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["two.dsh"], directory: dir, environment: Self.isolated)
        #expect(r.status == 1)
        #expect(r.stderr == "two.dsh:3: error: expectation failed: main.hangs == 2 (main.hangs = 1)\n", "\(r)")
        #expect(r.stdout.isEmpty, "\(r)")
    }

    /// `debugsh test -k`: an error does not end its file either; every failure is reported.
    @Test func keepGoingReportsTheErrorsAndWhatFollows() throws {
        let dir = try Binary.folder(["err.dsh": Self.anError])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["-k", "--annotations", "github", "err.dsh"], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(
            annotations(r.stdout).map { $0.components(separatedBy: "::").last ?? "" } == [
                "expectation failed: main.hangs == 3 (main.hangs = 0) [at 1s]",
                "unknown command 'bogus' (try 'help') [at 1s]",
                "expectation failed: main.hangs == 4 (main.hangs = 0) [at 1s]",
            ], "\(r)")
    }

    /// A child that dies by a signal (the careless plugin traps in its command) is an error,
    /// "crashed: SIGILL" with its last words, at the line of the command that ran — in the
    /// summary, the JUnit XML and the annotations; the runner and the other files go on.
    @Test func aCrashedChildIsAnError() throws {
        let lib = try CarelessPlugin.library.get()
        let dir = try Binary.folder([
            "crash.dsh": "plugin load '\(lib)'\ntraps start\ntraps boom\nrun 1s\n", "ok.dsh": Self.passes,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(
            ["--junit", "j.xml", "--annotations", "github", "."], in: dir, environment: ["DEBUGSH_TEST_TRAP": "command"]
        )
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("ERROR crash.dsh ("), "\(r)")
        #expect(r.stdout.contains("PASS  ok.dsh ("), "\(r)")
        #expect(
            r.stdout.contains(
                "  ERROR crash.dsh:3: crashed: SIGILL — debugsh: plugin 'careless' (tool 'traps') trapped"),
            "\(r)")
        #expect(r.stdout.contains("0 failed, 1 error"), "\(r)")
        let notes = annotations(r.stdout)
        #expect(notes.count == 1, "\(r)")
        #expect(
            notes.first?.hasPrefix("::error file=crash.dsh,line=3,title=debugsh test%3A crashed::crashed: SIGILL — ")
                == true,
            "\(r)")
        let xmlPath = dir.appendingPathComponent("j.xml").path
        try Self.validateJUnit(xmlPath)
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(xml.contains("<error message=\"crash.dsh:3: crashed: SIGILL"), "\(xml)")
        #expect(xml.contains("type=\"crash\">"), "\(xml)")
    }

    /// A runaway file is stopped at --timeout (wall clock) and is an error at the line it was
    /// running, in the summary, the JUnit XML and the annotations.
    @Test func aRunawayFileTimesOut() throws {
        let dir = try Binary.folder([
            "slow.dsh": "every 1us stall 1us\nrun 100000s\n", "ok.dsh": Self.passes,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        // No wall-clock bound on the runner itself: the file's `timed out` error below is the sign.
        let r = try run(["--timeout", "300ms", "--junit", "j.xml", "--annotations", "github", "."], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("  ERROR slow.dsh:2: timed out after 300ms (wall clock) [at "), "\(r)")
        #expect(r.stdout.contains("1 passed, 0 failed, 1 error"), "\(r)")
        #expect(
            annotations(r.stdout).first?.hasPrefix(
                "::error file=slow.dsh,line=2,title=debugsh test%3A timed out::timed out after 300ms (wall clock)")
                == true,
            "\(r)")
        let xmlPath = dir.appendingPathComponent("j.xml").path
        try Self.validateJUnit(xmlPath)
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(
            xml.contains("<error message=\"slow.dsh:2: timed out after 300ms (wall clock)\" type=\"timeout\">"),
            "\(xml)")
    }

    /// Thirty files in nested folders: shards 1/3, 2/3 and 3/3 take each exactly once, the same
    /// twice, and the same for a copy of the folder elsewhere (the hash is of the path inside
    /// the folder given).
    @Test func shardsTakeEveryFileExactlyOnce() throws {
        var files: [String: String] = [:]
        for i in 0..<30 { files["s\(i % 3)/f\(i).dsh"] = "run 1ms\n" }
        let dir = try Binary.folder(files)
        let copy = try Binary.folder(files)
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: copy)
        }
        func shard(_ i: Int, _ folder: URL, _ path: String = ".") throws -> [String] {
            let r = try run(["--list", "--shard", "\(i)/3", path], in: folder)
            #expect(r.status == 0, "\(r)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        let shards = try (1...3).map { try shard($0, dir) }
        let all = shards.flatMap { $0 }
        #expect(all.count == 30 && Set(all).count == 30, "\(shards)")
        #expect(Set(all) == Set(files.keys))
        #expect(shards.allSatisfy { !$0.isEmpty }, "\(shards)")
        #expect(try (1...3).map { try shard($0, dir) } == shards)
        #expect(try (1...3).map { try shard($0, copy) } == shards)
        // Named by its absolute path, the folder's files still land in the same shards.
        #expect(
            try (1...3).map { try shard($0, copy, copy.path).map { String($0.dropFirst(copy.path.count + 1)) } }
                == shards)
        for bad in ["0/3", "4/3", "1/0", "a/b", "2"] {
            let r = try run(["--shard", bad, "."], in: dir)
            #expect(r.status == 2, "\(bad): \(r)")
            #expect(r.stderr.contains("--shard takes i/n"), "\(r)")
        }
    }

    /// --list prints what a run would take, in path order; --filter takes a substring of the
    /// path, or a glob.
    @Test func listAndFilter() throws {
        let dir = try Binary.folder([
            "a/fps-one.dsh": "run 1ms\n", "a/timer-two.dsh": "run 1ms\n", "b/fps-three.dsh": "run 1ms\n",
            "notes.txt": "x", ".hidden/h.dsh": "run 1ms\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["--list"], in: dir).stdout == "a/fps-one.dsh\na/timer-two.dsh\nb/fps-three.dsh\n")
        #expect(try run(["--list", "--filter", "fps"], in: dir).stdout == "a/fps-one.dsh\nb/fps-three.dsh\n")
        #expect(try run(["--list", "--filter", "a/*"], in: dir).stdout == "a/fps-one.dsh\na/timer-two.dsh\n")
        #expect(
            try run(["--list", "--filter", "two", "--filter", "three"], in: dir).stdout
                == "a/timer-two.dsh\nb/fps-three.dsh\n")
        #expect(try run(["--list", "./b/"], in: dir).stdout == "b/fps-three.dsh\n")
        let r = try run(["--filter", "timer", "--slowest", "0"], in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("PASS  a/timer-two.dsh ("), "\(r)")
        #expect(r.stdout.contains("\n1 passed, 0 failed, 0 errors, 0 skipped — 1 file of 3 in "), "\(r)")
        // A filter (or a shard) that selects nothing is not an error, and says so.
        let none = try run(["--filter", "no-such-name"], in: dir)
        #expect(none.status == 0, "\(none)")
        #expect(none.stderr == "debugsh: test: no file selected (by --shard or --filter)\n", "\(none)")
    }

    /// 0 all passed (a skipped file too); 1 any failed; 2 a usage error: a bad option, a path
    /// that is not there, a folder without scripts, a bad -j, --timeout or --annotations.
    @Test func exitStatuses() throws {
        let dir = try Binary.folder([
            "ok.dsh": Self.passes, "skip.dsh": "# test: skip not ready\nbogus\n", "empty/readme.txt": "",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let ok = try run(["ok.dsh", "skip.dsh"], in: dir)
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("SKIP  skip.dsh (not ready)\n"), "\(ok)")
        #expect(ok.stdout.contains("1 passed, 0 failed, 0 errors, 1 skipped — 2 files in "), "\(ok)")
        try "stall 1s\nrun 2s\nexpect main.hangs == 0\n".write(
            to: dir.appendingPathComponent("bad.dsh"), atomically: true, encoding: .utf8)
        #expect(try run([], in: dir).status == 1)
        for arguments in [
            ["--no-such-option"], ["missing.dsh"], ["empty"], ["-j", "0"], ["--timeout", "soon"], ["--timeout", "0s"],
            ["--annotations", "gitlab"],
        ] {
            let r = try run(arguments, in: dir)
            #expect(r.status == 2, "\(arguments): \(r)")
            #expect(r.stderr.hasPrefix("debugsh: test: "), "\(arguments): \(r)")
            #expect(r.stdout.isEmpty, "\(arguments): \(r)")
        }
        // A script named test runs as ./test; `debugsh test` is the runner.
        try "expect clock.now == 0s\n".write(to: dir.appendingPathComponent("test"), atomically: true, encoding: .utf8)
        let script = try Binary.run(["./test"], directory: dir, environment: Self.isolated)
        #expect(script.status == 0 && script.stdout.isEmpty, "\(script)")
    }

    /// With -j 2 the output is -j 1's, apart from times: files are reported in file order.
    @Test func parallelOutputIsInFileOrder() throws {
        var files: [String: String] = [:]
        for i in 0..<8 {
            files["f\(i).dsh"] =
                i % 3 == 0
                ? "stall \(40 - i)ms\nrun 5s\nexpect main.hangs == 9\n" : "every 1ms stall 10us\nrun \(8 - i)s\n"
        }
        let dir = try Binary.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        func normalized(_ jobs: String) throws -> String {
            let r = try run(["-j", jobs, "--json", "."], in: dir)
            #expect(r.status == 1, "\(r)")
            return r.stdout.replacingOccurrences(
                of: "\"seconds\": [0-9.]+", with: "\"seconds\": T", options: .regularExpression)
        }
        let one = try normalized("1")
        #expect(one.split(separator: "\n").count == 9, "\(one)")
        #expect(try normalized("2") == one)
        let text = try run(["-j", "2", "--slowest", "0", "."], in: dir).stdout.replacingOccurrences(
            of: "[0-9]+\\.[0-9]+s", with: "T", options: .regularExpression)
        let textOne = try run(["-j", "1", "--slowest", "0", "."], in: dir).stdout.replacingOccurrences(
            of: "[0-9]+\\.[0-9]+s", with: "T", options: .regularExpression)
        #expect(text.replacingOccurrences(of: "-j 2", with: "-j 1") == textOne)
    }

    /// --json: one line per file with stable keys, then the summary; the human text goes to
    /// standard error.
    @Test func jsonLines() throws {
        let dir = try Binary.folder(["two.dsh": Self.twoFailures])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["--json", "two.dsh"], in: dir)
        let lines = r.stdout.split(separator: "\n").map {
            $0.replacingOccurrences(of: "\"seconds\": [0-9.]+", with: "\"seconds\": T", options: .regularExpression)
        }
        #expect(
            lines == [
                "{\"file\": \"two.dsh\", \"status\": \"failed\", \"seconds\": T, \"failures\": [{\"kind\": \"expect\", "
                    + "\"file\": \"two.dsh\", \"line\": 3, \"message\": \"expectation failed: main.hangs == 2 (main.hangs = 1)\", "
                    + "\"condition\": \"main.hangs == 2\", \"values\": \"main.hangs = 1\", \"t_ns\": 1000000000}, "
                    + "{\"kind\": \"expect\", \"file\": \"two.dsh\", \"line\": 4, \"message\": \"expectation failed: clock.now == 2s "
                    + "(clock.now = 1s)\", \"condition\": \"clock.now == 2s\", \"values\": \"clock.now = 1s\", \"t_ns\": 1000000000}], "
                    + "\"moved\": []}",
                "{\"summary\": {\"files\": 1, \"passed\": 0, \"failed\": 1, \"errors\": 0, \"skipped\": 0, \"seconds\": T}}",
            ], "\(r)")
        #expect(r.stderr.contains("0 passed, 1 failed"), "\(r)")
    }

    /// Baselines: --update-baseline stores each file's final metrics; a changed scenario then
    /// fails with the table of what moved; a declared tolerance lets it pass; updating with a
    /// filter keeps the other files' entries and the tolerances.
    @Test func baselines() throws {
        let dir = try Binary.folder([
            "fps.dsh": "fps start\nanimate 3s\nload gpu 20ms\nrun 3s\n", "other.dsh": "stall 100ms\nrun 1s\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = try run(["--update-baseline", "base.json", "."], in: dir)
        #expect(stored.status == 0, "\(stored)")
        #expect(stored.stdout.contains("baseline base.json: 2 files stored\n"), "\(stored)")
        let base = try String(contentsOf: dir.appendingPathComponent("base.json"), encoding: .utf8)
        #expect(base.contains("\"fps.dsh\": {\n      \"clock.now\": \"3s\","), "\(base)")
        #expect(base.contains("\"fps.render\": \"30\""), "\(base)")
        #expect(try run(["--baseline", "base.json", "."], in: dir).status == 0)
        try "fps start\nanimate 3s\nload gpu 40ms\nrun 3s\n".write(
            to: dir.appendingPathComponent("fps.dsh"), atomically: true, encoding: .utf8)
        let moved = try run(["--baseline", "base.json", "--annotations", "github", "."], in: dir)
        #expect(moved.status == 1, "\(moved)")
        #expect(moved.stdout.contains("FAIL  fps.dsh ("), "\(moved)")
        #expect(moved.stdout.contains("PASS  other.dsh ("), "\(moved)")
        #expect(moved.stdout.contains("metrics that moved (from the baseline → this run):\n  fps.dsh\n"), "\(moved)")
        #expect(moved.stdout.contains("    fps.render       30           → 20            -10 (-33.333%)"), "\(moved)")
        #expect(
            moved.stdout.contains(
                "::error file=fps.dsh,line=4,title=debugsh test%3A metrics moved from the baseline::"),
            "\(moved)")
        // Tolerances: a percentage for some, an amount for others, a glob for the rest.
        var json = try String(contentsOf: dir.appendingPathComponent("base.json"), encoding: .utf8)
        json = json.replacingOccurrences(
            of: "\"tolerances\": {}",
            with:
                "\"tolerances\": {\"fps.render\": \"34%\", \"render.presents\": \"30\", \"fps.frame_*\": \"17ms\", \"fps.hitch*\": \"40%\"}"
        )
        try json.write(to: dir.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
        let tolerated = try run(["--baseline", "base.json", "."], in: dir)
        #expect(tolerated.status == 0, "\(tolerated)")
        // Just under the tolerance fails again.
        try json.replacingOccurrences(of: "\"fps.render\": \"34%\"", with: "\"fps.render\": \"33%\"").write(
            to: dir.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
        let tight = try run(["--baseline", "base.json", "."], in: dir)
        #expect(tight.status == 1, "\(tight)")
        #expect(tight.stdout.contains("    fps.render  30   → 20  -10 (-33.333%)  33%\n"), "\(tight)")
        // Updating one file keeps the other's entry and the tolerances.
        let update = try run(["--update-baseline", "base.json", "--filter", "fps"], in: dir)
        #expect(update.stdout.contains("baseline base.json: 1 file stored\n"), "\(update)")
        let after = try String(contentsOf: dir.appendingPathComponent("base.json"), encoding: .utf8)
        #expect(after.contains("\"other.dsh\": {"), "\(after)")
        #expect(after.contains("\"fps.render\": \"33%\""), "\(after)")
        #expect(after.contains("\"fps.render\": \"20\""), "\(after)")
    }

    /// A real device's recording as a CI gate (issue 31): `expect` on the `rec.*` metrics passes
    /// and fails with its line; a baseline stores them and reports the one that moved when the
    /// scenario reads another recording (the hitches alone: the same 11 hitches over the same
    /// span, graded against the assumed 60 Hz, which is the vsyncs' 16.666667 ms — and no frames).
    @Test func aRecordingGatesCI() throws {
        let fixtures = Binary.packageRoot.appendingPathComponent("Tests/Fixtures/xctrace").path
        let dir = try Binary.folder([
            "gate.dsh": "import xctrace \(fixtures)\nexpect rec.hitch_ratio < 20 and rec.high_hitches <= 3\n",
            "tight.dsh": "import xctrace \(fixtures)\nexpect rec.hitch_ratio < 10\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try run(["--junit", "j.xml", "--annotations", "github", "."], in: dir)
        #expect(first.status == 1, "\(first)")
        #expect(first.stdout.contains("PASS  gate.dsh ("), "\(first)")
        #expect(first.stdout.contains("FAIL  tight.dsh ("), "\(first)")
        #expect(
            first.stdout.contains(
                "FAIL  tight.dsh:2: expectation failed: rec.hitch_ratio < 10 (rec.hitch_ratio = 16.737)"), "\(first)")
        #expect(first.stdout.contains("rec.hitch_ratio = 16.737"), "\(first)")
        #expect(annotations(first.stdout).contains { $0.hasPrefix("::error file=tight.dsh,line=2,") }, "\(first)")
        try Self.validateJUnit(dir.appendingPathComponent("j.xml").path)

        try FileManager.default.removeItem(at: dir.appendingPathComponent("tight.dsh"))
        let stored = try run(["--update-baseline", "base.json", "."], in: dir)
        #expect(stored.status == 0, "\(stored)")
        let base = try String(contentsOf: dir.appendingPathComponent("base.json"), encoding: .utf8)
        #expect(base.contains("\"rec.hitch_ratio\": \"16.737\""), "\(base)")
        #expect(base.contains("\"rec.high_hitches\": \"3\""), "\(base)")
        try "import xctrace \(fixtures)/hitches.xml\n".write(
            to: dir.appendingPathComponent("gate.dsh"), atomically: true, encoding: .utf8)
        let moved = try run(["--baseline", "base.json", "."], in: dir)
        #expect(moved.status == 1, "\(moved)")
        #expect(moved.stdout.contains("metrics that moved (from the baseline → this run):\n  gate.dsh\n"), "\(moved)")
        #expect(moved.stdout.contains("    rec.frames "), "\(moved)")
        #expect(!moved.stdout.contains("rec.hitch_ratio "), "\(moved)")
        #expect(!moved.stdout.contains("rec.high_hitches "), "\(moved)")
    }

    /// Control characters a script prints (binary garbage) cannot make the XML invalid.
    @Test func junitEscapesWhatAScriptPrints() throws {
        let dir = try Binary.folder([
            "noisy.dsh":
                "echo --raw \"bell \u{07} esc \u{1B}[31m soh \u{01} <tag> & \\\"q\\\"\"\nexpect clock.now == 1s\n"
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["--junit", "j.xml", "noisy.dsh"], in: dir)
        #expect(r.status == 1, "\(r)")
        let path = dir.appendingPathComponent("j.xml").path
        try Self.validateJUnit(path)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.contains("&lt;tag&gt; &amp;"), "\(xml)")
    }

    /// `debugsh test --check` checks each file without running it: every problem `--check` finds
    /// is an error of its file at its line — in the summary, the JUnit XML and the annotations —
    /// and nothing ran (a file that would fail its `expect` when run passes the check).
    @Test func checkReportsEveryProblemAndRunsNothing() throws {
        let dir = try Binary.folder([
            "typo.dsh": "fps start\nexpect layout.state != setled\nrun 1s\nexpect fps.hitches == lots\n",
            "ok.dsh": Self.twoFailures,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(["--check", "--junit", "report.xml", "--annotations", "github", "."], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("ERROR typo.dsh ("), "\(r)")
        #expect(r.stdout.contains("PASS  ok.dsh ("), "a check runs nothing, so no expect fails: \(r)")
        #expect(
            r.stdout.contains(
                "  ERROR typo.dsh:2: 'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout (did you mean 'settled'?)"
            ), "\(r)")
        #expect(r.stdout.contains("  ERROR typo.dsh:4: fps.hitches is an integer: 'lots' is not an integer\n"), "\(r)")
        #expect(!r.stdout.contains("[at "), "nothing ran, so no virtual time: \(r)")
        #expect(annotations(r.stdout).count == 2, "\(r)")
        #expect(annotations(r.stdout).first?.hasPrefix("::error file=typo.dsh,line=2,") == true, "\(r)")
        let xmlPath = dir.appendingPathComponent("report.xml").path
        try Self.validateJUnit(xmlPath)
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(xml.contains("typo.dsh:4: fps.hitches is an integer"), "\(xml)")
        #expect(xml.components(separatedBy: "<error ").count == 2, "one element for the file: \(xml)")
        let both = try run(["--check", "--baseline", "b.json", "."], in: dir)
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("--check runs nothing"), "\(both)")
    }

    /// The repository's CI: `debugsh test Examples` passes, and its JUnit XML validates.
    @Test func examplesPassAsATestSuite() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-examples-\(getpid()).xml")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try Binary.run(
            ["test", "--junit", out.path, "Examples"], directory: Binary.packageRoot, environment: Self.isolated)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains(" 0 failed, 0 errors, 0 skipped — "), "\(r)")
        try Self.validateJUnit(out.path)
        let xml = try String(contentsOf: out, encoding: .utf8)
        // The folder's scripts and its subfolders' (Examples/what-if), as the runner finds them.
        let count = try #require(
            FileManager.default.enumerator(atPath: Binary.packageRoot.appendingPathComponent("Examples").path)
        ).compactMap { $0 as? String }.filter { $0.hasSuffix(".dsh") }.count
        #expect(xml.contains("tests=\"\(count)\""), "\(count)")
    }

    /// README's command-line block names every option `debugsh test --help` lists.
    @Test func readmeNamesEveryTestOption() throws {
        let readme = try String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let help = try Binary.run(["test", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: debugsh test"), "\(help)")
        let options = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map { String($0.prefix { $0 != "=" && $0 != "<" }) }
        #expect(options.count >= 12, "\(help)")
        guard let start = readme.range(of: "## Command line"),
            let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)
        else {
            Issue.record("README has no Command line section")
            return
        }
        let block = readme[start.upperBound..<end.lowerBound]
        #expect(block.contains("debugsh test [options] [file or folder ...]"))
        for option in Set(options) where option != "--help" {
            #expect(block.contains(option), "README's command line lacks debugsh test \(option)")
        }
    }
}
