import Foundation
import Testing

/// The live session (README, The interactive session): the status block redrawn while time plays and the user types,
/// commands typed during `play`, events above the block, Ctrl-C, resizes, `record`.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct LiveSessionTests {
    func withPane(_ body: (TmuxPane, TestHome) throws -> Void) throws {
        let home = try TestHome()
        defer { home.remove() }
        let pane = try TmuxPane(home: home, environment: ["NO_COLOR": "1"])
        defer { pane.close() }
        try body(pane, home)
    }

    /// Runs a command and waits for the prompt after it.
    func run(_ pane: TmuxPane, _ command: String) throws {
        try pane.type(command)
        try pane.press("Enter")
        try pane.waitFor("the prompt after '\(command)'") { screen in
            guard let row = screen.lines.lastIndex(of: "debugsh> \(command)") else { return false }
            return screen.lastLine == "debugsh>" && screen.lines.count > row + 1
        }
    }

    /// The fps status line on screen, if any.
    func fpsLines(_ screen: Screen) -> [String] { screen.lines.filter { $0.hasPrefix("fps ") } }

    @Test func theBlockUpdatesDuringPlayWhileAHalfTypedCommandStaysIntact() throws {
        try withPane { pane, _ in
            try run(pane, "fps start --window 250ms")
            try run(pane, "animate 1000s")
            try run(pane, "play 4")
            try pane.type("echo half-typ")
            // The reading appears and changes while the line being typed stays as it is.
            var seen = Set<String>()
            let screen = try pane.waitFor("the fps line to change at least twice under play", seconds: 10) { screen in
                guard screen.lastLine == "debugsh> echo half-typ", let line = fpsLines(screen).last else {
                    return false
                }
                seen.insert(line)
                return seen.count >= 3
            }
            #expect(fpsLines(screen).count == 1, "\(screen)")
            #expect(
                screen.lines.dropLast().last?.hasPrefix("fps ") == true,
                "the block stands right above the prompt\n\(screen)")
            // Finishing the line runs it.
            try pane.type("ed")
            try pane.press("Enter")
            try pane.waitFor("the completed command's output") { $0.lines.contains("half-typed") }
        }
    }

    @Test func anIncrementalSearchSurvivesRedrawsDuringPlay() throws {
        try withPane { pane, _ in
            try run(pane, "fps start --window 250ms")
            try run(pane, "echo needle")
            try run(pane, "animate 1000s")
            try run(pane, "play 4")
            try pane.press("C-r")
            try pane.type("need")
            // The block keeps changing while readline's search prompt stays on the last line.
            var seen = Set<String>()
            let screen = try pane.waitFor("the fps line to change under a search", seconds: 10) { screen in
                guard screen.lastLine == "(reverse-i-search)`need': echo needle", let line = fpsLines(screen).last
                else { return false }
                seen.insert(line)
                return seen.count >= 3
            }
            #expect(fpsLines(screen).count == 1, "\(screen)")
            // Accepting the match runs it.
            try pane.press("Enter")
            try pane.waitFor("the found command's output") { $0.lines.filter { $0 == "needle" }.count == 2 }
        }
    }

    @Test func aCommandTypedDuringPlayTakesEffect() throws {
        try withPane { pane, _ in
            try run(pane, "fps start")
            try run(pane, "animate 1000s")
            try run(pane, "play 5")
            try pane.waitFor("render 60 while the GPU keeps up", seconds: 10) { screen in
                fpsLines(screen).last?.contains("render 60") == true
            }
            try run(pane, "load gpu 20ms")
            try pane.waitFor("render 30 once the GPU is over budget", seconds: 10) { screen in
                fpsLines(screen).last?.contains("render 30") == true
            }
        }
    }

    @Test func eventsPrintAboveTheBlockWithTheirVirtualTime() throws {
        try withPane { pane, _ in
            try run(pane, "fps start")
            try run(pane, "fps watch windows")
            try run(pane, "play 10")
            let screen = try pane.waitFor("two window events", seconds: 10) { screen in
                screen.lines.filter { $0.hasPrefix("[") && $0.contains("s] fps: 60 fps (") }.count >= 2
                    && screen.lastLine == "debugsh>"
            }
            // Events stand above the block, which stays directly above the prompt, once.
            #expect(fpsLines(screen).count == 1, "\(screen)")
            #expect(screen.lines.dropLast().last?.hasPrefix("fps ") == true, "\(screen)")
            try run(pane, "pause")
        }
    }

    @Test func outputAndCompletionListsLeaveNoStaleStatusRows() throws {
        try withPane { pane, _ in
            try run(pane, "fps start")
            try run(pane, "run 2s")
            for command in ["metrics fps.value", "get clock.now", "fps history --last 1"] { try run(pane, command) }
            try pane.type("fps st")
            try pane.press("Tab", "Tab")
            let screen = try pane.waitFor("the completion list and the block") { screen in
                screen.lastLine == "debugsh> fps st"
                    && screen.lines.contains { $0.contains("start") && $0.contains("stop") }
            }
            #expect(fpsLines(screen).count == 1, "\(screen)")
            #expect(screen.lines.dropLast().last?.hasPrefix("fps ") == true, "\(screen)")
        }
    }

    @Test func controlCStopsALongRunWithTheMeterOn() throws {
        try withPane { pane, _ in
            try run(pane, "fps start")
            let command = "animate 1000000s; run 1000000s"
            try pane.type(command)
            try pane.press("Enter")
            try pane.waitFor("the run to start") { screen in
                guard let row = screen.lines.lastIndex(of: "debugsh> \(command)") else { return false }
                return try screen.lines.count == row + 1 && pane.cursorRow() > row
            }
            try pane.press("C-c")
            let screen = try pane.waitFor("the interrupt and the prompt") { screen in
                screen.lines.contains { $0.hasPrefix("error: interrupted at ") } && screen.lastLine == "debugsh>"
            }
            #expect(fpsLines(screen).count == 1, "\(screen)")
            try run(pane, "get fps.value")
            #expect(try pane.screen().lines.contains("fps.value = 60"))
        }
    }

    @Test func aHeavySimulationUnderPlayKeepsThePromptResponsive() throws {
        try withPane { pane, _ in
            // A million handler invocations per simulated second, played at ×100: far more than
            // the simulation can do in real time.
            try run(pane, "timer gcd g --interval 1us")
            try run(pane, "play 100")
            try pane.waitFor("time to move", seconds: 20) { screen in
                screen.lines.contains { $0.hasPrefix("timers 1 ") && !$0.hasSuffix("wakeups 0") }
            }
            // What is typed is echoed at once, time slices notwithstanding.
            let typed = Date()
            try pane.type("echo still here")
            try pane.waitFor("the typed line", seconds: 10) { $0.lastLine == "debugsh> echo still here" }
            let echoed = Date().timeIntervalSince(typed)
            #expect(echoed < 1, "typing took \(echoed) s to show")
            // The block says that time runs slower than asked.
            try pane.waitFor("the block to say the simulation cannot keep up", seconds: 10) { screen in
                screen.lines.contains {
                    $0.hasPrefix("play ×") && $0.hasSuffix("the simulation cannot keep up with ×100")
                }
            }
            try pane.press("Enter")
            try pane.waitFor("the command's output", seconds: 5) { $0.lines.contains("still here") }
            // `pause` runs, and the line about the pace goes with the playing.
            try run(pane, "pause")
            let screen = try pane.waitFor("the paused block") { screen in
                screen.lastLine == "debugsh>" && !screen.lines.contains { $0.hasPrefix("play ×") }
            }
            #expect(screen.lines.contains { $0.hasPrefix("paused at ") }, "\(screen)")
        }
    }

    @Test func aResizeFrom80To50CutsTheBlock() throws {
        try withPane { pane, _ in
            try run(pane, "fps start")
            try run(pane, "animate 20s")
            try run(pane, "load gpu 20ms")
            try run(pane, "run 9s")
            let wide = try pane.waitFor("the fps line") { fpsLines($0).count == 1 }
            let full = try #require(fpsLines(wide).first)
            #expect(full.count > 49)
            try pane.resize(columns: 50)
            let narrow = try pane.waitFor("the line cut to 49 columns") { screen in
                // 49 columns, or 48 when the 49th is a space, which the pane's capture trims.
                let cut = fpsLines(screen).first.map {
                    $0.count == 49 || ($0.count == 48 && full.dropFirst(48).first == " ")
                }
                return fpsLines(screen).count == 1 && cut == true && screen.lastLine == "debugsh>"
            }
            #expect(full.hasPrefix(fpsLines(narrow)[0]), "\(narrow)")
        }
    }

    @Test func aRecordedSessionReplaysAsAScriptWithTheSameMetrics() throws {
        try withPane { pane, home in
            let path = home.root + "/session.dsh"
            try run(pane, "record \(path)")
            try run(pane, "fps start")
            try run(pane, "animate 30s")
            try run(pane, "play 20")
            try pane.waitFor("time to move", seconds: 10) { fpsLines($0).last?.hasPrefix("fps 60") == true }
            try run(pane, "stall 120ms --ui")
            try run(pane, "load gpu 20ms")
            try pane.waitFor("the GPU load to show", seconds: 10) { fpsLines($0).last?.contains("render 30") == true }
            try run(pane, "pause")
            try run(pane, "record stop")
            // Only the metrics compared below, in `metrics`' order: every tool's metrics would not
            // fit the pane.
            try run(pane, "get main.hangs")
            try run(pane, "metrics render")
            try run(pane, "metrics fps")
            let live = try pane.screen().lines.filter {
                $0.hasPrefix("fps.") || $0.hasPrefix("render.") || $0.hasPrefix("main.hangs")
            }
            #expect(!live.isEmpty)
            // Replayed as a script, the recording gives the same metrics.
            let replay = Process()
            replay.executableURL = URL(fileURLWithPath: try TmuxPane.debugshBinary())
            replay.arguments = [path, "-c", "metrics"]
            let output = Pipe()
            replay.standardOutput = output
            try replay.run()
            replay.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let replayed = text.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("fps.") || $0.hasPrefix("render.") || $0.hasPrefix("main.hangs")
            }
            #expect(replay.terminationStatus == 0)
            #expect(replayed == live, "live:\n\(live.joined(separator: "\n"))\nreplayed:\n\(text)")
        }
    }
}
