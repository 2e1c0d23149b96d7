import DebugShellCore
import DebugShellInterpreter

/// Where commands come from: a file, `<command-line>`, `<stdin>`, or typed (no name).
public struct ScriptOrigin: Sendable {
    /// The name errors use; nil for typed commands (`error: message`).
    public var name: String?
    /// Where relative `source` paths resolve.
    public var directory: String
    /// The `file:line` of each `source` that led here, innermost first.
    public var includedFrom: [String] = []

    public init(name: String?, directory: String = ".", includedFrom: [String] = []) {
        self.name = name
        self.directory = directory
        self.includedFrom = includedFrom
    }

    public static let typed = ScriptOrigin(name: nil)
}

/// A place in a script, for messages.
struct SourceLocation: Sendable {
    public var origin: ScriptOrigin
    public var line: Int

    public init(origin: ScriptOrigin, line: Int) {
        self.origin = origin
        self.line = line
    }

    /// `file:line`, or nil for a typed command.
    var text: String? { origin.name.map { "\($0):\(line)" } }

    /// `file:line: error: ` (or `error: ` for typed commands); the suffix names the sources.
    func prefix(_ severity: String) -> String {
        if let text { return "\(text): \(severity): " }
        return "\(severity): "
    }

    /// ` (sourced from b.dsh:2, a.dsh:7)`; a place repeated in a row is named once with a count
    /// (`loop.dsh:1 ×64`), so a script that sources itself reads as what it is.
    var suffix: String {
        guard !origin.includedFrom.isEmpty else { return "" }
        var places: [String] = []
        var previous: String?
        var repeats = 0
        func flush() {
            if let previous { places.append(repeats > 1 ? "\(previous) ×\(repeats)" : previous) }
        }
        for place in origin.includedFrom {
            if place == previous {
                repeats += 1
                continue
            }
            flush()
            previous = place
            repeats = 1
        }
        flush()
        return " (sourced from \(places.joined(separator: ", ")))"
    }
}
