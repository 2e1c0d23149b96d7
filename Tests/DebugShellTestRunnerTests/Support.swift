import DebugShell
import Foundation

@testable import DebugShellTestRunner

/// A folder of its own under the temporary folder for one test, removed after it.
func withScratchFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder.path)
}

/// Writes `text` at `path`, making the folders on the way.
func write(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

func read(_ path: String) throws -> String {
    try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
}

/// An interrupt flag that is never set, for runners that do not run children.
var neverInterrupted: Interrupts { Interrupts(catchInterrupts: {}, isInterrupted: { false }, setFlag: { _ in }) }

/// A runner over a memory sink, for its reports and its reading of a child's report.
func makeRunner(
    _ arguments: [String] = [], jobs: Int = 2, annotate: Bool = false, workFolder: String = "/nonexistent",
    found: Int = 0, timeout: (seconds: Double, text: String)? = nil
) throws -> (TestRunner, MemorySink) {
    let sink = MemorySink()
    let runner = TestRunner(
        options: try TestOptions.parse(arguments), output: OutputRouter(sink: sink), interrupts: neverInterrupted,
        jobs: jobs, timeout: timeout, annotate: annotate, workFolder: workFolder, found: found)
    return (runner, sink)
}

/// A file's result, in a line.
func result(
    _ path: String, _ status: TestResult.Status, seconds: Double = 0, failures: [TestFailure] = [],
    metrics: [(name: String, type: String, text: String)] = [], key: String? = nil
) -> TestResult {
    var result = TestResult(file: TestFile(path: path, key: key ?? path), status: status)
    result.seconds = seconds
    result.failures = failures
    result.metrics = metrics
    return result
}
