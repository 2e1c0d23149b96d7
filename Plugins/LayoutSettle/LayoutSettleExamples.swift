import DebugShellCore

/// The `view` and `layout` verbs with their examples: every example is replayed as a test and
/// printed by `help`.
enum LayoutSettleExamples {
    static let viewVerbs: [VerbSpec] = [
        VerbSpec(
            "add", abstract: "Add a view (default parent window, frame 0,0,0,0, alpha 1, visible).",
            arguments: [LayoutSettleChecker.newView],
            options: [
                LayoutSettleChecker.addParent, LayoutSettleChecker.addFrame, LayoutSettleChecker.addAlpha,
                LayoutSettleChecker.addHidden,
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
            arguments: [LayoutSettleChecker.existingView],
            options: [
                LayoutSettleChecker.setFrame, LayoutSettleChecker.setAlpha, LayoutSettleChecker.setHidden,
                LayoutSettleChecker.setParent,
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
            arguments: [LayoutSettleChecker.removedView],
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
            arguments: [LayoutSettleChecker.existingView],
            options: [LayoutSettleChecker.animateFrame, LayoutSettleChecker.animateOver],
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
            arguments: [LayoutSettleChecker.existingView],
            options: [LayoutSettleChecker.spinFor, LayoutSettleChecker.spinStop],
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
            arguments: [LayoutSettleChecker.growParent, LayoutSettleChecker.growCount],
            options: [LayoutSettleChecker.fanout],
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
            arguments: [LayoutSettleChecker.subtreeRoot],
            options: [LayoutSettleChecker.treeDepth, LayoutSettleChecker.treeLimit],
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
            arguments: [LayoutSettleChecker.subtreeRoot],
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
            arguments: [LayoutSettleChecker.watchRoot],
            options: [
                LayoutSettleChecker.quiet, LayoutSettleChecker.timeout, LayoutSettleChecker.watchMode,
                LayoutSettleChecker.poll, LayoutSettleChecker.leeway, LayoutSettleChecker.costPerView,
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
            options: [LayoutSettleChecker.diffLimit],
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
