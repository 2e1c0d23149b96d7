import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// Bad input gives clear errors, never a trap (README, Limits).
@Suite struct LayoutBadInputTests {
    static let cases: [(command: String, error: String)] = [
        ("view add window", "'window' is the root view and always exists"),
        (
            "view add 9lives",
            "'9lives' is not a valid view name: a name starts with a letter or '_' and goes on with letters, digits, '_', '.' and '-' (e.g. poll_2)"
        ),
        ("view add b --parent nowhere", "unknown parent view 'nowhere' (see 'view tree')"),
        ("view add b --frame 0,0,10", "--frame: '0,0,10' is not a frame: expected four numbers x,y,w,h (got 3)"),
        ("view add b --frame 0,0,-1,10", "--frame: frame '0,0,-1,10' has a negative size"),
        ("view add b --alpha 1.5", "alpha 1.5 is outside 0…1"),
        ("view add b --alpha -0.1", "alpha -0.1 is outside 0…1"),
        ("view add b --hidden maybe", "--hidden: 'maybe' is not a boolean: expected on|off, true|false or yes|no"),
        (
            "view set a",
            "'view set' needs at least one of --frame, --alpha, --hidden, --parent, --layout-cost, --display-cost"
        ),
        ("view set ghost --alpha 0.5", "unknown view 'ghost' (see 'view tree')"),
        ("view set aa --alpha 0.5", "unknown view 'aa'; did you mean 'a'?"),
        ("view set window --parent a", "'window' is the root view and has no parent"),
        ("view set a --parent a", "view 'a' cannot be its own parent"),
        ("view set a --parent child", "moving 'a' under 'child' would make a cycle: 'child' is inside 'a'"),
        ("view remove window", "cannot remove 'window': it is the root view"),
        ("view remove ghost", "unknown view 'ghost' (see 'view tree')"),
        ("view animate a --over 1s", "'view animate' needs --frame x,y,w,h"),
        ("view animate a --frame 0,0,1,1", "'view animate' needs --over <duration>"),
        ("view animate a --frame 0,0,1,1 --over 0s", "--over must be positive (got 0s)"),
        ("view animate a --frame 0,0,1,1 --over -1s", "--over: negative duration '-1s' is not allowed"),
        ("view spin a --for 0s", "'view spin' needs a positive --for duration"),
        ("view spin a --for 1s --stop", "'view spin' takes --for or --stop, not both"),
        ("view grow a 0", "'view grow' needs a count of at least 1 (got 0)"),
        ("view grow a -3", "'view grow' needs a count of at least 1 (got -3)"),
        ("view grow a 99999999999999999999", "integer '99999999999999999999' is too large"),
        ("view grow a 1000001", "'view grow' adds at most 1,000,000 views at a time (asked for 1,000,001)"),
        ("view grow a 10 --fanout 0", "--fanout: '0' is outside 1…1000000"),
        ("view tree ghost", "unknown view 'ghost' (see 'view tree')"),
        ("layout watch ghost", "unknown root view 'ghost' (see 'view tree')"),
        ("layout watch --quiet 0s", "--quiet must be a positive duration"),
        ("layout watch --timeout 0s", "--timeout must be a positive duration"),
        (
            "layout watch --mode seed --poll 0s",
            "--poll must be at least 1us, the shortest interval of anything that repeats (got 0s)"
        ),
        (
            "layout watch --mode seed --poll 999ns",
            "--poll must be at least 1us, the shortest interval of anything that repeats (got 999ns)"
        ),
        ("layout watch --mode fast", "--mode: 'fast' is not one of quiet, seed"),
        ("layout watch --cost-per-view 2s", "--cost-per-view 2s is above the limit of 1s per view"),
    ]

    @Test(arguments: cases)
    func rejected(_ c: (command: String, error: String)) throws {
        let s = try LayoutSession()
        s.run("view add a", "view add child --parent a")
        let out = s.run(c.command)
        #expect(out == "error: \(c.error)\n", "\(c.command)")
        // Nothing changed: the tree still has window, a and child.
        #expect(try s.tool.tree.liveCount == 3)
    }

    /// The whole-tree limit (README's Limits: 10,000,000 views), lowered here to reach it cheaply; the
    /// code path is the same.
    @Test func treeLimit() throws {
        let s = try LayoutSession()
        try s.tool.viewLimit = 100
        #expect(
            s.run("view grow window 100")
                == "error: the view tree holds at most 100 views; it has 1 and 100 more would pass the limit\n")
        #expect(s.run("view grow window 99") == "")
        #expect(
            s.run("view add one-too-many")
                == "error: the view tree holds at most 100 views; it has 100 and 1 more would pass the limit\n")
        #expect(try s.tool.tree.liveCount == 100)
        #expect(ViewTree.maxViews == 10_000_000 && ViewTree.maxGrow == 1_000_000)
    }

    /// Names: a generated name is taken while its view lives; explicit names that look generated
    /// push later grows past them.
    @Test func generatedNamesNeverCollide() throws {
        try expectTranscript(
            """
            > view add list
            > view add list.2 --parent list
            > view grow list 2
            > view tree list
            list 0,0,0,0
            ├─ list.2 0,0,0,0
            ├─ list.3 0,0,390,44
            └─ list.4 0,44,390,44
            > view add list.3
            error: a view named 'list.3' already exists
            > view remove list.3
            > view add list.3 --parent list
            > view grow list 1
            > view count list
            5 views in list
            > view tree list --depth 1
            list 0,0,0,0
            ├─ list.2 0,0,0,0
            ├─ list.4 0,44,390,44
            ├─ list.3 0,0,0,0
            └─ list.5 0,0,390,44
            """)
    }
}
