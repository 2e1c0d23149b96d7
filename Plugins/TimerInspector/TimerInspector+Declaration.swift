import DebugShellCore

extension TimerInspector {
    private static let modes: ValueKind = .choice(["default", "common", "tracking"])

    private static func common(cost: Bool = true, target: Bool = true) -> [OptionSpec] {
        var options: [OptionSpec] = []
        if cost {
            options += [
                OptionSpec(
                    "cost", .duration, abstract: "Main-thread (or own-queue) time each callback takes.", default: "0"),
                OptionSpec("ui", abstract: "Each callback dirties the UI, so a commit follows (RL5)."),
            ]
        }
        if target {
            options += [
                OptionSpec(
                    "target", .name(objectDomain), abstract: "The object the timer calls, which it retains (K1)."),
                OptionSpec("weak", abstract: "Target the object through a weak proxy (seed 004): no retain cycle."),
            ]
        }
        return options
    }

    private static let nameArgument = ArgumentSpec("name", .name(newTimerDomain), abstract: "A name for the new timer.")
    private static let existingTimer = ArgumentSpec("name", .name(timerDomain), abstract: "The timer.")

    static let timerCommand = CommandSpec(
        "timer", abstract: "Make the app's timers and inspect their firings, lateness and leaks.",
        discussion:
            "NSTimer (run-loop timers, T1–T8), GCD dispatch-source timers (D1–D6) and CADisplayLink (DL1–DL8) on "
            + "the simulated device. Every firing is kept (the last 1,000 per timer) with its scheduled time, when it "
            + "ran, its lateness and the cause (K2: mode, busy, coalesced, paused). 'timer' alone lists the timers.",
        verbs: [
            VerbSpec(
                "nstimer", abstract: "Schedule an NSTimer on the main run loop: first fire now + interval (T1).",
                arguments: [nameArgument],
                options: [
                    OptionSpec(
                        "interval", .duration,
                        abstract: "The interval (required, positive; at least 1us with --repeats)."),
                    OptionSpec("repeats", abstract: "Repeat on a fixed grid (T4); otherwise fire once (T6)."),
                    OptionSpec(
                        "tolerance", .duration,
                        abstract: "At most the interval; above interval/2 clamped for a repeating timer (T5).",
                        default: "0"),
                    OptionSpec(
                        "mode", modes, abstract: "The run-loop mode it is added to (RL1, T7).", default: "default"),
                ] + common(),
                examples: TimerInspectorExamples.nstimer),
            VerbSpec(
                "gcd", abstract: "Make a GCD dispatch-source timer: first target now + --start (D1).",
                arguments: [nameArgument],
                options: [
                    OptionSpec(
                        "interval", .duration,
                        abstract: "The interval (required, positive; at least 1us unless --once)."),
                    OptionSpec("start", .duration, abstract: "Delay of the first target.", default: "the interval"),
                    OptionSpec(
                        "leeway", .duration, abstract: "Leeway; clamped to interval/2 when repeating (D2).",
                        default: "0"),
                    OptionSpec(
                        "queue", .choice(["main", "background"]), abstract: "Where the handler runs (D5).",
                        default: "main"),
                    OptionSpec("once", abstract: "A one-shot timer: done after its first handler."),
                ] + common(),
                examples: TimerInspectorExamples.gcd),
            VerbSpec(
                "displaylink", abstract: "Add a CADisplayLink: first callback at the first grid vsync from now (DL5).",
                arguments: [nameArgument],
                options: [
                    OptionSpec(
                        "fps", .integer(0...1000), abstract: "preferredFramesPerSecond; 0 is the refresh rate (DL3).",
                        default: "0"),
                    OptionSpec("mode", modes, abstract: "The run-loop mode it is added to (DL1).", default: "common"),
                ] + common(),
                examples: TimerInspectorExamples.displaylink),
            VerbSpec(
                "after", abstract: "DispatchQueue.main.asyncAfter: a one-shot main-queue timer (D6).",
                arguments: [
                    nameArgument, ArgumentSpec("delay", .duration, abstract: "The delay; 0 is a plain async."),
                ],
                options: common(target: false),
                examples: TimerInspectorExamples.after),
            VerbSpec(
                "countdown", abstract: "The count-down button of seed 003: n + 1 handlers, 1 s apart, then done.",
                discussion:
                    "A background GCD timer, start now, every 1 s: handlers at now, now + 1 s, …, now + n s. Each sets "
                    + "the button's title on the main queue (a block that dirties the UI); the last restores the "
                    + "title and cancels the timer.",
                arguments: [
                    nameArgument,
                    ArgumentSpec("seconds", .integer(0...1_000_000), abstract: "Seconds to count down from."),
                ],
                examples: TimerInspectorExamples.countdown),
            VerbSpec(
                "pause", abstract: "Pause a timer (T8), suspend a dispatch source (D4) or pause a link (DL4).",
                arguments: [existingTimer], examples: TimerInspectorExamples.pause),
            VerbSpec(
                "resume", abstract: "Resume it: T8 skips the grid points passed, D4 delivers them in one handler.",
                arguments: [existingTimer], examples: TimerInspectorExamples.resume),
            VerbSpec(
                "invalidate", abstract: "Invalidate a timer or link, or cancel a dispatch source (DL6).",
                arguments: [existingTimer], examples: TimerInspectorExamples.invalidate),
            VerbSpec(
                "list", abstract: "The timers as a table.",
                discussion:
                    "Columns: name, kind, mode or queue, interval, tolerance or leeway, fires, skipped, max lateness "
                    + "(with its cause when late), next fire, state. --all adds the tools' own links and timers and "
                    + "the app's UI link (as owner:label).",
                options: [
                    OptionSpec("all", abstract: "Also the tools' links and timers and the app's UI link."),
                    OptionSpec(
                        "sort", .choice(["name", "late", "fires"]), abstract: "Order of the rows.", default: "creation"),
                    OptionSpec(
                        "limit", .integer(1...10_000_000), abstract: "Rows to show before a summary.", default: "50"),
                ],
                examples: TimerInspectorExamples.list),
            VerbSpec(
                "show", abstract: "A timer's firings: scheduled, fired, lateness and its cause (K2), GCD data.",
                arguments: [existingTimer],
                options: [
                    OptionSpec(
                        "last", .integer(1...1000), abstract: "How many of the kept firings to show.", default: "20")
                ],
                examples: TimerInspectorExamples.show),
            VerbSpec(
                "plot", abstract: "Chart a timer's lateness per firing over time, late firings by cause (K2).",
                discussion:
                    "One dot per kept firing at its scheduled time, as high as it was late; firings later than "
                    + "timer.late-threshold (the dashed line) are coloured by their K2 cause — mode, busy, coalesced, "
                    + "paused — and drawn in the terminal as m, b, c, p (on time: ·). With a file, a standalone SVG "
                    + "is written atomically; without one, the chart is drawn at the terminal's width (80 columns in "
                    + "scripts). By default the chart runs from the start (or the oldest firing kept) to now.",
                arguments: [
                    existingTimer,
                    ArgumentSpec("file", .path, abstract: "Write the chart to this SVG file instead.", optional: true),
                ],
                options: [
                    OptionSpec("from", .time, abstract: "Start the chart at this scheduled time."),
                    OptionSpec("to", .time, abstract: "End it at this scheduled time.", default: "now"),
                    OptionSpec(
                        "width", .integer(24...1000), abstract: "Columns of the terminal chart.",
                        default: "the terminal's"),
                    OptionSpec(
                        "height", .integer(4...200), abstract: "Rows of the terminal chart's panel.", default: "10"),
                ],
                examples: TimerInspectorExamples.plot),
            VerbSpec(
                "watch", abstract: "Print each firing of an app timer as a timer.fired event while time runs.",
                discussion:
                    "'late' prints only the firings later than timer.late-threshold (K2), each with its cause and "
                    + "scheduled time; 'on' prints every firing.",
                arguments: [
                    ArgumentSpec(
                        "state", .choice(["on", "late", "off"]), abstract: "on (every firing), late (late ones) or off."
                    )
                ],
                examples: TimerInspectorExamples.watch),
            VerbSpec(
                "leaks",
                abstract: "Objects kept alive by timers (retain cycles) and the timers that keep firing for them.",
                examples: TimerInspectorExamples.leaks),
        ],
        defaultVerb: "list")

    static let objectCommand = CommandSpec(
        "object", abstract: "The app's objects that timers target: ownership for leak checks (K1).",
        verbs: [
            VerbSpec(
                "new", abstract: "Make an object the shell holds a reference to.",
                arguments: [ArgumentSpec("name", .name(newObjectDomain), abstract: "A name for the object.")],
                examples: TimerInspectorExamples.objectNew),
            VerbSpec(
                "release", abstract: "Drop the shell's reference: deallocated, or kept alive by a timer (a leak).",
                arguments: [ArgumentSpec("name", .name(objectDomain), abstract: "The object.")],
                examples: TimerInspectorExamples.objectRelease),
            VerbSpec(
                "list", abstract: "The objects, their state and the timers that retain them.",
                examples: TimerInspectorExamples.objectList),
        ],
        defaultVerb: "list")
}
