import DebugShellCore

extension FPSMeter {
    /// The meter's commands, metrics, settings and events (docs/FPSMeter.md), declared once: help,
    /// completion, validation and docs/FPSMeter.md follow from it.
    static func makeDescriptor() -> ToolDescriptor {
        let modes = ValueKind.choice(["common", "default", "tracking"])
        let count = ValueKind.integer(1...1_000_000)
        return ToolDescriptor(
            name: "fps",
            abstract:
                "The FPS meter: the classic CADisplayLink frame counter, beside the frames actually presented, hitches and frame times.",
            commands: [
                CommandSpec(
                    "fps", abstract: "Measure frames per second as an FPS label does, and what it cannot see.",
                    discussion:
                        "The reading is the seed algorithm (F1): a display link counts its callbacks and, once a window of at least --window has passed since the first one, reads round(count / span), at most the refresh rate. Beside it stand the ground truth — frames presented (R5), hitches and their causes (R4), frame-time percentiles — and, in 'fps compare', seven classic estimators run on the same callbacks.",
                    verbs: [
                        VerbSpec(
                            "show", abstract: "The reading and the ground truth beside it, as a small report.",
                            examples: FPSMeterExamples.show),
                        VerbSpec(
                            "start", abstract: "Add the meter's display link (F2) and start counting (F1).",
                            discussion:
                                "The link is added after the app's UI link, with its first slot at the first vsync at or after now (DL5). Its callback costs --cost of main-thread time. With --label on, the meter sets its label at the end of every window, which dirties the UI (F3): on a static screen, about one commit and one present per window.",
                            options: [
                                OptionSpec(
                                    "mode", modes, abstract: "The run-loop mode the link is added to (DL1).",
                                    default: "common"),
                                OptionSpec(
                                    "window", .duration,
                                    abstract: "The shortest window the reading counts over (F1); positive.",
                                    default: "1s"),
                                OptionSpec(
                                    "cost", .duration, abstract: "Main-thread cost of each callback (F2).",
                                    default: "0s"),
                                OptionSpec(
                                    "label", .boolean,
                                    abstract: "Set the label at the end of every window, dirtying the UI (F3).",
                                    default: "on"),
                            ],
                            examples: FPSMeterExamples.start),
                        VerbSpec(
                            "stop", abstract: "Remove the meter's link (DL6); the metrics keep their values from then.",
                            examples: FPSMeterExamples.stop),
                        VerbSpec(
                            "reset", abstract: "Clear the reading and every statistic, keeping the link (F2).",
                            examples: FPSMeterExamples.reset),
                        VerbSpec(
                            "frames",
                            abstract:
                                "A per-frame table: commit end, render start and end, present, expected present, hitch, cause.",
                            discussion:
                                "The last 1000 presents are kept. Without --worst, the last 20 (or --last n) are shown in time order; --worst n shows the n longest hitches, longest first.",
                            options: [
                                OptionSpec("hitches", abstract: "Only frames that hitched (R4)."),
                                OptionSpec("last", count, abstract: "The last n frames.", default: "20"),
                                OptionSpec(
                                    "worst", count, abstract: "The n frames with the longest hitches, longest first."),
                            ],
                            examples: FPSMeterExamples.frames),
                        VerbSpec(
                            "history",
                            abstract: "One row per completed window, with a sparkline; the last 3600 windows are kept.",
                            options: [OptionSpec("last", count, abstract: "The last n windows.", default: "20")],
                            examples: FPSMeterExamples.history),
                        VerbSpec(
                            "plot",
                            abstract:
                                "Chart frame time per present, hitches by cause and the label's reading beside the frames presented.",
                            discussion:
                                "Frame time is the interval from the previous counted present (R4), one bar per present, over dashed lines at 1x and 2x the refresh interval; hitches are coloured by cause (commit, render, both) and marked c, r, b under the bars in the terminal. Below, per window, the FPS label's reading (F1) beside the frames the display presented in the same span: the seed's 'reads 60 while the display shows 30'. Stretches of tracking mode (scrolls) are shaded. With a file, a standalone SVG is written atomically; without one, the chart is drawn at the terminal's width (80 columns in scripts). By default the chart runs from the start (or the oldest present kept) to now.",
                            arguments: [
                                ArgumentSpec(
                                    "file", .path, abstract: "Write the chart to this SVG file instead.",
                                    optional: true)
                            ],
                            options: [
                                OptionSpec("from", .time, abstract: "Start the chart at this time."),
                                OptionSpec("to", .time, abstract: "End it at this time.", default: "now"),
                                OptionSpec(
                                    "width", .integer(24...1000), abstract: "Columns of the terminal chart.",
                                    default: "the terminal's"),
                                OptionSpec(
                                    "height", .integer(4...200), abstract: "Rows of the terminal chart's panels.",
                                    default: "15"),
                            ],
                            examples: FPSMeterExamples.plot),
                        VerbSpec(
                            "compare",
                            abstract:
                                "The estimator lab: each classic FPS estimator's last reading and its error against the ground truth.",
                            discussion:
                                "YYFPSLabel (F1 over 1s windows), HyFPSLabel (the same, clamped to 60), GDPerformanceView (callbacks in the sliding second before the last callback), DXFPSLabel (callbacks per second of tracking time), KMCGeigerCounter (vsyncs without a callback in the last second; clicks above 1.5 periods), Sentry (slow above 1/(rate - 1) s, frozen above 700ms, frames delay) and Matrix (drop time 40*(d/40)^2.5 ms over intervals above 40ms). All read the meter's own callbacks: no link, no cost. The truth is what the display did over the same span: frames presented, and vsyncs that expected a present and had none.",
                            examples: FPSMeterExamples.compare),
                        VerbSpec(
                            "tiers", abstract: "Show or choose the hitch-ratio scale (the setting fps.tiers).",
                            arguments: [
                                ArgumentSpec(
                                    "scale", .choice(["apple", "wwdc20"]),
                                    abstract: "apple: the Xcode Organizer's; wwdc20: the WWDC20 tech talks'.",
                                    optional: true)
                            ],
                            examples: FPSMeterExamples.tiers),
                        VerbSpec(
                            "autohide",
                            abstract:
                                "Hide the status line 2s after the reading last changed, as HyFPSLabel (the setting fps.autohide).",
                            arguments: [
                                ArgumentSpec(
                                    "state", .boolean, abstract: "on or off; without it, show the setting.",
                                    optional: true)
                            ],
                            examples: FPSMeterExamples.autohide),
                        VerbSpec(
                            "watch",
                            abstract: "Print hitches or closed windows as events while time runs; 'off' stops both.",
                            arguments: [
                                ArgumentSpec(
                                    "events", .choice(["hitches", "windows", "off"]), abstract: "What to print.")
                            ],
                            options: [
                                OptionSpec("over", .duration, abstract: "Only hitches longer than this.", default: "0s")
                            ],
                            examples: FPSMeterExamples.watch),
                    ], defaultVerb: "show")
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
                    "fps.tier", .word,
                    abstract: "The hitch ratio's tier: good, warning, critical or severe (fps.tiers)."),
                MetricSpec(
                    "fps.frame_p50", .duration,
                    abstract: "Median interval between consecutive counted presents (nearest rank)."),
                MetricSpec("fps.frame_p95", .duration, abstract: "95th percentile of those intervals (nearest rank)."),
                MetricSpec("fps.frame_p99", .duration, abstract: "99th percentile of those intervals (nearest rank)."),
                MetricSpec("fps.frame_max", .duration, abstract: "The longest of those intervals."),
            ],
            settings: [
                SettingSpec(
                    "fps.tiers", .choice(TierScale.allCases.map(\.rawValue)), default: "apple",
                    abstract:
                        "The hitch-ratio scale: apple (good <= 10, warning <= 25, critical <= 50 ms/s) or wwdc20 (5, 10)."
                ),
                SettingSpec(
                    "fps.autohide", .boolean, default: "off",
                    abstract: "Hide the meter's status line 2s after its reading last changed (HyFPSLabel)."),
            ],
            events: [
                EventSpec("fps.hitch", abstract: "A counted present was late, with its cause (fps watch hitches)."),
                EventSpec("fps.window", abstract: "The meter closed a window, with its reading (fps watch windows)."),
            ])
    }
}
