import Foundation
import Testing

/// Input stays live whatever the simulation's weight (issue 23): typing during a heavy `play`
/// shows up promptly, Ctrl-C during a heavy `play` pauses as during a light one and gives up the
/// half-typed line, and a long `run` shows its progress. The tight bound (50 ms at the 95th
/// percentile) is Benchmarks/keystroke_echo.py's job; these bounds are loose.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LiveInputTests {
    func withPane(_ body: (TmuxPane) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home, environment: ["NO_COLOR": "1"])
        defer { pane.close() }
        try body(pane)
    }

    /// Runs a command and waits for the prompt after it.
    func run(_ pane: TmuxPane, _ command: String, seconds: Double = 30) throws {
        try pane.type(command)
        try pane.press("Enter")
        try pane.waitFor("the prompt after '\(command)'", seconds: seconds) { screen in
            guard let row = screen.lines.lastIndex(of: "debugsh> \(command)") else { return false }
            return screen.lastLine == "debugsh>" && screen.lines.count > row + 1
        }
    }

    /// 5,000 GCD timers every 1 ms on the main queue (five million handlers per simulated second),
    /// played at ×1: each instant is heavy (the engine used to look at the keyboard every 256
    /// instants, half a second of wall time and more here).
    func startHeavyPlay(_ pane: TmuxPane) throws {
        let folder = pane.home.root
        let script = (0..<5000).map { "timer gcd g\($0) --interval 1ms\n" }.joined()
        try script.write(toFile: folder + "/timers.dsh", atomically: true, encoding: .utf8)
        try run(pane, "source \(folder)/timers.dsh", seconds: 60)
        try run(pane, "play")
        try pane.waitFor("time to move", seconds: 20) { screen in
            screen.lastLine == "debugsh>" && screen.raw.last.map { !$0.hasPrefix("debugsh 0.000s>") } == true
        }
    }

    @Test func typingDuringAHeavyPlayShowsUpPromptly() throws {
        try withPane { pane in
            try startHeavyPlay(pane)
            var worst = 0.0
            var typed = ""
            for character in "echo abc" {
                usleep(100_000)
                typed.append(character)
                let sent = Date()
                try pane.type(String(character))
                try pane.waitFor("'\(typed)' at the prompt", seconds: 10) {
                    $0.lastLine == "debugsh> \(typed)".trimmingCharacters(in: .whitespaces)
                }
                worst = max(worst, Date().timeIntervalSince(sent))
            }
            // Loose: a busy machine and tmux's own polling add to the real latency.
            #expect(worst < 0.5, "the slowest key took \(worst) s to show")
            try pane.press("Enter")
            try pane.waitFor("the command's output", seconds: 10) { $0.lines.contains("abc") }
        }
    }

    @Test func controlCDuringAHeavyPlayPausesAndGivesUpTheLine() throws {
        try withPane { pane in
            try startHeavyPlay(pane)
            try pane.type("echo half-typ")
            try pane.waitFor("the half-typed line", seconds: 10) { $0.lastLine == "debugsh> echo half-typ" }
            try pane.press("C-c")
            // As readline's own Ctrl-C: `^C` after the line, which is given up, then a fresh
            // prompt; and time stops where it is, as `pause` says it.
            let screen = try pane.waitFor("the pause and a fresh prompt", seconds: 10) { screen in
                screen.lastLine == "debugsh>" && screen.lines.contains { $0.hasPrefix("paused at ") }
            }
            #expect(!screen.lines.contains { $0.contains("interrupted") }, "\(screen)")
            #expect(screen.lines.contains("debugsh> echo half-typ^C"), "\(screen)")
            let pausedRow = try #require(screen.lines.lastIndex { $0.hasPrefix("paused at ") })
            #expect(screen.lines[pausedRow - 1] == "debugsh> echo half-typ^C", "\(screen)")
            // Time stands still.
            let clock = screen.raw.last.flatMap(Screen.promptClock)
            usleep(300_000)
            let later = try pane.screen()
            #expect(clock != nil && later.raw.last.flatMap(Screen.promptClock) == clock, "\(later)")
            try run(pane, "echo after")
            let final = try pane.screen()
            #expect(final.count("after") == 1 && !final.lines.contains("half-typ"), "\(final)")
        }
    }

    @Test func controlCDuringALightPlayGivesUpTheLineToo() throws {
        try withPane { pane in
            try run(pane, "play")
            try pane.type("echo half-typ")
            try pane.waitFor("the half-typed line", seconds: 10) { $0.lastLine == "debugsh> echo half-typ" }
            try pane.press("C-c")
            let screen = try pane.waitFor("the pause and a fresh prompt", seconds: 10) { screen in
                screen.lastLine == "debugsh>" && screen.lines.contains { $0.hasPrefix("paused at ") }
            }
            #expect(screen.lines.contains("debugsh> echo half-typ^C"), "\(screen)")
        }
    }

    @Test func aLongRunShowsItsProgressAfterASecondAndErasesIt() throws {
        try withPane { pane in
            try run(pane, "fps start")
            let command = "animate 1000000s; run 1000000s"
            try pane.type(command)
            try pane.press("Enter")
            // The line under the command says how far the run is, and moves.
            var seen = Set<String>()
            let screen = try pane.waitFor("a progress line that moves", seconds: 20) { screen in
                guard let line = screen.lines.last, line.hasPrefix("run "),
                    line.hasSuffix("s of 1000000s · Ctrl-C stops")
                else { return false }
                seen.insert(line)
                return seen.count >= 2
            }
            #expect(screen.lines.dropLast().last == "debugsh> \(command)", "\(screen)")
            try pane.press("C-c")
            let stopped = try pane.waitFor("the interrupt and the prompt", seconds: 10) { screen in
                screen.lines.contains { $0.hasPrefix("error: interrupted at ") } && screen.lastLine == "debugsh>"
            }
            // The progress line is gone; `^C` stands on a row of its own, as without one.
            #expect(!stopped.lines.contains { $0.hasSuffix("· Ctrl-C stops") || $0.hasPrefix("run ") }, "\(stopped)")
            let row = try #require(stopped.lines.lastIndex(of: "debugsh> \(command)"))
            #expect(Array(stopped.lines[(row + 1)...].prefix(2)).first == "^C", "\(stopped)")
            #expect(stopped.lines[row + 2].hasPrefix("error: interrupted at "), "\(stopped)")
        }
    }

    @Test func aRunThatEndsErasesItsProgressLine() throws {
        try withPane { pane in
            try run(pane, "fps start")
            // Long enough in wall time for the line to show (it waits a second), short enough to
            // end within the wait: about 8 s for a debug build on an idle machine.
            let command = "animate 1000000s; run 10000s"
            try pane.type(command)
            try pane.press("Enter")
            try pane.waitFor("the progress line", seconds: 20) { $0.lines.last?.hasPrefix("run ") == true }
            let screen = try pane.waitFor("the end of the run", seconds: 240) { $0.lastLine == "debugsh>" }
            let row = try #require(screen.lines.lastIndex(of: "debugsh> \(command)"))
            #expect(screen.lines[row + 1] == "now 10000s", "\(screen)")
            #expect(!screen.lines.contains { $0.hasPrefix("run ") }, "\(screen)")
        }
    }
}
