import Foundation

/// Plugins that misbehave on purpose, from `Tests/Fixtures/<Name>/`: each copied to a temporary
/// folder outside the repository and built there against this checkout (`DEBUGSH_ROOT`), as an
/// outside plugin is — once per test run.
public enum FixturePlugins {
    /// `traps`: a tool that traps where `DEBUGSH_TEST_TRAP` says (its source lists the places).
    public static let traps: Result<String, ExamplePlugin.BuildError> = build("TrapPlugin")

    /// Builds the fixture package `name`; returns its library's path (`lib<name>.so`).
    static func build(_ name: String) -> Result<String, ExamplePlugin.BuildError> {
        let root = ExamplePlugin.packageRoot
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-fixture-\(name)-\(UUID().uuidString)")
        do {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Tests/Fixtures/\(name)"), to: folder)
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(".build"))
        } catch {
            return .failure(ExamplePlugin.BuildError(description: "copying the fixture \(name): \(error)"))
        }
        do {
            let (log, status) = try ExamplePlugin.tool(
                ["swift", "build", "--package-path", folder.path], environment: ["DEBUGSH_ROOT": root.path])
            let library = folder.appendingPathComponent(".build/debug/lib\(name).so").path
            guard status == 0, FileManager.default.fileExists(atPath: library) else {
                return .failure(ExamplePlugin.BuildError(description: "swift build of \(name) failed:\n\(log)"))
            }
            return .success(library)
        } catch {
            return .failure(ExamplePlugin.BuildError(description: "swift build of \(name): \(error)"))
        }
    }
}
