import BuiltInTools
import DebugShell
import DebugShellTesting
import Foundation
import Testing

/// Every scenario in Examples/ runs with the built-in tools and must finish with no error: the
/// scenarios end in `expect` lines, so they are regression tests.
@Suite struct ScenarioTests {
    static let examples: URL = PluginRegistrationTests.packageRoot.appendingPathComponent("Examples")

    static var scenarios: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? [])
            .filter { $0.hasSuffix(".dsh") }.sorted()
    }

    @Test(arguments: scenarios)
    func scenario(_ name: String) throws {
        let path = Self.examples.appendingPathComponent(name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        let outcome = session.runScript(
            text, origin: ScriptOrigin(name: "Examples/\(name)", directory: Self.examples.path))
        #expect(outcome == .finished, "\(name)\n\(sink.combined)")
        #expect(sink.standardError == "", "\(name)")
        #expect(session.failures == 0)
        #expect(text.contains("expect "), "\(name) has no expect line")
    }

    @Test func theScenariosAreFound() {
        // An empty list would make the parameterized test above pass vacuously.
        #expect(Self.scenarios.count >= 10, "found \(Self.scenarios)")
        #expect(Self.scenarios.contains("tour.dsh"))
    }

    @Test func theTourExistsAndIsDeterministic() throws {
        let path = Self.examples.appendingPathComponent("tour.dsh").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var outputs: [String] = []
        for _ in 0..<2 {
            let sink = MemorySink()
            let session = try Session(tools: BuiltInTools.all, sink: sink)
            _ = session.runScript(text, origin: ScriptOrigin(name: "Examples/tour.dsh", directory: Self.examples.path))
            outputs.append(sink.combined)
        }
        #expect(outputs[0] == outputs[1])
        // The tour shows every tool that exists.
        for tool in BuiltInTools.all {
            let name = tool.descriptor.name
            #expect(text.contains("\n\(name) ") || text.contains("\n\(name)\n"), "the tour does not show \(name)")
        }
    }
}
