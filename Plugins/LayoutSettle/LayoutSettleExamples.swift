import DebugShellCore

/// The `view` and `layout` verbs with their examples: every example is replayed as a test and
/// printed by `help`.
enum LayoutSettleExamples {
    static let view = LayoutSettleChecker.view

    static let viewVerbs: [VerbSpec] = [
        VerbSpec(
            "add", abstract: "Add a view (default parent window, frame 0,0,0,0, alpha 1, visible).",
            arguments: [ArgumentSpec("name", view, abstract: "A new, unique view name.")],
            options: [
                OptionSpec("parent", view, abstract: "The parent view.", default: "window"),
                OptionSpec("frame", .rect, abstract: "The frame relative to the parent.", default: "0,0,0,0"),
                OptionSpec("alpha", .decimal, abstract: "Opacity, 0…1.", default: "1"),
                OptionSpec("hidden", .boolean, abstract: "Whether it is hidden.", default: "off"),
            ],
            examples: [
                Example(
                    """
                    > view add header --frame 0,0,390,88
                    > view add title --parent header --frame 16,44,200,30 --alpha 0.5
                    > view tree
                    window 0,0,390,844
                    └─ header 0,0,390,88
                       └─ title 16,44,200,30 alpha 0.5
                    > view add header
                    error: a view named 'header' already exists
                    > view add badge --alpha 1.5
                    error: alpha 1.5 is outside 0…1
                    > view add badge --parent heade
                    error: unknown parent view 'heade'; did you mean 'header'?
                    > view add badge --frame 0,0,10
                    error: --frame: '0,0,10' is not a frame: expected four numbers x,y,w,h (got 3)
                    """)
            ]),
        VerbSpec(
            "set", abstract: "Change a view's frame, alpha, hidden or parent (same values are no change, L1).",
            arguments: [ArgumentSpec("name", view, abstract: "The view.")],
            options: [
                OptionSpec("frame", .rect, abstract: "The new frame."),
                OptionSpec("alpha", .decimal, abstract: "The new alpha, 0…1."),
                OptionSpec("hidden", .boolean, abstract: "Hide or show it."),
                OptionSpec("parent", view, abstract: "Move it (with its subtree) to the end of this view's children."),
            ],
            examples: [
                Example(
                    """
                    > view add a --frame 0,0,100,100
                    > layout watch
                    > view set a --frame 0,0,100,100
                    > view set a --alpha 0.5 --hidden on
                    > run 20ms
                    > layout diff
                    checker frame at 0s: 1 view changed
                      a  alpha 1 → 0.5, hidden off → on
                    > get layout.changes
                    layout.changes = 1
                    """),
                Example(
                    """
                    > view add list
                    > view add row --parent list
                    > view set list --parent row
                    error: moving 'list' under 'row' would make a cycle: 'row' is inside 'list'
                    > view set row --parent window
                    > view tree
                    window 0,0,390,844
                    ├─ list 0,0,0,0
                    └─ row 0,0,0,0
                    """),
            ]),
        VerbSpec(
            "remove", abstract: "Remove a view with its subtree (each removed view is a change).",
            arguments: [ArgumentSpec("name", view, abstract: "The view; not window.")],
            examples: [
                Example(
                    """
                    > view grow window 9 --fanout 3
                    > layout watch
                    > view remove window.1
                    > run 1f
                    > layout diff
                    checker frame at 0s: 4 views changed
                      window.1  removed
                      window.4  removed
                      window.5  removed
                      window.6  removed
                    > view count
                    6 views
                    > view remove window
                    error: cannot remove 'window': it is the root view
                    """)
            ]),
        VerbSpec(
            "animate", abstract: "Animate a view's frame over a duration, driven by the app's UI-link ticks (L1).",
            arguments: [ArgumentSpec("name", view, abstract: "The view.")],
            options: [
                OptionSpec("frame", .rect, abstract: "The end frame (required)."),
                OptionSpec("over", .duration, abstract: "The duration (required, positive)."),
            ],
            examples: [
                Example(
                    """
                    > view add a --frame 0,0,100,100
                    > view animate a --frame 0,0,200,100 --over 300ms
                    > run 150ms
                    > view tree a
                    a 0,0,144.444,100 (animating)
                    > run 200ms
                    > view tree a
                    a 0,0,200,100
                    """)
            ]),
        VerbSpec(
            "spin", abstract: "Spin a view like an activity indicator: its rotation changes at every tick.",
            arguments: [ArgumentSpec("name", view, abstract: "The view.")],
            options: [
                OptionSpec("for", .duration, abstract: "Spin for this long; without it, until --stop or removal."),
                OptionSpec("stop", abstract: "Stop spinning (the rotation stays)."),
            ],
            examples: [
                Example(
                    """
                    > view add spinner --frame 185,400,20,20
                    > view spin spinner --for 100ms
                    > run 50ms
                    > view tree spinner
                    spinner 185,400,20,20 rotation 90° (spinning)
                    > run 1s
                    > view tree spinner
                    spinner 185,400,20,20 rotation 180°
                    """)
            ]),
        VerbSpec(
            "grow", abstract: "Add a generated subtree of <count> views named <parent>.1, <parent>.2, …",
            arguments: [
                ArgumentSpec("parent", view, abstract: "Where the subtree hangs."),
                ArgumentSpec(
                    "count", .integer(Int64.min...Int64.max), abstract: "How many views, 1…1,000,000."),
            ],
            options: [
                OptionSpec("fanout", .integer(1...1_000_000), abstract: "Children per generated view.", default: "8")
            ],
            examples: [
                Example(
                    """
                    > view grow window 20 --fanout 4
                    > view count
                    21 views
                    > view tree --depth 1
                    window 0,0,390,844
                    ├─ window.1 0,0,390,44  +4 below
                    ├─ window.2 0,44,390,44  +4 below
                    ├─ window.3 0,88,390,44  +4 below
                    └─ window.4 0,132,390,44  +4 below
                    > view grow window 2000000
                    error: 'view grow' adds at most 1,000,000 views at a time (asked for 2,000,000)
                    """)
            ]),
        VerbSpec(
            "tree", abstract: "Print the tree or a subtree: name, frame, and alpha, hidden, rotation when not default.",
            arguments: [ArgumentSpec("name", view, abstract: "The subtree's root.", optional: true)],
            options: [
                OptionSpec("depth", .integer(0...1_000_000), abstract: "Levels below the root to show."),
                OptionSpec("limit", .integer(1...1_000_000), abstract: "Lines to show at most.", default: "100"),
            ],
            examples: [
                Example(
                    """
                    > view add header --frame 0,0,390,88
                    > view add title --parent header --frame 16,44,200,30
                    > view add list --frame 0,88,390,756
                    > view grow list 3
                    > view tree
                    window 0,0,390,844
                    ├─ header 0,0,390,88
                    │  └─ title 16,44,200,30
                    └─ list 0,88,390,756
                       ├─ list.1 0,0,390,44
                       ├─ list.2 0,44,390,44
                       └─ list.3 0,88,390,44
                    > view tree list --depth 0
                    list 0,88,390,756  +3 below
                    > view tree --limit 3
                    window 0,0,390,844
                    ├─ header 0,0,390,88
                    │  └─ title 16,44,200,30
                    … 4 more views (--limit 3)
                    """)
            ]),
        VerbSpec(
            "count", abstract: "Count the views of the tree or of a subtree (its root included).",
            arguments: [ArgumentSpec("name", view, abstract: "The subtree's root.", optional: true)],
            examples: [
                Example(
                    """
                    > view count
                    1 view
                    > view add list
                    > view grow list 1000
                    > view count
                    1,002 views
                    > view count list
                    1,001 views in list
                    """)
            ]),
    ]

