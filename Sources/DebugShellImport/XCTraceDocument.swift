import DebugShellCore

/// Reads one file of an `xctrace export` — tables (`<trace-query-result>`) or a TOC
/// (`<trace-toc>`) — into an ``XCTraceCollection``, streaming: a row is read, converted and
/// added, and nothing else of the file is kept but the values its `id`s define (for its `ref`s).
///
/// The table format (research note §1.3): `<node><schema name="…"><col><mnemonic>…</mnemonic>…
/// </col>…</schema><row>…</row>…</node>`. A row has one top-level cell per column, in the
/// schema's order; a cell's element name is its engineering type, `id="N"` defines a value (the
/// element with what is inside it), `ref="N"` repeats one, `<sentinel/>` is an empty cell, and
/// `fmt` (Instruments' display text) is ignored — but for a process, whose name is written only
/// there.
struct XCTraceDocument: ~Copyable {
    private var tokenizer: XMLTokenizer
    private let names: Names
    private var ids = IDTable()
    /// The texts of cells and of `id`s, indexed by ``CellValue/payload``.
    private var texts: [String] = [""]
    private var textBytes = 0
    /// The text of the elements being read, innermost last (a stack of byte runs).
    private var scratch: [UInt8] = []

    /// The most text a document's values may hold in all.
    static let maxTextBytes = 256 << 20
    /// The longest text of one cell.
    static let maxCellBytes = 1 << 20
    /// The most columns a table may have (xctrace's have up to twenty), and runs a TOC.
    static let maxColumns = 1_000
    static let maxRuns = 10_000

    /// The names the reader compares tags and attributes with, interned once per document.
    private struct Names {
        let tables, toc, node, schema, col, mnemonic, row, sentinel: XMLName
        let id, ref, fmt, name, xpath, process, number, schemaAttribute: XMLName
        let run, info, summary, duration, target, device, data, table: XMLName
        let model, osVersion, platform: XMLName

        init(_ n: inout XMLNames) {
            tables = n.intern("trace-query-result")
            toc = n.intern("trace-toc")
            node = n.intern("node")
            schema = n.intern("schema")
            col = n.intern("col")
            mnemonic = n.intern("mnemonic")
            row = n.intern("row")
            sentinel = n.intern("sentinel")
            id = n.intern("id")
            ref = n.intern("ref")
            fmt = n.intern("fmt")
            name = n.intern("name")
            xpath = n.intern("xpath")
            process = n.intern("process")
            number = n.intern("number")
            schemaAttribute = n.intern("schema")
            run = n.intern("run")
            info = n.intern("info")
            summary = n.intern("summary")
            duration = n.intern("duration")
            target = n.intern("target")
            device = n.intern("device")
            data = n.intern("data")
            table = n.intern("table")
            model = n.intern("model")
            osVersion = n.intern("os-version")
            platform = n.intern("platform")
        }
    }

    init(_ tokenizer: consuming XMLTokenizer) {
        var t = tokenizer
        names = Names(&t.names)
        self.tokenizer = t
    }

    private var file: String { tokenizer.file }

    private func error(_ message: String) -> ImportError { tokenizer.error(message, at: tokenizer.tokenOffset) }

    private func error(_ message: String, at offset: Int) -> ImportError {
        offset < 0 ? error(message) : tokenizer.error(message, at: offset)
    }

    /// Reads the file into `collection`.
    mutating func read(into collection: inout XCTraceCollection) throws(ImportError) {
        var token = try tokenizer.next()
        while token == .text { token = try tokenizer.next() }
        guard case .start(let root, _) = token else { throw error("no root element") }
        if root == names.tables {
            try readTables(into: &collection)
        } else if root == names.toc {
            try readTOC(into: &collection)
        } else {
            throw error(
                "not an xctrace export: the root element is <\(tokenizer.names.string(root))> (xctrace writes "
                    + "<trace-query-result> for tables, <trace-toc> for a TOC)")
        }
        while try tokenizer.next() != .eof {}
    }

    /// Skips the element whose start tag was just read, with everything in it.
    private mutating func skipElement() throws(ImportError) {
        var depth = 1
        while depth > 0 {
            switch try tokenizer.next() {
            case .start: depth += 1
            case .end: depth -= 1
            case .text: break
            case .eof: return
            }
        }
    }

    // MARK: - Tables

