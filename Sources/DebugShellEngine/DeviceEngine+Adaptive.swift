import DebugShellCore

/// The adaptive display (V1–V5): requests, the choice of a rate at each refresh, and the
/// rates' arithmetic on the grid of the display's maximum.
extension DeviceEngine {
    /// V2: the system's default rate on an iPhone, which an app's link or animation without a
    /// range requests, and above which an app may not go without `app.high_frame_rates`; Low
    /// Power Mode caps every request at it too.
    static let systemDefaultRate: Int64 = 60

    /// V2: the highest rate an app's request may reach.
    @inline(__always) var appCap: Int64 {
        highFrameRates && !lowPower ? Int64.max : DeviceEngine.systemDefaultRate
    }

    /// V2: the rate an app's link or animation requests: its preferred rate, its minimum when
    /// it prefers none, `preferredFramesPerSecond`, or the system default; then capped.
    func request(range: FrameRateRange?, fps: Int) -> Int64 {
        capped(range.map { $0.preferred > 0 ? $0.preferred : $0.minimum }, fps: fps)
    }

    /// V4: the rate a link's cadence follows: its preferred rate (its maximum when it prefers
    /// none: it accepts anything in its range), `preferredFramesPerSecond`, or the system
    /// default; capped as its request is.
    func cadenceRate(range: FrameRateRange?, fps: Int) -> Int64 {
        capped(range.map { $0.preferred > 0 ? $0.preferred : $0.maximum }, fps: fps)
    }

    /// The rate taken from a range, else `preferredFramesPerSecond`, else the system default,
    /// capped at what an app may reach.
    private func capped(_ fromRange: Int?, fps: Int) -> Int64 {
        let asked = fromRange.map { Int64($0) } ?? (fps > 0 ? Int64(fps) : DeviceEngine.systemDefaultRate)
        return min(asked, appCap)
    }

    /// V2: the highest request active at `t`, after caps; 0 when nothing requests.
    func highestRequest(at t: Int64, maximum: Int64) -> Int64 {
        var top: Int64 = 0
        for link in activeLinks {
            top = max(top, request(range: timers[link].frameRateRange, fps: timers[link].preferredFramesPerSecond))
        }
        if plainAnimations.contains(t) { top = max(top, min(DeviceEngine.systemDefaultRate, appCap)) }
        for animation in rangedAnimations where t < animation.end {
            top = max(top, request(range: animation.range, fps: 0))
        }
        // V2: a scroll is the system's own: the display's maximum, capped only by Low Power Mode.
        if scrolls.contains(t) { top = max(top, lowPower ? min(maximum, DeviceEngine.systemDefaultRate) : maximum) }
        // V5: a frame committed and not yet presented is content the app shows: its default.
        if render.waiting != nil || render.inFlight != nil {
            top = max(top, min(DeviceEngine.systemDefaultRate, appCap))
        }
        return top
    }

    /// V3: the divisor of the lowest rate at or above `request` (the minimum with no request).
    static func divisor(for request: Int64, maximum: Int64, maxDivisor: Int64) -> Int64 {
        guard request > 0 else { return maxDivisor }
        return max(1, min(maxDivisor, maximum / request))
    }

    /// V3: the divisor the requests at `t` ask of the adaptive segment `s`.
    func wantedDivisor(at t: Int64, segment s: Int) -> Int64 {
        let seg = grid.segments[s]
        return DeviceEngine.divisor(
            for: highestRequest(at: t, maximum: seg.rate), maximum: seg.rate, maxDivisor: seg.maxDivisor)
    }

    /// V3, at the refresh `v` of an adaptive display: its rate for the next interval. Returns
    /// the refresh, re-anchored when the rate changed (V4 counts from it).
    func chooseRate(at v: VsyncGrid.Position) -> VsyncGrid.Position {
        // A change of mode waiting for its refresh (`display rate`, `display adaptive`) wins.
        guard v.segment == grid.segments.count - 1 else { return v }
        let want = wantedDivisor(at: v.time, segment: v.segment)
        guard want != grid.segments[v.segment].divisor else { return v }
        let p = grid.changeDivisor(to: want, at: v)
        linkCadencesChanged()
        return p
    }

