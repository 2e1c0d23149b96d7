/// A span of virtual time in whole nanoseconds.
///
/// Named so that it never shadows the standard library's `Duration`. Arithmetic that a user's
/// input can reach goes through the throwing helpers; the plain operators wrap-check and saturate
/// at ``SimTime/never`` so that the engine never traps (S1).
@frozen public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    @inlinable public static var zero: SimDuration { SimDuration(nanoseconds: 0) }
    @inlinable public static func nanoseconds(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n) }
    @inlinable public static func microseconds(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n * 1_000) }
    @inlinable public static func milliseconds(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n * 1_000_000) }
    @inlinable public static func seconds(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n * 1_000_000_000) }

    @inlinable public static func < (a: SimDuration, b: SimDuration) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: SimDuration, b: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: saturatingAdd(a.nanoseconds, b.nanoseconds))
    }
    @inlinable public static func - (a: SimDuration, b: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: saturatingAdd(a.nanoseconds, -b.nanoseconds))
    }

    /// The shortest interval of anything that repeats — `every`, repeating NSTimers and GCD
    /// timers, the layout checker's seed-mode poll: 1 µs. A shorter one would cost a million
    /// events or more per simulated second without showing anything a 1 µs one does not.
    public static let minimumRepeatInterval = SimDuration(nanoseconds: 1_000)

    /// Exactly, in the largest unit in which it is at least 1: `20ms`, `16.666667ms`, `1.5s`,
    /// `0s` (``SimFormat/exact(_:)``). What it prints reads back as the same duration.
    public var description: String { SimFormat.exact(nanoseconds) }
    /// Milliseconds rounded to three decimals: `16.667ms`. Not exact: text meant to be pasted
    /// back uses ``description``.
    public var millisecondsDescription: String { SimFormat.milliseconds(nanoseconds) }
}

/// A point of virtual time: nanoseconds since the simulation started (S1).
@frozen public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    @inlinable public static var zero: SimTime { SimTime(nanoseconds: 0) }
    /// The horizon of the simulation, 2^62 ns (about 146 years): no time may reach beyond it (S1).
    @inlinable public static var horizon: SimTime { SimTime(nanoseconds: 1 << 62) }
    /// A time that never comes; what saturated arithmetic yields.
    @inlinable public static var never: SimTime { SimTime(nanoseconds: Int64.max) }

    @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: SimTime, b: SimDuration) -> SimTime {
        SimTime(nanoseconds: saturatingAdd(a.nanoseconds, b.nanoseconds))
    }
    @inlinable public static func - (a: SimTime, b: SimDuration) -> SimTime {
        SimTime(nanoseconds: saturatingAdd(a.nanoseconds, -b.nanoseconds))
    }
    @inlinable public static func - (a: SimTime, b: SimTime) -> SimDuration {
        SimDuration(nanoseconds: saturatingAdd(a.nanoseconds, -b.nanoseconds))
    }

    /// `self + d`, or an error when the result would pass the horizon (S1).
    public func adding(_ d: SimDuration) throws(RangeError) -> SimTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(d.nanoseconds)
        guard !overflow, sum <= SimTime.horizon.nanoseconds, sum >= 0 else {
            throw RangeError("time \(SimFormat.exact(nanoseconds)) + \(d) is beyond the 2^62 ns horizon")
        }
        return SimTime(nanoseconds: sum)
    }

    /// Exactly, as a duration since t = 0: `500ms`, `1.25s`, `0s` (``SimFormat/exact(_:)``).
    public var description: String { SimFormat.exact(nanoseconds) }
    /// Seconds with exactly three decimals, a clock for people: the stamp of an event line
    /// (`[0.500s]`) and the interactive prompt.
    public var eventStamp: String { SimFormat.secondsFixed3(nanoseconds) }
}

/// A value out of the simulation's range (the horizon, a rate, an overflow).
public struct RangeError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

@inlinable @inline(__always) func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { return b > 0 ? Int64.max : Int64.min }
    return sum
}

