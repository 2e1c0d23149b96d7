import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// A `view spin --for` that ends early — replaced by a shorter spin, stopped, or its view
/// removed — ends its animating time there (L1, A2): the app's UI link stops ticking and
/// committing (A1) exactly as if the spin had been asked for that long.
@Suite struct SpinEndTests {
    /// `render.commits` after a script: each animation tick dirties the UI (A1), so the commits
    /// count the ticks of the animating time.
    func commits(_ script: String) throws -> String {
        try metrics(after: script, ["render.commits"])[0]
    }

    /// The case: `view spin a --for 1s`, replaced at 100 ms by a 100 ms spin, commits what
    /// `view spin a --for 200ms` alone commits: the view's add at 0, then a tick per vsync in
    /// [0, 200 ms), v0…v11, each committed in its own iteration — 13, not 61.
    @Test func aShorterSpinEndsTheLongerOnesAnimatingTime() throws {
        let replaced = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 1s\nafter 100ms view spin a --for 100ms\nrun 2s")
        let alone = try commits("view add a --frame 0,0,10,10\nview spin a --for 200ms\nrun 2s")
        #expect(alone == "13")
        #expect(replaced == alone)
    }

    /// `--stop` at 100 ms: the same as a 100 ms spin.
    @Test func aStoppedSpinAnimatesNoLonger() throws {
        let stopped = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 1s\nafter 100ms view spin a --stop\nrun 2s")
        let alone = try commits("view add a --frame 0,0,10,10\nview spin a --for 100ms\nrun 2s")
        #expect(alone == "7")
        #expect(stopped == alone)
    }

    /// Removing the view at 100 ms: the same as a 100 ms spin whose view goes at 100 ms (the
    /// removal is a change of its own, committed once).
    @Test func aRemovedViewsSpinAnimatesNoLonger() throws {
        let removed = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 1s\nafter 100ms view remove a\nrun 2s")
        let alone = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 100ms\nafter 100ms view remove a\nrun 2s")
        #expect(alone == "8")
        #expect(removed == alone)
    }

    /// A longer spin replacing a shorter one, or an endless one replacing a `--for` spin, still
    /// animates to its own end; a spin stopped after its natural end changes nothing.
    @Test func replacingWithALongerOrEndlessSpinKeepsAnimating() throws {
        let longer = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 100ms\nafter 50ms view spin a --for 150ms\nrun 2s")
        #expect(longer == "13")
        let endless = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 1s\nafter 100ms view spin a\n"
                + "after 200ms view spin a --stop\nrun 2s")
        #expect(endless == "13")
        let late = try commits(
            "view add a --frame 0,0,10,10\nview spin a --for 100ms\nafter 500ms view spin a --stop\nrun 2s")
        #expect(late == "7")
    }

    /// What the other animations cover stays: a 300 ms `animate` beside a 1 s spin stopped at
    /// 100 ms animates 300 ms, as the `animate` alone with the spin's first 100 ms.
    @Test func otherAnimationsKeepTheirTime() throws {
        let both = try commits(
            "view add a --frame 0,0,10,10\nanimate 300ms\nview spin a --for 1s\nafter 100ms view spin a --stop\nrun 2s")
        let alone = try commits("view add a --frame 0,0,10,10\nanimate 300ms\nview spin a --for 100ms\nrun 2s")
        #expect(both == alone)
        #expect(both == "19")
    }
}
