import Foundation
import Testing

/// `scripts/install` puts a working debugsh under a prefix: a link in bin to the binary beside its
/// library, which it loads from there, and completion scripts (issue 37, 1).
@Suite struct InstallTests {
    @Test func anInstalledDebugshRunsFromItsPrefixWithItsOwnLibrary() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-install-\(UUID())")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let folder = URL(fileURLWithPath: Binary.path).deletingLastPathComponent().path
        let script = Binary.packageRoot.appendingPathComponent("scripts/install").path
        let install = try run(script, ["--bin", folder, "--prefix", prefix.path])
        #expect(install.status == 0, "\(install)")
        let installed = prefix.appendingPathComponent("bin/debugsh").path
        // A link to the binary in lib/debugsh, beside its library.
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: installed)
        #expect(target == "../lib/debugsh/debugsh")
        let library = prefix.appendingPathComponent("lib/debugsh/libDebugShellCore.so").path
        #expect(FileManager.default.fileExists(atPath: library))
        // It runs from the prefix, and says the same version as the build it came from.
        let version = try run(installed, ["--version"])
        let built = try run(Binary.path, ["--version"])
        #expect(version.status == 0 && version.stdout == built.stdout, "\(version)")
        #expect(install.stdout.hasPrefix("installed " + built.stdout))
        let session = try run(installed, ["--no-rc", "-c", "animate 1s; run 1s; get render.presents"])
        #expect(session.stdout == "render.presents = 58\n", "\(session)")
        // The library it loads is the installed one, not the build's (the loader says so).
        let loaded = try run(installed, ["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(loaded.stderr.contains("calling init: \(prefix.path)/lib/debugsh/libDebugShellCore.so"), "\(loaded)")
        // Completions for three shells.
        for file in [
            "share/bash-completion/completions/debugsh", "share/zsh/site-functions/_debugsh",
            "share/fish/vendor_completions.d/debugsh.fish",
        ] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("debugsh"), "\(file)")
        }
        // --uninstall removes it all; a bad option is a clear error.
        let removed = try run(script, ["--prefix", prefix.path, "--uninstall"])
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: installed), "\(removed)")
        let bad = try run(script, ["--bogus"])
        #expect(bad.status == 2 && bad.stderr == "scripts/install: unknown option '--bogus' (see --help)\n")
    }

    private func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Binary.Run
    {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Binary.Run(
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            status: process.terminationStatus)
    }
}
