import DebugShellCore

/// The shell's own settings, each declared once with its type and default (docs/Commands.md
/// lists them). Their namespaces (`shell`, `plugin`, `runloop`, `app`, `system`, `display`) are the shell's.
enum ShellSettings {
    static let stopOnError = SettingSpec.boolean(
        "shell.stop-on-error", abstract: "Stop a script at the first failed command (--keep-going turns it off).",
        default: true)
    static let echo = SettingSpec.boolean(
        "shell.echo", abstract: "Print each script command, as '> command', before running it (like --echo).",
        default: false)
    static let historySize = SettingSpec.integer(
        "shell.history-size", in: 0...100_000, abstract: "How many commands the interactive history file keeps.",
        default: 1000)
    /// The wall time a plugin's call may take before the watchdog ends the shell, keeping its
    /// work (docs/Plugins.md, "When a plugin does not return"); 0 turns it off.
    static let pluginDeadline = SettingSpec.duration(
        "plugin.deadline",
        abstract: "Wall time a plugin's call may run before debugsh ends, keeping its work (0s: no limit).",
        default: .seconds(5))
    static let coalescing = SettingSpec.boolean(
        "runloop.coalescing", abstract: "Coalesce timer wake-ups within tolerance and leeway (T5, D2).",
        default: false)

    static let highFrameRates = SettingSpec.boolean(
        "app.high_frame_rates",
        abstract: "CADisableMinimumFrameDurationOnPhone: the app's links and animations may request above 60 Hz (V2).",
        default: false)
    static let lowPower = SettingSpec.boolean(
        "system.low_power", abstract: "Low Power Mode: every request is capped at 60 Hz (V2).", default: false)

    static let ramp = SettingSpec.integer(
        "display.ramp", in: 0...120,
        abstract:
            "Refreshes an adaptive display holds each rate on its way down, one rate at a time; 0 falls at once (V16).",
        default: 0)

    /// In the order `settings` lists them.
    static let all: [any SettingDeclaration] = [
        stopOnError, echo, historySize, pluginDeadline, coalescing, highFrameRates, lowPower, ramp,
    ]
}
