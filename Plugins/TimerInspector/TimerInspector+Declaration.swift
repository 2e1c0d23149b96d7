import DebugShellCore

extension TimerInspector {
    /// The inspector's commands, metrics, settings and events (docs/TimerInspector.md), declared
    /// once: help, completion, validation and docs/Commands.md follow from it.
    public static let descriptor = ToolDescriptor(
        name: "timer",
        abstract: "NSTimer, CADisplayLink and GCD timers: lateness and its cause, skipped firings, modes, leaks.",
        commands: Command.declarations,
        metrics: [
            MetricSpec("timer.count", .integer, abstract: "Live app timers (scheduled or paused)."),
            MetricSpec(
                "timer.late", .integer,
                abstract: "App timers that ever fired late: lateness above timer.late-threshold (K2)."),
            MetricSpec(
                "timer.leaks", .integer, abstract: "Objects released by the shell but kept alive by a timer (K1)."),
            MetricSpec(
                "timer.wakeups", .integer, abstract: "Run-loop and dispatch wake-ups that fired app timers (T5, D2)."),
            MetricSpec("timer.*.fires", .integer, abstract: "Callback or handler invocations of the timer."),
            MetricSpec(
                "timer.*.skipped", .integer,
                abstract: "Grid points or vsyncs passed without a callback (T4, T8, DL7); 0 for GCD."),
            MetricSpec(
                "timer.*.max_late", .duration, abstract: "The timer's largest lateness (K2); none before it fired."),
            MetricSpec("timer.*.last_data", .integer, abstract: "A GCD timer's data at its last handler (D3)."),
            MetricSpec(
                "timer.*.state", .word(of: TimerState.self), abstract: "scheduled, paused, invalidated or done."),
        ],
        settings: [lateThresholdSetting],
        events: [EventSpec("timer.fired", abstract: "An app timer fired (timer watch on).", watch: "timer watch on")])

    // MARK: Options and arguments, each read back through its key

    /// The options every new timer takes: its callback's cost and UI, and its target (K1).
    private static func common(target: Bool = true) -> [any OptionDeclaration] {
        target ? [cost, ui, self.target, weak] : [cost, ui]
    }

    static let newTimer = ArgumentSpec.name("name", newTimerDomain, abstract: "A name for the new timer.")
    static let existingTimer = ArgumentSpec.name("name", timerDomain, abstract: "The timer.")

    static let cost = OptionSpec.duration(
        "cost", abstract: "Main-thread (or own-queue) time each callback takes.", default: .zero, defaultText: "0")
    static let ui = OptionSpec.flag("ui", abstract: "Each callback dirties the UI, so a commit follows (RL5).")
    static let target = OptionSpec.name(
        "target", objectDomain, abstract: "The object the timer calls, which it retains (K1).")
    static let weak = OptionSpec.flag(
        "weak", abstract: "Target the object through a weak proxy (seed 004): no retain cycle.")

    // timer nstimer
    static let nstimerInterval = OptionSpec.duration(
        "interval", abstract: "The interval (required, positive; at least 1us with --repeats)."
    ).positive()
    static let repeats = OptionSpec.flag("repeats", abstract: "Repeat on a fixed grid (T4); otherwise fire once (T6).")
    static let tolerance = OptionSpec.duration(
        "tolerance", abstract: "At most the interval; above interval/2 clamped for a repeating timer (T5).",
        default: .zero, defaultText: "0")
    static let nstimerMode = OptionSpec.choice(
        "mode", among: [RunLoopMode.default, .common, .tracking],
        abstract: "The run-loop mode it is added to (RL1, T7).", default: .default)

    // timer gcd
    static let gcdInterval = OptionSpec.duration(
        "interval", abstract: "The interval (required, positive; at least 1us unless --once)."
    ).positive()
    static let start = OptionSpec.duration(
        "start", abstract: "Delay of the first target.", defaultText: "the interval")
    static let leeway = OptionSpec.duration(
        "leeway", abstract: "Leeway; clamped to interval/2 when repeating (D2).", default: .zero, defaultText: "0")
    static let queue = OptionSpec.choice(
        "queue", among: [DispatchQueueKind.main, .background], abstract: "Where the handler runs (D5).",
        default: .main)
    static let once = OptionSpec.flag("once", abstract: "A one-shot timer: done after its first handler.")

    // timer displaylink
    static let preferredFPS = OptionSpec.integer(
        "fps", in: 0...1000,
        abstract:
            "preferredFramesPerSecond; 0 is the native rate: the refresh rate (DL3), an adaptive display's maximum after caps (V2).",
        defaultText: "none: the system default")
    static let rateRange = OptionSpec.frameRateRange(
        "range",
        abstract:
            "preferredFrameRateRange in Hz: its cadence on any display (DL3, V4), its request on an adaptive one (V2).",
        defaultText: "none")
    static let displayLinkMode = OptionSpec.choice(
        "mode", among: [RunLoopMode.default, .common, .tracking], abstract: "The run-loop mode it is added to (DL1).",
        default: .common)

