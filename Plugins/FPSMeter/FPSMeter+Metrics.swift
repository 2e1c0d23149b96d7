import DebugShellCore

/// The meter's metrics (`fps.*`): measured since `fps start` or `fps reset`, as of the stop once
/// stopped.
extension FPSMeter {
    /// Now, or when the meter stopped: the time metrics are measured at.
    var measuredAt: SimTime { stoppedAt ?? device.now }

    /// Vsyncs the meter's link skipped since start or reset (DL7).
    var skipped: Int64 {
        if stoppedAt != nil { return skippedAtStop }
        guard let id = link else { return 0 }
        return (device.timerInfo(id)?.skipped ?? 0) - skippedBase
    }

    /// The last whole second `[k s, (k+1) s)` that began at or after the start (R5), if any.
    var lastWholeSecond: Int64? {
        let k = measuredAt.nanoseconds / SecondTally.nanosecondsPerSecond - 1
        guard k >= 0, k * SecondTally.nanosecondsPerSecond >= since.nanoseconds else { return nil }
        return k
    }

    /// Frames presented in the last whole second (R5, `fps.render`).
    var renderRate: Int64? { lastWholeSecond.map { presentTally.count(inSecond: $0) } }

    /// Meter callbacks that started in the same second (`fps.callbacks`).
    var callbacksInSecond: Int64? { lastWholeSecond.map { callbackTally.count(inSecond: $0) } }

    /// Animating time since start or reset, up to now or the stop (A2).
    var animatingTime: SimDuration {
        let total = device.animatingTime(from: since)
        guard let stop = stoppedAt else { return total }
        return total - device.animatingTime(from: stop)
    }

    /// Hitch time in ms per animating second (R4); nil without animating time. The hitch time is
    /// the part of each hitch within animating time as the display shows it (R4): a frame of the
    /// animation's last ticks that is late after the animation's last expected present is a
    /// hitch, but not one of the animating seconds.
    var hitchRatio: MetricNumber? {
        let animating = animatingTime
        guard hasStarted, animating > .zero else { return nil }
        return MetricNumber(numerator: Int128(hitches.ratioTime) * 1000, denominator: Int128(animating.nanoseconds))
    }

    /// R4: the part of a hitch `(p − h, p]` that falls in animating time delayed by R3's two
    /// refreshes — the time in which the display was to show the animation's frames — at the
    /// rate the frame was promised (V5: the rate in force at its newest tick, or its commit),
    /// each refresh DL2's `duration` to the nearest nanosecond (a length, not a grid time).
    func animatingPart(of hitch: SimDuration, presentedAt present: SimTime, promisedAt promise: SimTime) -> Int64 {
        let refresh = device.displayRefreshes(from: promise, to: promise).first?.refresh ?? device.displayRefresh
        let period = SimFormat.roundedDivide(
            Int128(1_000_000_000) * Int128(refresh.divisor), by: Int128(max(1, refresh.maximum)))
        let end = present - SimDuration(nanoseconds: 2 * Int64(clamping: period))
        let start = end - hitch
        // Animating time in [start, end): both measures run to now, which is at or after `end`.
        return (device.animatingTime(from: start) - device.animatingTime(from: end)).nanoseconds
    }

    var tier: Tier? { hitchRatio.map { tierScale.tier(for: $0) } }

    public func metric(_ name: String) -> MetricValue? {
        guard FPSMeter.descriptor.metrics.contains(where: { $0.name == name }) else { return nil }
        return hasStarted ? value(of: name) : MetricValue.none
    }

    /// A metric's value since start or reset; `none` until it has one.
    private func value(of name: String) -> MetricValue {
        func integer(_ v: Int64?) -> MetricValue { v.map { .integer($0) } ?? MetricValue.none }
        func duration(_ ns: Int64?) -> MetricValue {
            ns.map { .duration(SimDuration(nanoseconds: $0)) } ?? MetricValue.none
        }
        switch name {
        case "fps.value": return integer(reading)
        case "fps.render": return integer(renderRate)
        case "fps.callbacks": return integer(callbacksInSecond)
        case "fps.skipped": return .integer(skipped)
        case "fps.hitches": return .integer(hitches.count)
        case "fps.hitch_time": return .duration(SimDuration(nanoseconds: hitches.time))
        case "fps.hitch_ratio": return hitchRatio.map { .number($0) } ?? MetricValue.none
        case "fps.tier": return tier.map { .word($0.rawValue) } ?? MetricValue.none
        case "fps.frame_p50": return duration(intervals.percentile(50))
        case "fps.frame_p95": return duration(intervals.percentile(95))
        case "fps.frame_p99": return duration(intervals.percentile(99))
        case "fps.frame_max": return duration(intervals.maximum)
        default: return MetricValue.none
        }
    }
}
