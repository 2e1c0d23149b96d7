import Foundation
import Testing

/// Breakpoints at the prompt (issue 23, docs/Decisions.md "Breakpoints and the time commands"):
/// a typed `r` stops at a breakpoint and `c` finishes it; `play` stops at one, and `c` plays on;
/// `play until` pauses where its condition holds; `s` after `r 1s` moves to the next frame.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct BreakpointSessionTests {
    func withPane(_ body: (TmuxPane) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home, environment: ["NO_COLOR": "1"])
        defer { pane.close() }
        try body(pane)
    }

    @Test func runStopsAtABreakpointAndContinueFinishesIt() throws {
        try withPane { pane in
            try pane.run("break when main.hangs > 0", clockAfter: "0.000s")
            try pane.run("after 300ms stall 300ms", clockAfter: "0.000s")
            try pane.run("r 1s", clockAfter: "0.300s")
            try pane.run("c", clockAfter: "1.000s")
            let screen = try pane.run("s", clockAfter: "1.017s")
            #expect(
                Array(screen.raw.suffix(7)) == [
                    "debugsh 0.000s> r 1s",
                    "stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (300ms to 600ms)",
                    "debugsh 0.300s> c",
                    "now 1s",
                    "debugsh 1.000s> s",
                    "now 1.016666666s, vsync 62",
                    "debugsh 1.017s>",
                ], "\(screen)")
        }
    }

    /// `break command add` at the prompt (issue 37): the stop's commands print after the stop and
    /// before the prompt returns.
    @Test func aStopsCommandsRunBeforeThePromptReturns() throws {
        try withPane { pane in
            try pane.run("break when main.hangs > 0", clockAfter: "0.000s")
            try pane.run("break command add 1 { get main.hangs; echo seen }", clockAfter: "0.000s")
            try pane.run("after 300ms stall 300ms", clockAfter: "0.000s")
            let screen = try pane.run("r 1s", clockAfter: "0.300s")
            #expect(
                Array(screen.raw.suffix(5)) == [
                    "debugsh 0.000s> r 1s",
                    "stopped at 300ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (300ms to 600ms)",
                    "main.hangs = 1",
                    "seen",
                    "debugsh 0.300s>",
                ], "\(screen)")
        }
    }

    @Test func playStopsAtABreakpointAndContinuePlaysOn() throws {
        try withPane { pane in
            try pane.run("break when main.hangs > 0", clockAfter: "0.000s")
            try pane.run("after 500ms stall 300ms", clockAfter: "0.000s")
            try pane.type("play 2")
            try pane.press("Enter")
            // Play stops where the breakpoint became true, says so, and time stays there.
            let stop =
                "stopped at 500ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (500ms to 800ms)"
            try pane.waitFor("play to stop at the breakpoint", seconds: 10) { screen in
                screen.raw.contains(stop) && screen.raw.last == "debugsh 0.500s>"
            }
            usleep(400_000)
            #expect(try pane.screen().raw.last == "debugsh 0.500s>", "time stays where the breakpoint stopped it")
            // `c` plays on: the clock moves past the stop.
            try pane.type("c")
            try pane.press("Enter")
            try pane.waitFor("the clock to move on after 'c'", seconds: 10) { screen in
                guard let clock = screen.raw.last.flatMap(Screen.promptClock), let value = Double(clock.dropLast())
                else { return false }
                return value > 0.6
            }
            try pane.type("pause")
            try pane.press("Enter")
            try pane.waitFor("the pause") { $0.lines.contains { $0.hasPrefix("paused at ") } }
        }
    }

    @Test func playUntilPausesWhereItsConditionHolds() throws {
        try withPane { pane in
            try pane.run("after 400ms stall 300ms", clockAfter: "0.000s")
            try pane.type("play until main.hangs > 0 --speed 2")
            try pane.press("Enter")
            let screen = try pane.waitFor("play until to stop", seconds: 10) { screen in
                screen.raw.last == "debugsh 0.400s>"
            }
            #expect(
                screen.raw.contains(
                    "stopped at 400ms until main.hangs > 0; main thread: block 'stall 300ms' (400ms to 700ms)"),
                "\(screen)")
        }
    }
}
