import BuiltInTools
import DebugShellTesting
import Foundation
import Testing

/// docs/Commands.md is generated from the declarations and must match them.
@Suite struct DocumentationTests {
    @Test func theCommandReferenceIsUpToDate() throws {
        let url = PluginRegistrationTests.packageRoot.appendingPathComponent("docs/Commands.md")
        let generated = try Documentation.commandsMarkdown(tools: BuiltInTools.all)
        if ProcessInfo.processInfo.environment["DEBUGSH_UPDATE_DOCS"] != nil {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let current = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        #expect(
            current == generated,
            "docs/Commands.md is out of date: run DEBUGSH_UPDATE_DOCS=1 swift test --filter DocumentationTests")
    }
}
