import Foundation

/// The example outside tool (Examples/ExternalTool), copied to a temporary folder outside the
/// repository and built there with `swift build` against this checkout (`DEBUGSH_ROOT`) — as
/// someone who writes their own tool would.
public enum ExamplePlugin {
    public struct BuildError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The built library of the example, once per test run.
    public static let library: Result<String, BuildError> = build(named: "hangs")
    /// The same tool under another plugin name: its tool `hangs` clashes with the first's.
    public static let clashing: Result<String, BuildError> = build(named: "hangs-again")

    /// The repository's root, found from this file.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("DebugShellCore/Package.swift").path) {
                return url
            }
        }
        return url
    }()

    /// Copies the example, names its plugin `name`, builds it; returns the library's path.
    static func build(named name: String) -> Result<String, BuildError> {
        let root = packageRoot
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-plugin-\(name)-\(UUID().uuidString)")
        let source = root.appendingPathComponent("Examples/ExternalTool")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for item in ["Package.swift", "Sources", "Tests"] {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(item), to: folder.appendingPathComponent(item))
            }
            let file = folder.appendingPathComponent("Sources/HangDetector/HangDetector.swift")
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(
                of: "DebugShellPlugin(name: \"hangs\"", with: "DebugShellPlugin(name: \"\(name)\""
            )
            .write(to: file, atomically: true, encoding: .utf8)
        } catch {
            return .failure(BuildError(description: "copying the example: \(error)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", folder.path]
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
        let library = folder.appendingPathComponent(".build/debug/libHangDetector.so").path
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: library) else {
            return .failure(BuildError(description: "swift build failed:\n" + String(decoding: log, as: UTF8.self)))
        }
        return .success(library)
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
