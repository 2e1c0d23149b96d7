/// Where a session's text goes: standard output or standard error.
public enum OutputStreamKind: Sendable {
    case standardOutput, standardError
}

/// The session's only way out: commands and tools never print (STYLE.md, swift-log's handlers).
/// The executable binds it to the terminal; tests use ``MemorySink``.
public protocol OutputSink: AnyObject {
    /// Writes text that ends with a newline.
    func write(_ text: String, to stream: OutputStreamKind)

    /// Pushes buffered output out: the session calls it before time runs, so that what came
    /// before a long `run` is seen while it runs.
    func flush()

    /// Shows help a screen at a time when it is taller than the screen; false when the sink
    /// does not page (scripts, pipes, tests) or the text fits, and it is written as usual.
    func page(_ text: String) -> Bool
}

extension OutputSink {
    public func flush() {}
    public func page(_ text: String) -> Bool { false }
}

/// A sink that keeps what was written, for tests and examples.
public final class MemorySink: OutputSink {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    /// Both streams interleaved in the order written.
    public private(set) var combined = ""

    public init() {}

    public func write(_ text: String, to stream: OutputStreamKind) {
        switch stream {
        case .standardOutput: standardOutput += text
        case .standardError: standardError += text
        }
        combined += text
    }

    public func clear() {
        standardOutput = ""
        standardError = ""
        combined = ""
    }
}
