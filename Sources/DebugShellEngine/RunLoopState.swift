import DebugShellCore

/// The run loop's mode and what sets it, and the app's animating time: the mode in force and its
/// history (RL1, S4.2), scrolls (tracking mode, A1), and the animations that make the UI link
/// tick (A1, A2) and request a rate of an adaptive display (V2).
struct RunLoopState: ~Copyable {
    var mode: RunLoopMode = .default
    var modeHistory: [(time: Int64, mode: RunLoopMode)] = [(0, .default)]
    var scrolls = SpanUnion()
    var animations = SpanUnion()
    /// The animations that request the system default (V2): every one but `animate --range`.
    var plainAnimations = SpanUnion()
    /// `plainAnimations`' token for each token of `animations` handed out.
    var plainTokens: [Int: Int] = [:]
    /// `animate d --range`: its end and the range it requests (V2).
    var rangedAnimations: [(end: Int64, range: FrameRateRange)] = []

    // MARK: Modes (RL1, S4.2)

    /// The run-loop mode in force at `time`, after that instant's mode changes (S4.2).
    @inline(__always) func mode(at time: SimTime) -> RunLoopMode {
        var lo = 0
        var hi = modeHistory.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if modeHistory[mid].time <= time.nanoseconds { lo = mid } else { hi = mid - 1 }
        }
        return modeHistory[lo].mode
    }

    /// The mode classes serviced in the current mode: its own and `common` (RL1).
    @inline(__always) var currentClasses: (Int, Int) {
        mode == .tracking ? (1, 2) : (0, 2)
    }

    /// A mode change at `t`: tracking while a scroll runs, default otherwise. Returns the new
    /// mode if it changed.
    mutating func changeMode(at t: Int64) -> RunLoopMode? {
        let newMode: RunLoopMode = scrolls.contains(t) ? .tracking : .default
        guard newMode != mode else { return nil }
        mode = newMode
        modeHistory.append((t, newMode))
        return newMode
    }

    // MARK: Animations (A1, A2, V2)

    /// An animation over `[start, end)` that requests the system default.
    mutating func animate(from start: Int64, to end: Int64) {
        animations.add(start: start, end: end)
        plainAnimations.add(start: start, end: end)
    }

    /// `animate d --range`: an animation over `[start, end)` that requests `range` (V2).
    mutating func animate(from start: Int64, to end: Int64, range: FrameRateRange) {
        animations.add(start: start, end: end)
        rangedAnimations.removeAll { $0.end <= start }
        rangedAnimations.append((end, range))
    }

    /// An animation from `start` until ended, or until `end` when one is given.
    mutating func beginAnimation(at start: Int64, until end: Int64? = nil) -> Int {
        guard let end else {
            let token = animations.begin(at: start)
            plainTokens[token] = plainAnimations.begin(at: start)
            return token
        }
        let token = animations.begin(at: start, until: end)
        plainTokens[token] = plainAnimations.begin(at: start, until: end)
        return token
    }

    mutating func endAnimation(_ token: Int, at t: Int64) {
        animations.end(token, at: t)
        if let plain = plainTokens.removeValue(forKey: token) {
            plainAnimations.end(plain, at: t)
        }
    }
}
