import Foundation

/// A plugin package of this repository built as its author would build it: copied to a
/// temporary folder outside the repository and built there with `swift build` against this
/// checkout (`DEBUGSH_ROOT`). ``ExamplePlugin``, ``CarelessPlugin`` and ``BrokenPlugins`` build theirs with it,
/// each once per test run.
public enum PluginPackage {
    public struct BuildError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The repository's root, found from this file.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("DebugShellCore/Package.swift").path) {
                return url
            }
        }
        return url
    }()

    /// Copies a package of the repository, lets `edit` change the copy, builds it, and returns
    /// the path of its library.
    ///
    /// - Parameters:
    ///   - folder: The package, relative to the repository's root (`Examples/ExternalTool`).
    ///   - items: What of it to copy (`Package.swift`, `Sources`, …): never its `.build`.
    ///   - library: The library's file name in `.build/debug` (`libHangDetector.so`).
    ///   - tag: A word for the temporary folder's name.
    ///   - root: The debugsh checkout it is built against (`DEBUGSH_ROOT`): this one by default.
    ///   - edit: Changes the copy before it is built (a plugin's name); given the copy's folder.
    public static func build(
        _ folder: String, items: [String], library: String, tag: String, against root: URL = repositoryRoot,
        edit: (URL) throws -> Void = { _ in }
    ) -> Result<String, BuildError> {
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-plugin-\(tag)-\(UUID().uuidString)")
        let source = repositoryRoot.appendingPathComponent(folder)
        do {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for item in items {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(item), to: copy.appendingPathComponent(item))
            }
            try edit(copy)
        } catch {
            return .failure(BuildError(description: "copying \(folder): \(error)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", copy.path]
        var environment = ProcessInfo.processInfo.environment
        environment["DEBUGSH_ROOT"] = root.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return .failure(BuildError(description: "swift build: \(error)"))
        }
        let log = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let built = copy.appendingPathComponent(".build/debug/\(library)").path
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: built) else {
            return .failure(BuildError(description: "swift build failed:\n" + String(decoding: log, as: UTF8.self)))
        }
        return .success(built)
    }
}

/// The careless plugin (Tests/Fixtures/CarelessPlugin): a tool that hands the host bad answers
/// on demand, built once per test run (``PluginPackage``), as `libCarelessPlugin.so`.
public enum CarelessPlugin {
    /// The built library, or why it could not be built.
    public static let library: Result<String, PluginPackage.BuildError> = PluginPackage.build(
        "Tests/Fixtures/CarelessPlugin", items: ["Package.swift", "Sources"], library: "libCarelessPlugin.so",
        tag: "careless")
}

/// The stuck plugin (Tests/Fixtures/StuckPlugin): a tool whose command and display-link callback
/// never return, and which calls `exit(3)`, built once per test run (``PluginPackage``), as
/// `libStuckPlugin.so`.
public enum StuckPlugin {
    /// The built library, or why it could not be built.
    public static let library: Result<String, PluginPackage.BuildError> = PluginPackage.build(
        "Tests/Fixtures/StuckPlugin", items: ["Package.swift", "Sources"], library: "libStuckPlugin.so", tag: "stuck")
}

/// The broken plugins (Tests/Fixtures/BrokenPlugins): one library, the plugin `broken`, that traps
/// in each place of a plugin's code outside a tool's methods — its loading, entry points and
/// descriptor (where `DEBUGSH_TEST_BROKEN` says), `isSaying(_:)`, output made after a command
/// returned, a `deinit` at `reset`, a thread of its own — built once per test run
/// (``PluginPackage``), as `libBrokenPlugins.so`.
public enum BrokenPlugins {
    /// The built library, or why it could not be built.
    public static let library: Result<String, PluginPackage.BuildError> = PluginPackage.build(
        "Tests/Fixtures/BrokenPlugins", items: ["Package.swift", "Sources"], library: "libBrokenPlugins.so",
        tag: "broken")
}
