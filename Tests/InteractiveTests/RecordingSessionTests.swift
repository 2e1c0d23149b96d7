import Foundation
import Testing

/// A real device's recording at the prompt (issue 31): the file's path completes, `import`
/// reads it, `recording` answers, `recording save` writes it for Perfetto and `import chrome`
/// reads that back — every step's output above the prompt, the session live throughout.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RecordingSessionTests {
    @Test func importReadSaveAndReadBackAtThePrompt() throws {
        let home = try TestHome()
        defer { home.remove() }
        // The fixtures under a short path, so that no line wraps at 80 columns.
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/xctrace")
        let folder = home.root + "/x"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["hitches.xml", "display-vsyncs-interval.xml"] {
            try FileManager.default.copyItem(
                atPath: fixtures.appendingPathComponent(name).path, toPath: folder + "/" + name)
        }
        let pane = try TmuxPane(home: home)
        defer { pane.close() }

        // The path completes: one file starts with "display-".
        try pane.type("import xctrace \(folder)/disp")
        try pane.press("Tab")
        try pane.waitFor("the path completed") {
            $0.lastLine == "debugsh> import xctrace \(folder)/display-vsyncs-interval.xml"
        }
        try pane.type(" \(folder)/hitches.xml")
        try pane.press("Enter")
        var screen = try pane.waitForPrompt(after: "the import")
        #expect(
            screen.lines.contains {
                $0.hasPrefix("imported xctrace (2 paths): 0 frames, 11 hitches over 36.844539583s, 60 Hz")
            }, "\(screen)")

        try pane.type("recording hitches --worst 1")
        try pane.press("Enter")
        screen = try pane.waitFor("the worst hitch") { screen in
            screen.lastLine == "debugsh>"
                && screen.lines.contains {
                    $0.hasPrefix("1  4.961155833s  216.666666ms  13.00      High      commit  Potentially")
                }
        }

        try pane.type("recording save \(folder)/r.json")
        try pane.press("Enter")
        screen = try pane.waitForPrompt(after: "the save")
        #expect(
            screen.lines.contains {
                $0 == "saved the recording to \(folder)/r.json: 0 frames, 11 hitches, 10 vsyncs, 0 link callbacks"
            },
            "\(screen)")

        try pane.type("import chrome \(folder)/r.json")
        try pane.press("Enter")
        screen = try pane.waitForPrompt(after: "the import of the saved recording")
        #expect(
            screen.lines.contains {
                $0.hasPrefix("imported chrome (\(folder)/r.json, saved from xctrace): 0 frames, 11 hitches")
            }, "\(screen)")
        try pane.type("get rec.hitch_ratio")
        try pane.press("Enter")
        screen = try pane.waitFor("the ratio") { screen in
            screen.lastLine == "debugsh>" && screen.lines.contains("rec.hitch_ratio = 16.737")
        }
    }
}
