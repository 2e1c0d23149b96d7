import DebugShellCore

/// A JSON value as the trace reader keeps it: one event at a time, so a small tree. A number
/// keeps its text, read exactly when asked (``CSVDecimal``), never through a `Double`.
indirect enum ChromeJSONValue {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([ChromeJSONValue])
    case object([(String, ChromeJSONValue)])

    /// The value of `key` in an object (the first, if the key repeats).
    subscript(key: String) -> ChromeJSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A whole number (`12`, `-1`, `1e3`), or nil for anything else.
    var integer: Int64? {
        guard case .number(let text) = self else { return nil }
        if case .success(let n) = CSVDecimal.scaled(text.utf8, by: 0, whole: true, limit: Int64.max) { return n }
        return nil
    }

    /// A number times 10^`scale`, rounded to whole nanoseconds (µs × 10^3); nil for anything else.
    func scaled(by scale: Int) -> Int64? {
        guard case .number(let text) = self else { return nil }
        if case .success(let n) = CSVDecimal.scaled(text.utf8, by: scale) { return n }
        return nil
    }
}

/// A streaming JSON reader over a file: the caller walks the outer structure (the trace object,
/// its `traceEvents` array) token by token and reads each element whole as a
/// ``ChromeJSONValue``. Strict JSON (RFC 8259): strings with their escapes, numbers, `true`,
/// `false`, `null`; errors at `file:line:column:`.
///
/// Bounded: one element is at most ``maxElement`` bytes and ``maxValues`` values nested at most
/// ``maxDepth`` deep, a string at most ``maxString`` bytes, white space at most ``maxBlank``
/// bytes in a row — a trace's event is a few dozen values. So the reader hands its caller an
/// element, or an error, within a few megabytes of text: what the caller's polls of an interrupt
/// rely on.
struct ChromeJSONReader: ~Copyable {
    private(set) var source: CSVByteSource
    private var values = 0
    /// Where the element being read began.
    private var elementStart: Int64 = 0

    static let maxDepth = 64
    static let maxValues = 100_000
    static let maxString = 1 << 20
    static let maxElement: Int64 = 4 << 20
    static let maxBlank = 1 << 20

    init(path: String) throws(ImportError) {
        source = try CSVByteSource(path: path)
    }

    var path: String { source.path }
    var line: Int { source.line }
    var column: Int { source.column }

    /// An error at the next byte's place.
    func error(_ message: String) -> ImportError {
        ImportError(message, file: source.path, line: source.line, column: source.column)
    }

    func error(_ message: String, line: Int, column: Int) -> ImportError {
        ImportError(message, file: source.path, line: line, column: column)
    }

