import DebugShellCore

/// Parses the command language's typed values: durations, times, rates, numbers, booleans, frames, names.
///
/// Values are exact: a duration is a decimal number and a unit that must come to a whole number
/// of nanoseconds, computed in 128 bits; nothing overflows or traps.
public enum ValueParser {
    /// Nanoseconds per unit.
    static let units: [(String, Int128)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("min", 60_000_000_000),
    ]

    /// A duration: `<decimal><unit>` or `<n>f` (n refresh periods at `rate`, floor(n·1e9/R)).
    public static func duration(_ word: String, rate: Int, allowNegative: Bool = false) throws(CommandError)
        -> SimDuration
    {
        if let fast = plainDuration(word, rate: rate, allowNegative: allowNegative) { return fast }
        let (number, unit) = splitNumber(word)
        guard !number.isEmpty, number != "-", number != "+" else {
            if word.lowercased().contains("nan") || word.lowercased().contains("inf") {
                throw CommandError("'\(word)' is not a duration (not a number)")
            }
            throw CommandError("'\(word)' is not a duration: expected a number and a unit, e.g. 16ms")
        }
        guard !unit.isEmpty else {
            throw CommandError("'\(word)' is not a duration: add a unit (ns, us, ms, s, min) or f for frames")
        }
        let decimal = try parseDecimal(number, in: word)
        if decimal.negative && !allowNegative && decimal.mantissa != 0 {
            throw CommandError("negative duration '\(word)' is not allowed")
        }
        var ns: Int128
        if unit == "f" {
            guard decimal.fractionDigits == 0 else {
                throw CommandError("'\(word)': frames must be a whole number, e.g. 30f")
            }
            // n refresh periods at the current rate: floor(n·1e9/R).
            let (periods, overflow) = decimal.mantissa.multipliedReportingOverflow(by: 1_000_000_000)
            guard !overflow else { throw CommandError("'\(word)' is beyond the 2^62 ns horizon (about 146 years)") }
            ns = periods / Int128(rate)
        } else {
            guard let scale = units.first(where: { $0.0 == unit })?.1 else {
                if unit.first == "e" || unit.first == "E" {
                    throw CommandError("'\(word)': exponents are not allowed; write the number out")
                }
                throw CommandError("'\(word)': unknown unit '\(unit)' (use ns, us, ms, s, min or f)")
            }
            let (product, overflow) = decimal.mantissa.multipliedReportingOverflow(by: scale)
            guard !overflow else { throw CommandError("'\(word)' is beyond the 2^62 ns horizon (about 146 years)") }
            let divisor = pow10(decimal.fractionDigits)
            guard product % divisor == 0 else {
                throw CommandError("'\(word)' is not a whole number of nanoseconds")
            }
            ns = product / divisor
        }
        if decimal.negative { ns = -ns }
        guard ns <= Int128(SimTime.horizon.nanoseconds), ns >= -Int128(SimTime.horizon.nanoseconds) else {
            throw CommandError("'\(word)' is beyond the 2^62 ns horizon (about 146 years)")
        }
        return SimDuration(nanoseconds: Int64(ns))
    }

