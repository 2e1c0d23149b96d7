import Foundation
import Testing

/// `fps plot` in the live session: the chart is ordinary command output, printed above
/// the status block at the terminal's width; the block stays whole, directly above the prompt,
/// and keeps updating while time plays.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PlotSessionTests {
    /// The meter's status line (`fps 60 · render 30 · …`), not the chart's own `fps …` lines.
    func statusLines(_ screen: Screen) -> [String] {
        screen.lines.filter { $0.hasPrefix("fps ") && $0.contains(" · render ") }
    }

    @Test func aPlotDuringPlayLeavesTheStatusBlockIntact() throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home)
        defer { pane.close() }
        for command in ["fps start", "animate 1000s", "load gpu 20ms", "play 4"] {
            try pane.type(command)
            try pane.press("Enter")
            _ = try pane.waitForPrompt(after: command)
        }
        try pane.waitFor("render 30 in the block", seconds: 10) { statusLines($0).last?.contains("render 30") == true }

        try pane.type("fps plot --height 6")
        try pane.press("Enter")
        let screen = try pane.waitFor("the chart, then the block and the prompt") { screen in
            screen.lastLine == "debugsh>" && screen.lines.contains { $0.hasPrefix("hitch │") && $0.contains("rrr") }
                && screen.lines.contains { $0.contains(" presents, ") }
        }
        // The chart is drawn at the pane's 80 columns: no row wrapped (tmux joins wrapped rows);
        // a row with a budget line's tag after it fills them.
        #expect(screen.lines.allSatisfy { $0.count <= 80 }, "\(screen)")
        #expect(screen.lines.contains { $0.count == 80 && $0.hasSuffix("×") }, "\(screen)")
        #expect(screen.lines.contains { $0.contains("└┬") }, "\(screen)")
        // One status block, right above the prompt, under the chart.
        #expect(statusLines(screen).count == 1, "\(screen)")
        let blockRow = screen.lines.count - 2
        #expect(screen.lines[blockRow].hasPrefix("fps ") && screen.lines[blockRow].contains(" · render "), "\(screen)")
        let summaryRow = try #require(screen.lines.lastIndex { $0.contains(" presents, ") })
        #expect(summaryRow < blockRow, "\(screen)")

        // Time still plays: the block keeps changing, the chart stays where it was printed.
        var seen = Set<String>()
        let later = try pane.waitFor("the block to change after the plot", seconds: 10) { screen in
            guard screen.lastLine == "debugsh>", let line = statusLines(screen).last else { return false }
            seen.insert(line)
            return seen.count >= 2
        }
        #expect(statusLines(later).count == 1, "\(later)")
        #expect(later.lines.contains { $0.hasPrefix("hitch │") && $0.contains("rrr") }, "\(later)")
        try pane.type("pause")
        try pane.press("Enter")
        _ = try pane.waitForPrompt(after: "pause")
    }
}
