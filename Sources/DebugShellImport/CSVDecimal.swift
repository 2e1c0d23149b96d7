import DebugShellCore

/// Decimal numbers as a CSV or a JSON file writes them (`12.345678901`, `-3`, `1.5e-3`), read
/// exactly — never through a `Double` — and scaled to whole nanoseconds (or any power of ten):
/// seconds with nine decimals are nanoseconds to the digit, and more decimals round to the
/// nearest nanosecond, halves away from zero.
enum CSVDecimal {
    /// Why a text is not the number wanted.
    enum Failure: Error, Equatable {
        /// Not a decimal number (`abc`, `1.2.3`, `nan`, `0x10`, empty).
        case notANumber
        /// A number, but not whole after scaling where a whole one is wanted.
        case notWhole
        /// Beyond ±`limit` after scaling.
        case outOfRange
    }

    /// The largest magnitude a time or duration may have: S1's horizon, 2^62 ns (about 146 years).
    static let limit: Int64 = 1 << 62

    /// Where a number's text is.
    private enum Part { case sign, integer, fraction, exponentSign, exponent }

    /// Significant digits kept; later ones only round (Int128 holds 38).
    private static let keptDigits = 36

    /// Powers of ten that fit an Int128.
    private static let powers: [Int128] = {
        var out: [Int128] = [1]
        for _ in 1...38 { out.append(out[out.count - 1] * 10) }
        return out
    }()

    /// The number `text` writes, times 10^`scale`, rounded to a whole number (halves away from
    /// zero), or a failure.
    ///
    /// - Parameters:
    ///   - text: ASCII: an optional sign, digits with an optional decimal point (at least one
    ///     digit), an optional exponent (`e`/`E`, optional sign, digits).
    ///   - scale: the power of ten to multiply by: 9 for seconds to nanoseconds, 3 for microseconds.
    ///   - whole: fail with ``Failure/notWhole`` rather than round.
    ///   - limit: the largest magnitude allowed.
    static func scaled(
        _ text: some Collection<UInt8>, by scale: Int, whole: Bool = false, limit: Int64 = CSVDecimal.limit
    ) -> Result<Int64, Failure> {
        var negative = false
        var mantissa: Int128 = 0
        var significant = 0
        // Powers of ten: integer digits dropped past the kept ones, fraction digits kept.
        var dropped = 0
        var fractionDigits = 0
        // A digit dropped past the kept ones was not 0: the number is not exact.
        var inexact = false
        var sawDigit = false
        var exponent = 0
        var exponentNegative = false
        var part = Part.sign
        var exponentDigits = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                if part == .sign {
                    negative = byte == UInt8(ascii: "-")
                    part = .integer
                } else if part == .exponentSign {
                    exponentNegative = byte == UInt8(ascii: "-")
                    part = .exponent
                } else {
                    return .failure(.notANumber)
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int128(byte - UInt8(ascii: "0"))
                switch part {
                case .sign, .integer, .fraction:
                    let inFraction = part == .fraction
                    if part == .sign { part = .integer }
                    sawDigit = true
                    if significant < keptDigits {
                        mantissa = mantissa * 10 + digit
                        if mantissa != 0 { significant += 1 }
                        if inFraction { fractionDigits += 1 }
                    } else {
                        if !inFraction { dropped += 1 }
                        if digit != 0 { inexact = true }
                    }
                case .exponentSign, .exponent:
                    part = .exponent
                    exponentDigits += 1
                    // Past 100000 the number is 0 or out of range whatever the rest says.
                    if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                }
            case UInt8(ascii: "."):
                guard part == .sign || part == .integer else { return .failure(.notANumber) }
                part = .fraction
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, part == .integer || part == .fraction else { return .failure(.notANumber) }
                part = .exponentSign
            default:
                return .failure(.notANumber)
            }
        }
        guard sawDigit, part != .exponentSign, part != .exponent || exponentDigits > 0 else {
            return .failure(.notANumber)
        }
        if mantissa == 0 { return .success(0) }
        let power = scale + (exponentNegative ? -exponent : exponent) - fractionDigits + dropped
        var magnitude: Int128
        if power >= 0 {
            guard power <= 38 else { return .failure(.outOfRange) }
            let (product, overflow) = mantissa.multipliedReportingOverflow(by: powers[power])
            guard !overflow else { return .failure(.outOfRange) }
            if whole && inexact { return .failure(.notWhole) }
            magnitude = product
        } else if -power > 38 {
            // Below 10^36 / 10^39: under half of one, so 0.
            if whole { return .failure(.notWhole) }
            magnitude = 0
        } else {
            let divisor = powers[-power]
            let (quotient, remainder) = mantissa.quotientAndRemainder(dividingBy: divisor)
            if whole && (remainder != 0 || inexact) { return .failure(.notWhole) }
            // Halves away from zero (a dropped digit can only matter at a half, which rounds up).
            magnitude = remainder * 2 >= divisor ? quotient + 1 : quotient
        }
        guard magnitude <= Int128(limit) else { return .failure(.outOfRange) }
        let value = Int64(magnitude)
        return .success(negative ? -value : value)
    }

    /// Nanoseconds as seconds with every digit: `12.000000001`, `3`.
    static func seconds(_ ns: Int64) -> String {
        SimFormat.decimal(ns, scaleDigits: 9, minFraction: 0)
    }
}
