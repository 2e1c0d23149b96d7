import BuiltInTools
import Foundation

/// A file of the repository made from another source of truth, never edited by hand.
public struct GeneratedFile: Sendable {
    /// Its path from the repository's root.
    public let path: String
    /// What it is made from, for messages.
    public let source: String
    /// Makes its contents, reading what it needs under the repository's root.
    let make: @Sendable (_ root: URL) throws -> String

    /// The contents it should have now.
    public func contents(root: URL) throws -> String { try make(root) }

    /// Whether the file in the repository is what the generator makes.
    public func isCurrent(root: URL) throws -> Bool {
        let current = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return current == (try contents(root: root))
    }
}

/// Every generated file: `swift run debugsh-generate` writes them, and a test fails when one is
/// out of date (as swift-format's `generate-swift-format` and its generated rule registry).
public enum GeneratedFiles {
    public static let all: [GeneratedFile] = [
        GeneratedFile(path: "Sources/DebugShellInterpreter/RuleBook+Generated.swift", source: "docs/Semantics.md") {
            root in
            let markdown = try String(contentsOf: root.appendingPathComponent("docs/Semantics.md"), encoding: .utf8)
            return try SemanticsDocument.ruleBookSource(markdown)
        },
        GeneratedFile(path: "docs/Commands.md", source: "the commands' declarations") { _ in
            try CommandReference.markdown(tools: BuiltInTools.all)
        },
        GeneratedFile(path: "Sources/DebugShellInterpreter/BundledExamples+Generated.swift", source: "Examples/*.dsh") {
            root in
            try BundledExamplesSource.swiftSource(folder: root.appendingPathComponent("Examples"))
        },
    ]

    /// The repository's root, found from this source file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