    private mutating func readTables(into collection: inout XCTraceCollection) throws(ImportError) {
        var tables = 0
        while true {
            switch try tokenizer.next() {
            case .start(let name, _):
                if name == names.node {
                    tables += 1
                    try readNode(into: &collection)
                } else {
                    try skipElement()
                }
            case .text: continue
            case .end, .eof:
                if tables == 0 {
                    throw ImportError(
                        "no table in the file: its <trace-query-result> is empty (did the export's xpath match "
                            + "no table?)", file: file)
                }
                return
            }
        }
    }

    /// The run number a node's `xpath` names (`//trace-toc[1]/run[2]/data[1]/table[8]`), if any.
    private static func run(ofXPath xpath: String) -> Int? {
        guard let range = xpath.firstRange(of: "/run[") else { return nil }
        return Int(xpath[range.upperBound...].prefix { $0.isNumber })
    }

    private mutating func readNode(into collection: inout XCTraceCollection) throws(ImportError) {
        let nodeOffset = tokenizer.tokenOffset
        if let xpath = tokenizer.attribute(names.xpath), let run = Self.run(ofXPath: xpath) {
            if let message = collection.use(run: run, file: file) { throw error(message) }
        }
        var row: XCTraceRow?
        var slots: [Int] = []
        var cellCount = 0
        while true {
            switch try tokenizer.next() {
            case .start(let name, _):
                if name == names.schema {
                    guard row == nil else { throw error("a second <schema> in one <node>") }
                    let table = try readSchema(into: &collection)
                    row = XCTraceRow(table: table.table)
                    slots = table.slots
                    cellCount = table.cellCount
                } else if name == names.row {
                    guard var current = row else { throw error("a <row> before the <schema> of its table") }
                    row = nil
                    try readRow(&current, slots: slots, cellCount: cellCount)
                    do throws(XCTraceRow.Fault) {
                        try collection.add(current, texts: texts)
                    } catch {
                        throw self.error(error.message, at: error.offset)
                    }
                    row = current
                } else {
                    try skipElement()
                }
            case .text: continue
            case .end, .eof:
                guard let row else { throw error("a <node> without a <schema>: no table to read", at: nodeOffset) }
                collection.finish(row.table)
                return
            }
        }
    }

    /// A table's schema: which table it is, and the slot of each of its columns in an
    /// ``XCTraceRow`` (-1: a column debugsh does not read).
    private mutating func readSchema(into collection: inout XCTraceCollection) throws(ImportError) -> (
        table: XCTraceTable, slots: [Int], cellCount: Int
    ) {
        guard let name = tokenizer.attribute(names.name) else { throw error("a <schema> without a name") }
        guard let table = XCTraceTable(rawValue: name) else {
            throw error("table '\(name.shortened)' is not one debugsh reads (it reads \(XCTraceTable.known))")
        }
        let place = tokenizer.tokenOffset
        if let other = collection.file(of: table) {
            throw error("table '\(name)' is given twice (first in \(other)): give each table once")
        }
        collection.begin(table, file: file)
        var mnemonics: [String] = []
        while true {
            switch try tokenizer.next() {
            case .start(let element, _):
                if element == names.col {
                    let column = tokenizer.tokenOffset
                    guard let mnemonic = try readColumn() else {
                        throw error("column \(mnemonics.count + 1) of table '\(name)' has no <mnemonic>", at: column)
                    }
                    if mnemonics.count >= Self.maxColumns {
                        throw error("table '\(name)' has more than \(Self.maxColumns) columns", at: column)
                    }
                    if mnemonics.contains(mnemonic) {
                        throw error("table '\(name)' has two columns '\(mnemonic)'", at: column)
                    }
                    mnemonics.append(mnemonic)
                } else {
                    try skipElement()
                }
            case .text: continue
            case .end, .eof:
                var slots = Array(repeating: -1, count: mnemonics.count)
                for (slot, column) in table.columns.enumerated() {
                    if let index = mnemonics.firstIndex(of: column.mnemonic) {
                        slots[index] = slot
                    } else if column.required {
                        throw error(
                            "table '\(name)' has no column '\(column.mnemonic)' (its columns: "
                                + "\(mnemonics.isEmpty ? "none" : mnemonics.joined(separator: ", ")))", at: place)
                    }
                }
                return (table, slots, mnemonics.count)
            }
        }
    }

    /// A `<col>`'s mnemonic, if it has one.
    private mutating func readColumn() throws(ImportError) -> String? {
        var mnemonic: String?
        while true {
            switch try tokenizer.next() {
            case .start(let element, _):
                if element == names.mnemonic {
                    mnemonic = try readText()
                } else {
                    try skipElement()
                }
            case .text: continue
            case .end, .eof: return mnemonic
            }
        }
    }

