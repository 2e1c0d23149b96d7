import DebugShellCore
import Testing

@testable import DebugShellEngine

/// The adaptive display's grid and its cost (V1, V3).
@Suite struct AdaptiveDisplayTests {
    /// V1: refresh k at rate max/n is grid vsync k·n of the grid of max, exactly.
    @Test func refreshesStayOnTheGridOfTheMaximum() {
        var grid = VsyncGrid(rate: 120)
        grid.becomeAdaptive(minimum: 10, maximum: 120, divisor: 7, at: 0)
        for k: Int64 in [1, 2, 3, 1000, 123_457] {
            let t = grid.time(segment: 0, k: k)
            #expect(t == k * 7 * 1_000_000_000 / 120)
            #expect(grid.first(atOrAfter: t).k == k)
            #expect(grid.first(after: t - 1).time == t)
        }
    }

    /// V3: idle time costs nothing on an adaptive display: once it has fallen to its minimum,
    /// a million seconds are a handful of instants, as on a fixed display.
    @Test func idleCostsNothing() throws {
        let engine = DeviceEngine()
        engine.setAdaptive(minimum: try RefreshRate(hertz: 10), maximum: try RefreshRate(hertz: 120))
        _ = engine.advance(to: SimTime(nanoseconds: 1_000_000 * 1_000_000_000))
        #expect(engine.instantsProcessed <= 3)
        #expect(engine.displayRefresh.divisor == 12)
        let fixed = DeviceEngine()
        _ = fixed.advance(to: SimTime(nanoseconds: 1_000_000 * 1_000_000_000))
        #expect(engine.instantsProcessed <= fixed.instantsProcessed + 2)
    }

}
