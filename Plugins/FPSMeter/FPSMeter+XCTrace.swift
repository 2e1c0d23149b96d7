import DebugShellCore

// MARK: - fps hitches --xctrace: the kept hitches as Instruments exports its hitch table

extension FPSMeter {
    /// `fps hitches --xctrace FILE.xml`: every kept hitch as a row of Instruments' `hitches-summary`
    /// table, in the XML `xcrun xctrace export` writes — what `import xctrace` reads back
    /// (docs/FPSMeter.md, docs/Import.md). The session writes the file atomically.
    func hitchesXCTraceFile(_ path: String, _ invocation: Invocation) throws(CommandError) -> CommandOutput {
        if invocation.has(Self.hitchType) || invocation.has(Self.hitchSeverity) || invocation.has(Self.lastHitches)
            || invocation.has(Self.worst)
        {
            throw CommandError(
                "--xctrace writes every kept hitch: --type, --severity, --last and --worst choose the table's rows")
        }
        guard path.lowercased().hasSuffix(".xml"), path.count > 4 else {
            throw CommandError(
                "the hitches are written as an xctrace export (XML): name the file <name>.xml (got '\(path)')")
        }
        let kept = hitchLog.elements
        let total = hitchLog.appended
        let xml = Self.hitchesSummaryXML(kept, firstNumber: hitchLog.dropped + 1)
        let bytes = xml.utf8.count
        let what: String
        if total == 0 {
            what = "no hitch since the start: a hitches-summary table with no rows"
        } else if Int64(kept.count) == total {
            what = "\(total) \(total == 1 ? "hitch" : "hitches") as Instruments' hitches-summary table"
        } else {
            what =
                "the last \(kept.count) of \(total) hitches as Instruments' hitches-summary table "
                + "(\(hitchLog.dropped) older were dropped; set fps.frames-kept to keep more)"
        }
        return CommandOutput(
            text: "wrote \(path) (\(bytes) bytes): \(what)",
            json: .fields([
                "file": .string(path), "bytes": .int(Int64(bytes)), "hitches": .int(Int64(kept.count)),
                "total": .int(total),
            ]),
            files: [OutputFile(path: path, contents: xml)])
    }

    /// The columns of Instruments' `hitches-summary` (iOS 18), in its order: mnemonic, name and
    /// engineering type, as `xctrace export` writes its schema.
    static let hitchesSummaryColumns: [(mnemonic: String, name: String, type: String)] = [
        ("start", "Hitch Begin", "start-time"), ("duration", "Hitch Duration", "duration"),
        ("swap-id", "Swap ID", "uint32"), ("earliest-time", "Earliest", "event-time"),
        ("presentation-time", "Presentation", "event-time"), ("latency-allowed", "Acceptable latency", "duration"),
        ("narrative", "Description", "formatted-label"), ("severity", "Severity", "event-concept"),
        ("color", "Color", "render-buffer-depth"), ("layout-qualifier", "Layout ID", "layout-id"),
        ("hitch-id", "Hitch ID", "uint32"), ("context-count", "Context Count", "uint32"),
        ("buffer-count", "Buffer Count", "uint32"), ("refresh-interval", "Refresh Interval", "uint32"),
        ("type-label", "Hitch Type", "string"),
    ]

    /// The hitches as an `xctrace export` of `hitches-summary`: one `<row>` per hitch, in order.
    ///
    /// Instruments' arithmetic holds on every row: `start` = `earliest-time` + `latency-allowed`,
    /// the present the frame was held to, and `duration` = `presentation-time` − `start`, the
    /// hitch (R4). That present is R3's expected present, or, when the frame before was late and
    /// R4's floor — the vsync after the previous present — came later, that vsync: the acceptable
    /// latency then runs to it. `swap-id` is the frame's number, `hitch-id` the hitch's number
    /// since the start (`firstNumber` for the first kept), `narrative` Instruments' `N : Hitch
    /// Duration`; `color`, `layout-qualifier` and `context-count`, which the simulation has no
    /// value for, are empty cells (`<sentinel/>`). A value written again is a `ref` to the `id` that
    /// defined it, as Instruments writes one; `fmt` is the display text in Instruments' style.
    static func hitchesSummaryXML(_ hitches: [HitchRecord], firstNumber: Int64 = 1) -> String {
        var out = InstrumentsXML()
        out.text.reserveCapacity(2_000 + hitches.count * 500)
        out.text += "<?xml version=\"1.0\"?>\n<trace-query-result>\n"
        out.text += "<node xpath='//trace-toc[1]/run[1]/data[1]/table[1]'><schema name=\"hitches-summary\">"
        for column in hitchesSummaryColumns {
            out.text +=
                "<col><mnemonic>\(column.mnemonic)</mnemonic><name>\(column.name)</name>"
                + "<engineering-type>\(column.type)</engineering-type></col>"
        }
        out.text += "</schema>"
        for (k, h) in hitches.enumerated() {
            let start = h.present.nanoseconds - h.hitch
            let earliest = min(h.earliest.nanoseconds, start)
            let number = firstNumber + Int64(k)
            out.text += "<row>"
            out.leaf("start-time", start, fmt: InstrumentsXML.timeText(start))
            out.leaf("duration", h.hitch, fmt: InstrumentsXML.durationText(h.hitch))
            out.leaf("uint32", Int64(UInt32(truncatingIfNeeded: h.frame)))
            out.leaf("event-time", earliest, fmt: InstrumentsXML.timeText(earliest))
            out.leaf("event-time", h.present.nanoseconds, fmt: InstrumentsXML.timeText(h.present.nanoseconds))
            out.leaf("duration", start - earliest, fmt: InstrumentsXML.durationText(start - earliest))
            out.narrative(number)
            out.leaf("event-concept", h.severity.rawValue)
            out.sentinel()
            out.sentinel()
            out.leaf("uint32", Int64(UInt32(truncatingIfNeeded: number)))
            out.sentinel()
            out.leaf("uint32", Int64(UInt32(clamping: h.buffers)))
            out.leaf("uint32", Int64(UInt32(clamping: h.refresh.nanoseconds)))
            out.leaf("string", h.type.description)
            out.text += "</row>\n"
        }
        out.text += "</node></trace-query-result>\n"
        return out.text
    }
}

