import BuiltInTools
import DebugShell
import DebugShellTesting
import Foundation
import Testing

/// Typed, scripted and scheduled commands go through one path: whatever issued a command, its
/// files are written, its output shown and its errors reported the same way.
@Suite struct ExecutePathTests {
    /// A scheduled `fps plot` writes the file its text says it wrote.
    @Test func aScheduledCommandWritesItsFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("frames.svg").path
        let (stdout, stderr, outcome) = try Transcript.run(
            "fps start\nanimate 1s\nrun 1s\nafter 10ms fps plot \(path)\nrun 20ms", tools: BuiltInTools.all)
        #expect(outcome == .finished && stderr == "")
        #expect(stdout.hasPrefix("wrote \(path) ("))
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
    }

    /// A scheduled command that cannot write its file fails like a typed one, saying when.
    @Test func aScheduledCommandsUnwritableFileIsItsError() throws {
        let (stdout, stderr, _) = try Transcript.run(
            "fps start\nanimate 1s\nrun 1s\nafter 10ms fps plot /nonexistent-dir/frames.svg\nrun 20ms",
            tools: BuiltInTools.all)
        #expect(stdout == "")
        #expect(stderr.hasPrefix("test.dsh:4: error: at 1.01s: cannot write '/nonexistent-dir/frames.svg': "))
        #expect(stderr.hasSuffix("test.dsh:5: error: 1 scheduled command failed during 'run'\n"))
    }
}
