import DebugShellCore

/// The adaptive display (V1–V5): what requests a rate, and the choice of a rate at each refresh;
/// the rates' arithmetic on the grid of the display's maximum is ``Display``'s.
extension DeviceEngine {
    /// V2: the highest request active at `t`, after caps; 0 when nothing requests.
    func highestRequest(at t: Int64, maximum: Int64) -> Int64 {
        var top: Int64 = 0
        for link in timers.activeLinks {
            top = max(
                top,
                display.request(
                    range: timers[link].frameRateRange, fps: timers[link].preferredFramesPerSecond, maximum: maximum))
        }
        if runLoop.plainAnimations.contains(t) { top = max(top, display.defaultRequest) }
        for animation in runLoop.rangedAnimations where t < animation.end {
            top = max(top, display.request(range: animation.range, fps: 0, maximum: maximum))
        }
        // V2: a scroll is the system's own: the display's maximum, capped only by Low Power Mode.
        if runLoop.scrolls.contains(t) { top = max(top, display.scrollRequest(maximum: maximum)) }
        // V5: a frame committed and not yet presented asks what its producers asked; V17: so
        // does one whose commit is under way.
        if render.hasFrames {
            top = max(top, display.request(ask: render.highestAsk, maximum: maximum))
        }
        if let frame = main.runningFrame { top = max(top, display.request(ask: frame.ask, maximum: maximum)) }
        return top
    }

    /// V5: what the animations ticking at `t` ask, before caps: the highest ranged animation's
    /// request, the system default for one without a range (and for a tick no animation claims);
    /// V17: a scroll's tick, what the scroll asks.
    func animationAsk(at t: Int64) -> Int64 {
        if runLoop.scrolls.contains(t) { return Display.scrollAsk }
        var ask: Int64 = runLoop.plainAnimations.contains(t) ? Display.systemDefaultRate : 0
        for animation in runLoop.rangedAnimations where t < animation.end {
            ask = max(ask, Display.ask(range: animation.range, fps: 0))
        }
        return ask > 0 ? ask : Display.systemDefaultRate
    }

    /// V5: what the link `i` asks before caps (``Display/ask(range:fps:)``).
    func linkAsk(_ i: Int) -> Int64 {
        Display.ask(range: timers[i].frameRateRange, fps: timers[i].preferredFramesPerSecond)
    }

    /// V5: what the code changing the UI now asks for the frame that shows it: a display link's
    /// callback (the FPS meter's label, F3) what its link asks; anything else the system default.
    var callerAsk: Int64 {
        let running = callouts.running
        guard running.kind == .displayLink, running.detail >= 0, running.detail < timers.count else {
            return Display.systemDefaultRate
        }
        return linkAsk(running.detail)
    }

    /// V3: the divisor the requests at `t` ask of the adaptive segment `s`.
    func wantedDivisor(at t: Int64, segment s: Int) -> Int64 {
        let seg = display.grid.segments[s]
        return Display.divisor(
            for: highestRequest(at: t, maximum: seg.rate), maximum: seg.rate, maxDivisor: seg.maxDivisor)
    }

    /// V3, at the refresh `v` of an adaptive display: its rate for the next interval. Returns
    /// the refresh, re-anchored when the rate changed (V4 counts from it).
    func chooseRate(at v: VsyncGrid.Position) -> VsyncGrid.Position {
        // A change of mode waiting for its refresh (`display rate`, `display adaptive`) wins.
        guard v.segment == display.grid.segments.count - 1 else { return v }
        var want = wantedDivisor(at: v.time, segment: v.segment)
        let divisor = display.grid.segments[v.segment].divisor
        guard want != divisor else { return v }
        if want > divisor && display.ramp > 0 {
            // V16: on its way down the display holds each rate `ramp` refreshes (counted from the
            // refresh at which it took that rate), then falls one rate of its ladder.
            guard v.k >= display.ramp else { return v }
            want = divisor + 1
        }
        let p = display.grid.changeDivisor(to: want, at: v)
        timers.linkCadencesChanged()
        return p
    }

    /// V4 (DL3 at an adaptive rate): the step of a link's cadence in segment `s` (Display).
    func linkStep(_ link: Int, segment s: Int) -> Int64 {
        // A1: the app's UI link ticks at every refresh while the app animates.
        if link == uiLink { return 1 }
        return display.linkStep(
            segment: s, fps: timers[link].preferredFramesPerSecond, range: timers[link].frameRateRange)
    }

    /// Something that requests a rate changed: an adaptive display looks again at its next
    /// refresh (V3). A fixed display needs nothing.
    func requestsChanged() {
        if display.endsAdaptive { ensureVsync() }
    }

