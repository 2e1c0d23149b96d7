import DebugShellCore
import Testing

@testable import FPSMeterTool

/// The FPS meter on an adaptive display (docs/Semantics.md V6).
@Suite struct PromotionMeterTests {
    /// V6: the status line shows the display's current rate and its range, beside the reading
    /// the label's own link holds it at; the sparkline is scaled to the display's maximum, so a
    /// reading of 60 on a 10–120 Hz display is a middle bar.
    @Test func statusLineShowsTheRateAndTheRange() throws {
        let s = try meterSession("display adaptive\nfps start\nrun 2s")
        let line = try #require(try s.meter.statusLine())
        #expect(line.plain == "fps 60 · render 1 · hitch — · display 60 Hz (10–120 Hz) · ▅")
    }

    /// F1 on an adaptive display: the clamp is the display's maximum, not its rate now. The
    /// window (0, 1s] counted 120 callbacks at 120 Hz during a scroll; when it closes, at 1 s, the
    /// display has fallen to 10 Hz: the reading is 120, not 10.
    @Test func theReadingIsClampedToTheMaximum() throws {
        let s = try meterSession(
            "display adaptive\nset app.high_frame_rates on\nfps start --range 10,120 --label off\nscroll 1s\nrun 1050ms"
        )
        #expect(try s.value("clock.rate") == "10")
        #expect(try s.value("fps.value") == "120")
    }
}
