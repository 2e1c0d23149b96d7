import Foundation

/// The example outside tool (Examples/ExternalTool), copied to a temporary folder outside the
/// repository and built there with `swift build` against this checkout (`DEBUGSH_ROOT`) — as
/// someone who writes their own tool would.
public enum ExamplePlugin {
    public typealias BuildError = PluginPackage.BuildError

    /// The built library of the example, once per test run.
    public static let library: Result<String, BuildError> = build(named: "hangs")
    /// The same tool under another plugin name: its tool `hangs` clashes with the first's.
    public static let clashing: Result<String, BuildError> = build(named: "hangs-again")
    /// The package's second plugin, `budget` (libFrameBudget.so), from the build of ``library``.
    public static var budget: Result<String, BuildError> {
        library.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("libFrameBudget.so").path
        }
    }

    /// The repository's root, found from this file.
    public static var packageRoot: URL { PluginPackage.repositoryRoot }

    /// Copies the example, names its plugin `name`, builds it; returns the library's path.
    static func build(named name: String) -> Result<String, BuildError> {
        PluginPackage.build(
            "Examples/ExternalTool", items: ["Package.swift", "Sources", "Tests"], library: "libHangDetector.so",
            tag: name
        ) { copy in
            let file = copy.appendingPathComponent("Sources/HangDetector/HangDetector.swift")
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(
                of: "DebugShellPlugin(name: \"hangs\"", with: "DebugShellPlugin(name: \"\(name)\""
            )
            .write(to: file, atomically: true, encoding: .utf8)
        }
    }

    /// Runs a command-line tool, returning its standard output and status.
    public static func tool(_ arguments: [String], environment: [String: String] = [:]) throws -> (String, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