    /// Whether an adaptive display must process the refresh at `next` to change its rate there
    /// or later (V3: falling to its minimum once nothing requests; V16: stepping down, each rate
    /// held its refreshes), though nothing else needs it.
    func rateWillChange(at next: VsyncGrid.Position) -> Bool {
        let seg = display.grid.segments[next.segment]
        guard seg.isAdaptive, next.segment == display.grid.segments.count - 1 else { return false }
        return wantedDivisor(at: next.time, segment: next.segment) != seg.divisor
    }

    // MARK: - The touch and the ramp (V15, V16)

    /// V15: a scroll's touch raises an adaptive display at once: from the first vsync of the grid
    /// of its maximum at or after now that is still to come, it runs at the rate the scroll asks
    /// (the maximum, 60 Hz in Low Power Mode), not waiting for its next refresh at the old rate.
    func touchBoost() {
        guard display.endsAdaptive else { return }
        let s = display.grid.segments.count - 1
        let seg = display.grid.segments[s]
        let want = Display.divisor(
            for: display.scrollRequest(maximum: seg.rate), maximum: seg.rate, maxDivisor: seg.maxDivisor)
        guard want < seg.divisor else { return }
        let from = max(clock.firstOpenTime, display.lastProcessedVsync + 1)
        guard display.grid.changeDivisor(to: want, atGridVsyncAtOrAfter: from) != nil else { return }
        timers.linkCadencesChanged()
        if display.nextVsync != nil { display.nextVsync = firstUnprocessedVsync() }
        ensureVsync()
    }

    /// `display.ramp` (V16): the refreshes an adaptive display holds each rate on its way down.
    public var displayRamp: Int {
        get { Int(display.ramp) }
        set {
            guard Int64(newValue) != display.ramp else { return }
            display.ramp = Int64(max(0, newValue))
            requestsChanged()
        }
    }

    // MARK: - The driver

    /// `display adaptive`: from the first refresh at or after now that is still to come, the
    /// display is adaptive between `minimum` and `maximum` (V1), at the rate the requests then
    /// ask for (V3).
    public func setAdaptive(minimum: RefreshRate, maximum: RefreshRate) {
        display.hasBeenAdaptive = true
        let m = Int64(maximum.hertz)
        let maxDivisor = max(1, m / Int64(minimum.hertz))
        let divisor = Display.divisor(
            for: highestRequest(at: clock.now.nanoseconds, maximum: m), maximum: m, maxDivisor: maxDivisor)
        display.grid.becomeAdaptive(
            minimum: minimum.hertz, maximum: maximum.hertz, divisor: divisor,
            at: max(clock.now.nanoseconds, display.lastProcessedVsync + 1))
        timers.linkCadencesChanged()
        if display.nextVsync != nil { display.nextVsync = firstUnprocessedVsync() }
        ensureVsync()
    }

    /// `device iphone|ipad` (V12): an iPad's app has no cap, and its ProMotion display runs
    /// 24–120 Hz.
    public func setDeviceKind(_ kind: DeviceKind) {
        guard kind != display.kind else { return }
        display.kind = kind
        timers.linkCadencesChanged()
        requestsChanged()
    }

    public var deviceKind: DeviceKind { display.kind }

    /// `app.high_frame_rates` (V2: CADisableMinimumFrameDurationOnPhone).
    public func setHighFrameRates(_ on: Bool) {
        guard on != display.highFrameRates else { return }
        display.highFrameRates = on
        timers.linkCadencesChanged()
        requestsChanged()
    }

    /// `system.low_power` (V2: Low Power Mode caps every request at 60 Hz).
    public func setLowPower(_ on: Bool) {
        guard on != display.lowPower else { return }
        display.lowPower = on
        timers.linkCadencesChanged()
        requestsChanged()
    }

    /// `animate d --range`: an animation that requests its own range (V2) instead of the system
    /// default; it ticks as `animate d` does (A1).
    public func animate(for duration: SimDuration, range: FrameRateRange?) {
        guard let range else {
            animate(for: duration)
            return
        }
        let end = clock.now + duration
        runLoop.animate(from: clock.now.nanoseconds, to: end.nanoseconds, range: range)
        ensureVsync()
    }

    /// The refreshes since the start (V6: `clock.refreshes`); the same as ``vsyncCount`` while
    /// the display has been fixed.
    public var refreshCount: Int64 { display.grid.count(before: clock.firstOpenTime) }

    public var displayRefresh: DisplayRefresh {
        display.refresh(atSegment: display.grid.segmentIndex(at: clock.now.nanoseconds))
    }

    public func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)] {
        display.displayRefreshes(from: from, to: to)
    }

    /// The adaptive display's range, in force or waiting for its refresh; nil when the display is
    /// (or is about to be) fixed. What `reset` and a recording's preamble keep (V1).
    public var adaptiveRange: (minimum: RefreshRate, maximum: RefreshRate)? { display.adaptiveRange }

    /// A change of the display waiting for its refresh (`display rate`, `display adaptive`).
    public var pendingRefresh: (refresh: DisplayRefresh, at: SimTime)? { display.pendingRefresh(after: clock.now) }
}
