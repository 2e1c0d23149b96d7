import Foundation
import Testing

/// pytest's habits in `debugsh test` (issue 37, 9): -x and --maxfail stop starting files, --lf runs
/// the files that failed last time, -v prints each file's failures under its line.
@Suite struct TestRunnerHabitsTests {
    static let files = [
        "a.dsh": "expect clock.now == 0s\n", "b.dsh": "expect clock.now == 1s\n",
        "c.dsh": "expect clock.now == 2s\n", "d.dsh": "expect clock.now == 0s\n",
    ]

    func run(_ arguments: [String], in folder: URL) throws -> Binary.Run {
        try Binary.run(
            ["test", "--slowest", "0"] + arguments, directory: folder, environment: TestRunnerTests.isolated)
    }

    @Test func exitFirstAndMaxFailStopStartingFiles() throws {
        let dir = try Binary.folder(Self.files)
        // One at a time, in path order: b fails, so c and d never start.
        let x = try run(["-j", "1", "-x", "."], in: dir)
        #expect(x.status == 1)
        #expect(x.stdout.hasPrefix("PASS  a.dsh"), "\(x)")
        #expect(x.stdout.contains("FAIL  b.dsh") && !x.stdout.contains("c.dsh") && !x.stdout.contains("d.dsh"))
        #expect(x.stdout.contains("1 passed, 1 failed, 0 errors, 0 skipped — 2 files of 4"), "\(x)")
        #expect(x.stderr.contains("test: stopped after 1 failed file (-x); 2 files not run"), "\(x)")
        // --maxfail 2: b and c fail, d is not run.
        let two = try run(["-j", "1", "--maxfail", "2", "."], in: dir)
        #expect(two.stdout.contains("FAIL  c.dsh") && !two.stdout.contains("d.dsh"), "\(two)")
        #expect(two.stderr.contains("test: stopped after 2 failed files (--maxfail 2); 1 file not run"))
        let zero = try run(["--maxfail", "0", "."], in: dir)
        #expect(zero.status == 2 && zero.stderr.hasPrefix("debugsh: test: --maxfail takes 1 or more, not 0"))
    }

    @Test func lastFailedRunsWhatFailedLastTime() throws {
        let dir = try Binary.folder(Self.files)
        // Nothing failed yet: all run, and it says so.
        let first = try run(["--lf", "."], in: dir)
        #expect(first.stderr.contains("test: --lf: no file failed last time: running all 4"), "\(first)")
        #expect(first.status == 1)
        let remembered = try String(
            contentsOf: dir.appendingPathComponent(".debugsh-cache/lastfailed"), encoding: .utf8)
        #expect(remembered == "b.dsh\nc.dsh\n")
        // Only b and c run now.
        let second = try run(["--lf", "."], in: dir)
        #expect(second.stdout.contains("0 passed, 2 failed, 0 errors, 0 skipped — 2 files of 4"), "\(second)")
        // Fix b: it passes and is forgotten; c is still remembered.
        try "expect clock.now == 0s\n".write(to: dir.appendingPathComponent("b.dsh"), atomically: true, encoding: .utf8)
        let third = try run(["--lf", "."], in: dir)
        #expect(third.stdout.contains("PASS  b.dsh") && third.stdout.contains("FAIL  c.dsh"), "\(third)")
        let left = try String(contentsOf: dir.appendingPathComponent(".debugsh-cache/lastfailed"), encoding: .utf8)
        #expect(left == "c.dsh\n")
        // The cache's folder is hidden: a run of the folder never takes it for tests.
        #expect(try run(["--list", "."], in: dir).stdout == "a.dsh\nb.dsh\nc.dsh\nd.dsh\n")
    }

    @Test func verbosePrintsFailuresUnderTheirFile() throws {
        let dir = try Binary.folder(["b.dsh": "expect clock.now == 1s\n"])
        let v = try run(["-v", "b.dsh"], in: dir)
        let lines = v.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("FAIL  b.dsh (") == true, "\(v)")
        #expect(
            lines.dropFirst().first == "      b.dsh:1: expectation failed: clock.now == 1s (clock.now = 0s) [at 0s]")
        let quiet = try run(["b.dsh"], in: dir)
        #expect(!quiet.stdout.contains("      b.dsh:1:"))
    }
}

/// Baselines keyed by the path from the baseline's folder, so that a subset compares; a file the
/// baseline lacks is said, and fails under --strict (issue 37, 3).
@Suite struct BaselineSubsetTests {
    func run(_ arguments: [String], in folder: URL) throws -> Binary.Run {
        try Binary.run(
            ["test", "--slowest", "0"] + arguments, directory: folder, environment: TestRunnerTests.isolated)
    }

    @Test func aSubfolderComparesWithABaselineOfTheWholeFolder() throws {
        let dir = try Binary.folder([
            "scenarios/feed/a.dsh": "animate 1s\nrun 1s\n", "scenarios/b.dsh": "run 1s\n",
        ])
        let stored = try run(["--update-baseline", "b.json", "scenarios"], in: dir)
        #expect(stored.status == 0, "\(stored)")
        let json = try String(contentsOf: dir.appendingPathComponent("b.json"), encoding: .utf8)
        #expect(json.contains("\"scenarios/feed/a.dsh\": {") && json.contains("\"scenarios/b.dsh\": {"), "\(json)")
        // A regression in the subfolder: its run compares, and fails.
        try "animate 1s\nload gpu 20ms\nrun 1s\n".write(
            to: dir.appendingPathComponent("scenarios/feed/a.dsh"), atomically: true, encoding: .utf8)
        let sub = try run(["--baseline", "b.json", "scenarios/feed"], in: dir)
        #expect(sub.status == 1, "\(sub)")
        #expect(
            sub.stdout.contains(
                "FAIL  scenarios/feed/a.dsh:3: 1 metric moved from the baseline: render.presents 58 → 29")
        )
        // From inside the subfolder, with the baseline named from there: the same key.
        let inside = try run(["--baseline", "../../b.json", "a.dsh"], in: dir.appendingPathComponent("scenarios/feed"))
        #expect(inside.status == 1 && inside.stdout.contains("render.presents 58 → 29"), "\(inside)")
        // A file the baseline lacks is said; --strict fails it.
        try "run 1s\n".write(
            to: dir.appendingPathComponent("scenarios/feed/new.dsh"), atomically: true, encoding: .utf8)
        let said = try run(["--baseline", "b.json", "scenarios/feed/new.dsh"], in: dir)
        #expect(said.status == 0, "\(said)")
        #expect(
            said.stdout.contains(
                "1 file not in the baseline b.json, nothing compared (--strict makes each fail):\n  scenarios/feed/new.dsh\n"
            ), "\(said)")
        let strict = try run(["--baseline", "b.json", "--strict", "scenarios/feed/new.dsh"], in: dir)
        #expect(strict.status == 1)
        #expect(
            strict.stdout.contains(
                "FAIL  scenarios/feed/new.dsh:1: not in the baseline b.json (as 'scenarios/feed/new.dsh'): nothing to compare (--strict)"
            ), "\(strict)")
        let alone = try run(["--strict", "scenarios"], in: dir)
        #expect(alone.status == 2 && alone.stderr.contains("--strict applies to --baseline, which is not given"))
    }
}
