import Foundation
import Testing

/// The prompt shows virtual time, typed `run` and `step` say where time stopped, and what the
/// user types shows escaped in errors (README, A first session).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PromptTests {
    func withPane(_ body: (TmuxPane) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home)
        defer { pane.close() }
        try body(pane)
    }

    @Test func thePromptShowsVirtualTimeAndRunAndStepSayWhereTimeStopped() throws {
        try withPane { pane in
            #expect(try pane.screen().raw == ["debugsh 0.000s>"])
            try pane.run("run 1.25s", clockAfter: "1.250s")
            // The vsync at 1.25 s does not count: `step` runs through the next, the 77th since the start.
            try pane.run("step", clockAfter: "1.267s")
            // `r` is LLDB's run; the notice is exact, the prompt's clock has three decimals.
            try pane.run("r 10ms", clockAfter: "1.277s")
            try pane.run("at 1.3s stall 1ms", clockAfter: "1.277s")
            try pane.run("run until main.busy_until > 1.3s", clockAfter: "1.300s")
            let screen = try pane.run("echo done", clockAfter: "1.300s")
            #expect(
                screen.raw == [
                    "debugsh 0.000s> run 1.25s", "now 1.25s",
                    "debugsh 1.250s> step", "now 1.266666666s, vsync 77",
                    "debugsh 1.267s> r 10ms", "now 1.276666666s",
                    "debugsh 1.277s> at 1.3s stall 1ms",
                    "debugsh 1.277s> run until main.busy_until > 1.3s", "now 1.3s",
                    "debugsh 1.300s> echo done", "done",
                    "debugsh 1.300s>",
                ], "\(screen)")
        }
    }

    @Test func thePromptFollowsTimeWhilePlaying() throws {
        try withPane { pane in
            try pane.type("play 4")
            try pane.press("Enter")
            // The prompt's clock moves on its own while time follows the wall clock.
            var clocks = Set<String>()
            try pane.waitFor("the prompt's clock to move three times under play") { screen in
                guard let last = screen.raw.last, let clock = Screen.promptClock(last) else { return false }
                clocks.insert(clock)
                return clocks.count >= 3
            }
            try pane.type("pause")
            try pane.press("Enter")
            let screen = try pane.waitFor("pause to say where it stopped") {
                $0.raw.contains { $0.hasPrefix("paused at ") } && $0.lines.last == "debugsh>"
            }
            // The prompt stands where `pause` stopped time, and stays there.
            let paused = try #require(screen.raw.first { $0.hasPrefix("paused at ") })
            let clock = try #require(Screen.promptClock(screen.raw.last ?? ""))
            #expect(PromptTests.clock(of: String(paused.dropFirst("paused at ".count))) == clock, "\(screen)")
            usleep(300_000)
            #expect(try pane.screen().raw.last == screen.raw.last)
        }
    }

    /// `526.141608ms` or `1.5s` as the prompt's clock shows it: seconds with three decimals,
    /// rounded half away from zero (`0.526s`).
    static func clock(of text: String) -> String? {
        let (number, scale) = text.hasSuffix("ms") ? (text.dropLast(2), 6) : (text.dropLast(), 9)
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int(parts[0]) else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= scale,
            let digits = Int(fraction + String(repeating: "0", count: scale - fraction.count))
        else { return nil }
        // Both units are written with exactly `scale` digits to nanoseconds.
        let ns = whole * (scale == 6 ? 1_000_000 : 1_000_000_000) + digits
        let ms = (ns + 500_000) / 1_000_000
        return "\(ms / 1000)." + String(format: "%03d", ms % 1000) + "s"
    }

    @Test func controlCharactersAndBytesThatAreNotUTF8ShowEscaped() throws {
        try withPane { pane in
            // Ctrl-V Ctrl-A puts a raw \x01 in the line: the error shows it as an escape.
            try pane.type("run")
            try pane.press("C-v", "C-a", "Enter")
            try pane.waitFor("the escaped command in the error") {
                $0.lines.contains("error: unknown command 'run\\x01'; did you mean 'run'?")
                    && $0.lines.last == "debugsh>"
            }
            try pane.type("echo ")
            try pane.sendBytes([0xFF])
            try pane.press("Enter")
            try pane.waitFor("the escaped byte in the error") {
                $0.lines.contains("error: not UTF-8 text: 'echo \\xff' (debugsh reads UTF-8; the line did not run)")
                    && $0.lines.last == "debugsh>"
            }
            // echo shows an escape sequence as text; --raw sends it to the terminal.
            try pane.type("echo a")
            try pane.press("C-v", "Escape")
            try pane.type("[1mb")
            try pane.press("Enter")
            try pane.waitFor("the escaped ESC in echo's output") {
                $0.lines.contains("a\\x1b[1mb") && $0.lines.last == "debugsh>"
            }
        }
    }
}

/// The block's colours at the terminal's depth (COLORTERM, TERM).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ColorDepthSessionTests {
    @Test(
        arguments: [
            ([:], "\u{1B}[38;5;178mlate 1"),
            (["COLORTERM": "truecolor"], "\u{1B}[38;2;230;160;0mlate 1"),
            (["TERM": "xterm"], "\u{1B}[33mlate 1"),
        ] as [([String: String], String)])
    func theBlockIsColouredAtTheTerminalsDepth(environment: [String: String], late: String) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home, environment: environment)
        defer { pane.close() }
        for command in ["timer nstimer a --interval 10ms --repeats", "stall 100ms", "run 1s"] {
            try pane.type(command)
            try pane.press("Enter")
        }
        try pane.waitFor("the timer's status line") { $0.lines.contains { $0.hasPrefix("timers 1 · late 1") } }
        let colored = try pane.screenWithEscapes()
        #expect(colored.contains(late), "\(colored.debugDescription)")
    }
}
