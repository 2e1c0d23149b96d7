import DocumentGenerators
import Foundation
import Testing

/// The generated files (docs/Commands.md from the declarations, RuleBook+Generated.swift from
/// docs/Semantics.md) are what `debugsh-generate` makes now: a test run never writes them.
@Suite struct DocumentationTests {
    @Test(arguments: GeneratedFiles.all.map(\.path))
    func theGeneratedFileIsUpToDate(_ path: String) throws {
        let file = try #require(GeneratedFiles.all.first { $0.path == path })
        #expect(
            try file.isCurrent(root: GeneratedFiles.repositoryRoot),
            "\(path) is out of date with \(file.source): run 'swift run debugsh-generate'")
    }

    /// The generator finds the repository the tests run in.
    @Test func theGeneratorsRootIsTheRepository() {
        #expect(
            GeneratedFiles.repositoryRoot.standardizedFileURL == PluginRegistrationTests.packageRoot.standardizedFileURL
        )
    }
}
