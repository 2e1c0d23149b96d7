import DebugShellCore
import DebugShellInterpreter
import DebugShellTrace

/// The one way out of the session: commands' results, errors and warnings, tool events, echoed
/// commands, notices, and the front end's own start-up messages all leave through here, in text
/// or as JSON lines (docs/JSON.md), to the ``OutputSink`` — and tool events to the trace too.
///
/// The user's words in a message never reach the terminal raw: errors and warnings are escaped
/// (`unknown command 'run\x01'`). Neither does a tool's text: its command output, its events'
/// messages and its metrics' words have their control characters escaped here
/// (``VisibleText/terminalSafe(_:keepingLayout:keepingColor:)``), colour codes of a chart drawn
/// for a colour display excepted.
public final class OutputRouter {
    let sink: any OutputSink
    /// JSON lines on standard output (`--json`).
    public private(set) var json = false
    /// Where a command's text is shown: its width and whether it may use colour.
    public private(set) var display = TextDisplay.script
    /// Polled between the lines of a long listing: an interrupt stops it.
    var isInterrupted: () -> Bool = { false }
    /// Events printed since the last ``startCounting()``: `run`'s JSON result counts them.
    private(set) var eventsPrinted = 0
    /// Where tool events also go while a trace records.
    var trace: TraceRecorder?
    /// The warnings about tools given so far: each is given once per session.
    private var warnedAbout = Set<String>()
    /// The next result is help, which the sink may page (``OutputSink/page(_:)``); the next
    /// result or error clears it.
    var pagesNextResult = false
    /// Told of each error and interrupt as it is printed, with the failed `expect` it reports
    /// if it does (``Session/observeFailures(_:)``).
    var failureObserver:
        (
            (_ message: String, _ location: SourceLocation, _ interrupted: Bool, _ expectation: ExpectationFailure?) ->
                Void
        )?
    /// The session's options, which fix JSON or text, the width and colour.
    var options = SessionOptions() {
        didSet { apply(options) }
    }

    public init(sink: any OutputSink) {
        self.sink = sink
    }

    /// Takes the session's options: JSON or text, the width and colour.
    private func apply(_ options: SessionOptions) {
        json = options.json
        display = TextDisplay(columns: options.width, color: options.color && !options.json)
    }

    // MARK: Commands

