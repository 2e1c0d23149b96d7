import DebugShellCore

extension LayoutSettleChecker {
    public static let descriptor = ToolDescriptor(
        name: "layout",
        abstract: "The layout-settle checker: a simulated view tree and a checker that tells when it stops changing.",
        commands: [viewCommand, layoutCommand],
        metrics: [
            MetricSpec("layout.state", .word, abstract: "idle, settling, settled or timeout (L4)."),
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
            EventSpec("layout.settled", abstract: "The watched subtree settled: root, views, last change."),
            EventSpec(
                "layout.timeout",
                abstract: "The watch timed out: which views kept changing, how often, and whether the tree oscillates."),
        ])

    static let view = ValueKind.name(viewDomain)

    static let viewCommand = CommandSpec(
        "view", abstract: "Build and change the simulated app's view tree (L1).",
        discussion: """
            The tree starts with the root view 'window' (0,0,390,844). Every change dirties the UI (RL5), so a \
            commit follows. A change is a view added or removed (a removed subtree counts each view) or a \
            property taking a different value; setting a property to its current value is no change, and moving \
            a parent changes only the parent (L1).
            """,
        verbs: LayoutSettleExamples.viewVerbs)

    static let layoutCommand = CommandSpec(
        "layout", abstract: "Watch a view subtree until it settles (L2–L4).",
        discussion: """
            'quiet' mode (the default) settles at the first checker callback at least --quiet after the last \
            change (L4). 'seed' mode is the original layoutCompleteChecker (L2): two equal consecutive snapshots \
            set a sticky flag that a 200 ms poll timer reports. A watch that does not settle within --timeout ends \
            in 'timeout' with a diagnosis.
            """,
        verbs: LayoutSettleExamples.layoutVerbs, defaultVerb: "show")
}
