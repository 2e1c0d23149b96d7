import DebugShellCore

/// The Instruments tables debugsh reads from an `xctrace export`, by schema name, and the columns
/// it reads from each, by mnemonic (never by position: columns move between Xcode versions).
/// docs/Import.md, "xctrace", has the same list.
enum XCTraceTable: String, CaseIterable, Sendable {
    case hitches
    case hitchesSummary = "hitches-summary"
    case hitchesUpdates = "hitches-updates"
    case hitchesRenders = "hitches-renders"
    case hitchesFrameLifetimes = "hitches-frame-lifetimes"
    case vsyncs = "display-vsyncs-interval"
    case displayedSurfaces = "displayed-surfaces-interval"
    case surfaceSwaps = "display-surface-swap"
    case displayInfo = "device-display-info"
    case fpsEstimate = "core-animation-fps-estimate"

    /// What a column's cells hold, as debugsh reads them.
    enum Kind: Sendable {
        /// Nanoseconds since the trace started (`start-time`, `event-time`).
        case time
        /// Nanoseconds (`duration`, and `refresh-interval`'s `uint32`).
        case duration
        /// A whole number (`uint32`, `uint64`).
        case integer
        /// `0` or `1` (`boolean`; its `fmt` says No or Yes).
        case boolean
        /// Text as written (`string`, `event-concept`, `display-name`, `formatted-label`).
        case text
        /// A number with a fraction (`fps`, a percentage).
        case decimal
        /// A process: its `fmt` (`TestApp (12345)`), the one place its name is written.
        case process
    }

    struct Column: Sendable {
        var mnemonic: String
        var kind: Kind
        /// A table without a required column is refused; an optional one is read when present.
        var required: Bool
    }

    /// The names of the tables debugsh reads, for messages.
    static let known = allCases.map(\.rawValue).sorted().joined(separator: ", ")

    /// The columns read, in the order ``XCTraceRow`` indexes them.
    var columns: [Column] {
        func r(_ mnemonic: String, _ kind: Kind) -> Column { Column(mnemonic: mnemonic, kind: kind, required: true) }
        func o(_ mnemonic: String, _ kind: Kind) -> Column { Column(mnemonic: mnemonic, kind: kind, required: false) }
        switch self {
        case .hitches:
            return [
                r("start", .time), r("duration", .duration), r("narrative-description", .text), o("process", .process),
                o("is-system", .boolean), o("swap-id", .integer),
            ]
        case .hitchesSummary:
            return [
                r("start", .time), r("duration", .duration), r("type-label", .text), o("severity", .text),
                o("refresh-interval", .duration), o("latency-allowed", .duration), o("buffer-count", .integer),
                o("swap-id", .integer),
            ]
        case .hitchesUpdates, .hitchesRenders:
            return [
                r("start", .time), r("duration", .duration), o("swap-id", .integer), o("surface-id", .integer),
            ]
        case .hitchesFrameLifetimes:
            return [r("start", .time), r("duration", .duration), r("swap-id", .integer)]
        case .vsyncs:
            return [r("timestamp", .time), o("display-name", .text)]
        case .displayedSurfaces:
            return [r("start", .time), r("duration", .duration), o("surface-id", .integer), o("display-name", .text)]
        case .surfaceSwaps:
            return [r("timestamp", .time), o("surface-id", .integer), o("swap-id", .integer)]
        case .displayInfo:
            return [r("max-refresh-rate", .integer), r("is-main-display", .boolean), o("built-in", .boolean)]
        case .fpsEstimate:
            return [
                r("interval", .time), r("period", .duration), r("fps", .decimal), o("device-utilization", .decimal),
            ]
        }
    }

    /// Whether rows must come in time order (by the first column): every table but the stage
    /// tables, whose nested passes may start before their parent's sibling.
    var isTimeOrdered: Bool { self != .hitchesUpdates && self != .hitchesRenders && self != .displayInfo }
}

/// A cell as the export wrote it, or as an `id` defined it: nothing (`<sentinel/>`), a whole
/// number, text (an index into the document's texts), or an element with elements inside it
/// (with a text only for a process: its `fmt`).
struct CellValue: Sendable {
    enum Kind: UInt8, Sendable { case undefined, empty, integer, text, composite }
    var kind: Kind
    /// The number, or the index of the text (-1: none).
    var payload: Int64

    static let undefined = CellValue(kind: .undefined, payload: 0)
    static let empty = CellValue(kind: .empty, payload: 0)
}

/// The values a document's `id`s define, for its `ref`s: dense (Instruments numbers ids 1, 2,
/// 3, …), with a dictionary for ids far beyond the others. At most ``limit`` ids per document.
struct IDTable {
    static let limit = 50_000_000

    private var dense: [CellValue] = [.undefined]
    private var sparse: [Int64: CellValue] = [:]
    private(set) var count = 0

    enum Definition { case defined, twice, full }

