import DebugShellCore

/// The display: its vsync grid with the rate changes made and waiting (S2), where the engine is
/// on it, and what caps an app's request for a rate on an adaptive display (V1–V6). The rates'
/// arithmetic lives here; the choice of a rate at each refresh, which reads what requests, is
/// the engine's (DeviceEngine+Adaptive.swift).
struct Display: ~Copyable {
    var grid: VsyncGrid
    /// The next vsync to process, or nil while nothing needs vsyncs (idle time is free).
    var nextVsync: VsyncGrid.Position?
    /// Vsyncs at or before this time are past: the latest vsync processed, or the latest instant
    /// whose vsync step (S4.3) is over, whether a vsync was due then or not.
    var lastProcessedVsync: Int64 = -1
    /// `app.high_frame_rates` and `system.low_power` (V2), as the session sets them.
    var highFrameRates = false
    var lowPower = false
    /// Whether `display adaptive` ever ran (V6: `clock.refreshes` is listed from then).
    var hasBeenAdaptive = false
    /// `device iphone|ipad` (V12): an iPad has no app cap.
    var kind = DeviceKind.iphone
    /// `display.ramp` (V16): the refreshes an adaptive display holds each rate on its way down,
    /// one rate of its ladder at a time; 0 falls at once (V3).
    var ramp: Int64 = 0

    init(rate: Int) {
        grid = VsyncGrid(rate: rate)
    }

    /// The first vsync not processed yet at or after `time` (the first time not yet past).
    @inline(__always) func firstUnprocessedVsync(atOrAfter time: Int64) -> VsyncGrid.Position {
        grid.first(atOrAfter: max(lastProcessedVsync + 1, time))
    }

    /// Whether the display is adaptive from its last change on (the one in force or waiting).
    @inline(__always) var endsAdaptive: Bool { grid.segments[grid.segments.count - 1].isAdaptive }

    // MARK: Requests (V2)

    /// V2: the system's default rate on an iPhone, which an app's link or animation without a
    /// range requests, and above which an app may not go without `app.high_frame_rates`; Low
    /// Power Mode caps every request at it too.
    static let systemDefaultRate: Int64 = 60

    /// A link's `preferredFramesPerSecond` as the engine keeps it when the app set it to 0: the
    /// native rate (V2), where 0 is a link that set nothing.
    static let nativeRate = -1

    /// V2: the highest rate an app's request may reach: the system default on an iPhone without
    /// CADisableMinimumFrameDurationOnPhone, and for every app in Low Power Mode; an iPad has no
    /// app cap (V12).
    @inline(__always) var appCap: Int64 {
        if lowPower { return Display.systemDefaultRate }
        return highFrameRates || kind == .ipad ? Int64.max : Display.systemDefaultRate
    }

    /// V2: the rate an app's link or animation requests of a display whose maximum is
    /// `maximum`: its preferred rate, its minimum when it prefers none, `preferredFramesPerSecond`
    /// (0 set by the app: the native rate), or the system default; then capped.
    func request(range: FrameRateRange?, fps: Int, maximum: Int64) -> Int64 {
        capped(range.map { $0.preferred > 0 ? $0.preferred : $0.minimum }, fps: fps, maximum: maximum)
    }

    /// V4: the rate a link's cadence follows: its preferred rate (its maximum when it prefers
    /// none: it accepts anything in its range), `preferredFramesPerSecond` (0 set by the app: the
    /// native rate), or the system default; capped as its request is.
    func cadenceRate(range: FrameRateRange?, fps: Int, maximum: Int64) -> Int64 {
        capped(range.map { $0.preferred > 0 ? $0.preferred : $0.maximum }, fps: fps, maximum: maximum)
    }

    /// The rate taken from a range, else `preferredFramesPerSecond` (the native rate, the
    /// display's maximum, when the app set 0), else the system default, capped at what an app
    /// may reach.
    private func capped(_ fromRange: Int?, fps: Int, maximum: Int64) -> Int64 {
        let asked =
            fromRange.map { Int64($0) }
            ?? (fps > 0 ? Int64(fps) : fps == Display.nativeRate ? maximum : Display.systemDefaultRate)
        return min(asked, appCap)
    }

    /// V2: what the system default request gives after caps (an animation without a range).
    @inline(__always) var defaultRequest: Int64 { min(Display.systemDefaultRate, appCap) }

    /// V5: a frame's ask for the native rate: the display's maximum, capped as the app's requests
    /// are; and the ask of a scroll's frame: the system's, the display's maximum, capped only by
    /// Low Power Mode (V17). The scroll's is the higher, so that the highest of a frame's asks is
    /// still the one that wins.
    static let nativeAsk = Int64.max - 1
    static let scrollAsk = Int64.max

    /// V5: what a frame's producer asks before caps, kept with the frame while it is committed,
    /// waits or is in flight: a range's preferred rate (its minimum when it prefers none), `--fps`
    /// (0 set by the app: the native rate, ``nativeAsk`` until a maximum caps it), or the system
    /// default.
    static func ask(range: FrameRateRange?, fps: Int) -> Int64 {
        if let range { return Int64(range.preferred > 0 ? range.preferred : range.minimum) }
        return fps > 0 ? Int64(fps) : fps == Display.nativeRate ? Display.nativeAsk : Display.systemDefaultRate
    }

