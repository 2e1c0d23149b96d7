import Foundation
import Testing

/// At the prompt every day (issue 23), on the built binary: help that fits a screen, LLDB's
/// words, `apropos` by words, the example scripts inside, settings as people type them.
@Suite struct PromptHabitsTests {
    /// Runs `-c` commands with --keep-going and returns the run.
    func run(_ commands: [String], stdin: String = "") throws -> Binary.Run {
        try Binary.run(["-k"] + commands.flatMap { ["-c", $0] }, stdin: stdin)
    }

    /// Every command's and verb's help topic, from docs/Commands.md (generated from the
    /// registry: every built-in and every built-in tool's command and verb).
    static func helpTopics() throws -> [String] {
        let reference = try String(
            contentsOf: Binary.packageRoot.appendingPathComponent("docs/Commands.md"), encoding: .utf8)
        var topics: [String] = []
        var afterFence = false
        for line in reference.split(separator: "\n", omittingEmptySubsequences: false) {
            if afterFence, let dash = line.range(of: " — ") { topics.append(String(line[..<dash.lowerBound])) }
            afterFence = line == "```"
        }
        return topics
    }

    // MARK: 4. help fits a screen

    /// `help <command>` and `help <command> <verb>` fit a 40-row terminal 80 columns wide (with
    /// the prompt under them), for every built-in and every tool: `help fps` was 316 lines.
    @Test func shortHelpOfEveryCommandAndVerbFitsFortyRows() throws {
        let topics = try PromptHabitsTests.helpTopics()
        #expect(topics.count > 60, "\(topics)")
        #expect(topics.contains("fps") && topics.contains("timer") && topics.contains("fps plot"))
        let script = topics.map { "echo @@@ \($0)\nhelp \($0)" }.joined(separator: "\n") + "\n"
        let r = try Binary.run([], stdin: script)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        let pages = r.stdout.components(separatedBy: "@@@ ").dropFirst()
        #expect(pages.count == topics.count)
        for page in pages {
            let lines = page.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast()
            let rows = lines.reduce(0) { $0 + max(1, ($1.count + 79) / 80) }
            #expect(rows <= 39, "help \(page.prefix(while: { $0 != "\n" })): \(rows) rows")
        }
    }

