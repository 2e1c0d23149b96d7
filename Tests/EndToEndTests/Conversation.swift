import Foundation
import Testing

/// The built debugsh reading commands from a pipe that the test writes as it goes, so that the
/// test can act between two commands (rebuild a plugin the session has opened) and read what
/// each printed before sending the next.
final class Conversation {
    let process = Process()
    private let input = Pipe()
    private let stdoutBox = LockedText()
    private let stderrBox = LockedText()
    private let group = DispatchGroup()

    /// Starts `debugsh <arguments>` with its standard input a pipe (a `<stdin>` script).
    init(_ arguments: [String], directory: URL? = nil, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? Binary.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["COLUMNS"] = "80"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        for (pipe, box) in [(output, stdoutBox), (error, stderrBox)] {
            group.enter()
            DispatchQueue.global().async { [group] in
                while true {
                    let data = pipe.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    box.append(data)
                }
                group.leave()
            }
        }
    }

    /// Sends one line.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits until standard error holds `count` lines. (Standard output, a pipe, is written in
    /// blocks: wait for an error line instead.)
    func waitForErrorLines(_ count: Int, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderrBox.text.split(separator: "\n").count >= count { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TimedOut(description: "waiting for \(count) lines of stderr; stderr:\n\(stderrBox.text)")
    }

    /// Ends the input and waits for debugsh to end.
    func finish(timeout: TimeInterval = 30) throws -> Binary.Run {
        try input.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw TimedOut(description: "debugsh did not end; stderr:\n\(stderrBox.text)")
        }
        process.waitUntilExit()
        return Binary.Run(
            stdout: stdoutBox.text, stderr: stderrBox.text,
            status: process.terminationStatus)
    }

    struct TimedOut: Error, CustomStringConvertible {
        var description: String
    }
}

/// Text that one thread appends to and another reads.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
