import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// L4's timeout: at a checker callback starting at t with t − watch time ≥ --timeout (and not
/// settled), the state is `timeout`, with a diagnosis: which views kept changing, how often, and
/// whether the tree cycles through a few states.
@Suite struct TimeoutTests {
    /// A spinner without an end turns 30° at every tick: twelve positions. The watch at 0 with
    /// --timeout 1s ends at v60 = 1 s; all 61 callbacks v0…v60 saw a change; the subtree's
    /// digest repeats every 12 changed frames.
    @Test func spinnerTimesOutWithDiagnosis() throws {
        try expectTranscript(
            """
            > view add spinner --frame 185,400,20,20
            > view spin spinner
            > layout watch --timeout 1s
            > run 2s
            [1.000s] layout: timeout (window, 2 views, not settled after 1s: spinner changed every frame; the tree cycles through 12 states, a state recurs every 12 frames)
            > get layout.changes
            layout.changes = 61
            > get layout.last_change
            layout.last_change = 1s
            > layout
            layout timeout at 1s: not settled
              mode         quiet: settled once 200ms pass without a change; timeout 1s
              root         window (2 views)
              watched      0s → 1s
              last change  1s, spinner
              changes      61 of 61 checker frames; longest still period 16.666667ms
              cost         200ns + 50ns per changed view per frame; 15.25µs in all
              states       the tree cycles through 12 states, a state recurs every 12 frames
              kept changing in the last 1s:
                spinner  rotation every frame, last at 1s — view spin without an end
            > status
            layout timeout at 1s · 2 views · spinner kept changing
            """)
    }

    /// A view blinking every 50 ms (`every` first fires one interval after it is issued: hidden
    /// on at 100, 200, …, off at 150, 250, …) never leaves a 200 ms quiet window: it oscillates
    /// between 2 states. The changes at 100, 150, …, 1000 ms fall on v6, v9, …, v60 (50 ms is
    /// exactly three periods): 19 of the 61 callbacks up to v60 = 1 s; a state recurs every 6
    /// frames. The command due at exactly 1 s runs at the start of the next `run` (S4.1).
    @Test func blinkingViewOscillates() throws {
        try expectTranscript(
            """
            > view add cursor --frame 10,10,2,20
            > layout watch --timeout 1s
            > every 100ms view set cursor --hidden on
            > after 50ms every 100ms view set cursor --hidden off
            > run 1s
            > get layout.state
            layout.state = settling
            > run 1f
            [1.000s] layout: timeout (window, 2 views, not settled after 1s: cursor changed in 19 of 61 frames; the tree oscillates between 2 states, a state recurs every 6 frames)
            """)
    }

    /// An animation longer than the timeout does not repeat a state; other views that changed
    /// long before the timeout are not among those that "kept changing".
    @Test func longAnimationDoesNotRepeat() throws {
        let s = try LayoutSession()
        s.run(
            "view add a --frame 0,0,100,100", "view add b", "view animate a --frame 0,0,400,100 --over 5s",
            "layout watch --timeout 2s", "view set b --alpha 0.5", "run 3s")
        let show = s.run("layout")
        // v1…v120 changed a (v0 has progress 0); v0 also saw b: 121 changed callbacks, and the
        // initial state plus 121 new ones.
        #expect(show.contains("  changes      121 of 121 checker frames; longest still period 16.666667ms"), "\(show)")
        #expect(show.contains("  states       the tree does not repeat: 122 distinct states"), "\(show)")
        #expect(
            show.contains("    a  frame in 120 of 121 frames, last at 2s — view animate over 5s from 0s"), "\(show)")
        #expect(!show.contains("    b "), "\(show)")
        let diagnosis = try #require(try s.tool.watch?.diagnosis)
        #expect(diagnosis.culprits.map(\.name) == ["a"])
        #expect(diagnosis.changedViews == 2)
        #expect(!diagnosis.states.oscillates)
    }

    /// The settled test comes first: a callback that finds the subtree quiet at the timeout
    /// instant settles (L4: "if instead…").
    @Test func settledWinsAtTheTimeoutInstant() throws {
        let values = try metrics(
            after: "layout watch --quiet 200ms --timeout 200ms\nrun 1s", ["layout.state", "layout.settled_at"])
        #expect(values == ["settled", "200ms"])
    }

    /// A timeout shorter than --quiet cannot settle: a warning says so.
    @Test func timeoutShorterThanQuietWarns() throws {
        try expectTranscript(
            """
            > layout watch --quiet 500ms --timeout 100ms
            warning: --timeout 100ms is shorter than --quiet 500ms: the watch cannot settle
            > run 1s
            [0.100s] layout: timeout (window, 1 view, not settled after 100ms; the tree does not repeat: 1 distinct state)
            """)
    }
}
