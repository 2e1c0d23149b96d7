import DebugShellCore

extension FPSMeter {
    /// The meter's commands, metrics, settings and events (docs/FPSMeter.md), declared once: help,
    /// completion, validation and docs/Commands.md follow from it.
    public static let descriptor = ToolDescriptor(
        name: "fps",
        abstract:
            "The FPS meter: the classic CADisplayLink frame counter, beside the frames actually presented, hitches and frame times.",
        commands: [
            CommandSpec(
                "fps", abstract: "Measure frames per second as an FPS label does, and what it cannot see.",
                discussion:
                    "The reading is the seed algorithm (F1): a display link counts its callbacks and, once a window of at least --window has passed since the first one, reads round(count / span), at most the refresh rate. Beside it stand the ground truth — frames presented (R5), hitches and their causes (R4), frame-time percentiles — and, in 'fps compare', seven classic estimators run on the same callbacks.",
                verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)
        ],
        metrics: [
            MetricSpec("fps.value", .integer, abstract: "The reading after the last completed window (F1)."),
            MetricSpec(
                "fps.render", .integer, abstract: "Frames presented in the last whole second since the start (R5)."),
            MetricSpec("fps.callbacks", .integer, abstract: "Meter callbacks that started in that same second."),
            MetricSpec(
                "fps.skipped", .integer,
                abstract: "Vsyncs the meter's link skipped because its slot was full (DL7)."),
            MetricSpec("fps.hitches", .integer, abstract: "Counted presents that were late (R4)."),
            MetricSpec("fps.hitch_time", .duration, abstract: "Total hitch time (R4)."),
            MetricSpec("fps.hitch_ratio", .number, abstract: "Hitch time in ms per second of animating time (R4)."),
            MetricSpec(
                "fps.tier", .word(of: Tier.self),
                abstract: "The hitch ratio's tier: good, warning, critical or severe (fps.tiers)."),
            MetricSpec(
                "fps.frame_p50", .duration,
                abstract:
                    "Median frame time: the interval between consecutive counted presents, never across time without animation (nearest rank)."
            ),
            MetricSpec("fps.frame_p95", .duration, abstract: "95th percentile of those frame times (nearest rank)."),
            MetricSpec("fps.frame_p99", .duration, abstract: "99th percentile of those frame times (nearest rank)."),
            MetricSpec("fps.frame_max", .duration, abstract: "The longest of those frame times."),
        ],
        settings: [tiersSetting, autohideSetting, framesKeptSetting],
        events: [
            EventSpec(
                "fps.hitch", abstract: "A counted present was late, with its cause (fps watch hitches).",
                watch: "fps start"),
            EventSpec(
                "fps.hitches",
                abstract: "Hitches of one second after its first, as one line with their count (fps watch hitches).",
                watch: "fps watch hitches"),
            EventSpec(
                "fps.window", abstract: "The meter closed a window, with its reading (fps watch windows).",
                watch: "fps watch windows"),
        ])

