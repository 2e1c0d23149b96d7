import DebugShell
import DebugShellCore
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// Snapshot tests for frame-pacing numbers (docs/Testing.md, Baselines): each file's final
/// metrics, stored by `--update-baseline` and compared by `--baseline`.
///
///     {
///       "debugsh-baseline": 1,
///       "tolerances": {"fps.hitch_ratio": "2%", "*.ratio": "0.01"},
///       "files": {"fps-stall.dsh": {"clock.now": "3s", "fps.value": "60", …}}
///     }
///
/// Values are written as `get` prints them. Integers, durations, times and words must match
/// exactly; decimal numbers within 0.001 (their last printed digit) unless a tolerance is
/// declared: per metric name or glob (the longest matching pattern wins), as a percentage of
/// the stored value (`2%`) or an amount in the metric's unit (`0.01`, `1ms`, `3`).
struct Baseline {
    /// Pattern → tolerance, in the file's order.
    var tolerances: [(String, String)] = []
    /// File key → metrics (name, text), in the order stored.
    var files: [(String, [(String, String)])] = []

    struct Move {
        var metric: String
        var from: String
        var to: String
        var delta: String
        var tolerance: String
    }

    static let defaultNumberTolerance = "0.001"

    static func load(_ path: String) throws(TestFiles.UsageError) -> Baseline {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: 1 << 28)
        } catch {
            throw TestFiles.UsageError(message: "--baseline: \(error.message)")
        }
        do {
            return try Baseline(json: try MiniJSON.parse(bytes))
        } catch {
            throw TestFiles.UsageError(message: "--baseline: '\(path)' is not a debugsh baseline: \(error.message)")
        }
    }

    init() {}

    init(json: MiniJSON.Value) throws(MiniJSON.Failure) {
        guard case .object(let top) = json else { throw MiniJSON.Failure(message: "the top is not an object") }
        for (key, value) in top {
            switch key {
            case "tolerances":
                guard case .object(let pairs) = value else {
                    throw MiniJSON.Failure(message: "tolerances is not an object")
                }
                for (pattern, tolerance) in pairs {
                    guard case .string(let text) = tolerance else {
                        throw MiniJSON.Failure(message: "the tolerance of '\(pattern)' is not a string")
                    }
                    guard Self.isTolerance(text) else {
                        throw MiniJSON.Failure(
                            message:
                                "the tolerance of '\(pattern)' is '\(text)': a percentage ('2%'), a number ('0.01', '3') or a duration ('1ms'), not negative"
                        )
                    }
                    tolerances.append((pattern, text))
                }
            case "files":
                guard case .object(let entries) = value else {
                    throw MiniJSON.Failure(message: "files is not an object")
                }
                for (file, metrics) in entries {
                    guard case .object(let pairs) = metrics else {
                        throw MiniJSON.Failure(message: "the metrics of '\(file)' are not an object")
                    }
                    files.append(
                        (
                            file,
                            pairs.map { name, value in
                                if case .string(let text) = value { return (name, text) }
                                return (name, value.text)
                            }
                        ))
                }
            default: break
            }
        }
    }

    /// The tolerance that applies to a metric, or nil for an exact match.
    func tolerance(for metric: String, type: String) -> String? {
        if let exact = tolerances.first(where: { $0.0 == metric }) { return exact.1 }
        let globs = tolerances.filter { fnmatch($0.0, metric, 0) == 0 }
        if let best = globs.max(by: { $0.0.count < $1.0.count }) { return best.1 }
        return type == "number" ? Self.defaultNumberTolerance : nil
    }

    /// A file's key in a baseline stored at `baselinePath`: its path relative to the baseline's
    /// folder (both resolved), so that a run of a subfolder or of one file compares with a
    /// baseline stored from the whole folder; its resolved path when it lies outside.
    static func key(of file: TestFile, baselinePath: String) -> String {
        guard let full = resolved(file.path), let folder = resolved(FileIO.directory(of: baselinePath)) else {
            return file.key
        }
        let prefix = folder == "/" ? "/" : folder + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    private static func resolved(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether the baseline holds the file, under its key or (a baseline stored before keys were
    /// relative to the baseline) the path inside the folder given.
    func entry(_ key: String, legacy: String? = nil) -> [(String, String)]? {
        files.first(where: { $0.0 == key })?.1 ?? legacy.flatMap { old in files.first(where: { $0.0 == old })?.1 }
    }

    /// The metrics of the file that moved beyond their tolerance, and those it no longer has.
    func compare(_ key: String, legacy: String? = nil, _ metrics: [(name: String, type: String, text: String)])
        -> [Move]
    {
        guard let stored = entry(key, legacy: legacy) else { return [] }
        var now: [String: (type: String, text: String)] = [:]
        for m in metrics { now[m.name] = (m.type, m.text) }
        var moves: [Move] = []
        for (name, from) in stored {
            guard let current = now[name] else {
                moves.append(Move(metric: name, from: from, to: "(gone)", delta: "-", tolerance: "-"))
                continue
            }
            if current.text == from { continue }
            let tolerance = tolerance(for: name, type: current.type)
            let a = Self.magnitude(from, type: current.type)
            let b = Self.magnitude(current.text, type: current.type)
            var delta = "-"
            if let a, let b {
                let d = b - a
                delta = Self.format(d, type: current.type, sign: true)
                if a != 0 {
                    delta += " (\(d >= 0 ? "+" : "")\(Self.format(d / abs(a) * 100, type: "number", sign: false))%)"
                }
                if let tolerance, Self.within(d, of: a, tolerance: tolerance, type: current.type) { continue }
            }
            moves.append(
                Move(metric: name, from: from, to: current.text, delta: delta, tolerance: tolerance ?? "exact"))
        }
        return moves
    }

    /// Whether `text` is a tolerance: a percentage, a number or a duration, finite and not
    /// negative (docs/Testing.md, Baselines).
    static func isTolerance(_ text: String) -> Bool {
        if text.hasSuffix("%") { return finite(String(text.dropLast())).map { $0 >= 0 } ?? false }
        if let number = finite(text) { return number >= 0 }
        return magnitude(text, type: "duration") != nil && !text.hasPrefix("-")
    }

    /// The largest magnitude a value may have to be compared: beyond it a value (`1e999`, a
    /// 30-digit integer) is compared as text only — a move without a Δ — since its nanoseconds or
    /// thousandths would not fit the 64-bit numbers the report prints.
    static let largest = 1e15

    /// A decimal as a finite `Double` within ``largest``; nil for `nan`, `inf`, `1e999` or text.
    static func finite(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, abs(value) <= largest else { return nil }
        return value
    }

    static func within(_ d: Double, of a: Double, tolerance: String, type: String) -> Bool {
        if tolerance.hasSuffix("%"), let percent = finite(String(tolerance.dropLast())) {
            return abs(d) <= abs(a) * percent / 100 + 1e-12
        }
        guard let amount = magnitude(tolerance, type: type) else { return false }
        return abs(d) <= abs(amount) + 1e-12
    }

    /// A value as a number: integers and decimals as they read, durations and times in
    /// nanoseconds; nil for words.
    static func magnitude(_ text: String, type: String) -> Double? {
        switch type {
        case "duration", "time":
            return (try? ValueParser.duration(text, rate: 60)).map { Double($0.nanoseconds) }
        case "integer", "number":
            return finite(text)
        default:
            return nil
        }
    }

    static func format(_ value: Double, type: String, sign: Bool) -> String {
        let prefix = sign && value >= 0 ? "+" : ""
        // What fits the 64-bit number each type prints with: nanoseconds and integers as they
        // are, decimals in thousandths. Two durations' difference, or a percentage of a tiny
        // stored value, may not.
        let fits = type == "duration" || type == "time" || type == "integer" ? 9.2e18 : 9.2e15
        guard value.isFinite, abs(value) < fits else { return value > 0 ? prefix + "huge" : "-huge" }
        switch type {
        case "duration", "time":
            let ns = Int64(value.rounded())
            return (ns < 0 ? "-" : prefix) + SimDuration(nanoseconds: abs(ns)).description
        case "integer":
            return prefix + String(Int64(value.rounded()))
        default:
            return prefix + MetricNumber(thousandths: Int64((value * 1000).rounded())).description
        }
    }

    /// The table of a file's moved metrics: metric, from → to, Δ, tolerance.
    static func table(_ result: TestResult) -> String {
        let rows: [[String]] =
            [["metric", "from", "to", "Δ", "tolerance"]]
            + result.moved.map {
                [$0.metric, $0.from, $0.to, $0.delta, $0.tolerance].map { VisibleText.escaped($0) }
            }
        let w = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        var text = "  \(VisibleText.escaped(result.file.path))\n"
        for (i, row) in rows.enumerated() {
            let arrow = i == 0 ? "  " : "→ "
            text +=
                "    \(pad(row[0], w[0]))  \(pad(row[1], w[1])) \(arrow)\(pad(row[2], w[2]))  \(pad(row[3], w[3]))  \(row[4])\n"
        }
        return text
    }

    /// Stores the final metrics of every file whose run ended (passed or failed an `expect`),
    /// keeping the tolerances and the other files' entries; returns how many files it stored.
    static func update(_ path: String, with results: [TestResult]) throws(FileIO.Failure) -> Int {
        var baseline = Baseline()
        if FileIO.exists(path) {
            do {
                baseline = try Baseline(json: try MiniJSON.parse(try FileIO.read(path, limit: 1 << 28)))
            } catch let failure as MiniJSON.Failure {
                throw FileIO.Failure("'\(path)' is not a debugsh baseline: \(failure.message)")
            } catch let failure as FileIO.Failure {
                throw failure
            } catch {
                throw FileIO.Failure("cannot read '\(path)'")
            }
        }
        var stored = 0
        for result in results where result.status == .passed || result.status == .failed {
            guard !result.metrics.isEmpty else { continue }
            let entry = result.metrics.map { ($0.name, $0.text) }
            let key = Self.key(of: result.file, baselinePath: path)
            if let i = baseline.files.firstIndex(where: { $0.0 == key }) {
                baseline.files[i].1 = entry
            } else {
                baseline.files.append((key, entry))
            }
            stored += 1
        }
        baseline.files.sort { Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8) }
        try FileIO.writeAtomically(baseline.serialized, to: path)
        return stored
    }

    /// The file's text: two-space indent, one metric a line, files in byte order of their keys.
    var serialized: String {
        func q(_ s: String) -> String { JSONValue.string(s).serialized }
        var text = "{\n  \"debugsh-baseline\": 1,\n  \"tolerances\": {"
        text +=
            tolerances.isEmpty
            ? "}" : "\n" + tolerances.map { "    \(q($0.0)): \(q($0.1))" }.joined(separator: ",\n") + "\n  }"
        text += ",\n  \"files\": {"
        if files.isEmpty {
            text += "}"
        } else {
            text += "\n"
            text += files.map { file, metrics in
                "    \(q(file)): {\n" + metrics.map { "      \(q($0.0)): \(q($0.1))" }.joined(separator: ",\n")
                    + "\n    }"
            }.joined(separator: ",\n")
            text += "\n  }"
        }
        return text + "\n}\n"
    }
}

/// Just enough JSON to read a baseline back: objects keep their order.
enum MiniJSON {
    indirect enum Value {
        case null, bool(Bool), number(String), string(String), array([Value]), object([(String, Value)])

        var text: String {
            switch self {
            case .null: return "none"
            case .bool(let b): return b ? "true" : "false"
            case .number(let n): return n
            case .string(let s): return s
            case .array, .object: return "?"
            }
        }
    }

    struct Failure: Error {
        var message: String
    }

    /// How deep arrays and objects may nest: a baseline is three levels deep.
    static let maxDepth = 64

    static func parse(_ bytes: [UInt8]) throws(Failure) -> Value {
        var i = 0
        let value = try parseValue(bytes, &i, depth: 0)
        skipSpace(bytes, &i)
        guard i == bytes.count else { throw Failure(message: "text after the end at byte \(i)") }
        return value
    }

    private static func skipSpace(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private static func parseValue(_ b: [UInt8], _ i: inout Int, depth: Int) throws(Failure) -> Value {
        skipSpace(b, &i)
        guard i < b.count else { throw Failure(message: "unexpected end") }
        if b[i] == UInt8(ascii: "{") || b[i] == UInt8(ascii: "[") {
            guard depth < maxDepth else {
                throw Failure(message: "values nested deeper than \(maxDepth) levels at byte \(i)")
            }
        }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var pairs: [(String, Value)] = []
            skipSpace(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(pairs)
            }
            while true {
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: "\"") else {
                    throw Failure(message: "a key expected at byte \(i)")
                }
                let key = try parseString(b, &i)
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else {
                    throw Failure(message: "':' expected at byte \(i)")
                }
                i += 1
                pairs.append((key, try parseValue(b, &i, depth: depth + 1)))
                skipSpace(b, &i)
                guard i < b.count else { throw Failure(message: "unexpected end") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard b[i] == UInt8(ascii: "}") else { throw Failure(message: "',' or '}' expected at byte \(i)") }
                i += 1
                return .object(pairs)
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [Value] = []
            skipSpace(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                items.append(try parseValue(b, &i, depth: depth + 1))
                skipSpace(b, &i)
                guard i < b.count else { throw Failure(message: "unexpected end") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard b[i] == UInt8(ascii: "]") else { throw Failure(message: "',' or ']' expected at byte \(i)") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try parseString(b, &i))
        default:
            let start = i
            while i < b.count, !" \n\r\t,]}".utf8.contains(b[i]) { i += 1 }
            let word = String(decoding: b[start..<i], as: UTF8.self)
            switch word {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                guard Double(word) != nil else { throw Failure(message: "'\(word)' at byte \(start) is not a value") }
                return .number(word)
            }
        }
    }

    private static func parseString(_ b: [UInt8], _ i: inout Int) throws(Failure) -> String {
        i += 1
        var out: [UInt8] = []
        while i < b.count {
            let c = b[i]
            i += 1
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                continue
            }
            guard i < b.count else { break }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard i + 4 <= b.count, var code = UInt32(String(decoding: b[i..<i + 4], as: UTF8.self), radix: 16)
                else { throw Failure(message: "a bad \\u escape at byte \(i)") }
                i += 4
                // A surrogate pair.
                if (0xD800..<0xDC00).contains(code), i + 6 <= b.count, b[i] == UInt8(ascii: "\\"),
                    b[i + 1] == UInt8(ascii: "u"),
                    let low = UInt32(String(decoding: b[i + 2..<i + 6], as: UTF8.self), radix: 16),
                    (0xDC00..<0xE000).contains(low)
                {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
            default: out.append(e)
            }
        }
        throw Failure(message: "a string that does not end")
    }
}
