import BuiltInTools
import DebugShellCore
import Foundation
import Testing

/// Adding a tool is a folder under Plugins/, a target in Package.swift and an entry in
/// BuiltInTools: this test fails when a folder is not registered.
@Suite struct PluginRegistrationTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    /// Plugin folder → target name, read from the `path: "Plugins/…"` entries of Package.swift.
    static func pluginTargets() throws -> [String: String] {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: String] = [:]
        let pattern = try NSRegularExpression(
            pattern: #"name:\s*"(\w+)"[^)]*?path:\s*"Plugins/(\w+)""#, options: [.dotMatchesLineSeparators])
        let range = NSRange(manifest.startIndex..., in: manifest)
        for match in pattern.matches(in: manifest, range: range) {
            guard let name = Range(match.range(at: 1), in: manifest),
                let folder = Range(match.range(at: 2), in: manifest)
            else { continue }
            targets[String(manifest[folder])] = String(manifest[name])
        }
        return targets
    }

    @Test func everyPluginFolderIsRegistered() throws {
        let plugins = Self.packageRoot.appendingPathComponent("Plugins")
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        let targets = try Self.pluginTargets()
        let registeredModules = Set(BuiltInTools.all.map { String(String(reflecting: $0).split(separator: ".")[0]) })
        for folder in folders {
            let target = try #require(
                targets[folder], "Plugins/\(folder) has no target with path: \"Plugins/\(folder)\" in Package.swift")
            #expect(
                registeredModules.contains(target),
                "Plugins/\(folder) (target \(target)) is not listed in BuiltInTools.all")
        }
        #expect(
            BuiltInTools.all.count == folders.count,
            "BuiltInTools.all lists \(BuiltInTools.all.count) tools for \(folders.count) plugin folders")
    }
}
