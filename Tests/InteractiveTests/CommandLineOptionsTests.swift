import Testing

@testable import debugsh

/// A plain command line is read without ArgumentParser (start-up, issue 38): what the quick
/// reader accepts it must read exactly as ArgumentParser does, and every other shape it must
/// leave to ArgumentParser, whose answers and messages stay the only ones.
struct CommandLineOptionsTests {
    @Test(
        arguments: [
            [], ["--no-rc", "-c", "quit"], ["a.dsh"], ["help"], ["a.dsh", "--json", "b.dsh"],
            ["--json", "--echo", "-k", "-i", "--no-plugins", "--check", "x.dsh"],
            ["--keep-going", "--interactive", "--command", "run 1s", "-c", "quit", "--no-rc"],
            ["--plugin", "p.so", "s.dsh", "--plugin", "q.so"],
            [
                "--trace", "t.json", "--trace-categories", "main,render", "--trace-limit", "10", "--trace-keep",
                "last", "w.dsh",
            ],
            ["--test-report", "r.json", "--test-parent", "123", "s.dsh"], ["-c", "x=1", "-c", "echo a b"],
            ["--trace-limit", "+7", "s.dsh"],
        ] as [[String]])
    func aPlainCommandLineReadsAsArgumentParserReadsIt(arguments: [String]) throws {
        let quick = try #require(CommandLineOptions(quick: arguments))
        #expect(quick == (try CommandLineOptions.parsed(arguments)))
    }

    @Test(
        arguments: [
            ["--help"], ["-h"], ["-help"], ["--version"], ["--json", "--json"], ["--no-rc", "--no-rc"], ["-c"],
            ["-c", "-x"], ["--command=quit"], ["--trace=t.json"], ["-ki"], ["--"], ["-"], [""], ["a.dsh", ""],
            ["--trace-limit", "ten"], ["--test-parent", "99999999999"], ["--bogus"], ["--trace", "a", "--trace", "b"],
            ["--trace"], ["-k", "--keep-going"], ["--generate-completion-script", "bash"],
            ["--experimental-dump-help"],
        ] as [[String]])
    func everyOtherShapeIsLeftToArgumentParser(arguments: [String]) {
        #expect(CommandLineOptions(quick: arguments) == nil)
    }
}
