/// A decimal number with three fractional digits, the precision `get` shows and `expect` compares.
///
/// Numbers are kept as an integer count of thousandths so that what `get` prints is exactly what
/// `expect` compares (docs/JSON.md), on every machine.
public struct MetricNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var thousandths: Int64

    public init(thousandths: Int64) { self.thousandths = thousandths }

    /// `numerator / denominator`, rounded half away from zero to three decimals.
    public init(numerator: Int128, denominator: Int128) {
        precondition(denominator != 0)
        let sign: Int128 = (denominator < 0) ? -1 : 1
        let q = SimFormat.roundedDivide(numerator * 1000 * sign, by: denominator * sign)
        self.thousandths = Int64(clamping: q)
    }

    public init(_ integer: Int64) { self.thousandths = integer.multipliedReportingOverflow(by: 1000).partialValue }

    public static func < (a: MetricNumber, b: MetricNumber) -> Bool { a.thousandths < b.thousandths }

    public var description: String { SimFormat.decimal(thousandths, scaleDigits: 3, minFraction: 0) }
}

/// The type of a metric, which fixes how values are written and compared.
public enum MetricType: String, Sendable, Hashable, CaseIterable {
    case integer, number, duration, time, word
}

/// A metric's value, or `none` when it has none yet.
public enum MetricValue: Hashable, Sendable {
    case integer(Int64)
    case number(MetricNumber)
    case duration(SimDuration)
    case time(SimTime)
    case word(String)
    case none

    /// Exactly as `get` prints it.
    public var text: String {
        switch self {
        case .integer(let v): return String(v)
        case .number(let v): return v.description
        case .duration(let v): return v.description
        case .time(let v): return v.description
        case .word(let v): return v
        case .none: return "none"
        }
    }

    /// JSON: durations and times as integer nanoseconds, no value as null.
    public var json: JSONValue {
        switch self {
        case .integer(let v): return .int(v)
        case .number(let v): return .number(v)
        case .duration(let v): return .int(v.nanoseconds)
        case .time(let v): return .int(v.nanoseconds)
        case .word(let v): return .string(v)
        case .none: return .null
        }
    }
}

/// A view's frame: `x,y,w,h` relative to its parent.
public struct FrameRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = FrameRect(x: 0, y: 0, width: 0, height: 0)

    public var description: String {
        [x, y, width, height].map(FrameRect.format).joined(separator: ",")
    }

    /// Shortest text that reads back as the same value: `390`, `0.5`, `12.25`,
    /// `100000000000000000000` — never with an exponent, which input does not accept.
    public static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return plainDecimal(String(v))
    }

    /// Swift's shortest round-trip text (`1e+20`, `1.5e-07`, `1000000000000000.0`) with the
    /// exponent written out and no trailing zeros.
    static func plainDecimal(_ text: String) -> String {
        var exponent = 0
        var end = text.endIndex
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(text[text.index(after: e)...]) else { return text }
            exponent = value
            end = e
        }
        var mantissa = text[..<end]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        // The decimal point stands after `point` digits.
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var integer = String(digits.prefix(point))
        var decimals = String(digits.dropFirst(point))
        while decimals.hasSuffix("0") { decimals.removeLast() }
        while integer.count > 1 && integer.hasPrefix("0") { integer.removeFirst() }
        let sign = negative ? "-" : ""
        return decimals.isEmpty ? sign + integer : sign + integer + "." + decimals
    }
}

/// A refresh rate in whole hertz, 1…1000 (S2).
public struct RefreshRate: Hashable, Sendable, CustomStringConvertible {
    public static let range: ClosedRange<Int> = 1...1000
    public let hertz: Int

    public init(hertz: Int) throws(RangeError) {
        guard RefreshRate.range.contains(hertz) else {
            throw RangeError("refresh rate \(hertz) Hz is outside 1…1000 Hz")
        }
        self.hertz = hertz
    }

    private init(validated hertz: Int) { self.hertz = hertz }

    public static let sixty = RefreshRate(validated: 60)

    public var description: String { "\(hertz) Hz" }
}