    // timer after, timer countdown
    static let delay = ArgumentSpec.duration("delay", abstract: "The delay; 0 is a plain async.")
    static let seconds = ArgumentSpec.integer("seconds", in: 0...1_000_000, abstract: "Seconds to count down from.")

    // timer list
    static let all = OptionSpec.flag("all", abstract: "Also the tools' links and timers and the app's UI link.")
    static let sort = OptionSpec.choice(
        "sort", abstract: "Order of the rows.", defaultText: "creation", as: ListOrder.self)
    static let listLimit = OptionSpec.integer(
        "limit", in: 1...10_000_000, abstract: "Rows to show before a summary.", default: 50)

    // timer show
    static let shownTimer = ArgumentSpec.optional(
        "name", .name(timerDomain), abstract: "The timer (not with --recording).", as: String.self)
    static let last = OptionSpec.integer(
        "last", in: 1...1000, abstract: "How many of the kept firings (or recorded callbacks) to show.", default: 20)
    static let fromRecording = OptionSpec.flag(
        "recording", abstract: "Show the imported recording's display link (a display-link log), not a timer.")

    // timer plot
    static let plotFile = ArgumentSpec.optional(
        "file", .path, abstract: "Write the chart to this SVG file instead.", as: String.self)
    static let plotFrom = OptionSpec.time(
        "from", abstract: "Start the chart at this scheduled time.", defaultText: "the timer's creation")
    static let plotTo = OptionSpec.time("to", abstract: "End it at this scheduled time.", defaultText: "now")
    static let plotWidth = OptionSpec.integer(
        "width", in: 24...1000, abstract: "Columns of the terminal chart.", defaultText: "the terminal's")
    static let plotHeight = OptionSpec.integer(
        "height", in: 4...200, abstract: "Rows of the terminal chart's panel.", default: 10)

    // timer watch
    static let watchState = ArgumentSpec.choice(
        "state", abstract: "on (every firing), late (late ones) or off.", as: WatchedFirings.self)

    // object new, object release
    static let newObject = ArgumentSpec.name("name", newObjectDomain, abstract: "A name for the object.")
    static let existingObject = ArgumentSpec.name("name", objectDomain, abstract: "The object.")

    // Settings
    static let lateThresholdSetting = SettingSpec.duration(
        "timer.late-threshold", abstract: "A firing is late when its lateness is above this (K2).",
        default: .milliseconds(1))

    // MARK: Commands

    /// The inspector's two commands: `run(_:)` switches over them, then over the command's verbs.
    enum Command: String, ToolCommands {
        case timer, object

        var declaration: CommandSpec {
            switch self {
            case .timer:
                return CommandSpec(
                    "timer", abstract: "Make the app's timers and inspect their firings, lateness and leaks.",
                    discussion:
                        "NSTimer (run-loop timers, T1–T8), GCD dispatch-source timers (D1–D6) and CADisplayLink (DL1–DL8) on "
                        + "the simulated device. Every firing is kept (the last 1,000 per timer) with its scheduled time, when it "
                        + "ran, its lateness and the cause (K2: mode, busy, coalesced, paused). 'timer' alone lists the timers.",
                    verbs: TimerVerb.declarations, defaultVerb: TimerVerb.list.rawValue)
            case .object:
                return CommandSpec(
                    "object", abstract: "The app's objects that timers target: ownership for leak checks (K1).",
                    verbs: ObjectVerb.declarations, defaultVerb: ObjectVerb.list.rawValue)
            }
        }
    }

    /// The verbs of `timer`; their examples are in ``TimerInspectorExamples``.
    enum TimerVerb: String, ToolVerbs {
        case nstimer, gcd, displaylink, after, countdown, pause, resume, invalidate, list, show, plot, watch, leaks

