import Foundation
import Testing

/// The session stays the hall where the parts meet, not the house (docs/Architecture.md): its
/// behaviour lives in the parts, a command gets a context of parts, and the session is small
/// enough to read in one sitting. Read from the sources, as RoomTests reads imports.
@Suite struct SessionShapeTests {
    static let session = RoomTests.root.appendingPathComponent("Sources/DebugShell")

    /// The lines of `class Session`'s body and of every `extension Session` in the session's room.
    static func sessionBlocks() throws -> [(file: String, lines: [Substring])] {
        var blocks: [(String, [Substring])] = []
        for file in RoomTests.swiftFiles(in: "Sources/DebugShell") {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            var i = 0
            while i < lines.count {
                let line = lines[i].trimmingCharacters(in: .whitespaces)
                let opens =
                    line.hasPrefix("public final class Session ") || line.hasPrefix("final class Session ")
                    || line.hasPrefix("extension Session ") || line.hasPrefix("extension Session:")
                    || line.hasPrefix("public extension Session ")
                guard opens else {
                    i += 1
                    continue
                }
                var depth = 0
                var j = i
                repeat {
                    depth += lines[j].count { $0 == "{" } - lines[j].count { $0 == "}" }
                    j += 1
                } while j < lines.count && depth > 0
                blocks.append((file.lastPathComponent, Array(lines[i..<j])))
                i = j
            }
        }
        return blocks
    }

    @Test func theSessionIsAtMost500Lines() throws {
        let blocks = try Self.sessionBlocks()
        #expect(blocks.contains { $0.lines.first?.contains("class Session") == true }, "no class Session found")
        let total = blocks.reduce(0) { $0 + $1.lines.count }
        let byFile = Dictionary(grouping: blocks, by: \.file).mapValues { $0.reduce(0) { $0 + $1.lines.count } }
        #expect(total <= 500, "Session is \(total) lines: \(byFile.sorted { $0.key < $1.key })")
    }

    /// Stored properties at the top level of `class Session`'s body: a `let`, or a `var` with an
    /// initial value or no accessor block. Computed ones forward to the parts and cost nothing.
    @Test func theSessionHoldsAtMost12StoredProperties() throws {
        guard let body = try Self.sessionBlocks().first(where: { $0.lines.first?.contains("class Session") == true })
        else {
            Issue.record("no class Session found")
            return
        }
        let declaration = try Regex(
            #"^    (?:@\w+(?:\([^)]*\))? )*(?:(?:public|internal|private|fileprivate|package)(?:\(set\))? )*(let|var) (\w+)"#
        )
        var stored: [String] = []
        var depth = 0
        for line in body.lines.dropFirst() {
            if depth == 0, let match = line.firstMatch(of: declaration) {
                let isLet = match.output[1].substring == "let"
                let rest = line[match.range.upperBound...]
                // `var x: T { … }`: an accessor block before any initial value.
                let computed = !isLet && rest.firstIndex(of: "{").map { !rest[..<$0].contains("=") } == true
                if !computed, let name = match.output[2].substring { stored.append(String(name)) }
            }
            depth += line.count { $0 == "{" } - line.count { $0 == "}" }
        }
        #expect(stored.count >= 5, "the parser found only \(stored): it is out of date")
        #expect(stored.count <= 12, "Session stores \(stored.count) properties: \(stored)")
    }

    /// A command works on the parts it gets in its ``CommandContext``: no command file extends
    /// the session or names it.
    @Test func commandsNeverSeeTheSession() throws {
        let files = RoomTests.swiftFiles(in: "Sources/DebugShell/Commands")
        #expect(!files.isEmpty)
        let named = try Regex(#"\bSession\b"#)
        for file in files {
            for (n, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                #expect(
                    !code.hasPrefix("extension Session") && line.firstMatch(of: named) == nil,
                    "\(file.lastPathComponent):\(n + 1) reaches the session: \(code)")
            }
        }
    }
}
