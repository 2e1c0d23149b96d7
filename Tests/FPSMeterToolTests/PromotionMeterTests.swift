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

    /// V2 (issue 37, 6): a meter asking more than 60 Hz and held at 60 says why in its status
    /// line, in a few words (`fps show` prints the fix); once nothing caps it, nothing is said.
    @Test func statusLineSaysWhyTheRateIsCapped() throws {
        let s = try meterSession("display adaptive\nfps start --range 120,120,120\nanimate 10s\nrun 2s")
        #expect(
            try s.meter.statusLine()?.plain
                == "fps 60 · render 60 · hitch 0 ms/s good · display 60 Hz (capped: no CADisableMinimumFrameDurationOnPhone; 10–120 Hz) · ▅"
        )
        s.type("set app.high_frame_rates on")
        s.type("set system.low_power on")
        s.type("run 1s")
        #expect(try s.meter.statusLine()?.plain.contains("(capped: Low Power Mode; 10–120 Hz)") == true)
        s.type("set system.low_power off")
        s.type("run 1s")
        let line = try #require(try s.meter.statusLine()?.plain)
        #expect(!line.contains("capped"), "\(line)")
        // A meter asking 60 Hz or less is not capped, whatever the settings.
        let plain = try meterSession("display adaptive\nfps start --range 30,60,60\nanimate 10s\nrun 2s")
        #expect(try plain.meter.statusLine()?.plain.contains("capped") == false)
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
