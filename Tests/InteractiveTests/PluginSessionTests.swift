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