/// Deterministic text for times, durations and numbers.
public enum SimFormat {
    /// `ns` exactly, in the largest of s, ms, µs and ns in which its magnitude is at least 1,
    /// with the decimals it needs and no trailing zeros: `20ms`, `16.666667ms`, `1.5s`,
    /// `2.983333333s`, `12.5µs`, `250ns`, `0s`. The one format for durations and times: every
    /// value printed this way can be pasted into `expect` and compares equal.
    public static func exact(_ ns: Int64) -> String {
        switch ns.magnitude {
        case 0: return "0s"
        case 1_000_000_000...: return decimal(ns, scaleDigits: 9, minFraction: 0) + "s"
        case 1_000_000...: return decimal(ns, scaleDigits: 6, minFraction: 0) + "ms"
        case 1_000...: return decimal(ns, scaleDigits: 3, minFraction: 0) + "µs"
        default: return String(ns) + "ns"
        }
    }

    /// `ns` for a person reading a report: in the largest of s, ms, µs and ns in which its
    /// magnitude is at least 1, rounded (half away from zero) to at most three decimals, trailing
    /// zeros removed: `1.483s` for 1.483333334 s, `16.667ms`, `2.983s`, `20ms`, `12.5µs`, `250ns`,
    /// `0s`. A value that rounds up to 1,000 of its unit is written in the next (`1s`, not
    /// `1000ms`). Reports, tables, status lines and events' text use it; `get`, `expect`,
    /// settings and JSON keep ``exact(_:)``, which any printed value can be checked against.
    public static func readable(_ ns: Int64) -> String {
        let units: [(scale: Int128, suffix: String)] = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs")]
        if ns == 0 { return "0s" }
        // Largest unit first: thousandths of it, rounded; 1,000 of them or more is at least 1 of
        // the unit after rounding, so 999.9996 ms is already written `1s`.
        for unit in units {
            let thousandths = roundedDivide(Int128(ns), by: unit.scale / 1000)
            guard thousandths.magnitude >= 1000 else { continue }
            return decimal(Int64(clamping: thousandths), scaleDigits: 3, minFraction: 0) + unit.suffix
        }
        return String(ns) + "ns"
    }

    /// `ns` as seconds, up to nine decimals, trailing zeros removed, with an `s` suffix.
    public static func seconds(_ ns: Int64) -> String {
        decimal(ns, scaleDigits: 9, minFraction: 0) + "s"
    }

    /// `ns` as seconds with exactly three decimals (rounded half away from zero): `0.500s`.
    public static func secondsFixed3(_ ns: Int64) -> String {
        let ms = roundedDivide(Int128(ns), by: 1_000_000)
        return decimal(Int64(clamping: ms), scaleDigits: 3, minFraction: 3) + "s"
    }

    /// `ns` as milliseconds with up to three decimals: `16.667ms`.
    public static func milliseconds(_ ns: Int64) -> String {
        let us = roundedDivide(Int128(ns), by: 1_000)
        return decimal(Int64(clamping: us), scaleDigits: 3, minFraction: 0) + "ms"
    }

    /// A fixed-point value `v / 10^scaleDigits` written in decimal, with trailing zeros trimmed
    /// down to `minFraction` digits.
    public static func decimal(_ v: Int64, scaleDigits: Int, minFraction: Int) -> String {
        let negative = v < 0
        let magnitude = v.magnitude
        var scale: UInt64 = 1
        for _ in 0..<scaleDigits { scale *= 10 }
        let whole = magnitude / scale
        var frac = magnitude % scale
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: scaleDigits)
        var i = scaleDigits - 1
        while i >= 0 {
            digits[i] = UInt8(ascii: "0") + UInt8(frac % 10)
            frac /= 10
            i -= 1
        }
        var keep = scaleDigits
        while keep > minFraction && digits[keep - 1] == UInt8(ascii: "0") { keep -= 1 }
        var s = negative ? "-" : ""
        s += String(whole)
        if keep > 0 {
            s += "."
            s += String(decoding: digits[0..<keep], as: UTF8.self)
        }
        return s
    }

    /// `a / b` rounded half away from zero (b > 0).
    public static func roundedDivide(_ a: Int128, by b: Int128) -> Int128 {
        let q = a / b
        let r = a % b
        if r == 0 { return q }
        if (r.magnitude * 2) >= b.magnitude { return a < 0 ? q - 1 : q + 1 }
        return q
    }
}
