import DebugShellCore

extension LayoutSettleChecker {
    /// The checker's commands, metrics and events (docs/LayoutSettle.md), declared once: help,
    /// completion, validation and docs/Commands.md follow from it.
    public static let descriptor = ToolDescriptor(
        name: "layout",
        abstract: "The layout-settle checker: a simulated view tree and a checker that tells when it stops changing.",
        commands: Command.declarations,
        metrics: [
            MetricSpec(
                "layout.state", .word(LayoutSettleChecker.stateWords),
                abstract: "idle, settling, settled or timeout (L4)."),
            MetricSpec(
                "layout.settled_at", .time,
                abstract: "When the watch settled: the checker callback or poll that saw it (L2, L4)."),
            MetricSpec(
                "layout.last_change", .time,
                abstract: "The last change in the watched subtree; the watch time before any (L4)."),
            MetricSpec("layout.changes", .integer, abstract: "Checker callbacks that saw a change (L4)."),
            MetricSpec(
                "layout.views", .integer,
                abstract: "Views in the watched subtree now, its root included (the whole tree without a watch)."),
        ],
        events: [
            EventSpec(
                "layout.settled", abstract: "The watched subtree settled: root, views, last change.",
                watch: "layout watch"),
            EventSpec(
                "layout.timeout",
                abstract: "The watch timed out: which views kept changing, how often, and whether the tree oscillates.",
                watch: "layout watch"),
        ])

    static let view = ValueKind.name(viewDomain)

    /// The checker's two commands: `run(_:)` switches over them, then over the command's verbs.
    enum Command: String, ToolCommands {
        case view, layout

        var declaration: CommandSpec {
            switch self {
            case .view:
                return CommandSpec(
                    "view", abstract: "Build and change the simulated app's view tree (L1).",
                    discussion: """
                        The tree starts with the root view 'window' (0,0,390,844). Every change dirties the UI (RL5), so a \
                        commit follows. A change is a view added or removed (a removed subtree counts each view) or a \
                        property taking a different value; setting a property to its current value is no change, and moving \
                        a parent changes only the parent (L1).
                        """,
                    verbs: ViewVerb.declarations)
            case .layout:
                return CommandSpec(
                    "layout", abstract: "Watch a view subtree until it settles (L2–L4).",
                    discussion: """
                        'quiet' mode (the default) settles at the first checker callback at least --quiet after the last \
                        change (L4). 'seed' mode is the original layoutCompleteChecker (L2): two equal consecutive snapshots \
                        set a sticky flag that a 200 ms poll timer reports. A watch that does not settle within --timeout ends \
                        in 'timeout' with a diagnosis.
                        """,
                    verbs: LayoutVerb.declarations, defaultVerb: LayoutVerb.show.rawValue)
            }
        }
    }

    /// The verbs of `view`; their examples are in ``LayoutSettleExamples``.
    enum ViewVerb: String, ToolVerbs {
        case add, set, remove, animate, spin, grow, tree, count

        var declaration: VerbSpec {
            switch self {
            case .add:
                return VerbSpec(
                    "add", abstract: "Add a view (default parent window, frame 0,0,0,0, alpha 1, visible).",
                    arguments: [newView],
                    options: [addParent, addFrame, addAlpha, addHidden, layoutCost, displayCost],
                    examples: LayoutSettleExamples.add)
            case .set:
                return VerbSpec(
                    "set", abstract: "Change a view's frame, alpha, hidden or parent (same values are no change, L1).",
                    arguments: [existingView],
                    options: [setFrame, setAlpha, setHidden, setParent, layoutCost, displayCost],
                    examples: LayoutSettleExamples.set)
            case .remove:
                return VerbSpec(
                    "remove", abstract: "Remove a view with its subtree (each removed view is a change).",
                    arguments: [removedView],
                    examples: LayoutSettleExamples.remove)
            case .animate:
                return VerbSpec(
                    "animate",
                    abstract: "Animate a view's frame over a duration, driven by the app's UI-link ticks (L1).",
                    arguments: [existingView],
                    options: [animateFrame, animateOver],
                    examples: LayoutSettleExamples.animate)
            case .spin:
                return VerbSpec(
                    "spin", abstract: "Spin a view like an activity indicator: its rotation changes at every tick.",
                    arguments: [existingView],
                    options: [spinFor, spinStop],
                    examples: LayoutSettleExamples.spin)
            case .grow:
                return VerbSpec(
                    "grow", abstract: "Add a generated subtree of <count> views named <parent>.1, <parent>.2, …",
                    arguments: [growParent, growCount],
                    options: [fanout],
                    examples: LayoutSettleExamples.grow)
            case .tree:
                return VerbSpec(
                    "tree",
                    abstract: "Print the tree or a subtree: name, frame, and alpha, hidden, rotation when not default.",
                    arguments: [subtreeRoot],
                    options: [treeDepth, treeLimit],
                    examples: LayoutSettleExamples.tree)
            case .count:
                return VerbSpec(
                    "count", abstract: "Count the views of the tree or of a subtree (its root included).",
                    arguments: [subtreeRoot],
                    examples: LayoutSettleExamples.count)
            }
        }
    }

    /// The verbs of `layout`; their examples are in ``LayoutSettleExamples``.
    enum LayoutVerb: String, ToolVerbs {
        case watch, stop, show, diff

