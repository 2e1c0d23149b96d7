import DebugShellCore
import Testing

@testable import DebugShellTestRunner

/// What `debugsh test` prints and writes (docs/Testing.md, "Output" and "Reports"; docs/JSON.md).
@Suite struct ReportsTests {
    static let hangs = TestFailure(
        kind: .expect, file: "scenarios/two.dsh", line: 3,
        message: "expectation failed: main.hangs == 2 (main.hangs = 1)", condition: "main.hangs == 2",
        values: "main.hangs = 1", time: SimTime(nanoseconds: 1_000_000_000))
    static let clock = TestFailure(
        kind: .expect, file: "scenarios/two.dsh", line: 4,
        message: "expectation failed: clock.now == 2s (clock.now = 1s)", time: SimTime(nanoseconds: 1_000_000_000))
    static let timeout = TestFailure(
        kind: .timeout, file: "scenarios/slow.dsh", line: 2, message: "timed out after 300ms (wall clock)",
        time: SimTime(nanoseconds: 8_756_000))

    /// docs/Testing.md's example run: a pass, a failure, an error and a skip.
    static var run: [TestResult] {
        var skipped = result("scenarios/later.dsh", .skipped)
        skipped.skipReason = "not ready"
        return [
            result("Examples/countdown-button.dsh", .passed, seconds: 0.047),
            result("scenarios/two.dsh", .failed, seconds: 0.047, failures: [hangs, clock]),
            result("scenarios/slow.dsh", .error, seconds: 0.301, failures: [timeout]),
            skipped,
        ]
    }

