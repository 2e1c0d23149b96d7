import DebugShellCore

/// A column a CSV log may have, by what it means (docs/Import.md, "CSV").
enum CSVColumn: CaseIterable {
    // A display-link log.
    case timestamp, targetTimestamp, duration
    // A frame log.
    case frame, vsync, commitStart, commitEnd, renderStart, renderEnd, present, expectedPresent, hitch, cause
    case refreshInterval

    /// The name as docs/Import.md and the messages write it.
    var name: String {
        switch self {
        case .timestamp: return "timestamp"
        case .targetTimestamp: return "targetTimestamp"
        case .duration: return "duration"
        case .frame: return "frame"
        case .vsync: return "vsync"
        case .commitStart: return "commit_start"
        case .commitEnd: return "commit_end"
        case .renderStart: return "render_start"
        case .renderEnd: return "render_end"
        case .present: return "present"
        case .expectedPresent: return "expected_present"
        case .hitch: return "hitch"
        case .cause: return "cause"
        case .refreshInterval: return "refresh_interval"
        }
    }

    /// The name compared: lower case, without `_`, `-` and spaces (`targetTimestamp`,
    /// `target_timestamp` and `Target Timestamp` are one column).
    var key: String { CSVColumn.key(name) }

    static func key(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// A time or a duration: it takes a unit.
    var isTime: Bool { self != .frame && self != .cause }

    static let byKey: [String: CSVColumn] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.key, $0) })

    static let displayLink: [CSVColumn] = [.timestamp, .targetTimestamp, .duration]
    static let frames: [CSVColumn] = [
        .frame, .vsync, .commitStart, .commitEnd, .renderStart, .renderEnd, .present, .expectedPresent, .hitch, .cause,
        .refreshInterval,
    ]
}

/// The unit of a CSV's times, named in a column's header: `timestamp_ms`, `timestamp (ms)`.
enum CSVUnit: String, CaseIterable {
    case s, ms, us, ns

    /// The power of ten from the unit to nanoseconds.
    var scale: Int {
        switch self {
        case .s: return 9
        case .ms: return 6
        case .us: return 3
        case .ns: return 0
        }
    }

    /// `µs` and `μs` (micro sign, Greek mu) are `us`.
    init?(word: String) {
        switch word {
        case "s": self = .s
        case "ms": self = .ms
        case "us", "µs", "μs": self = .us
        case "ns": self = .ns
        default: return nil
        }
    }
}

/// A CSV log's header: which shape it is, where each column is, and the unit of its times.
struct CSVHeader {
    enum Shape {
        /// One row per CADisplayLink callback.
        case displayLink
        /// One row per frame (what `fps frames --csv` writes).
        case frames

        var title: String { self == .displayLink ? "a display-link log" : "a frame log" }
        var columns: [CSVColumn] { self == .displayLink ? CSVColumn.displayLink : CSVColumn.frames }
        /// The unit of a time column that names none: seconds for a display link (as
        /// CADisplayLink gives them), nanoseconds for a frame log.
        var defaultUnit: CSVUnit { self == .displayLink ? .s : .ns }
    }

    var shape: Shape
    var unit: CSVUnit
    /// Each column's field, from 0.
    var fields: [CSVColumn: Int]
    var count: Int

    /// Reads the header from the reader's current record.
    init(_ reader: borrowing CSVRecordReader) throws(ImportError) {
        struct Named {
            var text: String
            var column: CSVColumn?
            var unit: CSVUnit?
            var field: CSVRecordReader.Field
        }
        var named: [Named] = []
        var fields: [CSVColumn: Int] = [:]
        for (i, field) in reader.fields.enumerated() {
            guard let text = String(validating: reader.slice(field), as: UTF8.self) else {
                throw reader.error("not UTF-8 text", line: field.line, column: field.column)
            }
            guard !text.isEmpty else {
                throw reader.error("an empty column name (field \(i + 1))", line: field.line, column: field.column)
            }
            let (base, unit) = try CSVHeader.split(text, field: field, reader: reader)
            let column = CSVColumn.byKey[CSVColumn.key(base)]
            if let column {
                if let first = fields[column] {
                    throw reader.error(
                        "column \(column.name) appears twice (fields \(first + 1) and \(i + 1))", line: field.line,
                        column: field.column)
                }
                fields[column] = i
                if unit != nil && !column.isTime {
                    throw reader.error(
                        "'\(text)': \(column.name) is \(column == .frame ? "a count" : "text") and takes no unit",
                        line: field.line, column: field.column)
                }
            }
            named.append(Named(text: text, column: column, unit: unit, field: field))
        }

        let shape: Shape
        switch (fields[.timestamp], fields[.present]) {
        case (.some, .some(let i)):
            let field = named[i].field
            throw reader.error(
                "a timestamp column (a display-link log) and a present column (a frame log): one shape per file",
                line: field.line, column: field.column)
        case (.some, .none): shape = .displayLink
        case (.none, .some): shape = .frames
        case (.none, .none):
            let list = named.map { "'\($0.text)'" }.joined(separator: ", ")
            throw reader.error(
                "no timestamp column (a display-link log) and no present column (a frame log); the header has \(list)",
                line: reader.line, column: 1)
        }

        let unknown = named.filter { $0.column.map { !shape.columns.contains($0) } ?? true }
        if let first = unknown.first {
            let list = unknown.map { "'\($0.text)'" }.joined(separator: ", ")
            let known = shape.columns.map(\.name).joined(separator: ", ")
            throw reader.error(
                "unknown \(unknown.count == 1 ? "column" : "columns") \(list) (\(shape.title) has \(known))",
                line: first.field.line, column: first.field.column)
        }

        // One unit for every time column; a column that names none is in the shape's default.
        var unit: (unit: CSVUnit, text: String)?
        for name in named {
            guard let column = name.column, column.isTime else { continue }
            let this = name.unit ?? shape.defaultUnit
            if let unit, unit.unit != this {
                throw reader.error(
                    "mixed units: '\(unit.text)' is in \(unit.unit.rawValue), '\(name.text)' in \(this.rawValue) (a column that names no unit is in \(shape.defaultUnit.rawValue)): give every time column one unit",
                    line: name.field.line, column: name.field.column)
            }
            unit = (this, name.text)
        }

        self.shape = shape
        self.unit = unit?.unit ?? shape.defaultUnit
        self.fields = fields
        count = named.count
    }

    /// A header name split into its column and its unit: `timestamp (ms)` and `timestamp_ms` are
    /// `timestamp` in ms. A unit in parentheses must be one; a `_` suffix that is not one is part
    /// of the name (`commit_start`).
    static func split(
        _ text: String, field: CSVRecordReader.Field, reader: borrowing CSVRecordReader
    ) throws(ImportError) -> (base: String, unit: CSVUnit?) {
        let lower = text.lowercased()
        if lower.hasSuffix(")"), let open = lower.lastIndex(of: "(") {
            let word = trimmed(String(lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]))
            guard let unit = CSVUnit(word: word) else {
                throw reader.error(
                    "unknown unit '\(word)' in '\(text)': s, ms, us (µs) or ns", line: field.line, column: field.column)
            }
            return (trimmed(String(lower[..<open])), unit)
        }
        if let underscore = lower.lastIndex(of: "_"),
            let unit = CSVUnit(word: String(lower[lower.index(after: underscore)...]))
        {
            return (String(lower[..<underscore]), unit)
        }
        return (lower, nil)
    }

    /// `text` without spaces and tabs at either end.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
