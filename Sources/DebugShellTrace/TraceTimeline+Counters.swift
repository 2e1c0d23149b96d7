import DebugShellCore

/// The counters: presented frames per second, the main thread's busy time, the display's rate.
extension TraceTimeline {
    // MARK: Counters

    /// Counts every whole second that ended by `t` (of the simulation): its presented frames and
    /// the main thread's busy time in it, each written at the second's start, as a viewer reads a
    /// counter — the value from its time to the next — and only when it changed. A second the
    /// recording began in is measured over its part recorded, as a rate. Seconds wholly idle are
    /// passed in one step. With `partial`, the second running at `t` is written too, measured
    /// over its part so far (the end of a recording).
    @inline(__always)
    mutating func countSeconds(upTo t: Int64, partial: Bool) {
        // Most calls are within the second being measured, with nothing to do.
        if !partial && (second + 1) * 1_000_000_000 > t && busyHead <= 1024 { return }
        countWholeSeconds(upTo: t, partial: partial)
    }

    private mutating func countWholeSeconds(upTo t: Int64, partial: Bool) {
        let length: Int64 = 1_000_000_000
        while (second + 1) * length <= t {
            tally(1)
            let hi = (second + 1) * length
            let lo = max(second * length, simulationStart)
            writeSecond(from: lo, to: hi)
            second += 1
            // A stretch with nothing presented and the thread idle reads the same every second:
            // skip to its end.
            if presentsInSecond == 0, lastBusy == 0, lastPresented == 0 {
                let (_, idleUntil) = busyTime(from: second * length, to: (second + 1) * length)
                if let idleUntil { second = max(second, min(idleUntil, t) / length) }
            }
        }
        if partial, t > max(second * length, simulationStart) {
            writeSecond(from: max(second * length, simulationStart), to: t)
        }
        if busyHead > 1024 {
            tally(busyItems.count)
            busyItems.removeFirst(busyHead)
            busyHead = 0
        }
    }

    /// Writes the counters of `[lo, hi)`, at `lo`: frames presented per second, and the main
    /// thread's busy time over the time (RL6's measure).
    private mutating func writeSecond(from lo: Int64, to hi: Int64) {
        let elapsed = Int128(hi - lo)
        setPresented(MetricNumber(numerator: Int128(presentsInSecond) * 1_000_000_000, denominator: elapsed), at: lo)
        presentsInSecond = 0
        let (busy, _) = busyTime(from: lo, to: hi)
        setBusy(MetricNumber(numerator: Int128(busy), denominator: elapsed), at: lo)
    }

    /// The main thread's busy time in `[lo, hi)`, and — when it was idle or busy all that time
    /// and will read the same until some later time — that time.
    private mutating func busyTime(from lo: Int64, to hi: Int64) -> (Int64, Int64?) {
        let head = busyHead
        while busyHead < busyItems.count, busyItems[busyHead].end <= lo { busyHead += 1 }
        tally(busyHead - head)
        if busyHead == busyItems.count { return (0, Int64.max) }
        let first = busyItems[busyHead]
        if first.start >= hi { return (0, first.start) }
        if first.start <= lo && first.end >= hi { return (hi - lo, nil) }
        var busy: Int64 = 0
        var k = busyHead
        while k < busyItems.count, busyItems[k].start < hi {
            busy += min(busyItems[k].end, hi) - max(busyItems[k].start, lo)
            k += 1
        }
        tally(k - busyHead)
        return (busy, nil)
    }

    private mutating func setBusy(_ value: MetricNumber, at t: Int64) {
        guard value.thousandths != lastBusy else { return }
        lastBusy = value.thousandths
        record(.counter, track: 0, name: Fixed.mainBusy.rawValue, start: t, end: t, primary: value.thousandths)
    }

    /// V6: the display's rate from the refresh at which it took effect, written when it changes,
    /// once the display has been adaptive (a fixed display's trace is unchanged).
    mutating func displayRate(at t: Int64, device: any SimulatedDevice) {
        let refresh = device.displayRefresh
        guard refresh.isAdaptive || lastDisplayRate >= 0 else { return }
        let value = refresh.millihertz
        guard value != lastDisplayRate else { return }
        lastDisplayRate = value
        record(.counter, track: 0, name: intern("Display rate"), start: t, end: t, primary: value)
    }

    private mutating func setPresented(_ value: MetricNumber, at t: Int64) {
        guard value.thousandths != lastPresented else { return }
        lastPresented = value.thousandths
        record(.counter, track: 0, name: Fixed.presentedFPS.rawValue, start: t, end: t, primary: value.thousandths)
    }
}
