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
enum Tier: String, CaseIterable {
    case good, warning, critical, severe

    /// The tier's colour in the status line, on its scale: good green, warning yellow, then
    /// orange, and the scale's worst tier red — apple's `severe`, wwdc20's `critical`.
    func color(on scale: TierScale) -> RGB {
        switch self {
        case .good: return RGB.hue(0.3)
        case .warning: return RGB.hue(0.15)
        case .critical: return scale == .wwdc20 ? RGB.hue(0) : RGB.hue(0.08)
        case .severe: return RGB.hue(0)
        }
    }
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

    /// Milliseconds with exactly three decimals, for tables: `16.667`.
    static func fixedMilliseconds(_ ns: Int64) -> String {
        let us = SimFormat.roundedDivide(Int128(ns), by: 1_000)
        return SimFormat.decimal(Int64(clamping: us), scaleDigits: 3, minFraction: 3)
    }

    /// A signed difference: `+30`, `-2`, `0`.
    static func signed(_ value: Int64, unit: String = "") -> String {
        (value > 0 ? "+" : "") + String(value) + unit
    }

    /// A signed duration as reports write durations: `+12.5ms`, `-1.483s`, `0s`.
    static func signedDuration(_ ns: Int64) -> String {
        (ns > 0 ? "+" : ns < 0 ? "-" : "") + SimFormat.readable(ns == .min ? .max : abs(ns))
    }

    /// A duration or a time as reports write them (`SimFormat.readable`): `1.483s`, `16.667ms`.
    static func readable(_ d: SimDuration) -> String { SimFormat.readable(d.nanoseconds) }
    static func readable(_ t: SimTime) -> String { SimFormat.readable(t.nanoseconds) }

    /// Reports are at most this wide, as help is in scripts.
    static let reportColumns = 80

    /// Rows of a label and a value, the values in a column: a value that would pass 80 columns
    /// goes on over lines of its own, indented under its column and broken after a ` · ` where
    /// one fits, else at a space (`fps show`).
    static func wrappedPairs(_ rows: [[String]]) -> String {
        let labelWidth = rows.map { $0.first?.count ?? 0 }.max() ?? 0
        let indent = String(repeating: " ", count: labelWidth + 2)
        let room = max(20, reportColumns - indent.count)
        var lines: [String] = []
        for row in rows {
            let label = row.first ?? ""
            var prefix = label + String(repeating: " ", count: labelWidth - label.count + 2)
            for line in wrapped(row.count > 1 ? row[1] : "", room: room) {
                lines.append(prefix + line)
                prefix = indent
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `room` columns (a longer word stands alone), broken after a
    /// ` · ` where a part fits, else at spaces.
    static func wrapped(_ text: String, room: Int) -> [String] {
        let parts = text.split(separator: " · ", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        var line = ""
        for (k, part) in parts.enumerated() {
            let piece = k < parts.count - 1 ? part + " ·" : part
            if line.isEmpty {
                line = piece
            } else if line.count + 1 + piece.count <= room {
                line += " " + piece
            } else {
                lines.append(line)
                line = piece
            }
            // A part too long for a line of its own is broken at its spaces.
            while line.count > room {
                var words = line.split(separator: " ").map(String.init)
                var head = words.removeFirst()
                while let next = words.first, head.count + 1 + next.count <= room {
                    head += " " + next
                    words.removeFirst()
                }
                guard !words.isEmpty else { break }
                lines.append(head)
                line = words.joined(separator: " ")
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
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