/// XML as `xctrace export` writes a table's cells: each element named by its engineering type,
/// a value's first appearance defining an `id` (with its `fmt`), every later one a `ref` to it.
struct InstrumentsXML {
    var text = ""
    /// The id of each value written, keyed by its element, `fmt` and content.
    private var ids: [String: Int] = [:]

    /// A cell holding a number.
    mutating func leaf(_ element: String, _ value: Int64, fmt: String? = nil) {
        let content = String(value)
        leaf(element, content, fmt: fmt ?? content)
    }

    /// A cell holding text (its `fmt` the text itself unless given).
    mutating func leaf(_ element: String, _ content: String, fmt: String? = nil) {
        let fmt = fmt ?? content
        guard let id = define(element + "\u{1}" + fmt + "\u{1}" + content) else { return }
        text += "<\(element) id=\"\(id)\" fmt=\"\(Self.escaped(fmt))\">\(Self.escaped(content))</\(element)>"
    }

    /// Instruments' Description of a hitch: `<formatted-label>` of its number and `: Hitch Duration`.
    mutating func narrative(_ number: Int64) {
        let words = ": Hitch Duration"
        let fmt = "\(number) \(words)"
        guard let id = define("formatted-label\u{1}" + fmt) else { return }
        text += "<formatted-label id=\"\(id)\" fmt=\"\(fmt)\">"
        leaf("uint64", number)
        leaf("narrative-text", words)
        text += "</formatted-label>"
    }

    /// An empty cell.
    mutating func sentinel() { text += "<sentinel/>" }

    /// A new id for a value not written before; for one written before, its `ref` is written and
    /// nil returned. The element name is the key's part before the first separator.
    private mutating func define(_ key: String) -> Int? {
        if let id = ids[key] {
            let element = key.prefix { $0 != "\u{1}" }
            text += "<\(element) ref=\"\(id)\"/>"
            return nil
        }
        let id = ids.count + 1
        ids[key] = id
        return id
    }

    /// `&`, `<`, `>` and `"` escaped, for text and double-quoted attributes.
    static func escaped(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return s }
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A time as Instruments shows it: `00:01.382.537` (minutes, seconds, ms, µs; truncated), with
    /// hours in front from an hour on.
    static func timeText(_ ns: Int64) -> String {
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : String(v) }
        func three(_ v: Int64) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : String(v) }
        let us = ns / 1_000
        let seconds = us / 1_000_000
        let minutes = seconds / 60
        let clock = minutes >= 60 ? "\(two(minutes / 60)):\(two(minutes % 60))" : two(minutes)
        return "\(clock):\(two(seconds % 60)).\(three(us / 1_000 % 1_000)).\(three(us % 1_000))"
    }

    /// A duration as Instruments shows it: `16.67 ms`, `216.67 ms`, `1.20 s`, `500.00 µs`, `12 ns`.
    static func durationText(_ ns: Int64) -> String {
        func hundredths(_ scale: Int64, _ unit: String) -> String {
            let v = Int64(clamping: SimFormat.roundedDivide(Int128(ns) * 100, by: Int128(scale)))
            let fraction = v % 100
            return "\(v / 100).\(fraction < 10 ? "0" : "")\(fraction) \(unit)"
        }
        if ns < 1_000 { return "\(ns) ns" }
        if ns < 1_000_000 { return hundredths(1_000, "µs") }
        if ns < 1_000_000_000 { return hundredths(1_000_000, "ms") }
        return hundredths(1_000_000_000, "s")
    }
}