    /// The meter's verbs: `run(_:)` switches over them, so a verb declared without behaviour does
    /// not compile. Help lists them in this order.
    enum Verb: String, ToolVerbs {
        case show, start, stop, reset, frames, hitches, history, plot, compare, tiers, autohide, watch

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "show", abstract: "The reading and the ground truth beside it, as a small report.",
                    examples: FPSMeterExamples.show)
            case .start:
                return VerbSpec(
                    "start", abstract: "Add the meter's display link (F2) and start counting (F1).",
                    discussion:
                        "The link is added after the app's UI link, with its first slot at the first vsync at or after now (DL5). Its callback costs --cost of main-thread time. With --label on, the meter sets its label at the end of every window, which dirties the UI (F3): on a static screen, about one commit and one present per window.",
                    options: [mode, window, cost, label, rateRange],
                    examples: FPSMeterExamples.start)
            case .stop:
                return VerbSpec(
                    "stop", abstract: "Remove the meter's link (DL6); the metrics keep their values from then.",
                    examples: FPSMeterExamples.stop)
            case .reset:
                return VerbSpec(
                    "reset", abstract: "Clear the reading and every statistic, keeping the link (F2).",
                    examples: FPSMeterExamples.reset)
            case .frames:
                return VerbSpec(
                    "frames",
                    abstract:
                        "A per-frame table: commit end, render start and end, present, expected present, hitch, cause.",
                    discussion:
                        "The last 1000 presents are kept (the setting fps.frames-kept, up to 100000). Without --worst, the last 20 (or --last n) are shown in time order; --worst n shows the n longest hitches, longest first. --csv writes every kept present to a file instead, one row each with its times in ns since the simulation's start (frame, vsync, commit_start, commit_end, render_start, render_end, present, expected_present, hitch, cause, refresh_interval), atomically: the frame log 'import csv' reads back (docs/Import.md).",
                    options: [hitchesOnly, lastFrames, worst, framesCSV],
                    examples: FPSMeterExamples.frames)
            case .hitches:
                return VerbSpec(
                    "hitches",
                    abstract:
                        "Each hitch as Instruments lists it: when, frame, how late, severity, type, the phases and what delayed it.",
                    discussion:
                        "The type is Instruments' (R8): of the time from the frame's earliest moment to its commit's end, the largest share names a late commit — the app's update ('Potentially expensive app update(s)', the tick's 'load frame'), the commit itself ('Expensive Commit(s)', layout, display, prepare and commit) or other main-thread work before it ('Pre-Commit(s) latency'); a commit on time whose render started late waited for the render server ('Commit to Render latency'); a render that overran its refresh intervals is 'Potentially expensive render, N offscreen passes' or 'Potentially expensive GPU work'. Severity counts refresh intervals late: at most one Low, more than one Moderate, more than two High. Phases are in ms (u update, l layout, d display, p prepare, c commit, rp render-prepare, g gpu, o offscreen passes). 'delayed by' is the work that delayed the frame: the longest other item for a pre-commit latency, the render it waited for, or its own tick, commit or render. As many hitches are kept as presents (fps.frames-kept). --xctrace writes every kept hitch to a file instead, atomically, as Instruments' hitches-summary table in the XML 'xcrun xctrace export' writes (start, duration, swap-id, earliest-time, presentation-time, latency-allowed, severity, buffer-count, refresh-interval, type-label, ...): what 'import xctrace' reads back, to the same hitches and the same rec.* numbers (docs/Import.md).",
                    options: [hitchType, hitchSeverity, lastHitches, worst, hitchesXCTrace],
                    examples: FPSMeterExamples.hitches)
            case .history:
                return VerbSpec(
                    "history",
                    abstract: "One row per completed window, with a sparkline; the last 3600 windows are kept.",
                    options: [lastWindows],
                    examples: FPSMeterExamples.history)
            case .plot:
                return VerbSpec(
                    "plot",
                    abstract:
                        "Chart frame time per present, hitches by cause and the label's reading beside the frames presented.",
                    discussion:
                        "Frame time is the interval from the previous counted present (R4), one bar per present (after time without animation, an idle display, the frame's own time: its refresh interval plus its lateness), in ms (s past a second), over dashed lines at 1x and 2x the refresh interval in force, which step where the rate changed (S2), each stretch labelled with its rate, and are tagged 1x and 2x beside the plot; hitches are coloured by cause (commit, render, both) and marked c, r, b under the bars in the terminal. Below, per window (the one still open too, from half a window), the FPS label's reading (F1), dashed, over the frames the display presented in the same span, wide: the seed's 'reads 60 while the display shows 30'; where the two are equal both show (in the terminal as ═). Stretches of tracking mode (scrolls) are shaded; a panel without data says what is missing. With a file, a standalone SVG is written atomically; without one, the chart is drawn at the terminal's width (80 columns in scripts). By default the chart runs from the start (or the oldest present kept) to now. With --recording it charts the imported recording instead ('import xctrace|csv|chrome', docs/Import.md), with no meter needed: a bar per present (the interval from the previous present), coloured by the stage of the recording's hitch that ends at it (commit, render or unknown, read from its description); hitches with no present in the recording drawn as points at their length; frames presented per second in 1s windows from the recording's start, and the YYFPSLabel reading where the recording has display-link callbacks. A display-link log has no frames: its callbacks' intervals are the bars. --from and --to lie within the recording's span, by default all of it. With --compare it charts both, to see a replay ('replay start', 'fps start', 'replay run', docs/Replay.md) beside what it replays: the recording's frame times on top as --recording draws them, the simulation's below as plain 'fps plot' does, each panel labelled, on one y scale so that bars compare by eye; one panel under them has both sources' frames per second (the recording's grey and wide, or dotted in the terminal, under the simulation's lines). Each is drawn on its own clock: a replay's recording time is simulated time plus an offset below one refresh interval (said by 'replay start'), which is not corrected, below one bar's width at any useful scale. --from and --to apply to both, each in its own time. It needs a recording and a started meter; the terminal chart has 22 rows unless --height says.",
                    arguments: [plotFile],
                    options: [plotFrom, plotTo, plotWidth, plotHeight, plotRecording, plotCompare],
                    examples: FPSMeterExamples.plot)
            case .compare:
                return VerbSpec(
                    "compare",
                    abstract:
                        "The estimator lab: each classic FPS estimator's last reading and its error against the ground truth.",
                    discussion:
                        "YYFPSLabel (F1 over 1s windows), HyFPSLabel (the same, clamped to 60), GDPerformanceView (callbacks in the sliding second before the last callback), DXFPSLabel (callbacks per second of tracking time), KMCGeigerCounter (vsyncs without a callback in the last second; clicks above 1.5 periods), Sentry (slow above 1/(rate - 1) s, frozen above 700ms, frames delay) and Matrix (dropped frames (d - T) / T for each interval d, T the frame interval, and their time). All read the meter's own callbacks: no link, no cost. The truth is what the display did over the same span: frames presented, and vsyncs that expected a present and had none. With --recording they read the imported recording's display-link callbacks instead (a display-link log, 'import csv'): what each label would have shown on that device, against the recording's own presents and vsyncs where it has them (docs/Import.md).",
                    options: [fromRecording],
                    examples: FPSMeterExamples.compare)
            case .tiers:
                return VerbSpec(
                    "tiers", abstract: "Show or choose the hitch-ratio scale (the setting fps.tiers).",
                    arguments: [scale],
                    examples: FPSMeterExamples.tiers)
            case .autohide:
                return VerbSpec(
                    "autohide",
                    abstract:
                        "Hide the status line 2s after the reading last changed, as HyFPSLabel (the setting fps.autohide).",
                    arguments: [autohideState],
                    examples: FPSMeterExamples.autohide)
            case .watch:
                return VerbSpec(
                    "watch",
                    abstract: "Print hitches or closed windows as events while time runs; 'off' stops both.",
                    discussion:
                        "Hitches are summarised when they come fast: the first of a second prints in full, the rest of that second as one line with their count at the second's end, and while every second has more than one, only that line is printed, once a second. --all prints every hitch.",
                    arguments: [watchedEvents],
                    options: [hitchesOver, hitchesAll],
                    examples: FPSMeterExamples.watch)
            }
        }
    }

    // MARK: Options, arguments and settings, each read back through its key

    // fps start
    static let mode = OptionSpec.choice(
        "mode", among: [RunLoopMode.common, .default, .tracking],
        abstract: "The run-loop mode the link is added to (DL1).", default: .common)
    static let window = OptionSpec.duration(
        "window", abstract: "The shortest window the reading counts over (F1); positive.", default: .seconds(1)
    ).positive()
    static let cost = OptionSpec.duration(
        "cost", abstract: "Main-thread cost of each callback (F2).", default: .zero)
    static let label = OptionSpec.boolean(
        "label", abstract: "Set the label at the end of every window, dirtying the UI (F3).", default: true)
    static let rateRange = OptionSpec.frameRateRange(
        "range",
        abstract:
            "The link's preferredFrameRateRange in Hz: on an adaptive display what it requests (V2).",
        defaultText: "none: the system default, 60 Hz")

    // fps frames
    static let hitchesOnly = OptionSpec.flag("hitches", abstract: "Only frames that hitched (R4).")
    static let fromRecording = OptionSpec.flag(
        "recording", abstract: "Read the imported recording's display-link callbacks, not the meter's own.")
    static let lastFrames = OptionSpec.integer(
        "last", in: 1...1_000_000, abstract: "The last n frames.", default: 20)
    static let worst = OptionSpec.integer(
        "worst", in: 1...1_000_000, abstract: "The n frames with the longest hitches, longest first.")
    static let framesCSV = OptionSpec.path(
        "csv", abstract: "Write every kept present to this CSV file (ns), instead of the table.")

    // fps hitches
    static let hitchType = OptionSpec.choice(
        "type", abstract: "Only hitches of this type (R8).", as: HitchTypeWord.self)
    static let hitchSeverity = OptionSpec.choice(
        "severity", abstract: "Only hitches of this severity (R8).", as: SeverityWord.self)
    static let lastHitches = OptionSpec.integer(
        "last", in: 1...1_000_000, abstract: "The last n hitches.", default: 20)
    static let hitchesXCTrace = OptionSpec.path(
        "xctrace",
        abstract: "Write every kept hitch to this XML file as xctrace exports hitches-summary, instead of the table.")

    // fps history
    static let lastWindows = OptionSpec.integer(
        "last", in: 1...1_000_000, abstract: "The last n windows.", default: 20)

    // fps plot
    static let plotFile = ArgumentSpec.optional(
        "file", .path, abstract: "Write the chart to this SVG file instead.", as: String.self)
    static let plotFrom = OptionSpec.time("from", abstract: "Start the chart at this time.")
    static let plotTo = OptionSpec.time("to", abstract: "End it at this time.", defaultText: "now")
    static let plotRecording = OptionSpec.flag(
        "recording", abstract: "Chart the imported recording ('import xctrace|csv|chrome'), not the meter's data.")
    static let plotCompare = OptionSpec.flag(
        "compare", abstract: "Chart the imported recording over the meter's data (a replay's), on one time axis.")
    static let plotWidth = OptionSpec.integer(
        "width", in: 24...1000, abstract: "Columns of the terminal chart.", defaultText: "the terminal's")
    static let plotHeight = OptionSpec.integer(
        "height", in: 4...200, abstract: "Rows of the terminal chart's panels.", default: 15)

    // fps tiers, fps autohide, fps watch
    static let scale = ArgumentSpec.choice(
        "scale", abstract: "apple: the Xcode Organizer's; wwdc20: the WWDC20 tech talks'.", optional: true,
        as: TierScale.self)
    static let autohideState = ArgumentSpec.optional(
        "state", .boolean, abstract: "on or off; without it, show the setting.", as: Bool.self)
    static let watchedEvents = ArgumentSpec.choice("events", abstract: "What to print.", as: WatchedEvents.self)
    static let hitchesOver = OptionSpec.duration(
        "over", abstract: "Only hitches longer than this.", default: .zero)
    static let hitchesAll = OptionSpec.flag(
        "all", abstract: "Print every hitch, not one line a second with a count when they come fast.")

    // Settings
    static let tiersSetting = SettingSpec.choice(
        "fps.tiers",
        abstract: "The hitch-ratio scale: apple (good <= 10, warning <= 25, critical <= 50 ms/s) or wwdc20 (5, 10).",
        default: TierScale.apple)
    static let autohideSetting = SettingSpec.boolean(
        "fps.autohide", abstract: "Hide the meter's status line 2s after its reading last changed (HyFPSLabel).",
        default: false)
    static let framesKeptSetting = SettingSpec.integer(
        "fps.frames-kept", in: 1...FPSMeter.frameLimitMaximum,
        abstract:
            "Presents kept for 'fps frames' and 'fps plot' (the newest); fewer drops the oldest at once, more keeps more from then on.",
        default: Int64(FPSMeter.frameLimit))
}

/// What `fps watch` prints: hitches, closed windows, or nothing.
enum WatchedEvents: String, CommandLineChoice {
    case hitches, windows, off
}

/// A hitch type's word for `fps hitches --type` (R8).
enum HitchTypeWord: String, CommandLineChoice {
    case update, commit, preCommit = "pre-commit", wait
    case offscreen, gpu, swap
}

/// A severity's word for `fps hitches --severity` (R8).
enum SeverityWord: String, CommandLineChoice {
    case low, moderate, high
}