    @Test func eachFileHasALineAsItEnds() throws {
        let (runner, sink) = try makeRunner()
        let reports = Reports(runner: runner)
        for result in Self.run { reports.fileDone(result) }
        #expect(
            sink.standardOutput == """
                PASS  Examples/countdown-button.dsh (0.047s)
                FAIL  scenarios/two.dsh (0.047s)
                ERROR scenarios/slow.dsh (0.301s)
                SKIP  scenarios/later.dsh (not ready)

                """)
        #expect(sink.standardError == "")
    }

    /// The summary: failures in file order, the slowest (ties in file order), the counts.
    @Test func theSummaryAfterTheFiles() throws {
        let (runner, sink) = try makeRunner(["--slowest", "2"], jobs: 2)
        let status = Reports(runner: runner).finish(Self.run, total: 5, seconds: 0.412, baseline: nil)
        #expect(status == 1)
        #expect(
            sink.standardOutput == """

                failures:
                  FAIL  scenarios/two.dsh:3: expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s]
                  FAIL  scenarios/two.dsh:4: expectation failed: clock.now == 2s (clock.now = 1s) [at 1s]
                  ERROR scenarios/slow.dsh:2: timed out after 300ms (wall clock) [at 8.756ms]

                slowest:
                  0.301s  scenarios/slow.dsh
                  0.047s  Examples/countdown-button.dsh

                1 passed, 1 failed, 1 error, 1 skipped — 4 files of 5 in 0.412s (-j 2)

                """)
        #expect(sink.standardError == "")
    }

    @Test func aCleanRunSaysOnlyTheCounts() throws {
        let (runner, sink) = try makeRunner(["--slowest", "0"], jobs: 1)
        let results = [result("a.dsh", .passed, seconds: 1.5), result("b.dsh", .passed, seconds: 0.25)]
        #expect(Reports(runner: runner).finish(results, total: 2, seconds: 1.75, baseline: nil) == nil)
        #expect(sink.standardOutput == "\n2 passed, 0 failed, 0 errors, 0 skipped — 2 files in 1.750s (-j 1)\n")
    }

    @Test func aRunThatSelectedNothingSaysSo() throws {
        let (runner, sink) = try makeRunner(jobs: 4)
        #expect(Reports(runner: runner).finish([], total: 3, seconds: 0, baseline: nil) == nil)
        #expect(sink.standardOutput == "0 passed, 0 failed, 0 errors, 0 skipped — 0 files of 3 in 0.000s (-j 4)\n")
        #expect(sink.standardError == "debugsh: test: no file selected (by --shard or --filter)\n")
    }

    /// Metrics that moved: a table per file after the failures.
    @Test func theMovedMetricsHaveATable() throws {
        var moved = result("fps.dsh", .failed, seconds: 0.01)
        moved.moved = [
            Baseline.Move(metric: "fps.render", from: "30", to: "20", delta: "-10 (-33.333%)", tolerance: "exact")
        ]
        moved.failures = [
            TestFailure(
                kind: .baseline, file: "fps.dsh", message: "1 metric moved from the baseline: fps.render 30 → 20")
        ]
        let (runner, sink) = try makeRunner(["--slowest", "0"], jobs: 1)
        #expect(Reports(runner: runner).finish([moved], total: 1, seconds: 0.01, baseline: nil) == 1)
        #expect(
            sink.standardOutput == """

                failures:
                  FAIL  fps.dsh: 1 metric moved from the baseline: fps.render 30 → 20

                metrics that moved (from the baseline → this run):
                  fps.dsh
                    metric      from   to  Δ               tolerance
                    fps.render  30   → 20  -10 (-33.333%)  exact

                0 passed, 1 failed, 0 errors, 0 skipped — 1 file in 0.010s (-j 1)

                """)
    }

    /// Under `--json` standard output holds only JSON lines; the text goes to standard error.
    @Test func underJSONTheTextGoesToStandardError() throws {
        let (runner, sink) = try makeRunner(["--json", "--slowest", "1"], jobs: 2)
        let reports = Reports(runner: runner)
        let results = Self.run
        for result in results { reports.fileDone(result) }
        #expect(reports.finish(results, total: 4, seconds: 0.412, baseline: nil) == 1)
        let lines = sink.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.prefix(4).map { $0.hasPrefix("{\"file\": ") } == [true, true, true, true])
        #expect(
            lines.last
                == #"{"summary": {"files": 4, "passed": 1, "failed": 1, "errors": 1, "skipped": 1, "seconds": 0.412}}"#)
        #expect(sink.standardError.hasPrefix("\nfailures:\n  FAIL  scenarios/two.dsh:3: "))
        #expect(sink.standardError.hasSuffix("\n1 passed, 1 failed, 1 error, 1 skipped — 4 files in 0.412s (-j 2)\n"))
    }

    @Test func aFilesJSONLine() {
        #expect(
            Reports.json(Self.run[1]).serialized
                == #"{"file": "scenarios/two.dsh", "status": "failed", "seconds": 0.047, "failures": ["#
                + #"{"kind": "expect", "file": "scenarios/two.dsh", "line": 3, "#
                + #""message": "expectation failed: main.hangs == 2 (main.hangs = 1)", "#
                + #""condition": "main.hangs == 2", "values": "main.hangs = 1", "t_ns": 1000000000}, "#
                + #"{"kind": "expect", "file": "scenarios/two.dsh", "line": 4, "#
                + #""message": "expectation failed: clock.now == 2s (clock.now = 1s)", "#
                + #""condition": null, "values": null, "t_ns": 1000000000}], "moved": []}"#)
        // A skipped file has its reason after the seconds.
        #expect(
            Reports.json(Self.run[3]).serialized
                == #"{"file": "scenarios/later.dsh", "status": "skipped", "seconds": 0, "reason": "not ready", "#
                + #""failures": [], "moved": []}"#)
        var crashed = result("a.dsh", .error, seconds: 0.0125)
        crashed.failures = [TestFailure(kind: .crash, file: "a.dsh", message: "crashed: SIGSEGV")]
        crashed.moved = [Baseline.Move(metric: "m", from: "1", to: "(gone)", delta: "-", tolerance: "-")]
        #expect(
            Reports.json(crashed).serialized
                == #"{"file": "a.dsh", "status": "error", "seconds": 0.013, "failures": [{"kind": "crash", "#
                + #""file": "a.dsh", "line": null, "message": "crashed: SIGSEGV", "condition": null, "values": null, "#
                + #""t_ns": null}], "moved": [{"metric": "m", "from": "1", "to": "(gone)", "delta": "-", "#
                + #""tolerance": "-"}]}"#)
    }

    // MARK: GitHub annotations

    /// "\r\n" is one Character, neither "\r" nor "\n": escaped by Unicode scalars, a CRLF in a
    /// message no longer breaks the workflow command.
    @Test func aCRLFInAMessageIsEscaped() {
        #expect(Reports.escapeData("a\r\nb") == "a%0D%0Ab")
        #expect(Reports.escapeData("100%\r") == "100%25%0D")
        #expect(Reports.escapeProperty("a:b,c\r\n") == "a%3Ab%2Cc%0D%0A")
    }

    @Test func anAnnotationPerFailure() {
        #expect(
            Reports.annotation(Self.hangs)
                == "::error file=scenarios/two.dsh,line=3,title=debugsh test%3A expect failed::"
                + "expectation failed: main.hangs == 2 (main.hangs = 1) [at 1s]")
        // A crash with no known line names only the file.
        #expect(
            Reports.annotation(TestFailure(kind: .crash, file: "a.dsh", message: "crashed: SIGABRT"))
                == "::error file=a.dsh,title=debugsh test%3A crashed::crashed: SIGABRT")
        #expect(
            Reports.annotation(Self.timeout)
                == "::error file=scenarios/slow.dsh,line=2,title=debugsh test%3A timed out::"
                + "timed out after 300ms (wall clock) [at 8.756ms]")
    }

    /// GitHub's escaping: `%`, CR and LF everywhere; `:` and `,` too in the properties.
    @Test func annotationsAreEscapedAsGitHubReadsThem() {
        let failure = TestFailure(
            kind: .error, file: "odd: a,b%.dsh", line: 7, message: "100% wrong:\nsee, here\rthere",
            time: SimTime(nanoseconds: 1_500_000))
        #expect(
            Reports.annotation(failure)
                == "::error file=odd%3A a%2Cb%25.dsh,line=7,title=debugsh test%3A error::"
                + "100%25 wrong:%0Asee, here%0Dthere [at 1.5ms]")
        #expect(Reports.escapeProperty("a\nb") == "a%0Ab")
        #expect(Reports.escapeData("%0A") == "%250A")
        #expect(Reports.escapeProperty("a:b,c") == "a%3Ab%2Cc")
        #expect("a.b.c".replacingAll(".", "::") == "a::b::c")
        #expect("abc".replacingAll("x", "y") == "abc")
    }

    @Test func annotationsFollowTheFilesOnlyWhenAsked() throws {
        let (quiet, quietSink) = try makeRunner(["--slowest", "0"], annotate: false)
        _ = Reports(runner: quiet).finish([Self.run[2]], total: 1, seconds: 0.3, baseline: nil)
        #expect(!quietSink.combined.contains("::error"))
        let (loud, loudSink) = try makeRunner(["--slowest", "0"], annotate: true)
        _ = Reports(runner: loud).finish(Self.run, total: 4, seconds: 0.3, baseline: nil)
        let annotations = [
            "::error file=scenarios/two.dsh,line=3,title=debugsh test%3A expect failed::expectation failed: "
                + "main.hangs == 2 (main.hangs = 1) [at 1s]",
            "::error file=scenarios/two.dsh,line=4,title=debugsh test%3A expect failed::expectation failed: "
                + "clock.now == 2s (clock.now = 1s) [at 1s]",
            "::error file=scenarios/slow.dsh,line=2,title=debugsh test%3A timed out::timed out after 300ms "
                + "(wall clock) [at 8.756ms]",
        ]
        let expected = annotations.joined(separator: "\n") + "\n\nfailures:\n"
        #expect(loudSink.standardOutput.hasPrefix(expected))
    }

    // MARK: JUnit

    /// The document with its timestamp (the wall clock) taken out.
    static func junit(_ results: [TestResult], seconds: Double) throws -> String {
        let document = JUnit.document(results, seconds: seconds)
        let start = try #require(document.firstRange(of: " timestamp=\""))
        let end = try #require(document[start.upperBound...].firstIndex(of: "\""))
        let stamp = document[start.upperBound..<end]
        // `2026-11-27T23:40:00`: ISO 8601 in UTC, to the second.
        #expect(stamp.count == 19 && stamp.dropFirst(10).first == "T", "\(stamp)")
        return String(document[..<start.upperBound]) + "…" + document[end...]
    }

    @Test func aJUnitDocument() throws {
        var passed = result("a.dsh", .passed, seconds: 0.047)
        passed.stdout = "hello\n"
        var failed = result("dir/sub/two.dsh", .failed, seconds: 0.033)
        failed.failures = [
            TestFailure(
                kind: .expect, file: "dir/sub/two.dsh", line: 3, message: "expectation failed: x < 1 & y > 2",
                time: SimTime(nanoseconds: 1_000_000_000))
        ]
        failed.stderr = "warn\u{1}\n"
        var skipped = result("later.dsh", .skipped)
        skipped.skipReason = "not \"ready\""
        var crashed = result("b.dsh", .error, seconds: 0.3)
        crashed.failures = [TestFailure(kind: .crash, file: "b.dsh", message: "crashed: SIGSEGV — bye")]
        var moved = result("m.dsh", .failed, seconds: 0.01)
        moved.failures = [
            TestFailure(kind: .baseline, file: "m.dsh", message: "1 metric moved from the baseline: main.hangs 2 → 3")
        ]
        moved.moved = [Baseline.Move(metric: "main.hangs", from: "2", to: "3", delta: "+1 (+50%)", tolerance: "exact")]
        let lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="debugsh test" tests="5" failures="2" errors="1" time="1.500">"#,
            #"  <testsuite name="debugsh test" tests="5" failures="2" errors="1" skipped="1" time="1.500" timestamp="…">"#,
            #"    <testcase classname="." name="a.dsh" time="0.047">"#,
            #"      <system-out>hello"#,
            #"</system-out>"#,
            #"    </testcase>"#,
            #"    <testcase classname="dir.sub" name="dir/sub/two.dsh" time="0.033">"#,
            #"      <failure message="dir/sub/two.dsh:3: expectation failed: x &lt; 1 &amp; y &gt; 2" type="expect">"#
                + #"dir/sub/two.dsh:3: expectation failed: x &lt; 1 &amp; y &gt; 2 [at 1s]</failure>"#,
            #"      <system-err>warn\x01"#,
            #"</system-err>"#,
            #"    </testcase>"#,
            #"    <testcase classname="." name="later.dsh" time="0.000">"#,
            #"      <skipped message="not &quot;ready&quot;"/>"#,
            #"    </testcase>"#,
            #"    <testcase classname="." name="b.dsh" time="0.300">"#,
            #"      <error message="b.dsh: crashed: SIGSEGV — bye" type="crash">b.dsh: crashed: SIGSEGV — bye</error>"#,
            #"    </testcase>"#,
            #"    <testcase classname="." name="m.dsh" time="0.010">"#,
            #"      <failure message="m.dsh: 1 metric moved from the baseline: main.hangs 2 → 3" type="baseline">"#
                + "m.dsh: 1 metric moved from the baseline: main.hangs 2 → 3",
            "  m.dsh",
            "    metric      from   to  Δ          tolerance",
            "    main.hangs  2    → 3   +1 (+50%)  exact",
            "</failure>",
            #"    </testcase>"#,
            #"  </testsuite>"#,
            #"</testsuites>"#,
        ]
        #expect(
            try Self.junit([passed, failed, skipped, crashed, moved], seconds: 1.5)
                == lines.joined(separator: "\n") + "\n")
    }

    @Test func xmlTextAndAttributesAreEscaped() {
        // Characters XML 1.0 forbids are written out, not dropped.
        #expect(
            JUnit.text("a & <b> \u{1}\u{1B}\u{7F} \u{FFFE}\u{FFFF} é\t\r\n")
                == "a &amp; &lt;b&gt; \\x01\\x1B\\x7F \\u{FFFE}\\u{FFFF} é\t\r\n")
        #expect(JUnit.attribute("say \"hi\"\n\tthen\r<go>") == "say &quot;hi&quot;&#10;&#9;then&#13;&lt;go&gt;")
        #expect(JUnit.text("") == "")
    }

    // MARK: Small parts

    @Test func secondsAreWrittenWithThreeDecimals() {
        #expect(Clock.text(0) == "0.000")
        #expect(Clock.text(1.5) == "1.500")
        #expect(Clock.text(0.0456) == "0.046")
        #expect(Clock.text(12.3456) == "12.346")
        #expect(Clock.text(61) == "61.000")
        #expect(Clock.text(0.0004) == "0.000")
        #expect(Reports.seconds(0.0456).serialized == "0.046")
        #expect(Reports.seconds(2).serialized == "2")
    }

    @Test func countsByStatus() {
        let counts = Reports.Counts(Self.run + [result("c.dsh", .error), result("d.dsh", .passed)])
        #expect([counts.passed, counts.failed, counts.errors, counts.skipped] == [2, 1, 2, 1])
    }

    @Test func signalsHaveTheirNames() {
        #expect(SignalName.of(11) == "SIGSEGV")
        #expect(SignalName.of(6) == "SIGABRT")
        #expect(SignalName.of(9) == "SIGKILL")
        #expect(SignalName.of(64) == "signal 64")
    }

    /// The live line: counts, time and the first running file (by name), redrawn at most ten
    /// times a second and when a file ends; erased only when drawn.
    @Test func theProgressLine() throws {
        let (runner, sink) = try makeRunner()
        let line = ProgressLine(output: runner.output, total: 10)
        line.clear()
        #expect(sink.standardError == "")
        line.done(.passed)
        line.done(.failed)
        line.done(.error)
        line.draw(now: 1.25, running: ["b.dsh", "a.dsh"])
        // Back to the line's start and erase it (the escape is spelt apart from the text after it).
        let erase = "\r\u{1B}[K"
        let first = erase + "3/10 files · 2 failed · 1.250s · running a.dsh and 1 more"
        #expect(sink.standardError == first)
        line.draw(now: 1.3, running: ["b.dsh"])
        #expect(sink.standardError == first)
        line.done(.skipped)
        line.draw(now: 1.31, running: [])
        #expect(sink.standardError == first + erase + "4/10 files · 2 failed · 1.310s")
        line.clear()
        #expect(sink.standardError == first + erase + "4/10 files · 2 failed · 1.310s" + erase)
        #expect(sink.standardOutput == "")
    }
}
