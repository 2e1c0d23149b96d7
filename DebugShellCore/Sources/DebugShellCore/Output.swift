/// What a command returns: text for people and a JSON result for `--json` (docs/JSON.md), and
/// any files for the session to write.
///
/// Commands never print and never write files; the session renders this value for the sink it
/// writes to, after writing its ``files``.
///
/// The JSON result is made only when it is shown: `json:` is taken as an expression that the
/// session evaluates under `--json`, right after the command returned and before anything else
/// runs. A script that makes 100,000 timers builds none of their rows unless it asks for JSON.
/// The type is `@unchecked Sendable` for that deferred expression, which runs in the session's
/// isolation domain as the command did (as ``StreamedOutput``'s closures do).
public struct CommandOutput: @unchecked Sendable {
    /// Text lines (without a trailing newline); empty when the command is silent.
    public var text: String
    /// Makes the `result` of the command's JSON line.
    private var makeJSON: () -> JSONValue
    /// Warnings, printed as `file:line: warning: message`.
    public var warnings: [String]
    /// Files to write before the text is shown (a chart's SVG): see ``OutputFile``.
    public var files: [OutputFile]
    /// Output made while it is written, in place of `text` and `json`: see ``StreamedOutput``.
    public var streamed: StreamedOutput?

    /// - Parameters:
    ///   - text: The lines for people, without a trailing newline; empty for a silent command.
    ///   - json: The JSON result, evaluated only when it is shown (`--json`).
    ///   - warnings: Printed as `file:line: warning: message`.
    ///   - files: Written, in order, before the text is shown.
    public init(
        text: String = "", json: @autoclosure @escaping () -> JSONValue = .object([]), warnings: [String] = [],
        files: [OutputFile] = []
    ) {
        self.text = text
        self.makeJSON = json
        self.warnings = warnings
        self.files = files
    }

    /// Output too long to hold at once: the session writes each line as `streamed` makes it, or
    /// asks it for the JSON result under `--json`.
    public init(streamed: StreamedOutput, warnings: [String] = []) {
        self.init(warnings: warnings)
        self.streamed = streamed
    }

    /// The `result` of the command's JSON line: a stable shape, documented per command. Made
    /// when read.
    public var json: JSONValue {
        get { streamed?.makeJSON() ?? makeJSON() }
        set { makeJSON = { newValue } }
    }

    public static let silent = CommandOutput()
}

/// A file a command asks the session to write, whole.
///
/// Tools never touch the file system; a command that saves something (`fps plot out.svg`)
/// returns the file's contents in ``CommandOutput/files`` and the session writes it atomically:
/// into a temporary file beside it, then renamed over it, so that a reader never sees half a
/// file and a failed write leaves the old one as it was. A symbolic link is followed (the file
/// it points to is replaced, the link stays); a path that names something other than a regular
/// file (a directory, a device, a FIFO) is refused; an existing file keeps its permissions. A
/// relative path is relative to the shell's working directory.
///
/// Files are written in order before the command's text is shown. If one cannot be written, the
/// command fails with `cannot write '<path>': <reason>` (the files before it stay written) and
/// its text is not shown.
public struct OutputFile: Sendable, Hashable {
    /// The path, as the user gave it.
    public var path: String
    /// The whole file, as UTF-8 text.
    public var contents: String

    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// Where a command's text is shown: how wide it is and whether it may carry colour.
///
/// A command that draws to fit (a chart) reads it from ``ToolHost/display``.
public struct TextDisplay: Sendable, Hashable {
    /// Columns the text should fit: the terminal's width in the interactive session, 80 for
    /// scripts, `-c` commands and piped input, so that their output is the same everywhere.
    public var columns: Int
    /// Whether the text may carry SGR colour codes: in the interactive session unless `NO_COLOR`
    /// is set; never in scripts, `-c` commands, piped input or `--json`.
    public var color: Bool

    public init(columns: Int, color: Bool) {
        self.columns = columns
        self.color = color
    }