    /// V4 (DL3 at an adaptive rate): a link fires at every m-th refresh, m = max(1,
    /// round(rate / preferred)), halves up; on a fixed display DL3 as it always was.
    func linkStep(_ link: Int, segment s: Int) -> Int64 {
        let seg = grid.segments[s]
        // A1: the app's UI link ticks at every refresh while the app animates.
        if link == uiLink { return 1 }
        guard seg.isAdaptive else {
            return DeviceEngine.gridStep(rate: seg.rate, fps: timers[link].preferredFramesPerSecond)
        }
        let p = cadenceRate(range: timers[link].frameRateRange, fps: timers[link].preferredFramesPerSecond)
        // round(M / (n · p)), halves up.
        let d = seg.divisor * p
        return max(1, (2 * seg.rate + d) / (2 * d))
    }

    /// Every active link recomputes its cadence (V4) at its next refresh: the rate, a cap or the
    /// display's mode changed.
    func linkCadencesChanged() {
        for link in activeLinks { timers[link].stepSegment = -1 }
    }

    /// Something that requests a rate changed: an adaptive display looks again at its next
    /// refresh (V3). A fixed display needs nothing.
    func requestsChanged() {
        if grid.segments[grid.segments.count - 1].isAdaptive { ensureVsync() }
    }

    /// Whether an adaptive display must process the refresh at `next` to change its rate there
    /// (V3: falling to its minimum once nothing requests), though nothing else needs it.
    func rateWillChange(at next: VsyncGrid.Position) -> Bool {
        let seg = grid.segments[next.segment]
        guard seg.isAdaptive, next.segment == grid.segments.count - 1 else { return false }
        return wantedDivisor(at: next.time, segment: next.segment) != seg.divisor
    }

    // MARK: - The driver

    /// `display adaptive`: from the first refresh at or after now that is still to come, the
    /// display is adaptive between `minimum` and `maximum` (V1), at the rate the requests then
    /// ask for (V3).
    public func setAdaptive(minimum: RefreshRate, maximum: RefreshRate) {
        hasBeenAdaptive = true
        let m = Int64(maximum.hertz)
        let maxDivisor = max(1, m / Int64(minimum.hertz))
        let divisor = DeviceEngine.divisor(
            for: highestRequest(at: now.nanoseconds, maximum: m), maximum: m, maxDivisor: maxDivisor)
        grid.becomeAdaptive(
            minimum: minimum.hertz, maximum: maximum.hertz, divisor: divisor,
            at: max(now.nanoseconds, lastProcessedVsync + 1))
        linkCadencesChanged()
        if nextVsync != nil { nextVsync = firstUnprocessedVsync() }
        ensureVsync()
    }

    /// `app.high_frame_rates` (V2: CADisableMinimumFrameDurationOnPhone).
    public func setHighFrameRates(_ on: Bool) {
        guard on != highFrameRates else { return }
        highFrameRates = on
        linkCadencesChanged()
        requestsChanged()
    }

    /// `system.low_power` (V2: Low Power Mode caps every request at 60 Hz).
    public func setLowPower(_ on: Bool) {
        guard on != lowPower else { return }
        lowPower = on
        linkCadencesChanged()
        requestsChanged()
    }

    /// `animate d --range`: an animation that requests its own range (V2) instead of the system
    /// default; it ticks as `animate d` does (A1).
    public func animate(for duration: SimDuration, range: FrameRateRange?) {
        guard let range else {
            animate(for: duration)
            return
        }
        let end = now + duration
        animations.add(start: now.nanoseconds, end: end.nanoseconds)
        rangedAnimations.removeAll { $0.end <= now.nanoseconds }
        rangedAnimations.append((end.nanoseconds, range))
        ensureVsync()
    }

