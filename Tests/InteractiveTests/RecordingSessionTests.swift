import Foundation
import Testing

/// A real device's recording at the prompt (issue 31): the file's path completes, `import`
/// reads it, `recording` answers, `recording save` writes it for Perfetto and `import chrome`
/// reads that back; a display-link log's link in `timer show --recording` and its chart in
/// `fps plot --recording` — every step's output above the prompt, the session live throughout.
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

        // A 50 Hz display-link log with one gap (520 and 540 ms missing): the timer inspector's
        // and the FPS meter's views of it, drawn at the pane's width.
        var csv = "timestamp,targetTimestamp,duration\n"
        for ms in Array(stride(from: 0, through: 500, by: 20)) + Array(stride(from: 560, through: 2000, by: 20)) {
            csv += "\(10 + Double(ms) / 1000),\(10 + Double(ms + 20) / 1000),0.020\n"
        }
        try csv.write(toFile: folder + "/link.csv", atomically: true, encoding: .utf8)
        try pane.type("import csv \(folder)/link.csv")
        try pane.press("Enter")
        _ = try pane.waitForPrompt(after: "the link log's import")
        try pane.type("timer show --recording --last 2")
        try pane.press("Enter")
        screen = try pane.waitFor("the recorded link") { screen in
            screen.lastLine == "debugsh>" && screen.lines.contains("fires 99 · skipped 2 · max late 40ms")
                && screen.lines.contains("99  2s         2.02s   20ms      0s    0")
        }
        try pane.type("fps plot --recording --height 6")
        try pane.press("Enter")
        screen = try pane.waitFor("the recording's chart") { screen in
            screen.lastLine == "debugsh>" && screen.lines.contains { $0.hasPrefix("   60 ┤") && $0.contains("███") }
                && screen.lines.contains { $0.hasPrefix("recording (display-link csv): no frames") }
        }
        #expect(screen.lines.allSatisfy { $0.count <= 80 }, "\(screen)")
    }

    /// A what-if at the prompt (issue 33): `replay st<Tab>` completes, `replay start` says what it
    /// did, a change, `replay run`, and `replay compare`'s calibration line above the prompt.
    @Test func aReplayAtThePrompt() throws {
        let home = try TestHome()
        defer { home.remove() }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/xctrace/hitches.xml")
        let file = home.root + "/h.xml"
        try FileManager.default.copyItem(atPath: fixtures.path, toPath: file)
        let pane = try TmuxPane(home: home)
        defer { pane.close() }
        try pane.type("import xctrace \(file)")
        try pane.press("Enter")
        _ = try pane.waitForPrompt(after: "the import")
        try pane.type("replay st")
        try pane.press("Tab")
        try pane.waitFor("the verb completed") { $0.lastLine.hasSuffix("> replay start") }
        try pane.press("Enter")
        var screen = try pane.waitForPrompt(after: "the replay's start")
        #expect(screen.lines.contains { $0.hasPrefix("replay of xctrace: 11 frames in ") }, "\(screen)")
        try pane.type("display buffers 3")
        try pane.press("Enter")
        _ = try pane.waitForPrompt(after: "the change")
        try pane.type("replay run")
        try pane.press("Enter")
        _ = try pane.waitForPrompt(after: "the run")
        try pane.type("replay compare")
        try pane.press("Enter")
        screen = try pane.waitFor("the comparison") { screen in
            screen.lines.contains { $0.hasPrefix("calibration: ") }
                && (screen.lines.last { !$0.isEmpty }?.hasPrefix("debugsh") ?? false)
        }
        #expect(screen.lines.contains("changes: 3 buffers (recorded 2)"), "\(screen)")
    }
}