        var declaration: VerbSpec {
            switch self {
            case .watch:
                return VerbSpec(
                    "watch", abstract: "Start the checker on a subtree (default window).",
                    arguments: [watchRoot],
                    options: [quiet, timeout, watchMode, poll, leeway, costPerView],
                    examples: LayoutSettleExamples.watch)
            case .stop:
                return VerbSpec(
                    "stop", abstract: "Stop the checker.",
                    examples: LayoutSettleExamples.stop)
            case .show:
                return VerbSpec(
                    "show",
                    abstract: "The watch: state, root, last change, changes, cost, and the diagnosis of a timeout.",
                    examples: LayoutSettleExamples.show)
            case .diff:
                return VerbSpec(
                    "diff", abstract: "What changed in the last checker frame that saw a change.",
                    options: [diffLimit],
                    examples: LayoutSettleExamples.diff)
            }
        }
    }

    // MARK: Options and arguments, each read back through its key

    // view add
    static let newView = ArgumentSpec.name("name", viewDomain, abstract: "A new, unique view name.")
    static let addParent = OptionSpec.typed("parent", view, abstract: "The parent view.", default: "window")
    static let addFrame = OptionSpec.rect(
        "frame", abstract: "The frame relative to the parent.", default: ViewProperties.initial.frame)
    static let addAlpha = OptionSpec.decimal("alpha", abstract: "Opacity, 0…1.", default: ViewProperties.initial.alpha)
    static let addHidden = OptionSpec.boolean(
        "hidden", abstract: "Whether it is hidden.", default: ViewProperties.initial.hidden)

    // view add, view set: what the view costs a commit in which it changed (R6)
    static let layoutCost = OptionSpec.duration(
        "layout-cost", abstract: "What laying it out adds to each commit in which it changed (R6).",
        defaultText: "0s")
    static let displayCost = OptionSpec.duration(
        "display-cost", abstract: "What drawing it adds to each commit in which it changed (R6).", defaultText: "0s")

    // view set, animate, spin: an existing view
    static let existingView = ArgumentSpec.name("name", viewDomain, abstract: "The view.")
    static let setFrame = OptionSpec.rect("frame", abstract: "The new frame.")
    static let setAlpha = OptionSpec.decimal("alpha", abstract: "The new alpha, 0…1.")
    static let setHidden = OptionSpec.boolean("hidden", abstract: "Hide or show it.")
    static let setParent = OptionSpec.name(
        "parent", viewDomain, abstract: "Move it (with its subtree) to the end of this view's children.")
    static let animateFrame = OptionSpec.rect("frame", abstract: "The end frame (required).")
    static let animateOver = OptionSpec.duration("over", abstract: "The duration (required, positive).").positive()
    static let spinFor = OptionSpec.duration(
        "for", abstract: "Spin for this long; without it, until --stop or removal.")
    static let spinStop = OptionSpec.flag("stop", abstract: "Stop spinning (the rotation stays).")

    // view remove
    static let removedView = ArgumentSpec.name("name", viewDomain, abstract: "The view; not window.")

    // view grow
    static let growParent = ArgumentSpec.name("parent", viewDomain, abstract: "Where the subtree hangs.")
    static let growCount = ArgumentSpec.integer(
        "count", in: Int64.min...Int64.max, abstract: "How many views, 1…1,000,000.")
    static let fanout = OptionSpec.integer(
        "fanout", in: 1...1_000_000, abstract: "Children per generated view.", default: 8)

    // view tree, view count
    static let subtreeRoot = ArgumentSpec.optional(
        "name", view, abstract: "The subtree's root.", default: "window")
    static let treeDepth = OptionSpec.integer("depth", in: 0...1_000_000, abstract: "Levels below the root to show.")
    static let treeLimit = OptionSpec.integer(
        "limit", in: 1...1_000_000, abstract: "Lines to show at most.", default: 100)

    // layout watch
    static let watchRoot = ArgumentSpec.optional("root", view, abstract: "The subtree's root.", default: "window")
    static let quiet = OptionSpec.duration(
        "quiet", abstract: "Quiet mode: how long without a change counts as settled (L4).",
        default: .milliseconds(200))
    static let timeout = OptionSpec.duration(
        "timeout", abstract: "Give up after this long, with a diagnosis.", default: .seconds(10))
    static let watchMode = OptionSpec.choice(
        "mode", abstract: "quiet (L4) or seed, the original checker (L2).", default: SettleWatch.Mode.quiet)
    static let poll = OptionSpec.duration(
        "poll", abstract: "Seed mode: the poll timer's interval, at least 1us (L2).", default: .milliseconds(200))
    static let leeway = OptionSpec.duration(
        "leeway", abstract: "Seed mode: the poll timer's leeway (L2, D2).", default: .milliseconds(50))
    static let costPerView = OptionSpec.duration(
        "cost-per-view",
        abstract: "Replace L3's per-view cost (seed 0.5us per view, quiet 0.05us per changed view).")

    // layout diff
    static let diffLimit = OptionSpec.integer(
        "limit", in: 1...1_000_000, abstract: "Views to list at most.", default: 20)
}

extension LayoutSettleChecker {
    /// `layout.state`'s words, as `stateWord` answers them: `idle` (no watch, or a stopped one),
    /// then a watch's states but `stopped` (read as `idle`).
    static let stateWords = ["idle"] + SettleWatch.State.allCases.filter { $0 != .stopped }.map(\.rawValue)
}
