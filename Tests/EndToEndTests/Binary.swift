import Foundation
import Testing

/// Runs the built debugsh binary with piped stdin (never a terminal) and captures everything.
struct Binary {
    struct Run: CustomStringConvertible {
        var stdout: String
        var stderr: String
        var status: Int32
        var description: String { "status \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)" }
    }

    /// The package root, found from this file.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    /// The debugsh binary next to the test bundle (`swift test` builds it first), or the one
    /// `DEBUGSH_TEST_BINARY` names (to check that a test fails on an older build).
    static let path: String = {
        if let chosen = ProcessInfo.processInfo.environment["DEBUGSH_TEST_BINARY"] { return chosen }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("debugsh").path,
            packageRoot.appendingPathComponent(".build/debug/debugsh").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// Runs debugsh with `arguments`, feeding `stdin`, in `directory` (default: a fresh temp folder).
    /// It waits for the child's end; `timeout` only guards against a hang, so it is long (a CI
    /// machine as busy as ours must never fail a test on time).
    static func run(
        _ arguments: [String], stdin: String = "", stdinData: Data? = nil, directory: URL? = nil,
        environment: [String: String] = [:], timeout: TimeInterval = 600
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["COLUMNS"] = "80"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes on other threads so a large output never blocks the child.
        let outBox = DataBox()
        let errBox = DataBox()
        let group = DispatchGroup()
        for (pipe, box) in [(output, outBox), (error, errBox)] {
            group.enter()
            DispatchQueue.global().async {
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        let data = stdinData ?? Data(stdin.utf8)
        DispatchQueue.global().async {
            try? input.fileHandleForWriting.write(contentsOf: data)
            try? input.fileHandleForWriting.close()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CancellationError()
        }
        process.waitUntilExit()
        return Run(
            stdout: String(decoding: outBox.data, as: UTF8.self), stderr: String(decoding: errBox.data, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// A fresh temporary folder with the given files.
    static func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return url
    }
}

final class DataBox: @unchecked Sendable {
    var data = Data()
}
