import DebugShellTesting
import Foundation
import Testing

/// A plugin's tool in the live session: loaded from the plugin folder at start, its status line
/// in the block above the prompt with the built-in tools'.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PluginSessionTests {
    @Test func aPluginsStatusLineStandsInTheBlock() throws {
        let library = try ExamplePlugin.library.get()
        let home = try TestHome()
        defer { home.remove() }
        let folder = home.configHome + "/debugsh/plugins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/libHangDetector.so", withDestinationPath: library)
        let pane = try TmuxPane(home: home, environment: ["NO_COLOR": "1"])
        defer { pane.close() }
        for command in ["hangs start --over 100ms", "stall 300ms", "run 1s"] {
            try pane.type(command)
            try pane.press("Enter")
            try pane.waitFor("the prompt after '\(command)'") { screen in
                guard let row = screen.lines.lastIndex(of: "debugsh> \(command)") else { return false }
                return screen.lastLine == "debugsh>" && screen.lines.count > row + 1
            }
        }
        let screen = try pane.waitFor("the hangs line in the block") { screen in
            screen.lines.dropLast().last == "hangs 1 · longest 300ms (stall 300ms) · over 100ms"
        }
        #expect(
            screen.lines.contains(
                "[0.100s] hangs: main thread blocked 100ms by a main-queue block 'stall 300ms' (since 0s)"),
            "\(screen)")
    }
}

/// A plugin that traps at the prompt: the terminal is given back as it was, the history is
/// saved, and the last words say who trapped and what was kept (docs/Plugins.md).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TrapSessionTests {
    @Test func aTrapAtThePromptGivesTheTerminalBackAndKeepsTheHistory() throws {
        let library = try CarelessPlugin.library.get()
        let home = try TestHome()
        defer { home.remove() }
        let folder = home.configHome + "/debugsh/plugins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/libCarelessPlugin.so", withDestinationPath: library)
        // readline reads keys one by one (no canonical mode, no echo); a trap that left it so
        // would leave the shell after it typing blind.
        let pane = try TmuxPane(
            home: home, environment: ["NO_COLOR": "1", "DEBUGSH_TEST_TRAP": "status"],
            afterExit: "stty -a | tr ' ' '\\n' | grep -x -e '-*icanon' -e '-*echo'")
        defer { pane.close() }
        // While `play` runs, the status block is redrawn above the prompt as readline reads
        // keys: the plugin's status line traps there, once its callbacks ran.
        try pane.type("play")
        try pane.press("Enter")
        try pane.type("traps start")
        try pane.press("Enter")
        // The shell after it prints the two terminal modes once debugsh has left: wait for them
        // too (on a loaded machine they come a moment after the exit status).
        let screen = try pane.waitFor("debugsh to leave after the trap and stty to answer") {
            $0.lines.drop { $0 != "EXITED=132" }.dropFirst().count >= 2
        }
        #expect(
            screen.lines.contains {
                $0.hasPrefix("debugsh: plugin 'careless' (tool 'traps') trapped in statusLine() at ")
                    && $0.hasSuffix("kept: the history")
            }, "\(screen)")
        let after = screen.lines.drop { $0 != "EXITED=132" }.dropFirst()
        #expect(Array(after.prefix(2)) == ["icanon", "echo"], "\(screen)")
        let history = try String(contentsOfFile: home.historyFile, encoding: .utf8)
        #expect(history.contains("play\ntraps start"), "\(history)")
    }
}