    /// The text of an element with no elements inside (a `<mnemonic>`, a `<duration>`).
    private mutating func readText() throws(ImportError) -> String {
        let from = scratch.count
        defer { scratch.removeLast(scratch.count - from) }
        while true {
            switch try tokenizer.next() {
            case .text:
                tokenizer.appendText(to: &scratch)
                if scratch.count - from > Self.maxCellBytes { throw error("a text longer than 1 MiB") }
            case .start: try skipElement()
            case .end, .eof: return String(decoding: scratch[from...], as: UTF8.self)
            }
        }
    }

    /// The cells of a row, into the slots of the columns debugsh reads.
    private mutating func readRow(_ row: inout XCTraceRow, slots: [Int], cellCount: Int) throws(ImportError) {
        for k in row.values.indices {
            row.values[k] = .empty
            row.offsets[k] = -1
        }
        var cell = 0
        while true {
            switch try tokenizer.next() {
            case .start(let name, _):
                guard cell < cellCount else {
                    throw error("a row with more cells than the \(cellCount) columns of table '\(row.table.rawValue)'")
                }
                let offset = tokenizer.tokenOffset
                let value = try readValue(name)
                let slot = slots[cell]
                if slot >= 0 {
                    row.values[slot] = value
                    row.offsets[slot] = offset
                }
                cell += 1
            case .text:
                if !tokenizer.textIsWhitespace { throw error("text in a <row> outside its cells") }
            case .end, .eof:
                guard cell == cellCount else {
                    throw error("a row with \(cell) cells: table '\(row.table.rawValue)' has \(cellCount) columns")
                }
                return
            }
        }
    }

    /// A cell (or an element inside one) whose start tag was just read, through its end tag: its
    /// value, defined for its `id` if it has one.
    private mutating func readValue(_ name: XMLName) throws(ImportError) -> CellValue {
        if name == names.sentinel {
            try skipElement()
            return .empty
        }
        let id = tokenizer.number(names.id)
        switch tokenizer.number(names.ref) {
        case .value(let ref):
            guard id == .absent else { throw error("an element with both an id and a ref") }
            guard let value = ids.value(ref) else {
                throw error("ref=\"\(ref)\" names an id that no element before it defines (a cut or edited export?)")
            }
            try skipElement()
            return value
        case .invalid(let text): throw error("ref=\"\(text.shortened)\" is not a number")
        case .absent: break
        }
        if case .invalid(let text) = id { throw error("id=\"\(text.shortened)\" is not a number") }
        if case .value(let n) = id, ids.value(n) != nil { throw error("id=\"\(n)\" is defined twice") }
        let fmt = name == names.process ? tokenizer.attribute(names.fmt) : nil
        let from = scratch.count
        var inner = false
        // The common cell, one run of digits: read in place, never copied.
        var number: Int64?
        reading: while true {
            switch try tokenizer.next() {
            case .text:
                if number == nil && scratch.count == from, let raw = tokenizer.rawText,
                    let n = Self.canonicalInteger(raw)
                {
                    number = n
                    continue
                }
                // More text after a number: the number's digits are its text.
                if let n = number {
                    scratch.append(contentsOf: Array(String(n).utf8))
                    number = nil
                }
                tokenizer.appendText(to: &scratch)
                if scratch.count - from > Self.maxCellBytes { throw error("a value longer than 1 MiB") }
            case .start(let child, _):
                inner = true
                _ = try readValue(child)
            case .end, .eof: break reading
            }
        }
        let value: CellValue
        if inner {
            var text: Int64 = -1
            if let fmt { text = try keep(fmt) }
            value = CellValue(kind: .composite, payload: text)
        } else if let fmt {
            value = CellValue(kind: .text, payload: try keep(fmt))
        } else if let number {
            value = CellValue(kind: .integer, payload: number)
        } else {
            value = try leaf(from)
        }
        if scratch.count > from { scratch.removeLast(scratch.count - from) }
        if case .value(let n) = id {
            switch ids.define(n, value) {
            case .defined: break
            case .twice: throw error("id=\"\(n)\" is defined twice")
            case .full: throw error("more than \(IDTable.limit) ids in one file: debugsh keeps at most that many")
            }
        }
        return value
    }

