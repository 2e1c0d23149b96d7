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
    /// (``TimeDriver/watchTimeMoving``).
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
