import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// The simulated device the session drives, and what the shell checks before it hands the device
/// work. `reset` replaces the device with a fresh one on the same display.
public final class Simulation {
    /// The device now; a new one after each `reset`.
    public private(set) var engine: DeviceEngine
    /// Where queued `stall` blocks end at the earliest, to refuse one that would end beyond the
    /// horizon (S1).
    private var stallsEndNoEarlierThan = SimTime.zero

    init() {
        engine = DeviceEngine()
    }

    /// A fresh device at t = 0: the device kind (V12) and the display survive — its rate, a change still waiting for its
    /// vsync included, an adaptive display with its range (V1), and its buffer count (R7).
    ///
    /// - Parameter display: A fixed display of this rate and buffer count instead (`replay
    ///   start`: the recording's).
    func reset(display: (rate: RefreshRate, buffers: Int)? = nil) {
        let rate = display?.rate ?? engine.pendingRate?.rate ?? engine.refreshRate
        let adaptive = display == nil ? engine.adaptiveRange : nil
        let buffers = display?.buffers ?? engine.bufferCount
        let kind = engine.deviceKind
        engine.tearDown()
        engine = DeviceEngine(rate: adaptive?.maximum ?? rate)
        // V12: the device survives as its display does.
        engine.setDeviceKind(kind)
        if let adaptive { engine.setAdaptive(minimum: adaptive.minimum, maximum: adaptive.maximum) }
        engine.bufferCount = buffers
        stallsEndNoEarlierThan = .zero
    }

    /// `stall`: one main-queue block of cost `d`, refused when it would end at or beyond the
    /// horizon (S1).
    func stall(_ d: SimDuration, dirtiesUI: Bool) throws(CommandError) {
        // S1: blocks run one after another, so this one ends no earlier than the thread's current
        // item, the stalls queued before it and its own cost; that must be before the horizon.
        let after = max(engine.now, engine.busyUntil, stallsEndNoEarlierThan)
        guard let end = try? after.adding(d), end < .horizon else {
            throw CommandError(
                "stall \(d) would end at or beyond the 2^62 ns horizon: the main thread's work already queued ends at \(after) at the earliest"
            )
        }
        stallsEndNoEarlierThan = end
        engine.stall(d, dirtiesUI: dirtiesUI)
    }

    /// Hands the device the settings it reads as plain values (T5, D2, V2, V16): all of them, or the
    /// one named `name` when it changed.
    func apply(_ settings: SettingsStore, changed name: String? = nil) {
        let rate = engine.refreshRate.hertz
        if name == nil || name == ShellSettings.coalescing.name {
            engine.coalescing = settings.value(ShellSettings.coalescing, rate: rate)
        }
        if name == nil || name == ShellSettings.highFrameRates.name {
            engine.setHighFrameRates(settings.value(ShellSettings.highFrameRates, rate: rate))
        }
        if name == nil || name == ShellSettings.lowPower.name {
            engine.setLowPower(settings.value(ShellSettings.lowPower, rate: rate))
        }
        // For the watchdog, which reads it while the session's thread is stuck in a plugin.
        if name == nil || name == ShellSettings.pluginDeadline.name {
            ToolCallWatch.shared.deadline = settings.value(ShellSettings.pluginDeadline, rate: rate).nanoseconds
        }
        if name == nil || name == ShellSettings.ramp.name {
            engine.displayRamp = Int(settings.value(ShellSettings.ramp, rate: rate))
        }
    }

    /// `now + d`, or a command error beyond the 2^62 ns horizon (S1).
    func later(by d: SimDuration) throws(CommandError) -> SimTime { try DebugShell.later(engine.now, by: d) }
}

/// `t + d`, or a command error beyond the 2^62 ns horizon (S1).
func later(_ t: SimTime, by d: SimDuration) throws(CommandError) -> SimTime {
    do {
        return try t.adding(d)
    } catch {
        throw CommandError(error.description)
    }
}
