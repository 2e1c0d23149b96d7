import DebugShellImport
import Foundation

/// The xctrace fixtures (Tests/Fixtures/xctrace, six tables Instruments exported; README there).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xctrace").path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static let names = [
        "device-display-info.xml", "display-surface-swap.xml", "display-vsyncs-interval.xml",
        "displayed-surfaces-interval.xml", "hitches-renders.xml", "hitches.xml",
    ]
}

/// A folder of its own under the system's temporary folder, removed when the value goes.
final class TemporaryFolder {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file (UTF-8 text, or bytes) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, bytes: Array(text.utf8)) }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// What importing the files says when it fails, the folder's path left out
    /// (`t.xml:1:27: mismatched end tag: …`); "imported" when it does not fail.
    func failure(_ names: [String]) -> String {
        do {
            _ = try XCTraceImport.read(names.map { path + "/" + $0 })
            return "imported"
        } catch {
            return error.description.replacingOccurrences(of: path + "/", with: "")
        }
    }

    /// Writes one file and says what importing it says when it fails.
    func failure(of text: String, name: String = "t.xml") throws -> String {
        try write(name, text)
        return failure([name])
    }
}

/// A table as `xctrace export` writes it: the schema's columns (mnemonic, engineering type) and
/// the rows as written, in one document.
func exportDocument(_ tables: [(schema: String, columns: [String], rows: [String])]) -> String {
    var text = "<?xml version=\"1.0\"?>\n<trace-query-result>\n"
    for (k, table) in tables.enumerated() {
        text += "<node xpath='//trace-toc[1]/run[1]/data[1]/table[\(k + 1)]'><schema name=\"\(table.schema)\">"
        for column in table.columns {
            text +=
                "<col><mnemonic>\(column)</mnemonic><name>\(column)</name><engineering-type>t</engineering-type></col>"
        }
        text += "</schema>\n"
        for row in table.rows { text += "<row>\(row)</row>\n" }
        text += "</node>"
    }
    return text + "</trace-query-result>\n"
}
