import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// L3: the checker's modelled cost, returned from its link callback and charged to the main
/// thread. Read back through `main.busy_until` after the first callback at t = 0.
@Suite struct CostTests {
    /// Seed mode: 0.5 µs per view of the subtree. 101 views (window and 100 generated) cost
    /// 50.5 µs at v0. At t = 0 the poll handler (cost 0), the commit (cost 0) and then the link
    /// run, so the thread is busy until 50.5 µs.
    @Test func seedCostsHalfAMicrosecondPerView() throws {
        let values = try metrics(after: "view grow window 100\nlayout watch --mode seed\nrun 1ms", ["main.busy_until"])
        #expect(values == ["50.5µs"])
    }

    /// `--cost-per-view` replaces the per-view figure: 2 views at 10 ms = 20 ms per snapshot.
    @Test func seedCostPerView() throws {
        let values = try metrics(
            after: "view add a\nlayout watch --mode seed --cost-per-view 10ms\nrun 1ms", ["main.busy_until"])
        #expect(values == ["20ms"])
    }

    /// Quiet mode: 0.2 µs plus 0.05 µs per changed view. Three views changed after the watch:
    /// 0.2 + 3 × 0.05 = 0.35 µs at v0.
    @Test func quietCostsPerChangedView() throws {
        let script = """
            view add a
            view add b
            view add c
            layout watch
            view set a --alpha 0.5
            view set b --alpha 0.5
            view set c --alpha 0.5
            run 1ms
            """
        #expect(try metrics(after: script, ["main.busy_until"]) == ["350ns"])
        let custom = script.split(separator: "\n").map {
            $0 == "layout watch" ? "layout watch --cost-per-view 1ms" : $0
        }
        .joined(separator: "\n")
        // 0.2 µs + 3 × 1 ms.
        #expect(try metrics(after: custom, ["main.busy_until"]) == ["3.0002ms"])
    }

    /// Quiet mode's cost does not depend on the tree's size: 0.2 µs per callback without changes
    /// whether the tree has 2 views or 10,001. The watch starts at v1 = 16.666666 ms.
    @Test func quietCostIsIndependentOfTreeSize() throws {
        for count in [1, 10_000] {
            let values = try metrics(
                after: "view grow window \(count)\nrun 1f\nlayout watch\nrun 1ms", ["main.busy_until"])
            #expect(values == ["16.666866ms"], "\(count) views")
        }
    }

    /// The totals in `layout show`: L-A in quiet mode has 31 callbacks, 18 with one changed view:
    /// 31 × 0.2 + 18 × 0.05 = 7.1 µs.
    @Test func totalCost() throws {
        let s = try LayoutSession()
        s.run(
            "view add a --frame 0,0,100,100", "view animate a --frame 0,0,200,100 --over 300ms", "layout watch",
            "run 1s")
        #expect(s.run("layout").contains("  cost         200ns + 50ns per changed view per frame; 7.1µs in all"))
        #expect(try s.tool.watch?.totalCost == .nanoseconds(7_100))
    }
}