    /// The common durations read from bytes, without the general path's string work: a sign,
    /// up to 18 digits, a fraction of up to 9, a unit of `ns`, `us`, `ms`, `s`, `min` or `f`.
    /// Nil for anything else — which the general path then reads, or refuses with its message —
    /// and for a value it would refuse, so the two never differ.
    static func plainDuration(_ word: String, rate: Int, allowNegative: Bool) -> SimDuration? {
        var utf8 = word.utf8.makeIterator()
        var c = utf8.next()
        var negative = false
        if c == UInt8(ascii: "-") {
            negative = true
            c = utf8.next()
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while let b = c {
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                mantissa = mantissa &* 10 &+ Int64(b &- UInt8(ascii: "0"))
                digits += 1
                if inFraction { fractionDigits += 1 }
            } else if b == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                break
            }
            c = utf8.next()
        }
        guard digits > 0, digits - fractionDigits <= 18, fractionDigits <= 9 else { return nil }
        // The unit: the rest of the word.
        var unit: (UInt8, UInt8, UInt8, Int) = (0, 0, 0, 0)
        while let b = c {
            guard unit.3 < 3 else { return nil }
            switch unit.3 {
            case 0: unit.0 = b
            case 1: unit.1 = b
            default: unit.2 = b
            }
            unit.3 += 1
            c = utf8.next()
        }
        let scale: Int64
        switch unit {
        case (UInt8(ascii: "n"), UInt8(ascii: "s"), 0, 2): scale = 1
        case (UInt8(ascii: "u"), UInt8(ascii: "s"), 0, 2): scale = 1_000
        case (UInt8(ascii: "m"), UInt8(ascii: "s"), 0, 2): scale = 1_000_000
        case (UInt8(ascii: "s"), 0, 0, 1): scale = 1_000_000_000
        case (UInt8(ascii: "m"), UInt8(ascii: "i"), UInt8(ascii: "n"), 3): scale = 60_000_000_000
        case (UInt8(ascii: "f"), 0, 0, 1):
            guard fractionDigits == 0, rate > 0 else { return nil }
            let ns = Int128(mantissa) * 1_000_000_000 / Int128(rate)
            guard ns <= Int128(SimTime.horizon.nanoseconds), !negative || allowNegative || ns == 0 else { return nil }
            return SimDuration(nanoseconds: Int64(negative ? -ns : ns))
        default: return nil
        }
        var divisor: Int128 = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        let product = Int128(mantissa) * Int128(scale)
        guard product % divisor == 0 else { return nil }
        let ns = product / divisor
        guard ns <= Int128(SimTime.horizon.nanoseconds), !negative || allowNegative || ns == 0 else { return nil }
        return SimDuration(nanoseconds: Int64(negative ? -ns : ns))
    }

    /// A time measured from t = 0.
    public static func time(_ word: String, rate: Int) throws(CommandError) -> SimTime {
        SimTime(nanoseconds: try duration(word, rate: rate).nanoseconds)
    }

    /// A rate: `<n>Hz` or a bare integer, 1…1000 (S2).
    public static func rate(_ word: String) throws(CommandError) -> RefreshRate {
        var digits = Substring(word)
        if digits.lowercased().hasSuffix("hz") { digits = digits.dropLast(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CommandError("'\(word)' is not a rate: expected <n>Hz or an integer, e.g. 120Hz")
        }
        guard digits.count <= 6, let value = Int(digits) else {
            throw CommandError("rate '\(word)' is outside 1…1000 Hz")
        }
        do {
            return try RefreshRate(hertz: value)
        } catch {
            throw CommandError("rate '\(word)' is outside 1…1000 Hz")
        }
    }

    /// An integer within `range`.
    public static func integer(_ word: String, range: ClosedRange<Int64>) throws(CommandError) -> Int64 {
        var body = Substring(word)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CommandError("'\(word)' is not an integer")
        }
        var value: Int128 = 0
        for c in body.utf8 {
            value = value * 10 + Int128(c - UInt8(ascii: "0"))
            if value > Int128(Int64.max) { throw CommandError("integer '\(word)' is too large") }
        }
        if negative { value = -value }
        guard value >= Int128(range.lowerBound), value <= Int128(range.upperBound) else {
            throw CommandError("'\(word)' is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return Int64(value)
    }

    /// A decimal number without exponent.
    public static func decimal(_ word: String) throws(CommandError) -> Double {
        let d = try parseDecimal(word, in: word)
        guard d.fractionDigits <= 18, d.mantissa.magnitude < (UInt128(1) << 100) else {
            throw CommandError("number '\(word)' is too long")
        }
        let whole = Double(d.mantissa) / Double(pow10(d.fractionDigits))
        guard whole.isFinite else { throw CommandError("number '\(word)' is too large") }
        return d.negative ? -whole : whole
    }

    /// `on|off`, `true|false`, `yes|no`.
    public static func boolean(_ word: String) throws(CommandError) -> Bool {
        switch word.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw CommandError("'\(word)' is not a boolean: expected on|off, true|false or yes|no")
        }
    }

    /// A frame rectangle `x,y,w,h` with w, h ≥ 0.
    public static func rect(_ word: String) throws(CommandError) -> FrameRect {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw CommandError("'\(word)' is not a frame: expected four numbers x,y,w,h (got \(parts.count))")
        }
        var values: [Double] = []
        for part in parts {
            do {
                values.append(try decimal(String(part)))
            } catch {
                throw CommandError("'\(word)' is not a frame: '\(part)' is not a number")
            }
        }
        guard values[2] >= 0, values[3] >= 0 else {
            throw CommandError("frame '\(word)' has a negative size")
        }
        return FrameRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// A frame rate range `min,max[,preferred]` in whole hertz (V2), each with or without `Hz`:
    /// ``FrameRateRange/parse(_:)``, the API's one reading of it.
    ///
    /// Its messages name what they are about (`frame rate range: minimum 200 Hz is above maximum
    /// 10 Hz`, `'x' is not a frame rate range: …`), so an option of this kind is not prefixed with
    /// its name (``namesItself(_:)``): they read as a run gave them before the range was a kind.
    public static func frameRateRange(_ word: String) throws(CommandError) -> FrameRateRange {
        do {
            return try FrameRateRange.parse(word)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// Whether the messages of a kind's values say what they are about themselves, so that the
    /// parser does not put the option's name before them (`--max: rate '1001Hz' is outside …`).
    static func namesItself(_ kind: ValueKind) -> Bool { kind == .frameRateRange }

    /// What a name may be, for messages.
    public static let nameRule =
        "a name starts with a letter or '_' and goes on with letters, digits, '_', '.' and '-' (e.g. poll_2)"

    /// A name: `[A-Za-z_][A-Za-z0-9_.-]*`.
    public static func name(_ word: String, domain: NameDomain) throws(CommandError) -> String {
        guard isName(word) else {
            throw CommandError("'\(word)' is not a valid \(domain.rawValue) name: \(nameRule)")
        }
        return word
    }

    public static func isName(_ word: String) -> Bool {
        // ASCII only, so the bytes decide: a letter or `_`, then letters, digits, `_`, `.`, `-`.
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        guard let first = word.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return word.utf8.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
    }

    /// Parses one word as a value of `kind`.
    public static func parse(_ word: String, as kind: ValueKind, rate: Int) throws(CommandError) -> ArgumentValue {
        switch kind {
        case .duration: return .duration(try duration(word, rate: rate))
        case .time: return .time(try time(word, rate: rate))
        case .rate: return .rate(try ValueParser.rate(word))
        case .integer(let range): return .integer(try integer(word, range: range))
        case .decimal: return .decimal(try decimal(word))
        case .boolean: return .boolean(try boolean(word))
        case .choice(let words):
            guard words.contains(word) else {
                var message = "'\(word)' is not one of \(words.joined(separator: ", "))"
                if let guess = Suggest.closest(to: word, in: words) { message += "; did you mean '\(guess)'?" }
                throw CommandError(message)
            }
            return .word(word)
        case .name(let domain): return .word(try name(word, domain: domain))
        case .rect: return .rect(try rect(word))
        case .frameRateRange: return .frameRateRange(try frameRateRange(word))
        case .word, .path: return .word(word)
        }
    }

    // MARK: Values handed over by tools

    /// Why `value` cannot be a value of `kind` — what a tool asked to store in a setting — or
    /// nil when it can: it must be what `set` would make of its text (`set x 5` makes the
    /// integer 5 of an integer setting, never the word '5'), within the kind's range and words.
    ///
    /// - Returns: `the word 'lots', but it declares an integer in 1…10`.
    public static func mismatch(_ value: ArgumentValue, for kind: ValueKind, rate: Int) -> String? {
        if let parsed = try? parse(value.description, as: kind, rate: rate), parsed == value { return nil }
        return "\(describe(value)), but it declares \(describe(kind))"
    }

    /// A value in words, for messages: `the word 'lots'`, `the duration 5ms`.
    public static func describe(_ value: ArgumentValue) -> String {
        switch value {
        case .duration(let d): return "the duration \(d)"
        case .time(let t): return "the time \(t)"
        case .rate: return "the rate \(value)"
        case .integer(let v): return "the integer \(v)"
        case .decimal: return "the number \(value)"
        case .boolean: return "the boolean \(value)"
        case .word(let w): return "the word '\(w)'"
        case .rect: return "the frame \(value)"
        case .frameRateRange: return "the frame rate range \(value)"
        case .words: return "the words '\(value)'"
        }
    }

    /// A kind of value in words, for messages: `an integer in 1…10`, `one of quiet, seed`.
    public static func describe(_ kind: ValueKind) -> String {
        switch kind {
        case .duration: return "a duration"
        case .time: return "a time"
        case .rate: return "a refresh rate"
        case .integer(let range): return "an integer in \(range.lowerBound)…\(range.upperBound)"
        case .decimal: return "a number"
        case .boolean: return "a boolean"
        case .choice(let words): return "one of \(words.joined(separator: ", "))"
        case .name: return "a name"
        case .rect: return "a frame x,y,w,h"
        case .frameRateRange: return "a frame rate range min,max[,preferred]"
        case .word: return "a word"
        case .path: return "a path"
        }
    }

    // MARK: Decimal numbers

    struct Decimal {
        var negative: Bool
        /// All digits as one integer.
        var mantissa: Int128
        var fractionDigits: Int
    }

    /// The leading number (sign, digits, point) and the rest.
    static func splitNumber(_ word: String) -> (Substring, Substring) {
        let s = Substring(word)
        var i = s.startIndex
        if i < s.endIndex, s[i] == "-" || s[i] == "+" { i = s.index(after: i) }
        while i < s.endIndex, s[i].isASCII, s[i].isNumber || s[i] == "." { i = s.index(after: i) }
        return (s[..<i], s[i...])
    }

    static func parseDecimal(_ number: some StringProtocol, in word: String) throws(CommandError) -> Decimal {
        var body = Substring(number)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !body.isEmpty, body != ".",
            pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else {
            throw CommandError("'\(word)' is not a number")
        }
        let intPart = pieces[0]
        let fracPart = pieces.count == 2 ? pieces[1] : ""
        // Trailing zeros of the fraction do not change the value.
        var frac = Substring(fracPart)
        while frac.last == "0" { frac = frac.dropLast() }
        var mantissa: Int128 = 0
        for c in (intPart + frac).utf8 {
            mantissa = mantissa * 10 + Int128(c - UInt8(ascii: "0"))
            if mantissa > (Int128(1) << 100) { throw CommandError("'\(word)' is too large") }
        }
        guard frac.count <= 30 else { throw CommandError("'\(word)' has too many digits") }
        return Decimal(negative: negative, mantissa: mantissa, fractionDigits: frac.count)
    }

    static func pow10(_ n: Int) -> Int128 {
        var p: Int128 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }
}

/// Did-you-mean suggestions: the plugin API's, so that tools word theirs the same way.
public typealias Suggest = NameSuggestion