    /// 80 columns without colour: what scripts get.
    public static let script = TextDisplay(columns: 80, color: false)
}

/// Output that is made while it is written, for listings whose text can be far larger than the
/// state they describe (a 20,000-deep `view tree` is 600 MB of indentation).
///
/// The session calls ``writeText`` once, right after the command returned and before anything
/// else runs, with a function that writes one line and returns false when the writing should stop
/// (Ctrl-C, a closed pipe): the producer then returns at once. Under `--json` the session calls
/// ``makeJSON`` instead, so a text listing never builds its JSON and the other way round. Both run
/// in the session's isolation domain, as the command did; the type is `@unchecked Sendable` only
/// so that ``CommandOutput`` stays `Sendable` while holding them.
public struct StreamedOutput: @unchecked Sendable {
    /// Writes the text, line by line (without line ends), until done or `line` returns false.
    public let writeText: (_ line: (String) -> Bool) -> Void
    /// The command's JSON `result`.
    public let makeJSON: () -> JSONValue

    public init(text writeText: @escaping (_ line: (String) -> Bool) -> Void, json makeJSON: @escaping () -> JSONValue)
    {
        self.writeText = writeText
        self.makeJSON = makeJSON
    }
}

/// A colour as 8-bit red, green, blue.
public struct RGB: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of hue `h` in 0…1 at full saturation and brightness (as `UIColor(hue:…)`).
    public static func hue(_ h: Double) -> RGB {
        let hue = max(0, min(1, h)) * 6
        let sector = Int(hue.rounded(.down)) % 6
        let f = hue - hue.rounded(.down)
        let q = 1 - f
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case 0: (r, g, b) = (1, f, 0)
        case 1: (r, g, b) = (q, 1, 0)
        case 2: (r, g, b) = (0, 1, f)
        case 3: (r, g, b) = (0, q, 1)
        case 4: (r, g, b) = (f, 0, 1)
        default: (r, g, b) = (1, 0, q)
        }
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RGB(byte(r), byte(g), byte(b))
    }
}

/// Text in styled runs: a status line, with colour where the terminal has it.
public struct StyledText: Hashable, Sendable, CustomStringConvertible {
    public enum Style: Hashable, Sendable {
        case plain
        case bold
        case dim
        case color(RGB)
    }

    public var runs: [(text: String, style: Style)]

    public init(_ runs: [(text: String, style: Style)] = []) { self.runs = runs }
    public init(plain text: String) { self.runs = [(text, .plain)] }

    public static func == (a: StyledText, b: StyledText) -> Bool {
        a.runs.count == b.runs.count && zip(a.runs, b.runs).allSatisfy { $0.text == $1.text && $0.style == $1.style }
    }
    public func hash(into hasher: inout Hasher) {
        for run in runs {
            hasher.combine(run.text)
            hasher.combine(run.style)
        }
    }

    public mutating func append(_ text: String, _ style: Style = .plain) { runs.append((text, style)) }

    /// The text without styling.
    public var plain: String { runs.map(\.text).joined() }
    public var description: String { plain }
}

/// Something a tool reports while time runs: printed as `[0.500s] layout: settled (…)`.
public struct ToolEvent: Sendable {
    /// The event's name, as declared (`layout.settled`).
    public var name: String
    /// When it happened.
    public var time: SimTime
    /// The text after `tool: `.
    public var message: String
    /// Extra JSON fields after `event` and `t_ns`.
    public var fields: [(String, JSONValue)]
    /// Said only for a breakpoint that waits for it (``ToolHost/isListening(for:)``), not
    /// printed: a tool that prints the event only while watched emits it silently otherwise.
    public var silent: Bool

    public init(
        name: String, time: SimTime, message: String, fields: [(String, JSONValue)] = [], silent: Bool = false
    ) {
        self.name = name
        self.time = time
        self.message = message
        self.fields = fields
        self.silent = silent
    }

    /// The tool part of the name (`layout` for `layout.settled`).
    public var tool: Substring { name.split(separator: ".").first ?? Substring(name) }

    /// The event as a line of text: `[0.500s] layout: settled (…)`.
    public var text: String { "[\(time.eventStamp)] \(tool): \(message)" }

    /// The event as a JSON line: `{"event": …, "t_ns": …, …}`.
    public var json: JSONValue {
        .object([("event", .string(name)), ("t_ns", .int(time.nanoseconds)), ("message", .string(message))] + fields)
    }
}
