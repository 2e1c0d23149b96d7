import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// Seed mode (L2): the original layoutCompleteChecker. A common-modes display link snapshots the
/// subtree at each callback (compared by digest): equal to the previous snapshot sets a sticky
/// flag, otherwise it is stored. A main-queue dispatch timer, first fire at the watch instant,
/// every --poll, reports "settled" at the start of the first handler that finds the flag.
@Suite struct SeedModeTests {
    /// L-A in seed mode. The last change is the tick of v18 = 300 ms; the snapshot at v19 =
    /// 316.666666 ms equals v18's: the flag is set. Polls come at 0, 200, 400 ms (D1 with start 0);
    /// at 400 ms the poll handler, enqueued in S4 step 5, is drained in RL4 step 1 before the
    /// display links of v24 (the previous iteration did not drain): settled at exactly 0.4 s.
    /// Changes: v1…v18 differ from their predecessor, 18 of the 24 callbacks v0…v23 (v0 only
    /// stores the first snapshot; the v24 callback never runs, the link is invalidated, DL6).
    @Test func workedExampleInSeedMode() throws {
        try expectTranscript(
            """
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > layout watch --mode seed
            > run 2s
            [0.400s] layout: settled (window, 2 views, last change 300ms)
            > get layout.settled_at
            layout.settled_at = 400ms
            > get layout.changes
            layout.changes = 18
            > layout
            layout settled at 400ms
              mode         seed: two equal snapshots in a row, polled every 200ms (leeway 50ms); timeout 10s
              root         window (2 views)
              watched      0s → 400ms; equal snapshots first at 316.666666ms
              last change  300ms, a
              changes      18 of 24 checker frames
              cost         500ns per view per frame; 24µs in all
            """)
    }

    /// --poll 50ms: polls at 0, 50, …, 300, 350 ms; the flag is set at v19 = 316.666666 ms, so the
    /// 350 ms poll reports.
    @Test func pollInterval() throws {
        let values = try metrics(
            after: """
                view add a --frame 0,0,100,100
                view animate a --frame 0,0,200,100 --over 300ms
                layout watch --mode seed --poll 50ms --leeway 10ms
                run 2s
                """, ["layout.settled_at"])
        #expect(values == ["350ms"])
    }

    /// A still tree: the first snapshot (v0) is only stored, v1's equals it and sets the flag;
    /// the poll at 0 ms ran before any snapshot, so the poll at 200 ms reports.
    @Test func stillTreeSettlesAtTheSecondPoll() throws {
        let values = try metrics(
            after: "view add a\nlayout watch --mode seed\nrun 1s", ["layout.settled_at", "layout.changes"])
        #expect(values == ["200ms", "0"])
    }

    /// The sticky flag: a one-frame pause between two animations (v6 = 100 ms is the end of the
    /// first, the second starts at v7 with progress 0) gives two equal snapshots at v6 and v7. The
    /// poll at 200 ms reports although the card moves until v25 = 416.666666 ms; quiet mode waits
    /// for v37 = 616.666666 ms.
    @Test func onePausedFrameFoolsTheSeedNotQuietMode() throws {
        let screen = """
            view add card --frame 0,844,390,300
            view animate card --frame 0,644,390,300 --over 100ms
            after 7f view animate card --frame 0,344,390,500 --over 300ms
            """
        let seed = try metrics(after: screen + "\nlayout watch --mode seed\nrun 1s", ["layout.settled_at"])
        let quiet = try metrics(after: screen + "\nlayout watch\nrun 1s", ["layout.settled_at", "layout.last_change"])
        #expect(seed == ["200ms"])
        #expect(quiet == ["616.666666ms", "416.666666ms"])
    }

    /// After a seed watch settles, changes are still noticed: `layout show` says it settled too
    /// early. The poll at 200 ms runs before that vsync's display links, so the second
    /// animation's ticks v12…v25 all come after the report: 14 changes.
    @Test func lateChangesAreReported() throws {
        let s = try LayoutSession()
        s.run(
            "view add card --frame 0,844,390,300", "view animate card --frame 0,644,390,300 --over 100ms",
            "after 7f view animate card --frame 0,344,390,500 --over 300ms", "layout watch --mode seed", "run 1s")
        let show = s.run("layout")
        #expect(
            show.contains(
                "  late         14 changes after it settled, the last at 416.666666ms (card): it settled too early"),
            "\(show)")
        #expect(s.run("status") == "layout settled at 200ms · 2 views · changed since\n")
    }

    /// Snapshots compare digests of the whole subtree's state (L2): a change and its undo between
    /// two callbacks leaves an equal snapshot, so seed mode sets its flag; quiet mode counts the
    /// L1 changes themselves and sees a change in that frame.
    @Test func changeAndUndoBetweenCallbacks() throws {
        // Both changes fall between v1 = 16.666666 ms and v2 = 33.333333 ms.
        let script = """
            run 1f
            after 1ms view set a --alpha 0.5
            after 2ms view set a --alpha 1
            run 1s
            """
        let seed = try metrics(
            after: "view add a\nlayout watch --mode seed\n" + script, ["layout.settled_at", "layout.changes"])
        #expect(seed == ["200ms", "0"])
        let quiet = try metrics(after: "view add a\nlayout watch\n" + script, ["layout.last_change", "layout.changes"])
        #expect(quiet == ["18.666666ms", "1"])
    }

    /// The timeout applies to seed mode too, checked at the link callbacks and polls: a spinner
    /// changes every frame, so no two snapshots are ever equal.
    @Test func seedModeTimesOut() throws {
        let values = try metrics(
            after: "view add s\nview spin s\nlayout watch --mode seed --timeout 1s\nrun 2s",
            ["layout.state", "layout.settled_at", "layout.changes"])
        // Polls at 0, 200, …, 1000 ms; at 1 s the poll handler drains first (RL4.1) and finds
        // t − start ≥ 1 s. Link callbacks v0…v59 ran before it: v1…v59 differ, 59 changes.
        #expect(values == ["timeout", "none", "59"])
    }
}
