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

    /// The example built against an edited copy of this checkout (``editedCheckout()``): a
    /// DebugShellCore of the same API version whose public struct `ToolDescriptor` has one more
    /// stored property, as someone's local change would make it. Once per test run.
    public static let builtAgainstAnEditedCore: Result<EditedBuild, BuildError> = {
        let checkout: URL
        do {
            checkout = try editedCheckout()
        } catch {
            return .failure(BuildError(description: "copying the checkout: \(error)"))
        }
        return build(named: "hangs", against: checkout).map { EditedBuild(library: $0, checkout: checkout) }
    }()

    /// A build against an edited checkout: the library, and the checkout it was built against.
    public struct EditedBuild: Sendable {
        public var library: String
        public var checkout: URL
    }

    /// What ``editedCheckout()`` changes in DebugShellCore, and where.
    static let editedFile = "DebugShellCore/Sources/DebugShellCore/Declarations.swift"
    static let editAnchor = "public struct ToolDescriptor: Sendable {\n"
    static let edit =
        "    /// A local change to the plugin API: one more stored property, so a larger struct.\n    var localChange = (0, 0, 0)\n"

    /// A copy of this checkout in a temporary folder — what a package that depends on it by
    /// path reads: the root manifest and the folders its targets name, DebugShellCore and
    /// DebugShellCharts, without build folders — with ``edit`` made to DebugShellCore.
    public static func editedCheckout() throws -> URL {
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-edited-checkout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources", "Plugins", "Tests", "DebugShellCore", "DebugShellCharts"] {
            try copyWithoutBuilds(packageRoot.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let file = copy.appendingPathComponent(editedFile)
        let text = try String(contentsOf: file, encoding: .utf8)
        guard text.contains(editAnchor) else {
            throw BuildError(
                description: "\(editedFile) no longer declares '\(editAnchor.dropLast())': update ExamplePlugin.edit")
        }
        try text.replacingOccurrences(of: editAnchor, with: editAnchor + edit).write(
            to: file, atomically: true, encoding: .utf8)
        return copy
    }

    /// Copies a file or folder, leaving out build folders (`.build`, `.swiftpm`) and `.git`.
    static func copyWithoutBuilds(_ source: URL, to destination: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            try FileManager.default.copyItem(at: source, to: destination)
            return
        }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path)
        where ![".build", ".swiftpm", ".git"].contains(name) {
            try copyWithoutBuilds(source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }

    /// The repository's root, found from this file.
    public static var packageRoot: URL { PluginPackage.repositoryRoot }

    /// The example's source with its plugin named `name`.
    static func source(named name: String) throws -> String {
        let file = packageRoot.appendingPathComponent("Examples/ExternalTool/Sources/HangDetector/HangDetector.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let anchor = "DebugShellPlugin(name: \"hangs\""
        guard text.contains(anchor) else {
            throw BuildError(description: "HangDetector.swift no longer contains '\(anchor)': update ExamplePlugin")
        }
        return text.replacingOccurrences(of: anchor, with: "DebugShellPlugin(name: \"\(name)\"")
    }

    /// Copies the example, names its plugin `name`, builds it against the checkout at `root`
    /// (this one by default); returns the library's path.
    static func build(named name: String, against root: URL = packageRoot) -> Result<String, BuildError> {
        PluginPackage.build(
            "Examples/ExternalTool", items: ["Package.swift", "Sources", "Tests"], library: "libHangDetector.so",
            tag: name, against: root
        ) { copy in
            let file = copy.appendingPathComponent("Sources/HangDetector/HangDetector.swift")
            try source(named: name).write(to: file, atomically: true, encoding: .utf8)
        }
    }

    /// Compiles the example's one source file, its plugin named `name`, into the library
    /// `library` with `swiftc`, against the DebugShellCore built in `products` (the folder of
    /// this checkout's debugsh binary): a plugin in about a second, where a package build of
    /// the example takes a minute — for tests that need a plugin of their own, or to rebuild one.
    /// The library is written beside its place and renamed into it: a new file, as a linker's
    /// rebuild makes one, never a rewrite of a file a running debugsh may have mapped.
    public static func compile(named name: String, into library: URL, products: URL) -> Result<String, BuildError> {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-compile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("HangDetector.swift")
        let moduleMap = products.appendingPathComponent("CDebugShellHints.build/module.modulemap")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try source(named: name).write(to: file, atomically: true, encoding: .utf8)
        } catch {
            return .failure(BuildError(description: "writing the example's source: \(error)"))
        }
        let arguments = [
            "swiftc", "-swift-version", "6", "-enable-upcoming-feature", "ExistentialAny", "-parse-as-library",
            "-emit-library", "-module-name", "HangDetector", "-I", products.appendingPathComponent("Modules").path,
            "-Xcc", "-fmodule-map-file=\(moduleMap.path)", "-L", products.path, "-lDebugShellCore",
            "-o", folder.appendingPathComponent("library.so").path, file.path,
        ]
        do {
            let (log, status) = try tool(arguments)
            guard status == 0 else { return .failure(BuildError(description: "swiftc failed:\n\(log)")) }
            guard rename(folder.appendingPathComponent("library.so").path, library.path) == 0 else {
                return .failure(BuildError(description: "cannot move the library to '\(library.path)'"))
            }
        } catch {
            return .failure(BuildError(description: "swiftc: \(error)"))
        }
        return .success(library.path)
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
