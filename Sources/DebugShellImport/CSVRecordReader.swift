import DebugShellCore

/// Reads a CSV file one record at a time, as RFC 4180 writes it: fields separated by commas,
/// records by CRLF or LF (a lone CR ends a line too), a field in double quotes may hold commas,
/// line ends and doubled quotes (`""`). Around the RFC: a line whose first character is `#` is a
/// comment, a blank line is skipped, spaces and tabs around a field are not part of it, and a
/// UTF-8 byte-order mark at the start is skipped.
///
/// Memory is one record (at most ``maxRecordBytes``) and one chunk of the file: what the caller
/// keeps of each record is its own.
struct CSVRecordReader: ~Copyable {
    /// One field of the current record: its bytes in ``bytes`` and where it starts in the file.
    struct Field {
        var start: Int
        var end: Int
        var line: Int
        var column: Int
    }

    private(set) var source: CSVByteSource
    /// The current record's fields' bytes, one after another.
    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []
    /// Where the current record starts, and where its last field ends (before the line end).
    private(set) var line = 0
    private(set) var endLine = 0
    private(set) var endColumn = 0

    /// Records read, and where the file was, since `interrupted` was last polled.
    private var records = 0
    private var polledAt: Int64 = 0
    static let pollRecords = 4096
    static let pollBytes: Int64 = 1 << 20

    /// Polls `interrupted`; when it says so, the read stops with an error at the line it reached.
    private mutating func poll(_ interrupted: () -> Bool) throws(ImportError) {
        records = 0
        polledAt = source.offset
        if interrupted() {
            throw ImportError("interrupted: nothing was imported", file: source.path, line: source.line)
        }
    }

    /// The longest record read: past it the file is no log (a megabyte of one line is binary
    /// data or a broken quote).
    static let maxRecordBytes = 1 << 20

    init(path: String) throws(ImportError) {
        source = try CSVByteSource(path: path)
        bytes.reserveCapacity(1024)
    }

    var path: String { source.path }

    /// An error at a place in the file.
    func error(_ message: String, line: Int, column: Int) -> ImportError {
        ImportError(message, file: source.path, line: line, column: column)
    }

    /// An error at the next byte's place.
    private func errorHere(_ message: String) -> ImportError {
        error(message, line: source.line, column: source.column)
    }

    /// The text of a field, for messages: as written, cut after 40 characters.
    func quoted(_ field: Field) -> String { CSVRecordReader.quoted(bytes[field.start..<field.end]) }

    /// Bytes as a message quotes them: as written, cut after 40 characters.
    static func quoted(_ bytes: some Collection<UInt8>) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return "'\(text)'"
    }

    /// A field's bytes.
    func slice(_ field: Field) -> ArraySlice<UInt8> { bytes[field.start..<field.end] }

    /// Reads the next record, past comment lines and blank lines; false at the end of the file.
    ///
    /// `interrupted` is polled every ``pollRecords`` records and every ``pollBytes`` bytes read,
    /// comments and blank lines included: an interrupt stops the read within a megabyte or two of
    /// text, whatever the file holds.
    mutating func next(interrupted: () -> Bool) throws(ImportError) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        if records >= CSVRecordReader.pollRecords { try poll(interrupted) }
        // Comments and blank lines.
        while true {
            if source.offset - polledAt >= CSVRecordReader.pollBytes { try poll(interrupted) }
            guard let byte = try source.peek() else { return false }
            if byte == 0x0A || byte == 0x0D {
                _ = try source.next()
                continue
            }
            if byte == UInt8(ascii: "#") {
                while let b = try source.peek(), b != 0x0A, b != 0x0D {
                    try checkText(b)
                    _ = try source.next()
                    if source.offset - polledAt >= CSVRecordReader.pollBytes { try poll(interrupted) }
                }
                continue
            }
            break
        }
        records += 1
        line = source.line
        while true {
            try field()
            let terminator = try source.peek()
            if terminator == UInt8(ascii: ",") {
                _ = try source.next()
                continue
            }
            endLine = source.line
            endColumn = source.column
            if terminator == 0x0D {
                _ = try source.next()
                if try source.peek() == 0x0A { _ = try source.next() }
            } else if terminator == 0x0A {
                _ = try source.next()
            }
            return true
        }
    }

    /// One field, up to (not including) the comma or line end after it.
    private mutating func field() throws(ImportError) {
        try skipBlanks()
        let startLine = source.line
        let startColumn = source.column
        let start = bytes.count
        if try source.peek() == UInt8(ascii: "\"") {
            _ = try source.next()
            while true {
                guard let b = try source.next() else {
                    throw error(
                        "a quoted field that never ends: the file ends inside it", line: startLine, column: startColumn)
                }
                if b == UInt8(ascii: "\"") {
                    if try source.peek() == UInt8(ascii: "\"") {
                        _ = try source.next()
                        try append(b)
                        continue
                    }
                    break
                }
                if b != 0x0A && b != 0x0D { try checkText(b, before: true) }
                try append(b)
            }
            fields.append(Field(start: start, end: bytes.count, line: startLine, column: startColumn))
            try skipBlanks()
            if let b = try source.peek(), b != UInt8(ascii: ","), b != 0x0A, b != 0x0D {
                throw errorHere(
                    "\(CSVRecordReader.describe(b)) after a closing quote: a quoted field ends at a comma or a line end"
                )
            }
            return
        }
        while let b = try source.peek(), b != UInt8(ascii: ","), b != 0x0A, b != 0x0D {
            if b == UInt8(ascii: "\"") {
                throw errorHere(
                    "a quote inside a field that does not start with one: quote the whole field, doubling its quotes")
            }
            try checkText(b)
            _ = try source.next()
            try append(b)
        }
        var end = bytes.count
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        fields.append(Field(start: start, end: end, line: startLine, column: startColumn))
    }

    private mutating func skipBlanks() throws(ImportError) {
        while let b = try source.peek(), b == 0x20 || b == 0x09 { _ = try source.next() }
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) throws(ImportError) {
        guard bytes.count < CSVRecordReader.maxRecordBytes else {
            throw error(
                "a row longer than \(CSVRecordReader.maxRecordBytes >> 20) MiB: not a CSV log", line: line, column: 1)
        }
        bytes.append(byte)
    }

    /// Refuses a control character other than a tab: binary data, not text. With `before`, the
    /// byte was already taken, so its place is one column back.
    @inline(__always)
    private func checkText(_ byte: UInt8, before: Bool = false) throws(ImportError) {
        guard byte < 0x20, byte != 0x09 else { return }
        let place = before ? (source.line, source.column - 1) : (source.line, source.column)
        throw error(
            "binary data (\(CSVRecordReader.describe(byte))): not a CSV text file", line: place.0, column: place.1)
    }

    /// A byte as a message shows it: `'x'` when printable, else its hex code (`byte 0x00`).
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" : "") + hex
    }
}
