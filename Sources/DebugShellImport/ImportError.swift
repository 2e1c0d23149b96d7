import DebugShellCore

/// A file that cannot be imported: what is wrong, and where (`file:line:column:` when it is at a
/// place in it). An import is all or nothing: after this, nothing of the file was kept.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var file: String?
    public var line: Int?
    public var column: Int?

    public init(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: message`, with what is known of the place.
    public var description: String {
        var place = file ?? ""
        if let line { place += (place.isEmpty ? "" : ":") + "\(line)" }
        if let column { place += ":\(column)" }
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
