import Foundation
import Testing

/// The interactive session in a real terminal (README, The interactive session): debugsh runs in tmux and the
/// tests read the visible pane. Serialized: each test has its own tmux server, but they share
/// the machine's time, and polling is kinder when only one runs.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct InteractiveSessionTests {
    /// Runs `body` with a fresh pane and home, and always cleans both up.
    func withPane(environment: [String: String] = [:], rc: String? = nil, _ body: (TmuxPane) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        if let rc { try home.writeRCFile(rc) }
        let pane = try TmuxPane(home: home, environment: environment)
        defer { pane.close() }
        try body(pane)
    }

    static let statusLine = "status-hook: all quiet"

    @Test func typedCommandPrintsItsOutput() throws {
        try withPane { pane in
            try pane.type("echo hello")
            try pane.press("Enter")
            let screen = try pane.waitForPrompt(after: "hello")
            let index = try #require(screen.lines.firstIndex(of: "debugsh> echo hello"), "\(screen)")
            #expect(screen.lines[index + 1] == "hello", "\(screen)")
        }
    }

    @Test(arguments: [
        ("ech", "echo "),
        ("load fr", "load frame "),
        ("stall 1ms --u", "stall 1ms --ui "),
    ])
    func tabCompletes(typed: String, completed: String) throws {
        try withPane { pane in
            try pane.type(typed)
            try pane.press("Tab")
            // A marker typed after the completion shows whether a space was appended.
            try pane.type("Z")
            try pane.waitFor("'\(typed)' + Tab to give '\(completed)'") { $0.lastLine == "debugsh> \(completed)Z" }
        }
    }

    @Test func doubleTabListsCandidatesWithoutAStaleStatusRow() throws {
        try withPane(environment: ["DEBUGSH_TEST_STATUS": Self.statusLine]) { pane in
            try pane.waitFor("the status line") { $0.count(Self.statusLine) == 1 }
            try pane.type("e")
            try pane.press("Tab", "Tab")
            let isList = { (line: String) in
                ["echo", "every", "exit", "expect"].allSatisfy { line.split(separator: " ").contains(Substring($0)) }
            }
            try pane.waitFor("the list of commands starting with e") { $0.lines.contains(where: isList) }
            let screen = try pane.waitFor("the block back above the prompt") { screen in
                screen.lastLine == "debugsh> e" && screen.lines.dropLast().last == Self.statusLine
            }
            // The list stands where the block was: no status row above it.
            #expect(screen.count(Self.statusLine) == 1, "\(screen)")
            #expect(screen.lines.firstIndex(where: isList) == screen.lines.count - 3, "\(screen)")
        }
    }

    @Test func historySurvivesTheSessionInAPrivateFile() throws {
        let home = try TestHome()
        defer { home.remove() }
        do {
            let first = try TmuxPane(home: home)
            defer { first.close() }
            try first.type("echo one")
            try first.press("Enter")
            try first.waitForPrompt(after: "one")
            try first.press("C-d")
            try first.waitFor("debugsh to leave with status 0") { $0.lines.contains("EXITED=0") }
        }
        var info = stat()
        try #require(stat(home.historyFile, &info) == 0, "no history file at \(home.historyFile)")
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: home.historyFile, encoding: .utf8).contains("echo one"))

        let second = try TmuxPane(home: home)
        defer { second.close() }
        try second.press("Up")
        try second.waitFor("Up to recall the last session's command") { $0.lastLine == "debugsh> echo one" }
    }

    @Test func upSearchesHistoryByPrefix() throws {
        try withPane { pane in
            for command in ["echo first", "stall 1ms", "echo second", "stall 2ms"] {
                try pane.type(command)
                try pane.press("Enter")
            }
            try pane.waitFor("four commands") { $0.count("second") == 1 && $0.lastLine == "debugsh>" }
            try pane.type("ec")
            try pane.press("Up")
            try pane.waitFor("Up to recall the last echo") { $0.lastLine == "debugsh> echo second" }
            try pane.press("Up")
            try pane.waitFor("Up again to recall the one before") { $0.lastLine == "debugsh> echo first" }
        }
    }

    @Test func controlRSearchesHistory() throws {
        try withPane { pane in
            for command in ["echo alpha", "echo beta"] {
                try pane.type(command)
                try pane.press("Enter")
            }
            try pane.waitFor("two commands") { $0.count("beta") == 1 && $0.lastLine == "debugsh>" }
            try pane.press("C-r")
            try pane.type("alp")
            try pane.waitFor("the reverse search to find echo alpha") {
                $0.lastLine == "(reverse-i-search)`alp': echo alpha"
            }
            try pane.press("Enter")
            try pane.waitForPrompt(after: "alpha again")
            let screen = try pane.screen()
            #expect(screen.count("alpha") == 2, "\(screen)")
        }
    }

    @Test func controlCClearsAHalfTypedLine() throws {
        try withPane { pane in
            try pane.type("echo half")
            try pane.waitFor("the typed text") { $0.lastLine == "debugsh> echo half" }
            try pane.press("C-c")
            let screen = try pane.waitFor("a fresh prompt") { $0.lastLine == "debugsh>" }
            #expect(screen.lines.contains("debugsh> echo half^C"), "\(screen)")
            try pane.type("echo after")
            try pane.press("Enter")
            let final = try pane.waitForPrompt(after: "after")
            #expect(final.count("after") == 1 && final.count("half") == 0, "\(final)")
        }
    }

    @Test func controlCStopsTimeAndReturnsToThePrompt() throws {
        try withPane { pane in
            let command = "animate 1000000s; run 1000000s"
            try pane.type(command)
            try pane.press("Enter")
            // Running: the command is on screen and the cursor has left its row.
            try pane.waitFor("the command to start") { screen in
                guard let row = screen.lines.lastIndex(of: "debugsh> \(command)") else { return false }
                return try screen.lines.count == row + 1 && pane.cursorRow() > row
            }
            try pane.press("C-c")
            let screen = try pane.waitFor("the interrupt to be reported") { screen in
                screen.lines.contains { $0.hasPrefix("error: interrupted at ") } && screen.lastLine == "debugsh>"
            }
            #expect(screen.lines.contains("^C"), "\(screen)")
            try pane.type("echo still here")
            try pane.press("Enter")
            try pane.waitForPrompt(after: "the shell to go on")
        }
    }

    @Test func controlDLeavesWithStatusZero() throws {
        try withPane { pane in
            try pane.press("C-d")
            let screen = try pane.waitFor("EXITED=0") { $0.lines.contains("EXITED=0") }
            #expect(screen.lines.contains("debugsh>"), "\(screen)")
        }
    }

    @Test func exitLeavesWithItsStatus() throws {
        try withPane { pane in
            try pane.type("exit 3")
            try pane.press("Enter")
            try pane.waitFor("EXITED=3") { $0.lines.contains("EXITED=3") }
        }
    }

    @Test func statusBlockStandsOnceAboveThePrompt() throws {
        try withPane(environment: ["DEBUGSH_TEST_STATUS": Self.statusLine]) { pane in
            // Time has not moved: the prompt's clock reads 0.000s.
            try pane.waitFor("the status line above the first prompt") {
                $0.raw == [Self.statusLine, "debugsh 0.000s>"]
            }
            for word in ["a", "b", "c"] {
                try pane.type("echo \(word)")
                try pane.press("Enter")
                try pane.waitForPrompt(after: word)
            }
            let screen = try pane.screen()
            // The scrollback holds prompts, commands and output only; the block is under them.
            #expect(
                screen.raw == [
                    "debugsh 0.000s> echo a", "a", "debugsh 0.000s> echo b", "b", "debugsh 0.000s> echo c", "c",
                    Self.statusLine, "debugsh 0.000s>",
                ], "\(screen)")
        }
    }

    @Test func statusLinesAreCutToTheVisibleWidth() throws {
        // 60 wide characters take 120 columns: the row keeps 39 of them (78 columns, one short of 80).
        let wide = String(repeating: "日", count: 60)
        try withPane(environment: ["DEBUGSH_TEST_STATUS": wide]) { pane in
            let screen = try pane.waitFor("the cut status line") { $0.lastLine == "debugsh>" && $0.lines.count >= 2 }
            #expect(screen.lines == [String(repeating: "日", count: 39), "debugsh>"], "\(screen)")
        }
    }

    @Test func resizingRedrawsTheBlockAtTheNewWidth() throws {
        let long = String(repeating: "S", count: 70) + "-end"
        try withPane(environment: ["DEBUGSH_TEST_STATUS": long]) { pane in
            try pane.type("echo one")
            try pane.press("Enter")
            try pane.waitFor("the block under the output") { $0.lines.suffix(2) == [long, "debugsh>"] }
            // The terminal rewraps the old row; the block replaces both pieces with one cut row.
            try pane.resize(columns: 50)
            let narrow = try pane.waitFor("one row cut to 49 columns") { screen in
                screen.lines.suffix(2) == [String(repeating: "S", count: 49), "debugsh>"]
            }
            #expect(narrow.lines.filter { $0.hasPrefix("S") }.count == 1, "\(narrow)")
            try pane.resize(columns: 80)
            let wide = try pane.waitFor("the whole line again") { $0.lines.suffix(2) == [long, "debugsh>"] }
            #expect(wide.lines.filter { $0.hasPrefix("S") }.count == 1, "\(wide)")
        }
    }

    @Test func backslashContinuesTheLine() throws {
        try withPane { pane in
            try pane.type("echo con\\")
            try pane.press("Enter")
            try pane.waitFor("the continuation prompt") { $0.lastLine == "..." }
            try pane.type("tinued")
            try pane.press("Enter")
            let screen = try pane.waitForPrompt(after: "the joined line's output")
            #expect(screen.lines.contains("continued"), "\(screen)")
        }
    }

    @Test func rcFileRunsAtStart() throws {
        let rc = "echo rc-file-ran\nalias hi = echo hi-from-rc\nno-such-command\necho not-reached\n"
        try withPane(rc: rc) { pane in
            let screen = try pane.waitFor("the rc file's output") { $0.lines.contains("rc-file-ran") }
            // Errors name the file and line; the rest of the file is skipped, the session goes on.
            #expect(
                screen.lines.contains {
                    $0.hasSuffix("/debugsh/init.dsh:3: error: unknown command 'no-such-command' (try 'help')")
                }, "\(screen)")
            #expect(!screen.lines.contains("not-reached"), "\(screen)")
            try pane.type("hi")
            try pane.press("Enter")
            try pane.waitForPrompt(after: "the rc file's alias")
            #expect(try pane.screen().lines.contains("hi-from-rc"))
        }
    }
}
