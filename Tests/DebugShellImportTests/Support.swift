import DebugShellCore
import DebugShellImport
import Foundation
import Testing

/// A folder of its own for a test's files, removed when the test ends.
final class Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` (as UTF-8) to `name`; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Reads a CSV log, never interrupted.
func readCSV(_ path: String) throws(ImportError) -> RecordedTimeline {
    try CSVImport.read(path, interrupted: { false })
}

/// Reads a Chrome trace, never interrupted.
func readChrome(_ path: String) throws(ImportError) -> RecordedTimeline {
    try ChromeTraceImport.read(path, interrupted: { false })
}

/// The error a read throws, as the user reads it (`file:line:column: message`), with the scratch
/// folder's path cut to `<dir>`; nil when the read succeeds.
func failure(_ read: () throws(ImportError) -> RecordedTimeline, in scratch: Scratch) -> String? {
    do {
        _ = try read()
        return nil
    } catch {
        return error.description.replacingOccurrences(of: scratch.url.path, with: "<dir>")
    }
}

func ns(_ n: Int64) -> SimTime { SimTime(nanoseconds: n) }
func duration(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n) }
