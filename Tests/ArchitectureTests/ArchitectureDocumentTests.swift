import Foundation
import Testing

/// docs/Architecture.md says every name in it is a file or a type in the tree: each name it
/// writes in backticks — a type, a module, a file or folder, `Type.member` — is looked up, so
/// a rename or a move that leaves the page behind fails here.
@Suite struct ArchitectureDocumentTests {
    static let root = RoomTests.root

    /// Names from outside the tree the page cites as models or dependencies.
    static let outside: Set<String> = [
        "ArgumentParser", "DequeModule", "Synchronization", "LogHandler", "JUnit", "Unmanaged",
    ]

    /// Every Swift file of the repository's own sources and tests.
    static var sources: [URL] {
        ["Sources", "Plugins", "DebugShellCore", "DebugShellCharts", "Tests"].flatMap(RoomTests.swiftFiles)
    }

    static func declaredNames() throws -> (types: Set<String>, members: Set<String>) {
        let type = try Regex(#"\b(?:class|struct|enum|protocol|typealias|actor)\s+(\w+)"#)
        let member = try Regex(#"\b(?:func|var|let|case)\s+`?(\w+)"#)
        var types = Set<String>()
        var members: Set<String> = ["init"]
        for file in sources {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: type) {
                if let name = match.output[1].substring { types.insert(String(name)) }
            }
            for match in text.matches(of: member) {
                if let name = match.output[1].substring { members.insert(String(name)) }
            }
        }
        // Targets and modules: the folders of sources, the tools' targets, C modules.
        for folder in ["Sources", "Plugins"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            types.formUnion(folder == "Plugins" ? names.map { $0 + "Tool" } : names)
        }
        types.formUnion(["DebugShellCore", "DebugShellCharts", "DebugShellCoreFingerprint", "CDebugShellHints"])
        return (types, members)
    }

    @Test func everyNameOnThePageIsInTheTree() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/Architecture.md"), encoding: .utf8)
        let (types, members) = try Self.declaredNames()
        let fileNames = Set(Self.sources.map(\.lastPathComponent))
        var checked = 0
        for match in page.matches(of: try Regex(#"`([^`\n]+)`"#)) {
            guard let token = match.output[1].substring.map(String.init), !token.contains("<"),
                !token.hasPrefix("-"), !token.hasPrefix("."), !token.hasPrefix("@")
            else { continue }
            if token.contains("/") {
                let exists = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(token).path)
                #expect(exists, "docs/Architecture.md names '\(token)', which is not in the tree")
                checked += 1
            } else if token.hasSuffix(".swift") {
                let found = fileNames.contains(token)
                #expect(found, "docs/Architecture.md names the file '\(token)', which is not in the tree")
                checked += 1
            } else if let first = token.first, first.isUppercase, !Self.outside.contains(token) {
                let parts = token.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts[0].allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
                let declared = types.contains(parts[0])
                #expect(declared, "docs/Architecture.md names '\(parts[0])', declared nowhere")
                if parts.count == 2 {
                    let member = String(parts[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                    let found = member.isEmpty || members.contains(member)
                    #expect(found, "docs/Architecture.md names '\(token)': no member '\(member)' is declared")
                }
                checked += 1
            }
        }
        #expect(checked > 100, "only \(checked) names checked: the reader is out of date")
    }
}