    /// The value of an element with text only (`scratch[from...]`): a number when it is written
    /// as one, else a text.
    private mutating func leaf(_ from: Int) throws(ImportError) -> CellValue {
        if scratch.count == from { return CellValue(kind: .text, payload: 0) }
        let number = scratch.withUnsafeBufferPointer {
            Self.canonicalInteger(UnsafeBufferPointer(rebasing: $0[from...]))
        }
        if let number { return CellValue(kind: .integer, payload: number) }
        return CellValue(kind: .text, payload: try keep(String(decoding: scratch[from...], as: UTF8.self)))
    }

    /// The number bytes spell when they are written as one (`42`, `-7`; never `007`, `+7` or
    /// `-0`, so that the number's digits are its text), of at most 18 digits.
    static func canonicalInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty && bytes.count <= 19 else { return nil }
        var k = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { k = 1 }
        let digits = bytes.count - k
        guard digits > 0 && digits <= 18 && (bytes[k] != UInt8(ascii: "0") || digits == 1) else { return nil }
        var value: Int64 = 0
        while k < bytes.count {
            let c = bytes[k]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int64(c - 0x30)
            k += 1
        }
        if negative && value == 0 { return nil }
        return negative ? -value : value
    }

    /// Keeps a text for the document's values: its index.
    private mutating func keep(_ text: String) throws(ImportError) -> Int64 {
        textBytes += text.utf8.count
        if textBytes > Self.maxTextBytes { throw error("more than 256 MiB of text in one file's values") }
        texts.append(text)
        return Int64(texts.count - 1)
    }

    // MARK: - TOC

    /// A TOC (`xctrace export --toc`): for each run, its duration (`info/summary/duration`, in
    /// seconds), the device (`info/target/device`) and the tables the trace has (`data/table`).
    private mutating func readTOC(into collection: inout XCTraceCollection) throws(ImportError) {
        if let message = collection.useTOC(file: file) { throw error(message) }
        var path: [XMLName] = []
        var run = 1
        while true {
            switch try tokenizer.next() {
            case .start(let name, _):
                path.append(name)
                if path == [names.run] {
                    switch tokenizer.number(names.number) {
                    case .value(let n):
                        run = Int(n)
                        if collection.toc[run] == nil && collection.toc.count >= Self.maxRuns {
                            throw error("more than \(Self.maxRuns) runs in the TOC")
                        }
                    case .invalid(let text): throw error("run number \"\(text.shortened)\" is not a number")
                    case .absent: break
                    }
                } else if path == [names.run, names.info, names.target, names.device] {
                    // `iPhone Air, iOS 26.6.2 (23G90)`
                    let system: [String?] = [tokenizer.attribute(names.platform), tokenizer.attribute(names.osVersion)]
                    let parts: [String?] = [
                        tokenizer.attribute(names.model), system.compactMap { $0 }.joined(separator: " "),
                    ]
                    collection.toc[run, default: .init()].device = parts.compactMap { $0 }.filter { !$0.isEmpty }
                        .joined(separator: ", ")
                } else if path == [names.run, names.data, names.table] {
                    // Only the tables debugsh reads, each once: what a note may name.
                    if let schema = tokenizer.attribute(names.schemaAttribute), XCTraceTable(rawValue: schema) != nil,
                        collection.toc[run]?.tables.contains(schema) != true
                    {
                        collection.toc[run, default: .init()].tables.append(schema)
                    }
                } else if path == [names.run, names.info, names.summary, names.duration] {
                    let offset = tokenizer.tokenOffset
                    let text = try readText()
                    path.removeLast()
                    guard let seconds = Self.nanoseconds(ofSeconds: text) else {
                        throw error("the TOC's duration '\(text.shortened)' is not a number of seconds", at: offset)
                    }
                    collection.toc[run, default: .init()].duration = SimDuration(nanoseconds: seconds)
                }
            case .text: continue
            case .end:
                if path.isEmpty { return }
                path.removeLast()
            case .eof: return
            }
        }
    }

    /// `93.275372` seconds in nanoseconds (digits past the ninth decimal are dropped); nil if it
    /// is not a number of seconds from 0 to 2^62 ns.
    static func nanoseconds(ofSeconds text: String) -> Int64? {
        let trimmed = text.trimmingASCIISpaces
        let parts = trimmed.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 10, whole.allSatisfy(\.isASCIIDigit),
            let seconds = Int64(whole)
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            let nine = String(digits.prefix(9)) + String(repeating: "0", count: max(0, 9 - digits.count))
            fraction = Int64(nine) ?? 0
        }
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, total <= SimTime.horizon.nanoseconds - fraction else { return nil }
        return total + fraction
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
