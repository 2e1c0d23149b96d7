import DebugShellCore

/// `play`: virtual time following the wall clock in the interactive session.
struct PlayClock {
    /// Set by a front end where virtual time can follow the wall clock.
    var isSupported = false
    /// The speed (× real time), or nil when time does not follow the wall clock.
    var speed: Double?
    /// Nanoseconds of virtual time owed but not yet whole.
    var remainder = 0.0
    /// While it cannot keep up: how fast virtual time moves (× real time), measured over the
    /// last half second of wall time; nil while it keeps up.
    var pace: Double?
    /// Wall and virtual nanoseconds of the current pace measurement.
    private var window: (wall: Int64, virtual: Int64) = (0, 0)
    /// Set by a front end that watches the wall clock while time moves
    /// (``Session/watchTimeMoving``).
    var watch: ((_ what: String, _ from: SimTime, _ to: SimTime) -> () -> Bool)?

    mutating func start(at speed: Double) {
        self.speed = speed
        remainder = 0
        pace = nil
        window = (0, 0)
    }

    mutating func stop() {
        speed = nil
        pace = nil
    }

    /// Measures how fast virtual time moves against the wall clock, over half-second windows.
    mutating func note(wallNanoseconds: Int64, virtualNanoseconds: Int64) {
        window.wall += wallNanoseconds
        window.virtual += virtualNanoseconds
        guard window.wall >= 500_000_000, let speed else { return }
        let measured = Double(window.virtual) / Double(window.wall)
        // Within 5% of the speed asked is keeping up.
        pace = measured < speed * 0.95 ? measured : nil
        window = (0, 0)
    }
}

extension Session {
    /// Set by an interactive front end that keeps an eye on the wall clock while `run`, `step`
    /// or `run until` moves time (a progress line, issue 23): called as each advance begins with
    /// what moves time, where from and where to, it returns the poll for that advance, asked
    /// between instants together with ``isInterrupted`` — after every instant at first; the
    /// poll sets ``interruptPollMask`` to keep its looks about a millisecond of wall time apart.
    /// Returning true stops time where it is, as an interrupt does. Scripts and pipes leave it
    /// nil: nothing then changes, byte for byte.
    public var watchTimeMoving: ((_ what: String, _ from: SimTime, _ to: SimTime) -> () -> Bool)? {
        get { playClock.watch }
        set { playClock.watch = newValue }
    }

    /// How often the engine polls while time moves: after the instants whose count, masked with
    /// this (a power of two less one), is zero; 255 unless a front end that watches the wall
    /// clock lowers it while instants are heavy (DeviceEngine.interruptPollMask).
    public var interruptPollMask: Int {
        get { engine.interruptPollMask }
        set { engine.interruptPollMask = newValue }
    }

    /// The engine's poll for one advance of time: the interrupt, and the front end's watch if it
    /// keeps one (then the first poll comes after the first instant).
    func timePoll(_ what: String, from start: SimTime, to end: SimTime) -> () -> Bool {
        guard let watch = playClock.watch else { return isInterrupted }
        let interrupted = isInterrupted
        let watching = watch(what, start, end)
        engine.interruptPollMask = 0
        return { interrupted() || watching() }
    }
}