    /// Skips white space; the next byte, not taken, or nil at the end of the file.
    mutating func peek() throws(ImportError) -> UInt8? {
        var blank = 0
        while let b = try source.peek() {
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return b }
            blank += 1
            guard blank <= ChromeJSONReader.maxBlank else {
                throw error("more than \(ChromeJSONReader.maxBlank >> 20) MiB of white space in a row: not a trace")
            }
            _ = try source.next()
        }
        return nil
    }

    /// Takes `byte`, after white space, or fails saying what was `wanted`.
    mutating func expect(_ byte: UInt8, _ wanted: String) throws(ImportError) {
        guard let b = try peek() else { throw error("the file ends where \(wanted) should be: it is cut short") }
        guard b == byte else { throw error("\(CSVRecordReader.describe(b)) where \(wanted) should be") }
        _ = try source.next()
    }

    /// Takes the next byte (after white space) if it is `byte`.
    mutating func take(_ byte: UInt8) throws(ImportError) -> Bool {
        guard try peek() == byte else { return false }
        _ = try source.next()
        return true
    }

    /// After an element of an array or an object: true when another follows (a comma was
    /// taken), false at its end (`close` was taken).
    mutating func more(_ close: UInt8, _ what: String) throws(ImportError) -> Bool {
        if try take(UInt8(ascii: ",")) { return true }
        if try take(close) { return false }
        guard let b = try peek() else { throw error("the file ends inside \(what): it is cut short") }
        throw error("\(CSVRecordReader.describe(b)) where ',' or '\(Character(Unicode.Scalar(close)))' should be")
    }

    /// One whole value, within the bounds.
    mutating func value() throws(ImportError) -> ChromeJSONValue {
        values = 0
        elementStart = source.offset
        return try value(depth: 0)
    }

    private mutating func value(depth: Int) throws(ImportError) -> ChromeJSONValue {
        guard depth < ChromeJSONReader.maxDepth else {
            throw error("values nested deeper than \(ChromeJSONReader.maxDepth) levels: not a trace's event")
        }
        values += 1
        guard values <= ChromeJSONReader.maxValues, source.offset - elementStart <= ChromeJSONReader.maxElement else {
            throw error(
                "an event of more than \(ChromeJSONReader.maxValues) values or \(ChromeJSONReader.maxElement >> 20) MiB: not a trace's event"
            )
        }
        guard let b = try peek() else { throw error("the file ends where a value should be: it is cut short") }
        switch b {
        case UInt8(ascii: "{"):
            _ = try source.next()
            var fields: [(String, ChromeJSONValue)] = []
            if try take(UInt8(ascii: "}")) { return .object(fields) }
            repeat {
                guard try peek() == UInt8(ascii: "\"") else { throw error(expected("a key in quotes", try peek())) }
                let key = try string()
                try expect(UInt8(ascii: ":"), "':' after a key")
                fields.append((key, try value(depth: depth + 1)))
            } while try more(UInt8(ascii: "}"), "an object")
            return .object(fields)
        case UInt8(ascii: "["):
            _ = try source.next()
            var items: [ChromeJSONValue] = []
            if try take(UInt8(ascii: "]")) { return .array(items) }
            repeat {
                items.append(try value(depth: depth + 1))
            } while try more(UInt8(ascii: "]"), "an array")
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw error("\(CSVRecordReader.describe(b)) where a value should be")
        }
    }

    private func expected(_ what: String, _ b: UInt8?) -> String {
        guard let b else { return "the file ends where \(what) should be: it is cut short" }
        return "\(CSVRecordReader.describe(b)) where \(what) should be"
    }

    private mutating func literal(_ word: String) throws(ImportError) {
        let line = source.line
        let column = source.column
        for byte in word.utf8 {
            guard try source.next() == byte else {
                throw error("not a JSON value (true, false or null?)", line: line, column: column)
            }
        }
    }

    /// A string, its escapes decoded; the next byte is its opening quote.
    mutating func string() throws(ImportError) -> String {
        let line = source.line
        let column = source.column
        _ = try source.next()
        var bytes: [UInt8] = []
        while true {
            guard let b = try source.next() else {
                throw error("a string that never ends: the file is cut short", line: line, column: column)
            }
            guard bytes.count < ChromeJSONReader.maxString else {
                throw error(
                    "a string longer than \(ChromeJSONReader.maxString >> 20) MiB: not a trace's", line: line,
                    column: column)
            }
            switch b {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw error("a string that is not UTF-8 text", line: line, column: column)
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &bytes)
            case 0..<0x20:
                throw error(
                    "\(CSVRecordReader.describe(b)) in a string: control characters are escaped in JSON",
                    line: source.line, column: source.column - 1)
            default:
                bytes.append(b)
            }
        }
    }

    private mutating func escape(into bytes: inout [UInt8]) throws(ImportError) {
        let line = source.line
        let column = source.column - 1
        guard let e = try source.next() else { throw error("a string that never ends: the file is cut short") }
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(line: line, column: column)
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate: its low one follows as another \u escape.
                guard try source.next() == UInt8(ascii: "\\"), try source.next() == UInt8(ascii: "u") else {
                    throw error("a \\u escape of half a character (a lone surrogate)", line: line, column: column)
                }
                let low = try hex4(line: line, column: column)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("a \\u escape of half a character (a lone surrogate)", line: line, column: column)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw error("a \\u escape of half a character (a lone surrogate)", line: line, column: column)
            }
            bytes.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw error("an unknown escape after \\: \(CSVRecordReader.describe(e))", line: line, column: column)
        }
    }

    private mutating func hex4(line: Int, column: Int) throws(ImportError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let h = try source.next() else { throw error("a string that never ends: the file is cut short") }
            let digit: UInt32
            switch h {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(h - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(h - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(h - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape without four hex digits", line: line, column: column)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A number's text, checked against JSON's grammar: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)?
    /// ([eE] [+-]? [0-9]+)?.
    private mutating func number() throws(ImportError) -> String {
        let line = source.line
        let column = source.column
        var bytes: [UInt8] = []
        while let b = try source.peek(),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        {
            guard bytes.count < 64 else {
                throw error("a number of more than 64 characters", line: line, column: column)
            }
            bytes.append(b)
            _ = try source.next()
        }
        guard ChromeJSONReader.isNumber(bytes) else {
            throw error(
                "'\(String(decoding: bytes, as: UTF8.self))' is not a JSON number", line: line, column: column)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isNumber(_ bytes: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == bytes.count
    }
}