    /// V2, V5: the request a frame's `ask` makes of a display whose maximum is `maximum`, after
    /// caps: the same as its producer's (``request(range:fps:maximum:)``); a scroll's frame asks
    /// what the scroll does (V17).
    @inline(__always) func request(ask: Int64, maximum: Int64) -> Int64 {
        if ask == Display.scrollAsk { return scrollRequest(maximum: maximum) }
        return min(ask == Display.nativeAsk ? maximum : ask, appCap)
    }

    /// V2: a scroll is the system's own: the display's maximum, capped only by Low Power Mode.
    @inline(__always) func scrollRequest(maximum: Int64) -> Int64 {
        lowPower ? min(maximum, Display.systemDefaultRate) : maximum
    }

    /// V3: the divisor of the lowest rate at or above `request` (the minimum with no request).
    static func divisor(for request: Int64, maximum: Int64, maxDivisor: Int64) -> Int64 {
        guard request > 0 else { return maxDivisor }
        return max(1, min(maxDivisor, maximum / request))
    }

    /// V4 (DL3 at an adaptive rate): a link fires at every m-th refresh of segment `s`, m =
    /// max(1, round(rate / preferred)), halves up; on a fixed display DL3, where a range's
    /// preferred rate (its maximum when it prefers none) stands for `preferredFramesPerSecond`.
    func linkStep(segment s: Int, fps: Int, range: FrameRateRange?) -> Int64 {
        let seg = grid.segments[s]
        guard seg.isAdaptive else {
            guard let range else { return DeviceEngine.gridStep(rate: seg.rate, fps: fps) }
            // DL3: the range replaces `preferredFramesPerSecond`; no cap on a fixed display.
            return DeviceEngine.gridStep(rate: seg.rate, fps: range.preferred > 0 ? range.preferred : range.maximum)
        }
        let p = cadenceRate(range: range, fps: fps, maximum: seg.rate)
        // round(M / (n · p)), halves up.
        let d = seg.divisor * p
        return max(1, (2 * seg.rate + d) / (2 * d))
    }

    // MARK: Reading the refresh

    /// The refresh in force in segment `s`.
    func refresh(atSegment s: Int) -> DisplayRefresh {
        let seg = grid.segments[s]
        return DisplayRefresh(
            maximum: Int(seg.rate), divisor: Int(seg.divisor), minimum: seg.isAdaptive ? Int(seg.minimum) : nil)
    }

    /// A whole-hertz rate for the API that has only those: max/n rounded half up.
    static func wholeHertz(_ refresh: DisplayRefresh) -> RefreshRate {
        let hz = Int((Int64(refresh.maximum) * 2 + Int64(refresh.divisor)) / (2 * Int64(refresh.divisor)))
        return (try? RefreshRate(hertz: max(1, hz))) ?? .sixty
    }

    func refreshRates(from: SimTime, to: SimTime) -> [RefreshRateChange] {
        func rate(_ s: Int) -> RefreshRate { Display.wholeHertz(refresh(atSegment: s)) }
        var s = grid.segmentIndex(at: from.nanoseconds)
        var rates = [RefreshRateChange(time: from, rate: rate(s))]
        s += 1
        while s < grid.segments.count, grid.segments[s].start < to.nanoseconds {
            // An adaptive display's change to the same whole-hertz rate is no change here.
            if rate(s) != rates[rates.count - 1].rate || !grid.segments[s].isAdaptive {
                rates.append(RefreshRateChange(time: SimTime(nanoseconds: grid.segments[s].start), rate: rate(s)))
            }
            s += 1
        }
        return rates
    }

    func displayRefreshes(from: SimTime, to: SimTime) -> [(time: SimTime, refresh: DisplayRefresh)] {
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
    var adaptiveRange: (minimum: RefreshRate, maximum: RefreshRate)? {
        let last = grid.segments[grid.segments.count - 1]
        guard last.isAdaptive, let low = try? RefreshRate(hertz: Int(last.minimum)),
            let high = try? RefreshRate(hertz: Int(last.rate))
        else { return nil }
        return (low, high)
    }

    /// A change of the display after `now`, waiting for its refresh (`display rate`, `display
    /// adaptive`).
    func pendingRefresh(after now: SimTime) -> (refresh: DisplayRefresh, at: SimTime)? {
        let last = grid.segments.count - 1
        guard grid.segments[last].start > now.nanoseconds else { return nil }
        return (refresh(atSegment: last), SimTime(nanoseconds: grid.segments[last].start))
    }

    /// The refresh rate a pending change will set, if one after `now` is waiting for its vsync.
    func pendingRate(after now: SimTime) -> (rate: RefreshRate, at: SimTime)? {
        guard let last = grid.segments.last, last.start > now.nanoseconds,
            let rate = try? RefreshRate(hertz: Int(last.rate))
        else { return nil }
        return (rate, SimTime(nanoseconds: last.start))
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