    /// The refreshes since the start (V6: `clock.refreshes`); the same as ``vsyncCount`` while
    /// the display has been fixed.
    public var refreshCount: Int64 {
        grid.count(before: instantDone ? now.nanoseconds + 1 : now.nanoseconds)
    }

    /// The refresh in force at `time`.
    func refresh(atSegment s: Int) -> DisplayRefresh {
        let seg = grid.segments[s]
        return DisplayRefresh(
            maximum: Int(seg.rate), divisor: Int(seg.divisor), minimum: seg.isAdaptive ? Int(seg.minimum) : nil)
    }

    public var displayRefresh: DisplayRefresh { refresh(atSegment: grid.segmentIndex(at: now.nanoseconds)) }

    public func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)] {
        var s = grid.segmentIndex(at: from.nanoseconds)
        var result = [(time: from, refresh: refresh(atSegment: s))]
        s += 1
        while s < grid.segments.count, grid.segments[s].start < to.nanoseconds {
            let next = refresh(atSegment: s)
            if next != result[result.count - 1].refresh {
                result.append((SimTime(nanoseconds: grid.segments[s].start), next))
            }
            s += 1
        }
        return result
    }

    /// The adaptive display's range, in force or waiting for its refresh; nil when the display is
    /// (or is about to be) fixed. What `reset` and a recording's preamble keep (V1).
    public var adaptiveRange: (minimum: RefreshRate, maximum: RefreshRate)? {
        let last = grid.segments[grid.segments.count - 1]
        guard last.isAdaptive, let low = try? RefreshRate(hertz: Int(last.minimum)),
            let high = try? RefreshRate(hertz: Int(last.rate))
        else { return nil }
        return (low, high)
    }

    /// A change of the display waiting for its refresh (`display rate`, `display adaptive`).
    public var pendingRefresh: (refresh: DisplayRefresh, at: SimTime)? {
        let last = grid.segments.count - 1
        guard grid.segments[last].start > now.nanoseconds else { return nil }
        return (refresh(atSegment: last), SimTime(nanoseconds: grid.segments[last].start))
    }

    /// A whole-hertz rate for the API that has only those: max/n rounded half up.
    static func wholeHertz(_ refresh: DisplayRefresh) -> RefreshRate {
        let hz = Int((Int64(refresh.maximum) * 2 + Int64(refresh.divisor)) / (2 * Int64(refresh.divisor)))
        return (try? RefreshRate(hertz: max(1, hz))) ?? .sixty
    }

    /// V5: the expected present of a frame on an adaptive display counts refreshes at the rate
    /// in force at `time` (its tick or its commit): the `count`-th refresh after it at that rate,
    /// even if the rate changes before. Nil on a fixed display (R3 as it always was).
    func refreshAtRateInForce(after time: SimTime, count: Int64) -> SimTime? {
        let s = grid.segmentIndex(at: time.nanoseconds)
        guard grid.segments[s].isAdaptive else { return nil }
        // The last refresh of segment s at or before `time`, then `count` on at its rate.
        var k: Int64 = 0
        let first = grid.first(atOrAfter: time.nanoseconds)
        if first.segment == s {
            k = first.time == time.nanoseconds ? first.k : first.k - 1
        } else {
            // `time` is after the last refresh of s: find it by walking back from the next anchor.
            let seg = grid.segments[s]
            let nextStart = grid.segments[s + 1].start
            var j = (nextStart - seg.start) / max(1, grid.period(segment: s).nanoseconds)
            while j > 0 && grid.time(segment: s, k: j) > time.nanoseconds { j -= 1 }
            while grid.time(segment: s, k: j + 1) <= time.nanoseconds { j += 1 }
            k = j
        }
        return SimTime(nanoseconds: grid.time(segment: s, k: k + count))
    }
}