    static let layoutVerbs: [VerbSpec] = [
        VerbSpec(
            "watch", abstract: "Start the checker on a subtree (default window).",
            arguments: [ArgumentSpec("root", view, abstract: "The subtree's root.", optional: true)],
            options: [
                OptionSpec(
                    "quiet", .duration, abstract: "Quiet mode: how long without a change counts as settled (L4).",
                    default: "200ms"),
                OptionSpec(
                    "timeout", .duration, abstract: "Give up after this long, with a diagnosis.", default: "10s"),
                OptionSpec(
                    "mode", .choice(["quiet", "seed"]), abstract: "quiet (L4) or seed, the original checker (L2).",
                    default: "quiet"),
                OptionSpec(
                    "poll", .duration, abstract: "Seed mode: the poll timer's interval, at least 1us (L2).",
                    default: "200ms"),
                OptionSpec(
                    "leeway", .duration, abstract: "Seed mode: the poll timer's leeway (L2, D2).", default: "50ms"),
                OptionSpec(
                    "cost-per-view", .duration,
                    abstract: "Replace L3's per-view cost (seed 0.5us per view, quiet 0.05us per changed view)."),
            ],
            examples: [
                Example(
                    """
                    > view add a --frame 0,0,100,100
                    > view animate a --frame 0,0,200,100 --over 300ms
                    > layout watch --quiet 200ms
                    > get layout.state
                    layout.state = settling
                    > run 2s
                    [0.500s] layout: settled (window, 2 views, last change 300ms)
                    > get layout.settled_at
                    layout.settled_at = 500ms
                    """),
                Example(
                    """
                    > view add a --frame 0,0,100,100
                    > view animate a --frame 0,0,200,100 --over 300ms
                    > layout watch --mode seed
                    > run 2s
                    [0.400s] layout: settled (window, 2 views, last change 300ms)
                    > get layout.settled_at
                    layout.settled_at = 400ms
                    """),
                Example(
                    """
                    > view add spinner --frame 185,400,20,20
                    > view spin spinner
                    > layout watch --timeout 1s
                    > run 2s
                    [1.000s] layout: timeout (window, 2 views, not settled after 1s: spinner changed every frame; the tree cycles through 12 states, a state recurs every 12 frames)
                    > get layout.state
                    layout.state = timeout
                    """),
            ]),
        VerbSpec(
            "stop", abstract: "Stop the checker.",
            examples: [Example("> layout watch\n> layout stop\n> get layout.state\nlayout.state = idle")]),
        VerbSpec(
            "show", abstract: "The watch: state, root, last change, changes, cost, and the diagnosis of a timeout.",
            examples: [
                Example(
                    """
                    > layout
                    layout idle: no watch ('layout watch' starts one); window has 1 view
                    > view add a --frame 0,0,100,100
                    > view animate a --frame 0,0,200,100 --over 300ms
                    > layout watch
                    > run 1s
                    [0.500s] layout: settled (window, 2 views, last change 300ms)
                    > layout
                    layout settled at 500ms
                      mode         quiet: settled once 200ms pass without a change; timeout 10s
                      root         window (2 views)
                      watched      0s → 500ms
                      last change  300ms, a
                      changes      18 of 31 checker frames
                      cost         200ns + 50ns per changed view per frame; 7.1µs in all
                    """)
            ]),
        VerbSpec(
            "diff", abstract: "What changed in the last checker frame that saw a change.",
            options: [OptionSpec("limit", .integer(1...1_000_000), abstract: "Views to list at most.", default: "20")],
            examples: [
                Example(
                    """
                    > view add a --frame 0,0,100,100
                    > view animate a --frame 0,0,200,100 --over 300ms
                    > layout watch
                    > run 100ms
                    > layout diff
                    checker frame at 83.333333ms: 1 view changed
                      a  frame 0,0,122.222,100 → 0,0,127.778,100
                    > layout diff --limit 0
                    error: --limit: '0' is outside 1…1000000
                    """)
            ]),
    ]
}
