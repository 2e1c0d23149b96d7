import Foundation
import Testing

/// Help taller than the terminal is paged at the prompt (issue 23): a built-in more when PAGER
/// is unset or blank, `$PAGER` when it is set; help that fits is printed as it is.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PagerTests {
    func withPane(pager: String, _ body: (TmuxPane) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home, environment: ["PAGER": pager])
        defer { pane.close() }
        try body(pane)
    }

    @Test func theBuiltInMoreShowsAScreenAtATimeAndQuitsWithQ() throws {
        try withPane(pager: "") { pane in
            try pane.type("help fps --full")
            try pane.press("Enter")
            let first = try pane.waitFor("the first screen of help and the more prompt") {
                $0.raw.last?.hasPrefix("-- more (") == true
            }
            // The command line, then 22 rows of help, then the prompt of the pager: 24 rows.
            #expect(first.raw.count == 24, "\(first)")
            #expect(first.raw[0] == "debugsh 0.000s> help fps --full", "\(first)")
            #expect(first.raw[1] == "fps — Measure frames per second as an FPS label does, and what it cannot see.")
            #expect(
                first.raw.last == "-- more (5%): space a page, return a line, q quits --", "\(first)")
            try pane.press("Space")
            let second = try pane.waitFor("the second screen") {
                $0.raw.last?.hasPrefix("-- more (") == true && $0.raw.last != first.raw.last
            }
            #expect(second.raw.count == 24, "\(second)")
            #expect(!second.raw.contains("debugsh 0.000s> help fps --full"), "\(second)")
            try pane.type("q")
            let after = try pane.waitFor("the prompt after q") { $0.raw.last == "debugsh 0.000s>" }
            #expect(!after.raw.contains { $0.hasPrefix("-- more") }, "\(after)")
            // The line editor works on after the pager: a command runs.
            try pane.type("echo after")
            try pane.press("Enter")
            try pane.waitFor("echo after the pager") { $0.raw.suffix(2) == ["after", "debugsh 0.000s>"] }
        }
    }

    @Test func helpThatFitsIsNotPagedAndPagerFromTheEnvironmentIsUsed() throws {
        try withPane(pager: "sed 's/^/P:/'") { pane in
            try pane.type("help echo")
            try pane.press("Enter")
            let short = try pane.waitFor("help echo, then the prompt") { $0.raw.last == "debugsh 0.000s>" }
            #expect(short.raw.contains("echo — Print the words."), "\(short)")
            #expect(!short.raw.contains { $0.hasPrefix("P:") }, "\(short)")
            try pane.type("help timer --full")
            try pane.press("Enter")
            let paged = try pane.waitFor("help through PAGER, then the prompt") {
                $0.raw.last == "debugsh 0.000s>" && $0.raw.contains { $0.hasPrefix("P:") }
            }
            #expect(paged.raw.contains("P:  > timer leaks"), "\(paged)")
        }
    }
}