    /// The short page says what it left out; --examples and --full print it.
    @Test func examplesAndFullPrintWhatTheShortPageLeavesOut() throws {
        let short = try run(["help fps"]).stdout
        #expect(short.hasPrefix("fps — Measure frames per second"))
        #expect(
            short.hasSuffix("MORE: 'help fps --examples' (29 more examples), 'help fps --full' (everything)\n"),
            "\(short)")
        #expect(short.contains("  watch     Print hitches or closed windows as events while time runs"))
        let full = try run(["help fps --full"]).stdout
        #expect(full.contains("fps plot [<file>] [--from <time>]"))
        #expect(!full.contains("MORE:"))
        let examples = try run(["help fps --examples"]).stdout
        #expect(examples.hasPrefix("fps — 29 examples\n\n  > fps start\n"), "\(examples)")
        // The examples are the full page's, and only they.
        #expect(full.contains(String(examples.dropFirst("fps — 29 examples\n\n".count))))
        #expect(!examples.contains("VERBS:"))
        // A verb's short page keeps what fits of its examples; `stall --help` is `help stall`.
        #expect(try run(["fps plot --help"]).stdout == run(["help fps plot"]).stdout)
        let both = try run(["help fps --full --examples"])
        #expect(both.stderr == "<command-line>:1: error: 'help' takes --full or --examples, not both\n", "\(both)")
    }

    // MARK: 3. LLDB's words

    @Test func lldbLongFormsRunAndLLDBWordsPointToWhatDebugshOffers() throws {
        let r = try run([
            "print clock.now", "command alias hi = echo hello", "hi", "command source nope.dsh", "continue",
            "quit 3", "expr 1", "bt", "frame", "next",
        ])
        #expect(r.stdout == "clock.now = 0s\nhello\n", "\(r)")
        let errors = r.stderr.split(separator: "\n").map(String.init)
        #expect(
            errors == [
                "<command-line>:4: error: cannot open 'nope.dsh': No such file or directory",
                "<command-line>:5: error: play needs the interactive session, where time can follow the wall clock; use 'run' here",
                "<command-line>:6: error: unexpected argument '3' for 'quit'; 'quit' takes no status: 'exit 3' leaves with status 3",
                "<command-line>:7: error: unknown command 'expr': 'expr' is LLDB's 'expression'; debugsh evaluates no expressions: 'get <metric>' (or 'print', 'p') prints a metric, 'expect <condition>' checks one",
                "<command-line>:8: error: unknown command 'bt': 'bt' is LLDB's 'thread backtrace'; a simulated device has no call stacks: 'status' shows the device and its main thread, 'tools' the tools",
                "<command-line>:9: error: unknown command 'frame': 'frame' is LLDB's 'frame'; a simulated device has no call stacks: 'status' shows the device and its main thread, 'tools' the tools",
                "<command-line>:10: error: unknown command 'next': 'next' is LLDB's 'thread step-over'; 'step' (s) moves to the next vsync; 'run <duration>' (r) moves further",
            ], "\(r)")
    }

    // MARK: 11. apropos, help examples

    /// `apropos hang` finds hangs, not every "change".
    @Test func aproposMatchesWordsNotTheInsidesOfWords() throws {
        let r = try run(["apropos hang"])
        #expect(!r.stdout.contains("change"), "\(r)")
        #expect(r.stdout.hasPrefix("metric main.hangs — "), "\(r)")
        #expect(r.stdout.split(separator: "\n").count < 8, "\(r)")
        // A phrase inside a word still counts when nothing else matches.
        #expect(try run(["apropos oalesc"]).stdout.contains("setting runloop.coalescing —"))
    }

    /// The Examples travel inside the binary: `help examples` lists them, `example <name>` runs
    /// one from any folder, `--print` prints it.
    @Test func helpExamplesListsTheScriptsAndExampleRunsOne() throws {
        let list = try run(["help examples"])
        #expect(list.stdout.hasPrefix("EXAMPLE SCRIPTS ('example <name>' runs one"), "\(list)")
        #expect(list.stdout.contains("\n  tour  ") || list.stdout.contains("\n  tour   "), "\(list)")
        #expect(list.stdout.contains("WORKED EXAMPLES OF THE RULES"))
        let tour = try String(
            contentsOf: Binary.packageRoot.appendingPathComponent("Examples/fps-stall.dsh"), encoding: .utf8)
        #expect(try run(["example fps-stall --print"]).stdout == tour)
        let ran = try run(["example fps-stall"])
        #expect(ran.status == 0 && ran.stderr.isEmpty, "\(ran)")
        let bad = try run(["example tuor"])
        #expect(
            bad.stderr
                == "<command-line>:1: error: no example 'tuor'; did you mean 'tour'? ('help examples' lists them)\n")
    }

    // MARK: 13. settings as typed, one dash

    @Test func settingsTakeEqualsAndClearAndOneDashPointsToTwo() throws {
        let r = try run([
            "settings set fps.tiers = wwdc20", "settings show fps.tiers", "settings clear fps.tiers",
            "settings show fps.tiers", "set timer.late-threshold = 3ms", "settings show timer.late-threshold",
            "settings set fps.tiers apple wwdc20", "timer list -a",
        ])
        #expect(r.stdout == "fps.tiers = wwdc20\nfps.tiers = apple\ntimer.late-threshold = 3ms\n", "\(r)")
        #expect(
            r.stderr == """
                <command-line>:7: error: 'settings set' takes one value: 'settings set fps.tiers <value>' (or 'settings set fps.tiers = <value>')
                <command-line>:8: error: unexpected argument '-a' for 'timer list'; options take two dashes: did you mean '--all'?

                """, "\(r)")
    }

    // MARK: 16. the command line and README

    /// A folder named as the script is a usage error, as a missing script is: status 2.
    @Test func aFolderAsTheScriptExitsTwoAsAMissingOneDoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-folder-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Binary.run([folder.path])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.hasPrefix("debugsh: cannot open '\(folder.path)': it is a directory, not a script\n"), "\(r)")
        #expect(try Binary.run(["no-such-script.dsh"]).status == 2)
    }

    /// README's command-line block names every option `--help` lists, and its chart's
    /// description gives the hitch the chart shows (one refresh interval late: 16.667 ms).
    @Test func readmeNamesEveryOptionAndTheRightHitch() throws {
        let readme = try String(contentsOf: Binary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "## Command line"),
            let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)
        else {
            Issue.record("README has no Command line section")
            return
        }
        let block = readme[start.upperBound..<end.lowerBound]
        let help = try Binary.run(["--help"]).stdout
        let options = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map { String($0.prefix { $0 != "=" && $0 != "<" }) }
        #expect(options.count > 10, "\(help)")
        for option in Set(options) { #expect(block.contains(option), "README's command line lacks \(option)") }
        #expect(readme.contains("each a 16.667 ms render hitch"))
        #expect(!readme.contains("33 ms render hitch"))
    }
}
