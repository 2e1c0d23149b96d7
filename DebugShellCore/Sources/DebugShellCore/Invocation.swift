/// One word of a command line, after quotes and escapes are resolved.
public struct Word: Hashable, Sendable, CustomStringConvertible {
    /// The word's value (quotes removed, escapes resolved).
    public var text: String
    /// The word as written, quotes included, for re-parsing (`alias`, `after`).
    public var raw: String
    /// Whether any part of it was quoted: a quoted word is never an option or operator.
    public var quoted: Bool
    /// For a block's `{`, how many words on its matching `}` is, when the lexer found it (0:
    /// not known). A nested block is then stepped over, not scanned again at every level.
    public var partner: Int32 = 0

    public init(text: String, raw: String, quoted: Bool) {
        self.text = text
        self.raw = raw
        self.quoted = quoted
    }

    public init(_ text: String) { self.init(text: text, raw: text, quoted: false) }

    public var description: String { text }

    /// Words are equal by what they say; `partner` is the lexer's note.
    public static func == (a: Word, b: Word) -> Bool { a.text == b.text && a.raw == b.raw && a.quoted == b.quoted }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(raw)
        hasher.combine(quoted)
    }
}

/// A parsed, typed value of an argument, option or setting.
public enum ArgumentValue: Hashable, Sendable, CustomStringConvertible {
    case duration(SimDuration)
    case time(SimTime)
    case rate(RefreshRate)
    case integer(Int64)
    case decimal(Double)
    case boolean(Bool)
    case word(String)
    case rect(FrameRect)
    /// A frame rate range, `min,max[,preferred]` (``ValueKind/frameRateRange``).
    case frameRateRange(FrameRateRange)
    /// The words of a rest argument, unparsed.
    case words([Word])

    public var description: String {
        switch self {
        case .duration(let d): return d.description
        case .time(let t): return t.description
        case .rate(let r): return "\(r.hertz)Hz"
        case .integer(let v): return String(v)
        case .decimal(let v): return FrameRect.format(v)
        case .boolean(let b): return b ? "on" : "off"
        case .word(let w): return w
        case .rect(let r): return r.description
        case .frameRateRange(let r): return r.description
        case .words(let ws): return ws.map(\.raw).joined(separator: " ")
        }
    }

    public var json: JSONValue {
        switch self {
        case .duration(let d): return .int(d.nanoseconds)
        case .time(let t): return .int(t.nanoseconds)
        case .rate(let r): return .int(Int64(r.hertz))
        case .integer(let v): return .int(v)
        case .decimal: return .string(description)
        case .boolean(let b): return .bool(b)
        case .word(let w): return .string(w)
        case .rect(let r): return .string(r.description)
        case .frameRateRange(let r): return .string(r.description)
        case .words: return .string(description)
        }
    }
}

/// A resolved command as a tool receives it: its verb and its typed values.
public struct Invocation: Sendable {
    /// The command's canonical name (`fps`), whatever the user typed.
    public var command: String
    /// The verb's canonical name (`start`), or `""` for the unnamed verb.
    public var verb: String
    /// The command line as typed.
    public var text: String
    /// Arguments by their declared name and options by theirs (without dashes), as the parser
    /// made them. A tool reads them through its typed keys (`invocation[Self.window]`).
    public var values: [String: ArgumentValue]
    /// Flags that were given.
    public var flags: Set<String>

    public init(command: String, verb: String, text: String, values: [String: ArgumentValue], flags: Set<String>) {
        self.command = command
        self.verb = verb
        self.text = text
        self.values = values
        self.flags = flags
    }
}

/// A command that could not do what was asked; the message is shown as `error: message`.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
