import DebugShellCore

/// The examples of the `view` and `layout` verbs: each is replayed as a test and printed by
/// `help`.
enum LayoutSettleExamples {
    static let add: [Example] = [
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
    ]

    static let set: [Example] = [
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
        // R6: a view whose layout costs 30 ms makes the commit after its change late.
        Example(
            """
            > fps start
            > view add card --frame 0,0,100,100 --layout-cost 30ms
            > animate 1s
            > run 300ms
            > view set card --frame 0,0,200,200
            > run 700ms
            > fps hitches --last 1
            the last 1 of 2 hitches; times in ms
            present  frame   hitch  severity  type                 phases  delayed by
            350.000     20  16.667  Low       Expensive Commit(s)  -       commit of frame 19 300.000–330.000
            """),
    ]

    static let remove: [Example] = [
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
    ]

    static let animate: [Example] = [
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
    ]

    static let spin: [Example] = [
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
    ]

    static let grow: [Example] = [
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
    ]

    static let tree: [Example] = [
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
    ]

    static let count: [Example] = [
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
    ]

    static let watch: [Example] = [
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
    ]

    static let stop: [Example] = [Example("> layout watch\n> layout stop\n> get layout.state\nlayout.state = idle")]

    static let show: [Example] = [
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
    ]

    static let diff: [Example] = [
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
    ]
}
