import DebugShellCore

/// The meter's line in the live status block, and the colours of its numbers.
extension FPSMeter {
    /// `fps 58 · render 31 · hitch 12.4 ms/s warning · ▂▃▅▇`, and on an adaptive display
    /// `· display 60 Hz (capped: Low Power Mode; 10–120 Hz)`; nil when not running or hidden.
    public func statusLine() -> StyledText? {
        guard link != nil else { return nil }
        // HyFPSLabel's autohide: hidden 2 s after the reading last changed, shown when it changes.
        if autohides, reading != nil, device.now - readingChangedAt >= FPSMeter.autohideDelay { return nil }
        let rate = Int64(device.refreshRate.hertz)
        var line = StyledText()
        line.append("fps ")
        let render = renderRate
        if let reading {
            line.append(
                String(reading), FPSMeter.readingStyle(reading, render: render, missed: missedInSecond, rate: rate))
        } else {
            line.append("—")
        }
        line.append(" · render ")
        if let render {
            // What the display showed is the number to judge by: it gets the label's hue.
            line.append(String(render), .color(FPSMeter.labelColor(render, rate: rate)))
        } else {
            line.append("—")
        }
        line.append(" · hitch ")
        if let ratio = hitchRatio {
            // The ratio as `get` and `fps show` print it: one precision for one quantity.
            line.append("\(ratio) ms/s ")
            let tier = tierScale.tier(for: ratio)
            line.append(tier.rawValue, .color(tier.color(on: tierScale)))
        } else {
            line.append("—")
        }
        // V6: on an adaptive display, the rate it runs at now and its range.
        let refresh = device.displayRefresh
        if let minimum = refresh.minimum {
            // V2: a link asking more than 60 Hz held at 60 says why, in a few words (`fps show`
            // prints the fix).
            let cap = cappedRequest(configuration.range).map { FPSMeter.brief($0.0) + "; " } ?? ""
            // V12: an iPad says so (the iPhone, the default, goes unsaid).
            let kind = device.deviceKind == .iphone ? "" : "\(device.deviceKind.name) "
            line.append(" · display \(refresh.rateText) (\(cap)\(kind)\(minimum)–\(refresh.maximum) Hz)")
        }
        // Scaled to the display's highest rate, as `fps history` is, so bars stay comparable
        // when an adaptive display changes its rate.
        let recent = FPSMeter.sparkline(
            (max(0, windows.count - 8)..<windows.count).lazy.map { [windows] in windows[$0].reading },
            rate: Int64(refresh.maximum))
        if !recent.isEmpty { line.append(" · \(recent)") }
        return line
    }

    /// The label's number is coloured as HyFPSLabel colours it unless it misleads: when the
    /// display missed vsyncs that expected a present in the last whole second and presented a
    /// number of frames more than 5 % of the rate away from the reading, the reading is drawn
    /// plain — a green 60 over a display that shows 30 would say "all is well" where the display
    /// says otherwise. A still screen presents little and misses nothing: its label keeps its hue.
    static func readingStyle(_ reading: Int64, render: Int64?, missed: Int64?, rate: Int64) -> StyledText.Style {
        guard let render, let missed, missed > 0, 20 * abs(reading - render) > max(1, rate) else {
            return .color(labelColor(reading, rate: rate))
        }
        return .plain
    }

    /// Vsyncs of the last whole second (R5's) that expected a present and had none (the lab's
    /// ground truth); nil before one such second.
    var missedInSecond: Int64? {
        guard let k = lastWholeSecond else { return nil }
        let one = SimDuration(nanoseconds: 1)
        let from = SimTime(nanoseconds: k * SecondTally.nanosecondsPerSecond) - one
        return ledger.span(after: from, through: from + .seconds(1)).missed
    }

    /// HyFPSLabel's hue, `(fps − 24) / 120` above 24 at 60 Hz, rescaled so that the refresh rate
    /// is green (0.3) at any rate R: `(fps − 0.4 R) / 2R`, red (0) at or below 0.4 R. Written as
    /// `(5 fps − 2R) / 10R` so that at 60 Hz it rounds exactly as the original's division.
    static func labelColor(_ fps: Int64, rate: Int64) -> RGB {
        let r = max(1, rate)
        let f = min(max(0, fps), r)
        return RGB.hue(max(0, Double(5 * f - 2 * r) / Double(10 * r)))
    }
}
