import DebugShellCore

/// A failure as `debugsh test`'s child reports it to the runner (docs/Testing.md).
public struct ReportedFailure: Sendable {
    public enum Kind: String, Sendable {
        /// An `expect` whose condition did not hold; the script goes on.
        case expectation
        /// A command that failed (or a line that could not be read).
        case error
        /// An interrupt stopped the script (the runner's timeout sends SIGTERM, read as one).
        case interrupted
    }

    public var kind: Kind
    /// The script's name as errors print it; nil for a typed command.
    public var file: String?
    public var line: Int
    /// The error's message, as printed after `error: `.
    public var message: String
    /// An `expect`'s condition and the values it compared (`main.hangs = 1`).
    public var condition: String?
    public var values: String?
    /// Virtual time when it happened.
    public var time: SimTime
    /// The `file:line` of each `source` that led there, innermost first.
    public var sourcedFrom: [String]
}
