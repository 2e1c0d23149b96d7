import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// L1: what is a change. Each test watches, changes, runs one frame (`run 1f` processes v0 only)
/// and reads what the checker saw.
@Suite struct ChangeRuleTests {
    /// Setting a property to its current value is no change: no checker frame sees one, and the
    /// UI is not dirtied (RL5), so nothing is committed.
    @Test func settingTheSameValueIsNoChange() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,10,10 --alpha 0.5
            > run 1f
            > layout watch
            > view set a --frame 0,0,10,10 --alpha 0.5 --hidden off
            > run 1f
            > get layout.changes
            layout.changes = 0
            > get render.commits
            render.commits = 1
            > layout diff
            no checker frame has seen a change yet
            """)
    }

    /// Every change dirties the UI (RL5): one commit follows a change.
    @Test func aChangeDirtiesTheUI() throws {
        let values = try metrics(after: "view add a\nrun 1f\nview set a --alpha 0.5\nrun 1f", ["render.commits"])
        #expect(values == ["2"])
    }

    /// Moving a parent changes only the parent: its children's frames are relative to it.
    @Test func movingAParentChangesOnlyTheParent() throws {
        try expectTranscript(
            """
            > view add card --frame 0,0,100,100
            > view add label --parent card --frame 10,10,80,20
            > view add icon --parent card --frame 10,40,20,20
            > layout watch
            > view set card --frame 50,50,100,100
            > run 1f
            > layout diff
            checker frame at 0s: 1 view changed
              card  frame 0,0,100,100 → 50,50,100,100
            """)
    }

    /// A removed subtree counts each view: window.1 has the generated children window.4…6
    /// (view k hangs under (k − 1) / 3 with fan-out 3), four views in all.
    @Test func removingASubtreeCountsEachView() throws {
        try expectTranscript(
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
            > get layout.views
            layout.views = 6
            """)
    }

    /// Each added view is a change, those of `view grow` included; a view added and removed in
    /// the same frame is two changes of one view each.
    @Test func addedViewsAreChanges() throws {
        try expectTranscript(
            """
            > layout watch
            > view add header --frame 0,0,390,88
            > view grow header 3
            > view add toast
            > view remove toast
            > run 1f
            > layout diff
            checker frame at 0s: 5 views changed
              header    added 0,0,390,88
              header.1  added 0,0,390,44
              header.2  added 0,44,390,44
              header.3  added 0,88,390,44
              toast     added and removed
            """)
    }

    /// A view changed several times between two callbacks is one changed view, with all its
    /// changes; moving it under another parent is a change of it alone.
    @Test func severalChangesOfOneViewInOneFrame() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,10,10
            > view add b
            > view add c --parent a
            > layout watch
            > view set a --frame 0,0,20,10
            > view set a --alpha 0.25 --hidden on
            > view set a --parent b
            > run 1f
            > layout diff
            checker frame at 0s: 1 view changed
              a  frame 0,0,10,10 → 0,0,20,10, alpha 1 → 0.25, hidden off → on, moved under b
            """)
    }

    /// `view animate` is time-based (L1): progress = min(1, (tick timestamp − start) / duration).
    /// A 50 ms stall at 0 holds the main thread; the UI link's slot keeps v0 (DL7: v1…v3 are
    /// skipped), so the tick at 50 ms has timestamp 0 and progress 0: no change yet. The next tick,
    /// v4 = 66.666666 ms, has progress 66.666666 / 300 and sets width 100 + 100 · 0.2222… = 122.222.
    @Test func progressUsesTheTickTimestamp() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > stall 50ms
            > run 60ms
            > view tree a
            a 0,0,100,100 (animating)
            > run 10ms
            > view tree a
            a 0,0,122.222,100 (animating)
            """)
    }

    /// The exact end value at progress 1, and a duration that is not whole periods: over 310 ms
    /// from 0, the first tick with progress ≥ 1 is v19 = 316.666666 ms, which ends it (A2: the
    /// animation is active through that tick).
    @Test func exactEndValues() throws {
        let values = try metrics(
            after: """
                view add a --frame 0,0,100,100
                view animate a --frame 0,0,333.3,100.1 --over 310ms
                layout watch
                run 1s
                view tree a
                """, ["layout.last_change"])
        #expect(values == ["316.666666ms"])
        let (stdout, _, _) = try Transcript.run(
            "view add a --frame 0,0,100,100\nview animate a --frame 0,0,333.3,100.1 --over 310ms\nrun 1s\nview tree a",
            tools: [LayoutSettleChecker.self])
        #expect(stdout == "a 0,0,333.3,100.1\n")
    }

    /// `view spin` changes the rotation at every tick: `--for 100ms` ticks at v0…v5 (A1: vsyncs
    /// in [0, 100 ms)), 6 changes of 30°.
    @Test func spinChangesEveryTick() throws {
        try expectTranscript(
            """
            > view add s
            > layout watch
            > view spin s --for 100ms
            > run 1s
            [0.283s] layout: settled (window, 2 views, last change 83.333333ms)
            > get layout.changes
            layout.changes = 6
            > view tree s
            s 0,0,0,0 rotation 180°
            """)
    }

    /// An explicit frame stops a running `view animate`; `view spin --stop` stops a spin after the
    /// ticks v0…v5 of the first 100 ms: 6 × 30° = 180°.
    @Test func setFrameStopsAnAnimationAndSpinStops() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,100,100
            > view add s
            > view animate a --frame 0,0,200,100 --over 1s
            > view spin s
            > run 100ms
            > view set a --frame 0,0,10,10
            > view spin s --stop
            > run 1s
            > view tree
            window 0,0,390,844
            ├─ a 0,0,10,10
            └─ s 0,0,0,0 rotation 180°
            """)
    }
}
