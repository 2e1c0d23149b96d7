import DebugShellCore

/// A hitch-ratio scale (`fps tiers`), the setting `fps.tiers`.
enum TierScale: String, CommandLineChoice {
    /// The Xcode Organizer's: good ≤ 10, warning ≤ 25, critical ≤ 50, severe above (ms/s).
    case apple
    /// The WWDC20 tech talks': good < 5, warning 5 to < 10, critical ≥ 10 (ms/s).
    case wwdc20

    func tier(for ratio: MetricNumber) -> Tier {
        let ms = ratio.thousandths
        switch self {
        case .apple:
            if ms <= 10_000 { return .good }
            if ms <= 25_000 { return .warning }
            if ms <= 50_000 { return .critical }
            return .severe
        case .wwdc20:
            if ms < 5_000 { return .good }
            if ms < 10_000 { return .warning }
            return .critical
        }
    }

    /// One line for `fps tiers`.
    var summary: String {
        switch self {
        case .apple: return "apple (Xcode Organizer): good ≤ 10 ms/s · warning ≤ 25 · critical ≤ 50 · severe above"
        case .wwdc20: return "wwdc20 (WWDC20 tech talks): good < 5 ms/s · warning 5 to < 10 · critical ≥ 10"
        }
    }
}

/// A hitch ratio's tier (R4, `fps.tier`).
enum Tier: String {
    case good, warning, critical, severe
}

extension FPSMeter {
    /// Block characters from low to high.
    static let sparks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One block per reading, 0 → `▁` up to the refresh rate → `█`.
    static func sparkline(_ readings: some Sequence<Int64>, rate: Int64) -> String {
        let top = Int64(sparks.count - 1)
        var out = ""
        for reading in readings {
            let level = SimFormat.roundedDivide(Int128(max(0, reading)) * Int128(top), by: Int128(max(1, rate)))
            out.append(sparks[Int(min(Int128(top), level))])
        }
        return out
    }

    /// A ratio with one decimal, rounded half away from zero: `494.4`.
    static func oneDecimal(_ value: MetricNumber) -> String {
        let tenths = SimFormat.roundedDivide(Int128(value.thousandths), by: 100)
        return SimFormat.decimal(Int64(clamping: tenths), scaleDigits: 1, minFraction: 1)
    }

    /// Milliseconds with exactly three decimals, for tables: `16.667`.
    static func fixedMilliseconds(_ ns: Int64) -> String {
        let us = SimFormat.roundedDivide(Int128(ns), by: 1_000)
        return SimFormat.decimal(Int64(clamping: us), scaleDigits: 3, minFraction: 3)
    }

    /// A signed difference: `+30`, `-2`, `0`.
    static func signed(_ value: Int64, unit: String = "") -> String {
        (value > 0 ? "+" : "") + String(value) + unit
    }

    /// A signed duration, exactly: `+12.5ms`, `-1.483333333s`, `0s`.
    static func signedDuration(_ ns: Int64) -> String {
        let magnitude = SimDuration(nanoseconds: ns == .min ? .max : abs(ns))
        return (ns > 0 ? "+" : ns < 0 ? "-" : "") + magnitude.description
    }

    /// Columns padded to their widest cell, two spaces apart; `right` columns are right-aligned.
    static func table(_ rows: [[String]], right: Set<Int> = []) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                if i > 0 { line += "  " }
                line += right.contains(i) ? pad + cell : (i == row.count - 1 ? cell : cell + pad)
            }
            return line
        }.joined(separator: "\n")
    }
}
