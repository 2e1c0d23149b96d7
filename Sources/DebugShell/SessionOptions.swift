import DebugShellCore

/// How a session reports and stops.
public struct SessionOptions: Sendable {
    /// JSON lines on stdout (docs/JSON.md).
    public var json = false
    /// Print each script command before running it.
    public var echo = false
    /// Continue after a failed command; exit 1 at the end.
    public var keepGoing = false
    /// Width for help text and charts: the terminal's in the interactive session, 80 otherwise.
    public var width = 80
    /// Whether command output may carry colour (the interactive session, unless NO_COLOR).
    public var color = false
    /// `debugsh test`'s child: a failed `expect` is reported and the script goes on; a command
    /// that errors still ends it (docs/Testing.md).
    public var continuesAfterFailedExpectations = false

    public init(json: Bool = false, echo: Bool = false, keepGoing: Bool = false, width: Int = 80, color: Bool = false) {
        self.json = json
        self.echo = echo
        self.keepGoing = keepGoing
        self.width = width
        self.color = color
    }
}
