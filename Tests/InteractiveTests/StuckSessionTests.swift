import DebugShellTesting
import Foundation
import Testing

/// A plugin's command that never returns, typed at the prompt: Ctrl-C stops time, which the
/// command never gives back, and debugsh says so; Ctrl-C again ends the shell with the history
/// saved, the terminal given back and last words that name the plugin (docs/Plugins.md, "When a
/// plugin does not return").
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StuckSessionTests {
    @Test func ctrlCTwiceDuringAStuckCommandSavesTheHistory() throws {
        let library = try StuckPlugin.library.get()
        let home = try TestHome()
        defer { home.remove() }
        let folder = home.configHome + "/debugsh/plugins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/libStuckPlugin.so", withDestinationPath: library)
        // No deadline: only the keys end the command.
        try home.writeRCFile("set plugin.deadline 0s\n")
        let pane = try TmuxPane(
            home: home, environment: ["NO_COLOR": "1"],
            afterExit: "stty -a | tr ' ' '\\n' | grep -x -e '-*icanon' -e '-*echo'")
        defer { pane.close() }
        try pane.run("run 250ms", clockAfter: "0.250s")
        try pane.type("stuck spin")
        try pane.press("Enter")
        try pane.waitFor("the plugin to say it spins", seconds: 60) {
            $0.lines.contains("stuck: spinning in a command")
        }
        try pane.press("C-c")
        try pane.waitFor("the watchdog to say the call has not returned", seconds: 60) { screen in
            screen.lines.contains { $0.contains("a plugin's call has not returned since Ctrl-C") }
        }
        let second = Date()
        try pane.press("C-c")
        let screen = try pane.waitFor("debugsh to leave and stty to answer", seconds: 60) {
            $0.lines.drop { $0 != "EXITED=130" }.dropFirst().count >= 2
        }
        // Measured, not asserted: the pane is read every 50 ms.
        print(
            "measured: Ctrl-C twice at the prompt's stuck command: the shell left within \(String(format: "%.2f", Date().timeIntervalSince(second))) s of the second"
        )
        #expect(
            screen.lines.contains(
                "debugsh: plugin 'stuck' did not return from its command 'stuck spin' at 0.250s: stopped by a second Ctrl-C; kept: the history"
            ), "\(screen)")
        let after = screen.lines.drop { $0 != "EXITED=130" }.dropFirst()
        #expect(Array(after.prefix(2)) == ["icanon", "echo"], "\(screen)")
        let history = try String(contentsOfFile: home.historyFile, encoding: .utf8)
        #expect(history.contains("run 250ms\nstuck spin"), "\(history)")
    }
}
