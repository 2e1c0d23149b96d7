import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellTesting
import DocumentGenerators
import Foundation
import Testing

/// docs/Semantics.md is the reference for the simulated device: everything the repository cites
/// is defined there, and nothing points outside the repository. (The binary's copy of it,
/// RuleBook+Generated.swift, is checked with the other generated files in DocumentationTests.)
@Suite struct SemanticsDocumentTests {
    static let root = PluginRegistrationTests.packageRoot

    static func document() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/Semantics.md"), encoding: .utf8)
    }

    @Test func theDocumentDefinesEveryRuleFamily() throws {
        let defined = try SemanticsDocument.definedIDs(Self.document())
        var expected: [String] = []
        let families: [(String, ClosedRange<Int>)] = [
            ("S", 1...4), ("RL", 1...6), ("DL", 1...8), ("T", 1...8), ("D", 1...6), ("A", 1...2), ("R", 1...9),
            ("F", 1...3), ("L", 1...4), ("K", 1...2),
        ]
        for (prefix, numbers) in families { expected += numbers.map { "\(prefix)\($0)" } }
        expected += (1...6).map { "S4.\($0)" } + (1...3).map { "RL4.\($0)" }
        expected += ["DL-A", "T-A", "D-A", "R-A", "R-B", "R-C", "R-D", "L-A"]
        expected += (1...3).map { "R6.\($0)" } + (1...4).map { "R7.\($0)" } + (1...4).map { "R8.\($0)" }
        #expect(Set(expected).subtracting(defined).sorted() == [])
    }

    /// Every rule id cited in the code, the tests, the docs, the examples and the help texts is
    /// one that docs/Semantics.md defines.
    @Test func everyCitedRuleIsDefined() throws {
        let defined = try SemanticsDocument.definedIDs(Self.document())
        var texts = try Self.files(
            in: ["Sources", "DebugShellCore", "Plugins", "Tests", "docs", "Examples"],
            extensions: ["swift", "md", "dsh"])
        texts += try ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"].map {
            ($0, try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8))
        }
        texts.append(("the help texts", try CommandReference.markdown(tools: BuiltInTools.all)))
        let shape = try NSRegularExpression(pattern: #"\b(?:S|RL|DL|T|D|A|R|F|L|K)(?:[0-9]+(?:\.[0-9]+)?|-\p{Lu})\b"#)
        var undefined: [String] = []
        for (name, text) in texts {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                for match in shape.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    guard let range = Range(match.range, in: line) else { continue }
                    let id = String(line[range])
                    if !defined.contains(id) { undefined.append("\(name):\(number + 1): \(id)") }
                }
            }
        }
        #expect(undefined == [], "cited but not defined in docs/Semantics.md")
        #expect(texts.count > 50)
    }

    /// The commands, metrics and settings a rule touches exist.
    @Test func everyRuleTouchesRealCommandsMetricsAndSettings() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        var unknown: [String] = []
        for rule in try SemanticsDocument.parse(Self.document()).rules {
            for name in rule.touches
            where session.helpTextForDocs(name.replacingOccurrences(of: "<name>", with: "x")).isEmpty {
                unknown.append("\(rule.id): \(name)")
            }
        }
        #expect(unknown == [])
    }

    /// RL5's worked example (issue 26): the rule says when a dirty UI is committed — by the first
    /// iteration that reaches RL4.2, one later when the next iteration drains the main queue —
    /// and its example, run through the shell, gives the values it states.
    @Test func rl5SaysWhenTheCommitComes() throws {
        let rl5 = try #require(try SemanticsDocument.parse(Self.document()).rules.first { $0.id == "RL5" })
        let text = rl5.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let commands = [
            "timer nstimer tick --interval 50ms --cost 10ms --ui", "after 55ms stall 10ms", "run 100ms",
        ]
        #expect(text.contains("`" + commands.joined(separator: "; ") + "`"), "\(text)")
        #expect(text.contains("the commit comes one iteration later, after the drain"))
        #expect(text.contains("`render.commits = 1` and `render.presents = 0`"))
        let run = try Transcript.run(
            (commands + ["get render.commits", "get render.presents"]).joined(separator: "\n"), tools: BuiltInTools.all)
        #expect(run.stdout == "render.commits = 1\nrender.presents = 0\n", "\(run)")
    }

    /// Nothing in the repository points at material outside it.
    @Test func nothingPointsOutsideTheRepository() throws {
        var texts = try Self.files(
            in: ["Sources", "DebugShellCore", "Plugins", "Tests", "docs", "Examples", "Benchmarks", "scripts"],
            extensions: ["swift", "md", "dsh", "py", ""])
        texts += try ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "Package.swift"].map {
            ($0, try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8))
        }
        let thisFile = "Tests/BuiltInToolsTests/SemanticsDocumentTests.swift"
        let outside = ["../" + "shared", "SEMANTICS" + ".md", "SPEC" + ".md"]
        var hits: [String] = []
        for (name, text) in texts where name != thisFile {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for needle in outside where line.contains(needle) { hits.append("\(name):\(number + 1): \(line)") }
            }
        }
        #expect(hits == [])
        #expect(texts.contains { $0.0 == "Benchmarks/compare.py" })
    }

    /// The text files under some folders (build folders skipped), as (path, contents).
    static func files(in folders: [String], extensions: Set<String>) throws -> [(String, String)] {
        var out: [(String, String)] = []
        for folder in folders {
            let base = root.appendingPathComponent(folder)
            guard
                let walker = FileManager.default.enumerator(
                    at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walker {
                let name = url.lastPathComponent
                if name.hasPrefix(".build") || name == "__pycache__" {
                    walker.skipDescendants()
                    continue
                }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                    extensions.contains(url.pathExtension),
                    let text = try? String(contentsOf: url, encoding: .utf8)
                else { continue }
                out.append(
                    (folder + String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count)), text)
                )
            }
        }
        return out
    }
}