    /// A command's result: its warnings, then its text (streamed line by line when it is long)
    /// or its JSON line.
    ///
    /// - Parameter fromTool: The command is a tool's: its text is made safe for the terminal
    ///   (``toolText(_:keepingLayout:)``). A built-in's text goes as it is (`echo --raw`).
    func result(
        _ output: CommandOutput, command: @autoclosure () -> String, location: SourceLocation,
        extra: [(String, JSONValue)] = [], fromTool: Bool = false
    ) {
        let paged = pagesNextResult
        pagesNextResult = false
        for warning in output.warnings {
            sink.write(
                VisibleText.escaped("\(location.prefix("warning"))\(warning)\(location.suffix)") + "\n",
                to: .standardError)
        }
        if json {
            let line = JSONValue.object(
                [("command", .string(command())), ("ok", .bool(true)), ("result", output.json)] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        } else if let streamed = output.streamed {
            // Each line goes out as it is made; an interrupt stops the listing.
            streamed.writeText { line in
                sink.write((fromTool ? toolText(line, keepingLayout: true) : line) + "\n", to: .standardOutput)
                return !isInterrupted()
            }
        } else if paged, !output.text.isEmpty, sink.page(output.text) {
            return
        } else if !output.text.isEmpty {
            let text = fromTool ? toolText(output.text, keepingLayout: true) : output.text
            sink.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
        }
    }

    /// A failure: `file:line: error: message` on standard error, and under `--json` a line on
    /// standard output for a command.
    func error(
        _ message: String, command: @autoclosure () -> String?, location: SourceLocation,
        extra: [(String, JSONValue)] = [], expectation: ExpectationFailure? = nil
    ) {
        pagesNextResult = false
        if json, let command = command() {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))] + extra)
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        let line = "\(location.prefix("error"))\(message)\(location.suffix)"
        sink.write(VisibleText.escaped(line) + "\n", to: .standardError)
        failureObserver?(message, location, false, expectation)
    }

    /// A problem `--check` found (``ScriptChecker``): `file:line: error: message`, or `note:`,
    /// on standard error, as a failing command's error reads.
    /// Under `--json`, also a line on standard output:
    /// `{"file", "line", "severity", "message", "sourced_from": ["b.dsh:2", …]}`.
    func checked(_ message: String, severity: String, location: SourceLocation) {
        if json {
            let entry = JSONValue.object([
                ("file", JSONValue(location.origin.name)), ("line", .int(Int64(location.line))),
                ("severity", .string(severity)), ("message", .string(message)),
                ("sourced_from", .array(location.origin.includedFrom.map { .string($0) })),
            ])
            sink.write(entry.serialized + "\n", to: .standardOutput)
        }
        let line = "\(location.prefix(severity))\(message)\(location.suffix)"
        sink.write(VisibleText.escaped(line) + "\n", to: .standardError)
        // `debugsh test --check`: each error is a failure of the file at its line.
        if severity == "error" { failureObserver?(message, location, false, nil) }
    }

    /// `--check --json`'s last line: `{"summary": {"errors": n, "notes": n}}`.
    func checkSummary(errors: Int, notes: Int) {
        guard json else { return }
        let line = JSONValue.object([
            ("summary", .object([("errors", .int(Int64(errors))), ("notes", .int(Int64(notes)))]))
        ])
        sink.write(line.serialized + "\n", to: .standardOutput)
    }

    /// Ctrl-C stopped a command or a script at `now`.
    func interrupted(at now: SimTime, command: String?, location: SourceLocation) {
        let message = "interrupted at \(now)"
        if json, let command {
            let line = JSONValue.object(
                [("command", .string(command)), ("ok", .bool(false)), ("error", .string(message))])
            sink.write(line.serialized + "\n", to: .standardOutput)
        }
        sink.write("\(location.prefix("error"))\(message)\(location.suffix)\n", to: .standardError)
        failureObserver?(message, location, true, nil)
    }

    /// A command as it runs (`--echo`): on standard output, or standard error under `--json`,
    /// which keeps standard output to JSON lines.
    func echo(_ line: String) {
        sink.write(line + "\n", to: json ? .standardError : .standardOutput)
    }

    // MARK: Events and notices

    /// A tool's event, printed as it happens (docs/JSON.md), and kept by a recording trace. Its
    /// message is one line of the tool's text: a newline in it cannot start a line that reads as
    /// another tool's event.
    func event(_ event: ToolEvent) {
        trace?.toolEvent(event)
        eventsPrinted += 1
        let line =
            json
            ? event.json.serialized
            : "[\(event.time.eventStamp)] \(event.tool): \(toolText(event.message, keepingLayout: false))"
        sink.write(line + "\n", to: .standardOutput)
    }

    /// A tool's text made safe for the terminal: control characters escaped, newlines and tabs
    /// kept with `keepingLayout`, and colour codes kept where the display shows colour (a chart).
    func toolText(_ text: String, keepingLayout: Bool) -> String {
        VisibleText.terminalSafe(text, keepingLayout: keepingLayout, keepingColor: keepingLayout && display.color)
    }

    /// A warning about something a tool did (an event it may not emit, a setting it may not
    /// set), on standard error — once per session: a tool that does it every frame is named
    /// once, not sixty times a second.
    ///
    /// - Parameter key: What counts as the same warning when the message differs (an event's
    ///   time stamp); the message itself by default.
    func toolWarning(_ message: String, once key: String? = nil) {
        guard warnedAbout.insert(key ?? message).inserted else { return }
        sink.write(VisibleText.escaped("warning: \(message)") + "\n", to: .standardError)
    }

    /// Starts counting the events printed (an advance of time begins).
    func startCounting() { eventsPrinted = 0 }

    /// Something the session says outside any command's result — `warning: …`, `error: …` —
    /// on standard error.
    func notice(_ line: String) {
        sink.write(line + "\n", to: .standardError)
    }

    // MARK: The front end's own

    /// A message of the front end before or around the session (`debugsh: cannot open …`), on
    /// standard error.
    public func frontEndMessage(_ message: String) {
        sink.write("debugsh: \(message)\n", to: .standardError)
    }

    /// A script the front end could not read: `file:line: error: message` when the problem is
    /// at a line (not UTF-8 text there), else `debugsh: message`.
    public func unreadableScript(_ message: String, path: String, line: Int?) {
        if let line {
            error(message, command: nil, location: SourceLocation(origin: ScriptOrigin(name: path), line: line))
        } else {
            frontEndMessage(message)
        }
    }

    /// Text the front end prints as it is (`--version`, `--help`), on standard output.
    public func frontEndText(_ text: String) {
        sink.write(text, to: .standardOutput)
    }

    /// Text the front end prints as it is on standard error (`debugsh test`'s progress line and,
    /// under `--json`, its summary).
    public func frontEndErrorText(_ text: String) {
        sink.write(text, to: .standardError)
    }

    /// Pushes buffered output out: before time runs, so that what came before a long `run` is
    /// seen while it runs, and before the front end waits.
    public func flush() { sink.flush() }
}