    mutating func define(_ id: Int64, _ value: CellValue) -> Definition {
        if count >= Self.limit { return .full }
        if id >= 0 && id < Int64(dense.count) {
            if dense[Int(id)].kind != .undefined { return .twice }
            dense[Int(id)] = value
        } else if id >= 0 && id < Int64(dense.count) + 4096 {
            while Int64(dense.count) < id { dense.append(.undefined) }
            dense.append(value)
        } else {
            if sparse[id] != nil { return .twice }
            sparse[id] = value
        }
        count += 1
        return .defined
    }

    func value(_ id: Int64) -> CellValue? {
        if id >= 0 && id < Int64(dense.count) {
            let value = dense[Int(id)]
            return value.kind == .undefined ? nil : value
        }
        return sparse[id]
    }
}

/// One row of a table, its cells in the order of ``XCTraceTable/columns``, and what a message
/// about one of them needs: the table, the texts, and where each cell was.
struct XCTraceRow {
    let table: XCTraceTable
    let columns: [XCTraceTable.Column]
    var values: [CellValue]
    var offsets: [Int]

    init(table: XCTraceTable) {
        self.table = table
        columns = table.columns
        values = Array(repeating: .empty, count: columns.count)
        offsets = Array(repeating: -1, count: columns.count)
    }

    /// An error about cell `k`: the message, and the cell's offset in the file (-1 for none).
    struct Fault: Error {
        var message: String
        var offset: Int
    }

    private func fault(_ k: Int, _ what: String) -> Fault {
        Fault(message: "\(what) (table '\(table.rawValue)', column '\(columns[k].mnemonic)')", offset: offsets[k])
    }

    /// Cell `k` as text, as written (a number's digits for a number).
    func text(_ k: Int, texts: [String]) -> String? {
        let value = values[k]
        switch value.kind {
        case .integer: return String(value.payload)
        case .text, .composite:
            return value.payload >= 0 && value.payload < Int64(texts.count) ? texts[Int(value.payload)] : nil
        case .empty, .undefined: return nil
        }
    }

    /// Cell `k` as a whole number; nil for an empty cell.
    func integer(_ k: Int, texts: [String]) throws(Fault) -> Int64? {
        let value = values[k]
        switch value.kind {
        case .empty, .undefined: return nil
        case .integer: return value.payload
        case .text:
            let written = text(k, texts: texts) ?? ""
            if let number = Int64(written.trimmingASCIISpaces) { return number }
            throw fault(k, "'\(written.shortened)' is not a whole number")
        case .composite: throw fault(k, "an element with elements inside where a number is expected")
        }
    }

    /// Cell `k` as nanoseconds (a time since the trace started, or a duration): 0 to 2^62.
    func nanoseconds(_ k: Int, texts: [String]) throws(Fault) -> Int64? {
        guard let n = try integer(k, texts: texts) else { return nil }
        guard n >= 0 && n <= SimTime.horizon.nanoseconds else {
            throw fault(k, "\(n) is not a time in nanoseconds from 0 to 2^62")
        }
        return n
    }

    func time(_ k: Int, texts: [String]) throws(Fault) -> SimTime? {
        try nanoseconds(k, texts: texts).map(SimTime.init(nanoseconds:))
    }

    func duration(_ k: Int, texts: [String]) throws(Fault) -> SimDuration? {
        try nanoseconds(k, texts: texts).map(SimDuration.init(nanoseconds:))
    }

    func boolean(_ k: Int, texts: [String]) throws(Fault) -> Bool? {
        guard let n = try integer(k, texts: texts) else { return nil }
        guard n == 0 || n == 1 else { throw fault(k, "\(n) is not a boolean (0 or 1)") }
        return n == 1
    }

    func decimal(_ k: Int, texts: [String]) throws(Fault) -> Double? {
        let value = values[k]
        switch value.kind {
        case .empty, .undefined: return nil
        case .integer: return Double(value.payload)
        case .text:
            let written = text(k, texts: texts) ?? ""
            if let number = Double(written.trimmingASCIISpaces), number.isFinite { return number }
            throw fault(k, "'\(written.shortened)' is not a number")
        case .composite: throw fault(k, "an element with elements inside where a number is expected")
        }
    }

    /// A cell a row cannot do without: its value, or an error naming it.
    func required<T>(_ k: Int, _ value: T?) throws(Fault) -> T {
        guard let value else { throw fault(k, "an empty cell where a value is needed") }
        return value
    }

    /// Rows out of time order: the first column went back.
    func backwards(_ time: SimTime, after previous: SimTime) -> Fault {
        fault(
            0,
            "times go backwards: \(time.nanoseconds) comes after \(previous.nanoseconds) in the row before")
    }
}

extension String {
    /// Without spaces, tabs and line ends around it.
    var trimmingASCIISpaces: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }

    /// At most 40 characters, for a message.
    var shortened: String { count > 40 ? String(prefix(40)) + "…" : self }
}
