import DebugShell
import Testing

@testable import DebugShellTestRunner

/// `debugsh test`'s command line: what it refuses before anything runs (exit 2, a message and the
/// usage line), and `--list` (docs/Testing.md).
@Suite struct OptionsTests {
    /// Runs `debugsh test` with `arguments` as far as it goes without children.
    static func main(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let sink = MemorySink()
        let status = TestRunner.main(arguments, output: OutputRouter(sink: sink), interrupts: neverInterrupted)
        return (status, sink.standardOutput, sink.standardError)
    }

    static func usage(_ message: String) -> String {
        "debugsh: test: \(message)\nUsage: debugsh test [options] [file or folder ...] (see 'debugsh test --help')\n"
    }

    @Test(arguments: [
        (["-j", "0"], "-j takes a number from 1 to 1024, not 0"),
        (["--jobs", "1025"], "-j takes a number from 1 to 1024, not 1025"),
        (["--slowest=-1"], "--slowest takes 0 or more, not -1"),
        (
            ["--check", "--baseline", "b.json"],
            "--check runs nothing, so it has no metrics for --baseline or --update-baseline"
        ),
        (
            ["--check", "--update-baseline", "b.json"],
            "--check runs nothing, so it has no metrics for --baseline or --update-baseline"
        ),
        (["--timeout", "0s"], "--timeout takes a duration above 0, as 60s or 500ms, not '0s'"),
        (["--timeout", "soon"], "--timeout takes a duration above 0, as 60s or 500ms, not 'soon'"),
        (["--annotations", "gitlab"], "--annotations takes github or none, not 'gitlab'"),
        (["/nonexistent/runner-tests"], "cannot open '/nonexistent/runner-tests': No such file or directory"),
    ])
    func aBadCommandLineIsAUsageError(arguments: [String], message: String) {
        let run = Self.main(arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == Self.usage(message))
    }

    @Test func argumentParsersOwnErrorsAreUsageErrorsToo() {
        let run = Self.main(["--bogus"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("debugsh: test: Unknown option '--bogus'"))
        #expect(run.stderr.hasSuffix(Self.usage("").dropFirst("debugsh: test: ".count)))
        let number = Self.main(["-j", "many"])
        #expect(number.status == 2)
        #expect(number.stderr.hasPrefix("debugsh: test: "))
        #expect(number.stderr.contains("'many'"))
    }

    @Test func helpIsNotAnError() {
        let run = Self.main(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: debugsh test "))
        #expect(run.stdout.contains("--update-baseline <file.json>"))
        #expect(run.stderr == "")
    }

    @Test func aFolderWithoutScriptsIsAUsageError() throws {
        try withScratchFolder { folder in
            try write("not a script", to: folder + "/notes.txt")
            let run = Self.main([folder])
            #expect(run.status == 2)
            #expect(run.stderr == Self.usage("no *.dsh files in \(folder)"))
        }
    }

    /// `--list`: the files a run would take, after `--shard` and `--filter`, and nothing runs.
    @Test func listPrintsTheFilesAfterShardAndFilter() throws {
        try withScratchFolder { folder in
            let keys = (1...12).map { "s\($0).dsh" } + ["fps/a.dsh", "fps/b.dsh"]
            for key in keys { try write("expect clock.now == 99s\n", to: folder + "/" + key) }
            let all = Self.main(["--list", folder])
            #expect(all.status == 0)
            #expect(all.stderr == "")
            let sorted = keys.map { folder + "/" + $0 }.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
            #expect(all.stdout == sorted.map { $0 + "\n" }.joined())
            let filtered = Self.main(["--list", "--filter", "fps/", "--filter", "*s1?.dsh", folder])
            #expect(
                filtered.stdout
                    == [
                        folder + "/fps/a.dsh", folder + "/fps/b.dsh", folder + "/s10.dsh", folder + "/s11.dsh",
                        folder + "/s12.dsh",
                    ].map { $0 + "\n" }.joined())
            var union: [String] = []
            for index in 1...3 {
                let shard = Self.main(["--list", "--shard", "\(index)/3", folder])
                let expected = keys.filter { TestFiles.fnv1a($0) % 3 == UInt64(index - 1) }.map { folder + "/" + $0 }
                    .sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
                #expect(shard.stdout == expected.map { $0 + "\n" }.joined())
                union += shard.stdout.split(separator: "\n").map(String.init)
            }
            #expect(union.sorted() == sorted.sorted())
            let none = Self.main(["--list", "--filter", "nothing-matches", folder])
            #expect(none.status == 0)
            #expect(none.stdout == "")
            let badShard = Self.main(["--list", "--shard", "4/3", folder])
            #expect(badShard.stderr == Self.usage("--shard takes i/n with 1 ≤ i ≤ n (as 2/3), not '4/3'"))
        }
    }

    @Test func optionsParseAsDocumented() throws {
        let options = try TestOptions.parse([
            "-j", "3", "-k", "--junit", "r.xml", "--json", "--shard", "1/2", "--filter", "a", "--filter", "b*",
            "--timeout", "5s", "--slowest", "0", "x.dsh", "suite",
        ])
        #expect(options.jobs == 3)
        #expect(options.keepGoing)
        #expect(options.junit == "r.xml")
        #expect(options.json)
        #expect(options.shard == "1/2")
        #expect(options.filters == ["a", "b*"])
        #expect(options.timeout == "5s")
        #expect(options.slowest == 0)
        #expect(options.paths == ["x.dsh", "suite"])
        let defaults = try TestOptions.parse([])
        #expect(defaults.jobs == nil && defaults.slowest == 5 && defaults.paths.isEmpty && !defaults.check)
    }
}
