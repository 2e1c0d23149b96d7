import Foundation
import Testing

/// The engine's state stays in its sub-models (issue 30, DeviceEngine's documentation): the class
/// holds one stored property per sub-model and little else, each sub-model is `~Copyable` (a
/// copyable one is copied whole, its arrays retained, whenever the hot loop calls a method on
/// it), and no engine file passes 700 lines. Read from the sources.
@Suite struct EngineShapeTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DebugShellEngine")

    static func source(_ name: String) throws -> [Substring] {
        try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The stored properties of `DeviceEngine`: the declarations of its class body without an
    /// accessor block (extensions cannot add any).
    static func storedProperties() throws -> [String] {
        let lines = try source("DeviceEngine.swift")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("public final class DeviceEngine") }) else {
            return []
        }
        let end = lines[start...].firstIndex { $0 == "}" } ?? lines.endIndex
        let declaration = try NSRegularExpression(
            pattern: #"^    (?:@[\w()]+ )*(?:(?:public|private|internal|fileprivate)(?:\(set\))? )*(?:var|let) (\w+)"#)
        return lines[start..<end].compactMap { line -> String? in
            let line = String(line)
            guard !line.contains("{"),
                let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let name = Range(match.range(at: 1), in: line)
            else { return nil }
            return String(line[name])
        }
    }

    @Test func deviceEngineHoldsItsSubModels() throws {
        #expect(
            try Self.storedProperties() == [
                "clock", "queue", "display", "runLoop", "timers", "main", "render", "callouts", "script",
                "referenceMode",
            ])
    }

    @Test func everySubModelIsNoncopyable() throws {
        let subModels = [
            "EngineClock", "EventQueue", "Display", "RunLoopState", "Timers", "MainThread", "RenderPipeline",
            "Callouts", "FrameScript",
        ]
        for name in subModels {
            let file = try Self.source("\(name).swift")
            #expect(file.contains { $0.hasPrefix("struct \(name): ~Copyable {") }, "\(name) is not ~Copyable")
        }
    }

    @Test func noEngineFilePasses700Lines() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let lines = try Self.source(file).count
            #expect(lines <= 700, "\(file) has \(lines) lines")
        }
    }
}
