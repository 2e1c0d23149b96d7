import DebugShell
import DebugShellCore
import Testing

@testable import DebugShellTestRunner

#if canImport(Glibc)
    import Glibc
#endif

/// The result model, and how the runner decides a file's result from what its child left: the
/// report's lines, the exit status, the last words on standard error (docs/Testing.md, "How a
/// file runs").
@Suite struct ResultTests {
    @Test func aFailureSaysWhereWhatAndWhen() {
        var failure = TestFailure(kind: .expect, file: "a.dsh", line: 3, message: "expectation failed: x")
        #expect(failure.location == "a.dsh:3")
        #expect(failure.summary == "a.dsh:3: expectation failed: x")
        failure.time = SimTime(nanoseconds: 1_250_000_000)
        #expect(failure.summary == "a.dsh:3: expectation failed: x [at 1.25s]")
        failure.line = nil
        #expect(failure.location == "a.dsh")
        #expect(failure.summary == "a.dsh: expectation failed: x [at 1.25s]")
        let titles = [TestFailure.Kind.expect, .error, .crash, .timeout, .baseline].map {
            TestFailure(kind: $0, file: "a.dsh", message: "").title
        }
        #expect(titles == ["expect failed", "error", "crashed", "timed out", "metrics moved from the baseline"])
        #expect(
            [TestFailure.Kind.expect, .error, .crash, .timeout, .baseline].map(\.rawValue) == [
                "expect", "error", "crash", "timeout", "baseline",
            ])
        #expect(
            [TestResult.Status.passed, .failed, .error, .skipped].map(\.rawValue) == [
                "passed", "failed", "error", "skipped",
            ])
    }

    // MARK: The report's lines

    @Test func reportFieldsEscapeTheirSeparators() {
        #expect(ReportLine.escape("plain text") == "plain text")
        #expect(ReportLine.escape("a\tb\\c\nd\re") == #"a\tb\\c\nd\re"#)
        let fields = ["F", "expectation", "dir/a b.dsh", "", "tab\there", "two\nlines\r", #"back\slash \t"#, "é"]
        let line = fields.map(ReportLine.escape).joined(separator: "\t")
        #expect(!line.contains("\n"))
        #expect(ReportLine.fields(Substring(line)) == fields)
        // An escape the writer never makes reads as its character; empty fields are kept.
        #expect(ReportLine.fields(#"a\qb\"#) == ["aqb"])
        #expect(ReportLine.fields("\t\t") == ["", "", ""])
    }

    // MARK: Deciding a file's result

    static let file = TestFile(path: "suite/t.dsh", key: "t.dsh")

    /// Runs `finished` on a report, standard error and status written in a scratch work folder.
    static func finished(
        report: [[String]], stderr: String = "", status: Int32, check: Bool = false,
        terminated: (byInterrupt: Bool, killed: Bool)? = nil, timeout: (seconds: Double, text: String)? = nil,
        baseline: Baseline? = nil
    ) throws -> TestResult {
        try withScratchFolder { folder in
            let (runner, _) = try makeRunner(check ? ["--check"] : [], workFolder: folder, timeout: timeout)
            let text = report.map { $0.map(ReportLine.escape).joined(separator: "\t") + "\n" }.joined()
            try write(text, to: folder + "/0.report")
            try write(stderr, to: folder + "/0.err")
            try write("out\n", to: folder + "/0.out")
            let child = ChildProcess(pid: 0, started: 0)
            if let terminated {
                child.terminatedAt = 1
                child.stoppedByInterrupt = terminated.byInterrupt
                child.killed = terminated.killed
            }
            let result = runner.finished(file, index: 0, child: child, status: status, baseline: baseline)
            // What the child left is removed.
            #expect(RunnerFiles.head(folder + "/0.report", limit: 1) == nil)
            #expect(RunnerFiles.head(folder + "/0.out", limit: 1) == nil)
            return result
        }
    }

    static func exited(_ code: Int32) -> Int32 { code << 8 }

    static func describe(_ result: TestResult) -> [String] {
        [result.status.rawValue]
            + result.failures.map { "\($0.kind.rawValue) \($0.summary)" + ($0.condition.map { " {\($0)}" } ?? "") }
    }

    static let hangs = [
        "F", "expectation", "suite/t.dsh", "3", "1000000000", "expectation failed: main.hangs == 2 (main.hangs = 1)",
        "main.hangs == 2", "main.hangs = 1", "",
    ]

    @Test func aFailedExpectationFailsTheFileAndItGoesOn() throws {
        let result = try Self.finished(
            report: [Self.hangs, ["M", "main.hangs", "integer", "1"], ["M", "clock.now", "time", "2s"], ["E"]],
            status: Self.exited(1))
        #expect(
            Self.describe(result) == [
                "failed",
                "expect suite/t.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s] "
                    + "{main.hangs == 2}",
            ])
        #expect(result.failures.first?.values == "main.hangs = 1")
        #expect(
            result.metrics.map { "\($0.name) \($0.type) \($0.text)" } == ["main.hangs integer 1", "clock.now time 2s"])
        #expect(result.stdout == "out\n")
    }

    @Test func aCleanEndPasses() throws {
        let result = try Self.finished(report: [["M", "main.hangs", "integer", "0"], ["E"]], status: 0)
        #expect(Self.describe(result) == ["passed"])
    }

    @Test func anErrorMakesTheFileAnErrorAndNamesWhereItWasSourcedFrom() throws {
        let result = try Self.finished(
            report: [
                ["F", "error", "inner.dsh", "2", "0", "unknown command 'frob'", "", "", "suite/t.dsh:5, outer.dsh:1"],
                // A failure with no file is the script's.
                ["F", "error", "", "1", "5000000", "cannot read it", "", "", ""],
                ["E"],
            ],
            status: Self.exited(1))
        #expect(
            Self.describe(result) == [
                "error", "error inner.dsh:2: unknown command 'frob' (sourced from suite/t.dsh:5, outer.dsh:1) [at 0s]",
                "error suite/t.dsh:1: cannot read it [at 5ms]",
            ])
    }

    @Test func underCheckNothingRanSoThereIsNoTime() throws {
        let result = try Self.finished(
            report: [["F", "error", "suite/t.dsh", "4", "0", "unknown metric 'x'", "", "", ""], ["E"]],
            status: Self.exited(1), check: true)
        #expect(Self.describe(result) == ["error", "error suite/t.dsh:4: unknown metric 'x'"])
    }

    @Test func aShortLineIsIgnored() throws {
        let result = try Self.finished(
            report: [["F", "error", "suite/t.dsh"], ["M", "only"], ["X", "what"], ["E"]], status: 0)
        #expect(Self.describe(result) == ["passed"])
        #expect(result.metrics.isEmpty)
    }

    @Test func aSignalIsACrashAtTheLineItsLastWordsName() throws {
        let stderr = "some output\n" + "debugsh: trapped in the tool 'fps' (suite/t.dsh:9)\n   \n"
        let result = try Self.finished(report: [Self.hangs], stderr: stderr, status: SIGSEGV)
        #expect(
            Self.describe(result) == [
                "error",
                "expect suite/t.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s] {main.hangs == 2}",
                "crash suite/t.dsh:9: crashed: SIGSEGV — debugsh: trapped in the tool 'fps' (suite/t.dsh:9)",
            ])
    }

    /// A shell's way of saying a signal: exit status 128 + n, before the report's end.
    @Test func anExitStatusAbove128WithoutAnEndIsACrash() throws {
        let result = try Self.finished(report: [], status: Self.exited(128 + SIGABRT))
        #expect(Self.describe(result) == ["error", "crash suite/t.dsh: crashed: SIGABRT"])
        // 130 is an interrupt, not a crash.
        let interrupted = try Self.finished(report: [], stderr: "bye\n", status: Self.exited(130))
        #expect(
            Self.describe(interrupted) == [
                "error", "error suite/t.dsh: exited with status 130 before its report ended: bye",
            ])
        // After the end mark the process left normally: its status is only a status.
        let ended = try Self.finished(report: [["E"]], status: Self.exited(134))
        #expect(Self.describe(ended) == ["error", "error suite/t.dsh: exited with status 134"])
    }

    @Test func anExitBeforeTheEndIsAnError() throws {
        let result = try Self.finished(report: [], stderr: "debugsh: cannot open 'x'\n", status: Self.exited(2))
        #expect(
            Self.describe(result) == [
                "error", "error suite/t.dsh: exited with status 2 before its report ended: debugsh: cannot open 'x'",
            ])
        let quiet = try Self.finished(report: [["E"]], status: Self.exited(3))
        #expect(Self.describe(quiet) == ["error", "error suite/t.dsh: exited with status 3"])
    }

    /// Issue 37: an `exit N` and a moved baseline carry where the script ended (the child's `L`
    /// line: its `exit`, else its last command), so that annotations and JUnit name a line.
    @Test func anExitAndAMovedBaselineCarryWhereTheScriptEnded() throws {
        let exited = try Self.finished(report: [["L", "suite/t.dsh", "4"], ["E"]], status: Self.exited(3))
        #expect(Self.describe(exited) == ["error", "error suite/t.dsh:4: exited with status 3"])
        #expect(
            Reports.annotation(exited.failures[0])
                == "::error file=suite/t.dsh,line=4,title=debugsh test%3A error::exited with status 3")
        let sourced = try Self.finished(report: [["L", "suite/inner.txt", "2"], ["E"]], status: Self.exited(3))
        #expect(Self.describe(sourced) == ["error", "error suite/inner.txt:2: exited with status 3"])
        let baseline = try Baseline(json: MiniJSON.parse(Array(#"{"files": {"t.dsh": {"a": "1"}}}"#.utf8)))
        let moved = try Self.finished(
            report: [["M", "a", "integer", "2"], ["L", "suite/t.dsh", "7"], ["E"]], status: 0, baseline: baseline)
        #expect(
            Self.describe(moved) == ["failed", "baseline suite/t.dsh:7: 1 metric moved from the baseline: a 1 → 2"])
        #expect(
            Reports.annotation(moved.failures[0])
                == "::error file=suite/t.dsh,line=7,title=debugsh test%3A metrics moved from the baseline::1 metric moved from the baseline: a 1 → 2"
        )
    }

    @Test func aTimeoutNamesWhereTheChildWasStopped() throws {
        let stopped = ["F", "interrupted", "suite/t.dsh", "5", "8756000", "interrupted", "", "", ""]
        let result = try Self.finished(
            report: [stopped], status: SIGTERM, terminated: (byInterrupt: false, killed: false),
            timeout: (0.3, "300ms"))
        #expect(
            Self.describe(result) == [
                "error", "timeout suite/t.dsh:5: timed out after 300ms (wall clock) [at 8.756ms]",
            ])
        let killed = try Self.finished(
            report: [], status: SIGKILL, terminated: (byInterrupt: false, killed: true), timeout: (60, "1min"))
        #expect(
            Self.describe(killed) == [
                "error", "timeout suite/t.dsh: timed out after 1min (wall clock); killed (SIGKILL) after 2s more",
            ])
    }

    @Test func ctrlCIsAnInterruptNotATimeout() throws {
        let stopped = ["F", "interrupted", "suite/t.dsh", "5", "8756000", "interrupted", "", "", ""]
        let result = try Self.finished(
            report: [stopped, ["E"]], status: Self.exited(130), terminated: (byInterrupt: true, killed: false),
            timeout: (0.3, "300ms"))
        #expect(Self.describe(result) == ["error", "error suite/t.dsh:5: interrupted [at 8.756ms]"])
        // Stopped without the runner's doing: the child's own report says where.
        let own = try Self.finished(report: [stopped, ["E"]], status: Self.exited(130))
        #expect(Self.describe(own) == ["error", "error suite/t.dsh:5: interrupted [at 8.756ms]"])
    }

    @Test func metricsThatMovedFailAFileThatRanToItsEnd() throws {
        let baseline = try Baseline(
            json: MiniJSON.parse(
                Array(#"{"files": {"t.dsh": {"a": "1", "b": "x", "c": "1", "d": "1", "e": "1"}}}"#.utf8)))
        let metrics = [
            ["M", "a", "integer", "2"], ["M", "b", "word", "y"], ["M", "c", "integer", "1"],
            ["M", "d", "integer", "0"],
        ]
        let result = try Self.finished(report: metrics + [["E"]], status: 0, baseline: baseline)
        #expect(
            Self.describe(result) == [
                "failed",
                "baseline suite/t.dsh: 4 metrics moved from the baseline: a 1 → 2, b x → y, d 1 → 0 and 1 more",
            ])
        #expect(result.moved.map(\.metric) == ["a", "b", "d", "e"])
        let one = try Self.finished(report: [["M", "a", "integer", "2"], ["E"]], status: 0, baseline: Baseline())
        #expect(one.moved.isEmpty && one.status == .passed)
        let single = try Self.finished(
            report: [metrics[0], metrics[1], metrics[2], metrics[3], ["M", "e", "integer", "1"], ["E"]], status: 0,
            baseline: try Baseline(json: MiniJSON.parse(Array(#"{"files": {"t.dsh": {"a": "1"}}}"#.utf8))))
        #expect(Self.describe(single) == ["failed", "baseline suite/t.dsh: 1 metric moved from the baseline: a 1 → 2"])
        // A file that errored is not compared: its metrics are not its final ones.
        let errored = try Self.finished(
            report: [["F", "error", "suite/t.dsh", "2", "0", "bad", "", "", ""]] + metrics + [["E"]],
            status: Self.exited(1), baseline: baseline)
        #expect(errored.moved.isEmpty)
        #expect(Self.describe(errored) == ["error", "error suite/t.dsh:2: bad [at 0s]"])
    }

    // MARK: The child's half

    /// A session's failures and final metrics, written by the child's report as they happen and
    /// read back by the runner.
    @Test func theChildsReportIsWhatTheRunnerReads() throws {
        try withScratchFolder { folder in
            var previous = sigaction()
            sigaction(SIGTERM, nil, &previous)
            defer { sigaction(SIGTERM, &previous, nil) }
            let sink = MemorySink()
            let session = try Session(tools: [], sink: sink)
            let report = try #require(ChildReport(path: folder + "/0.report"))
            report.attach(to: session, interrupts: neverInterrupted)
            let script = "run 1s\nexpect clock.now == 2s\nexpect clock.now == 1s\nrun 500ms\nfrob\n"
            _ = session.runScript(script, origin: ScriptOrigin(name: "suite/t.dsh"))
            report.finish(session)
            let (runner, _) = try makeRunner(workFolder: folder)
            let result = runner.finished(
                Self.file, index: 0, child: ChildProcess(pid: 0, started: 0), status: Self.exited(1), baseline: nil)
            #expect(
                Self.describe(result) == [
                    "error",
                    "expect suite/t.dsh:2: expectation failed: clock.now == 2s (clock.now = 1s) [at 1s] "
                        + "{clock.now == 2s}",
                    "error suite/t.dsh:5: unknown command 'frob' (try 'help') [at 1.5s]",
                ])
            #expect(result.metrics.contains { $0.name == "clock.now" && $0.type == "time" && $0.text == "1.5s" })
        }
    }

    @Test func aReportThatCannotBeOpenedIsNone() {
        #expect(ChildReport(path: "/nonexistent/runner-tests/0.report") == nil)
    }
}
