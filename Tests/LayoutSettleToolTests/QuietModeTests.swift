import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// Quiet mode (L4): settled at the first checker callback starting at t with t − last change ≥
/// quiet; the last change starts at the watch time. At 60 Hz, V(k) = floor(k · 1e9 / 60) ns.
@Suite struct QuietModeTests {
    /// L-A: the frame animates from t = 0 over 300 ms. Its ticks come at every vsync (A1); the
    /// tick of v18 = floor(18e9/60) = 300,000,000 ns has progress 300/300 = 1, the exact end
    /// value and the last change (L1). The checker's link fires at v0, v1, …; v30 = 500 ms is the
    /// first with t − 300 ms ≥ 200 ms.
    @Test func workedExampleLA() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > layout watch --quiet 200ms
            > run 2s
            [0.500s] layout: settled (window, 2 views, last change 300ms)
            > get layout.settled_at
            layout.settled_at = 500ms
            > get layout.last_change
            layout.last_change = 300ms
            > get layout.changes
            layout.changes = 18
            > get layout.views
            layout.views = 2
            > get layout.state
            layout.state = settled
            """)
    }

    /// L4 with --quiet 100ms: the first callback at or after 300 + 100 = 400 ms is v24 = 400 ms.
    @Test func shorterQuietWindow() throws {
        let values = try metrics(
            after: """
                view add a --frame 0,0,100,100
                view animate a --frame 0,0,200,100 --over 300ms
                layout watch --quiet 100ms
                run 2s
                """, ["layout.settled_at"])
        #expect(values == ["400ms"])
    }

    /// L4: "a tree that is already still settles quiet after the watch starts". Watch at 0 with
    /// nothing changing: v12 = 200 ms is the first callback with t − 0 ≥ 200 ms; changes 0.
    @Test func stillTreeSettlesQuietAfterTheWatch() throws {
        let values = try metrics(
            after: "view add a --frame 0,0,10,10\nlayout watch\nrun 1s",
            ["layout.settled_at", "layout.last_change", "layout.changes"])
        #expect(values == ["200ms", "0s", "0"])
    }

    /// L4 and DL5: a watch at 5 ms gets its first callback at v1 = 16.666666 ms; the last change
    /// is the watch time, 5 ms, so the first callback at or after 205 ms is v13 = 216.666666 ms.
    @Test func watchBetweenVsyncs() throws {
        let values = try metrics(after: "run 5ms\nlayout watch\nrun 1s", ["layout.settled_at", "layout.last_change"])
        #expect(values == ["216.666666ms", "5ms"])
    }

    /// L4: a change by a command between vsyncs at 110 ms is the last change; the first callback
    /// at or after 310 ms is v19 = 316.666666 ms. Only the callback at v7 = 116.666666 ms saw it.
    @Test func commandChangeBetweenVsyncs() throws {
        let values = try metrics(
            after: """
                view add a
                layout watch
                after 110ms view set a --alpha 0.5
                run 1s
                """, ["layout.settled_at", "layout.last_change", "layout.changes"])
        #expect(values == ["316.666666ms", "110ms", "1"])
    }

    /// L4 counts from the callback's start, not its timestamp: a 150 ms stall enqueued at 400 ms
    /// is drained first in that instant's iteration (RL4.1, the previous iteration did not drain),
    /// so the checker's slot, filled at v24 = 400 ms (DL7: v25…v32 are skipped), calls back at
    /// 550 ms; 550 − 300 ≥ 200, settled at 0.55 s instead of 0.5 s.
    @Test func lateCallbackSettlesAtItsStart() throws {
        let values = try metrics(
            after: """
                view add a --frame 0,0,100,100
                view animate a --frame 0,0,200,100 --over 300ms
                layout watch
                after 400ms stall 150ms
                run 2s
                """, ["layout.settled_at", "layout.last_change"])
        #expect(values == ["550ms", "300ms"])
    }

    /// A UI tick costing 5 ms (load frame) runs before the checker in each wake-up (DL8: the app's
    /// UI link is the first link): the last change is the tick's start, 300 ms; after the
    /// animation the UI link no longer ticks (A1), so v30 = 500 ms settles as in L-A.
    @Test func frameCostDelaysCallbacksNotTheLastChange() throws {
        let values = try metrics(
            after: """
                load frame 5ms
                view add a --frame 0,0,100,100
                view animate a --frame 0,0,200,100 --over 300ms
                layout watch
                run 2s
                """, ["layout.settled_at", "layout.last_change"])
        #expect(values == ["500ms", "300ms"])
    }

    /// Changes outside the watched subtree do not count: a sibling animates, the watched
    /// subtree is still, so it settles 200 ms after the watch (L4).
    @Test func changesOutsideTheSubtreeDoNotCount() throws {
        let values = try metrics(
            after: """
                view add list --frame 0,0,390,400
                view add row --parent list --frame 0,0,390,44
                view add other --frame 0,400,390,100
                view animate other --frame 0,500,390,100 --over 1s
                layout watch list
                run 2s
                """, ["layout.settled_at", "layout.changes", "layout.views"])
        #expect(values == ["200ms", "0", "2"])
    }

    /// A change inside the subtree does: the row moves at 100 ms (v6); settled at v18 = 300 ms.
    @Test func changesInsideTheSubtreeCount() throws {
        let values = try metrics(
            after: """
                view add list --frame 0,0,390,400
                view add row --parent list --frame 0,0,390,44
                view add other
                layout watch list
                after 100ms view set row --frame 0,44,390,44
                after 150ms view set other --alpha 0.5
                run 2s
                """, ["layout.settled_at", "layout.last_change", "layout.changes"])
        #expect(values == ["300ms", "100ms", "1"])
    }

    /// A second watch replaces the first; `layout stop` makes the state idle (a stopped watch
    /// that had not settled) and nothing more is reported.
    @Test func stopAndReplace() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > layout watch
            > run 100ms
            > layout stop
            > get layout.state
            layout.state = idle
            > run 1s
            > get layout.settled_at
            layout.settled_at = none
            > layout watch --quiet 50ms
            > run 100ms
            [1.150s] layout: settled (window, 2 views, last change 1.1s)
            """)
    }

    /// Removing the watched root ends the watch, with a warning and no event.
    @Test func removingTheWatchedRootEndsTheWatch() throws {
        try expectTranscript(
            """
            > view add list
            > view add row --parent list
            > layout watch list
            > view remove list
            warning: stopped watching 'list': it was removed
            > get layout.state
            layout.state = idle
            > get layout.views
            layout.views = 0
            > run 1s
            > layout
            layout idle: the watch stopped at 0s (its root 'list' was removed)
              mode         quiet: settled once 200ms pass without a change; timeout 10s
              root         list (removed)
              watched      0s → 0s
              last change  none since the watch started (0s)
              changes      0 of 0 checker frames; longest still period 0s
              cost         200ns + 50ns per changed view per frame; 0s in all
            """)
    }
}
