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

    /// V16: with the ramp on, an idle display processes the refreshes of its descent and then
    /// none: a 100 ms scroll (13 refreshes at 120 Hz, its last frame shown at 108.333 ms), then
    /// 11 steps of one refresh each down to 10 Hz, then a million idle seconds.
    @Test func idleCostsNothingWithTheRampOn() throws {
        let engine = DeviceEngine()
        engine.setAdaptive(minimum: try RefreshRate(hertz: 10), maximum: try RefreshRate(hertz: 120))
        engine.displayRamp = 1
        engine.scroll(for: .milliseconds(100))
        _ = engine.advance(to: SimTime(nanoseconds: 1_000_000 * 1_000_000_000))
        #expect(engine.displayRefresh.divisor == 12)
        #expect(engine.instantsProcessed <= 13 + 1 + 11 + 3)
    }

    /// V16: `display.ramp 1` steps down one rate of the ladder per refresh: each rate is held
    /// for one refresh, on the grid of 120 Hz, from the scroll's last present to 10 Hz.
    @Test func theRampStepsDownTheLadder() throws {
        let engine = DeviceEngine()
        engine.setAdaptive(minimum: try RefreshRate(hertz: 10), maximum: try RefreshRate(hertz: 120))
        engine.displayRamp = 1
        engine.scroll(for: .milliseconds(100))
        _ = engine.advance(to: SimTime(nanoseconds: 1_000_000_000))
        let steps = engine.displayRefreshes(from: .zero, to: SimTime(nanoseconds: 1_000_000_000))
        // Grid vsync j of 120 Hz is at floor(j · 1e9 / 120).
        let j: [Int64] = [0, 13, 15, 18, 22, 27, 33, 40, 48, 57, 67, 78]
        #expect(steps.map(\.time.nanoseconds) == j.map { $0 * 1_000_000_000 / 120 })
        #expect(steps.map(\.refresh.divisor) == Array(1...12))
        #expect(engine.refreshCount == 27)
    }

    /// V15: the touch re-anchors the display on the grid of its maximum: from 10 Hz at 1 s, a
    /// scroll at 1045 ms runs at 120 Hz from grid vsync 126 (1050 ms), not from the 10 Hz
    /// refresh at 1100 ms; the panel's vsyncs stay on that grid.
    @Test func theTouchRaisesTheDisplayAtTheNextVsyncOfItsGrid() throws {
        let engine = DeviceEngine()
        engine.setAdaptive(minimum: try RefreshRate(hertz: 10), maximum: try RefreshRate(hertz: 120))
        _ = engine.advance(to: SimTime(nanoseconds: 1_045_000_000))
        #expect(engine.displayRefresh.divisor == 12)
        engine.scroll(for: .milliseconds(200))
        let steps = engine.displayRefreshes(
            from: SimTime(nanoseconds: 1_000_000_000), to: SimTime(nanoseconds: 1_200_000_000))
        #expect(steps.map(\.time.nanoseconds) == [1_000_000_000, 1_050_000_000])
        #expect(steps.map(\.refresh.divisor) == [12, 1])
        _ = engine.advance(to: SimTime(nanoseconds: 1_145_000_000))
        #expect(engine.refreshCount == 11 + 12)
        #expect(engine.vsyncCount == 138)
    }

}