        var declaration: VerbSpec {
            switch self {
            case .nstimer:
                return VerbSpec(
                    "nstimer", abstract: "Schedule an NSTimer on the main run loop: first fire now + interval (T1).",
                    arguments: [newTimer],
                    options: [nstimerInterval, repeats, tolerance, nstimerMode] + common(),
                    examples: TimerInspectorExamples.nstimer)
            case .gcd:
                return VerbSpec(
                    "gcd", abstract: "Make a GCD dispatch-source timer: first target now + --start (D1).",
                    arguments: [newTimer],
                    options: [gcdInterval, start, leeway, queue, once] + common(),
                    examples: TimerInspectorExamples.gcd)
            case .displaylink:
                return VerbSpec(
                    "displaylink",
                    abstract: "Add a CADisplayLink: first callback at the first grid vsync from now (DL5).",
                    arguments: [newTimer],
                    options: [preferredFPS, rateRange, displayLinkMode] + common(),
                    examples: TimerInspectorExamples.displaylink)
            case .after:
                return VerbSpec(
                    "after", abstract: "DispatchQueue.main.asyncAfter: a one-shot main-queue timer (D6).",
                    arguments: [newTimer, delay],
                    options: common(target: false),
                    examples: TimerInspectorExamples.after)
            case .countdown:
                return VerbSpec(
                    "countdown", abstract: "The count-down button of seed 003: n + 1 handlers, 1 s apart, then done.",
                    discussion:
                        "A background GCD timer, start now, every 1 s: handlers at now, now + 1 s, …, now + n s. Each sets "
                        + "the button's title on the main queue (a block that dirties the UI); the last restores the "
                        + "title and cancels the timer.",
                    arguments: [newTimer, seconds],
                    examples: TimerInspectorExamples.countdown)
            case .pause:
                return VerbSpec(
                    "pause", abstract: "Pause a timer (T8), suspend a dispatch source (D4) or pause a link (DL4).",
                    arguments: [existingTimer], examples: TimerInspectorExamples.pause)
            case .resume:
                return VerbSpec(
                    "resume", abstract: "Resume it: T8 skips the grid points passed, D4 delivers them in one handler.",
                    arguments: [existingTimer], examples: TimerInspectorExamples.resume)
            case .invalidate:
                return VerbSpec(
                    "invalidate", abstract: "Invalidate a timer or link, or cancel a dispatch source (DL6).",
                    arguments: [existingTimer], examples: TimerInspectorExamples.invalidate)
            case .list:
                return VerbSpec(
                    "list", abstract: "The timers as a table.",
                    discussion:
                        "Columns: name, kind, mode or queue, interval, tolerance or leeway, fires, skipped, max lateness "
                        + "(with its cause when late), next fire, state. --all adds the tools' own links and timers and "
                        + "the app's UI link (as owner:label).",
                    options: [all, sort, listLimit],
                    examples: TimerInspectorExamples.list)
            case .show:
                return VerbSpec(
                    "show", abstract: "A timer's firings: scheduled, fired, lateness and its cause (K2), GCD data.",
                    discussion:
                        "With --recording instead of a name: the imported recording's display-link callbacks ('import "
                        + "csv' of a display-link log) — their cadence, and each callback's lateness: its timestamp "
                        + "after the vsync it was due (the previous callback's targetTimestamp), and the vsyncs that "
                        + "passed without a callback. A recording has the vsync each callback was for, not when it ran.",
                    arguments: [shownTimer],
                    options: [last, fromRecording],
                    examples: TimerInspectorExamples.show)
            case .plot:
                return VerbSpec(
                    "plot", abstract: "Chart a timer's lateness per firing over time, late firings by cause (K2).",
                    discussion:
                        "One dot per kept firing at its scheduled time, as high as it was late (in s, ms or µs, whichever "
                        + "reads best); firings later than timer.late-threshold (the dashed line, tagged 'late') are "
                        + "coloured by their K2 cause — mode, busy, coalesced, paused — and drawn in the terminal as m, b, "
                        + "c, p (on time: ·). With a file, a standalone SVG is written atomically; without one, the chart "
                        + "is drawn at the terminal's width (80 columns in scripts). By default the chart runs from the "
                        + "timer's creation (or the oldest firing kept) to now; --from and --to choose scheduled times. "
                        + "A display link's title gives what it asks for and the rate it fired at; the time after a "
                        + "timer's invalidation is shaded.",
                    arguments: [existingTimer, plotFile],
                    options: [plotFrom, plotTo, plotWidth, plotHeight],
                    examples: TimerInspectorExamples.plot)
            case .watch:
                return VerbSpec(
                    "watch", abstract: "Print each firing of an app timer as a timer.fired event while time runs.",
                    discussion:
                        "'late' prints only the firings later than timer.late-threshold (K2), each with its cause and "
                        + "scheduled time; 'on' prints every firing.",
                    arguments: [watchState],
                    examples: TimerInspectorExamples.watch)
            case .leaks:
                return VerbSpec(
                    "leaks",
                    abstract: "Objects kept alive by timers (retain cycles) and the timers that keep firing for them.",
                    examples: TimerInspectorExamples.leaks)
            }
        }
    }

    /// The verbs of `object`.
    enum ObjectVerb: String, ToolVerbs {
        case new, release, list

        var declaration: VerbSpec {
            switch self {
            case .new:
                return VerbSpec(
                    "new", abstract: "Make an object the shell holds a reference to.",
                    arguments: [newObject],
                    examples: TimerInspectorExamples.objectNew)
            case .release:
                return VerbSpec(
                    "release", abstract: "Drop the shell's reference: deallocated, or kept alive by a timer (a leak).",
                    arguments: [existingObject],
                    examples: TimerInspectorExamples.objectRelease)
            case .list:
                return VerbSpec(
                    "list", abstract: "The objects, their state and the timers that retain them.",
                    examples: TimerInspectorExamples.objectList)
            }
        }
    }
}

/// How `timer list --sort` orders the rows; creation order without it.
enum ListOrder: String, CommandLineChoice {
    case name, late, fires
}
