import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

@testable import FPSMeterTool

/// What the meter prints: reports, tables, the status line, events, JSON shapes and errors.
@Suite struct ReportTests {
    // MARK: Status line

    /// `fps 58 · render 31 · hitch 12.4 ms/s warning · ▂▃▅▇`, the frames presented in
    /// HyFPSLabel's colour, the reading too unless it misleads.
    @Test func statusLineTextAndColour() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        let line = try #require(try s.meter.statusLine())
        #expect(line.plain == "fps 60 · render 30 · hitch 494.444 ms/s severe · ██")
        #expect(line.runs[1].text == "60" && line.runs[3].text == "30")
        // R-A: the display missed every other vsync, so the label's 60 misleads: uncoloured.
        #expect(line.runs[1].style == .plain)
        // 30 at 60 Hz: HyFPSLabel's (30 − 24) / 120 = 0.05.
        #expect(line.runs[3].style == .color(RGB.hue(0.05)))
        // An animation that presents every frame: the label's 60 is green, hue 0.3, as
        // HyFPSLabel's 60 at 60 Hz.
        let run = try meterSession("fps start\nanimate 10s\nrun 3s")
        let fine = try #require(try run.meter.statusLine())
        #expect(fine.runs[1].text == "60")
        #expect(fine.runs[1].style == .color(RGB.hue(0.3)))
        #expect(fine.runs[1].style == .color(RGB(51, 255, 0)))
    }

    @Test func statusLineBeforeAReadingAndWhenStopped() throws {
        let s = try meterSession("")
        #expect(try s.meter.statusLine() == nil)
        s.type("fps start")
        #expect(try s.meter.statusLine()?.plain == "fps — · render — · hitch —")
        s.type("stall 100ms")
        s.type("run 2s")
        let line = try #require(try s.meter.statusLine())
        #expect(line.plain == "fps 54 · render 1 · hitch — · ▇")
        // 54 at 60 Hz: HyFPSLabel's (54 − 24) / 120 = 0.25.
        #expect(line.runs[1].style == .color(RGB.hue(0.25)))
        s.type("fps stop")
        #expect(try s.meter.statusLine() == nil)
        #expect(s.output("status") == "fps —\n")
    }

    /// The hue is HyFPSLabel's at 60 Hz exactly, and reaches green at the refresh rate at any rate.
    @Test func labelHueRescaledToTheRefreshRate() {
        for fps in Int64(0)...60 {
            let original = fps > 24 ? Double(fps - 24) / 120 : 0
            #expect(FPSMeter.labelColor(fps, rate: 60) == RGB.hue(original), "\(fps) fps")
        }
        #expect(FPSMeter.labelColor(120, rate: 120) == RGB.hue(0.3))
        #expect(FPSMeter.labelColor(48, rate: 120) == RGB.hue(0))
        #expect(FPSMeter.labelColor(84, rate: 120) == RGB.hue(0.15))
    }

    /// HyFPSLabel's autohide: hidden 2 s (virtual) after the reading last changed; shown again
    /// when it changes; never hidden while there is no reading.
    @Test func autohideTiming() throws {
        let s = try meterSession("fps autohide on\nfps start\nrun 2s")
        // The first reading, 60, came at 1 s.
        #expect(try s.meter.readingChangedAt == SimTime(nanoseconds: 1000 * ms))
        s.type("run 999999999ns")
        #expect(try s.meter.statusLine() != nil)
        s.type("run 1ns")
        // 3 s: two seconds after the change; readings of 60 at 2 s and 3 s changed nothing.
        #expect(try s.meter.statusLine() == nil)
        s.type("stall 200ms")
        s.type("run 1100ms")
        #expect(try s.value("fps.value") == "48")
        #expect(try s.meter.statusLine()?.plain.hasPrefix("fps 48 ") == true)
        s.type("fps autohide off")
        s.type("run 5s")
        #expect(try s.meter.statusLine() != nil)
        // No reading yet: shown, however long it takes.
        let t = try meterSession("fps autohide on\nfps start\nstall 5s\nrun 4s")
        #expect(try t.meter.statusLine()?.plain == "fps — · render 0 · hitch —")
    }

    // MARK: Settings

    /// `fps tiers` and `fps autohide` are settings, so the shell's `reset` keeps them.
    @Test func tiersAndAutohideAreSettingsKeptByReset() throws {
        let s = try meterSession("fps tiers wwdc20\nfps autohide on\nreset")
        #expect(
            s.output("settings fps") == """
                fps.tiers = wwdc20      The hitch-ratio scale: apple (good <= 10, warning <= 25, critical <= 50 ms/s) or wwdc20 (5, 10).
                fps.autohide = on       Hide the meter's status line 2s after its reading last changed (HyFPSLabel).
                fps.frames-kept = 1000  Presents kept for 'fps frames' and 'fps plot' (the newest); fewer drops the oldest at once, more keeps more from then on.

                """)
        s.type("fps start")
        s.type("animate 2s")
        s.type("load commit 20ms")
        s.type("run 2s")
        #expect(try s.value("fps.tier") == "critical")
        s.type("set fps.tiers apple")
        #expect(try s.value("fps.tier") == "severe")
        #expect(
            s.output("fps tiers")
                == "apple (Xcode Organizer): good ≤ 10 ms/s · warning ≤ 25 · critical ≤ 50 · severe above\n")
    }

    /// The tier boundaries: apple's ≤ 10, ≤ 25, ≤ 50; wwdc20's < 5, < 10.
    @Test(arguments: [
        (TierScale.apple, Int64(10_000), Tier.good), (.apple, 10_001, .warning), (.apple, 25_000, .warning),
        (.apple, 25_001, .critical), (.apple, 50_000, .critical), (.apple, 50_001, .severe),
        (.wwdc20, 4_999, .good), (.wwdc20, 5_000, .warning), (.wwdc20, 9_999, .warning), (.wwdc20, 10_000, .critical),
        (.wwdc20, 900_000, .critical),
    ])
    func tierBoundaries(scale: TierScale, thousandths: Int64, tier: Tier) {
        #expect(scale.tier(for: MetricNumber(thousandths: thousandths)) == tier)
    }

    // MARK: Reports

    /// A 50 ms stall at v18 = 300 ms, drained first (RL4.1): the meter's slot holds v18, v19…v21
    /// are skipped (DL7), so (0 s, 1 s] has 57 callbacks; the frame across the stall is one commit
    /// hitch (R4) of 50 ms over 1 s of animation; the interval across it, 66.667 ms, is the 56th
    /// of 56.
    @Test func showReportAfterAStall() throws {
        try expectTranscript(
            """
            > fps start
            > animate 1s
            > run 300ms
            > stall 50ms
            > run 1700ms
            > fps
            meter        running since 0s · common mode · window 1s · cost 0s · label on
            reading      57 fps (last window (0s, 1s]: 57 callbacks, 56 presents)
            render       3 fps (presents in [1s, 2s))
            callbacks    60 in [1s, 2s) · skipped vsyncs 3
            hitches      1 (commit 1 · render 0 · both 0), 50ms in 1s animating
            hitch ratio  50 ms/s · critical (apple tiers)
            frame time   p50 16.667ms · p95 16.667ms · p99 66.667ms ·
                         max 66.667ms (56 intervals)
            > fps stop
            > fps
            meter        stopped at 2s (ran since 0s) · common mode · window 1s · cost 0s ·
                         label on
            reading      57 fps (last window (0s, 1s]: 57 callbacks, 56 presents)
            render       3 fps (presents in [1s, 2s))
            callbacks    60 in [1s, 2s) · skipped vsyncs 3
            hitches      1 (commit 1 · render 0 · both 0), 50ms in 1s animating
            hitch ratio  50 ms/s · critical (apple tiers)
            frame time   p50 16.667ms · p95 16.667ms · p99 66.667ms ·
                         max 66.667ms (56 intervals)
            """)
    }

    @Test func framesTableFiltersAndOrder() throws {
        let s = try meterSession("fps start\nanimate 1s\nrun 300ms\nstall 50ms\nrun 300ms\nstall 100ms\nrun 600ms")
        #expect(
            s.output("fps frames --hitches") == """
                2 hitches; times in ms, hitch - = not animating (A2)
                frame  commit end  render start  render end  present  expected    hitch  verdict
                   19     350.000       366.667     366.667  383.333   333.333   50.000  commit
                   34     700.000       716.667     716.667  733.333   633.333  100.000  commit

                """)
        #expect(
            s.output("fps frames --worst 1") == """
                the 1 worst of 2 hitches; times in ms, hitch - = not animating (A2)
                frame  commit end  render start  render end  present  expected    hitch  verdict
                   34     700.000       716.667     716.667  733.333   633.333  100.000  commit

                """)
        // Frames of the label on a still screen are not counted (A2): their hitch is '-'.
        s.type("run 2s")
        #expect(s.output("fps frames --last 1").hasSuffix("-  -\n"))
    }

    /// `fps frames` keeps the last 1000 presents (`fps.frames-kept`) and says so.
    @Test func framesRingIsBounded() throws {
        let s = try meterSession("fps start\nanimate 20s\nrun 20s")
        let meter = try s.meter
        #expect(meter.frames.count == FPSMeter.frameLimit)
        #expect(meter.frames.appended > 1000)
        #expect(
            s.output("fps frames --last 1").hasSuffix(
                "\n(only the last 1000 of \(meter.frames.appended) presents are kept: \(meter.frames.appended - 1000) older were dropped;\n"
                    + "set fps.frames-kept to keep more, up to 100000)\n"))
    }

    /// `fps history` keeps 3,600 windows (README, Limits) and reports the limit clearly.
    @Test func historyLimit() throws {
        // A 1 ns window closes at every callback: 3,605 windows in 3,606 vsyncs.
        let s = try meterSession("fps start --window 1ns\nrun 60100ms")
        let meter = try s.meter
        #expect(meter.windows.appended == 3_605)
        #expect(meter.windows.count == 3_600)
        let text = s.output("fps history --last 2")
        #expect(text.hasPrefix("██  windows 3604–3605, 0–60 fps\n"))
        #expect(text.hasSuffix("(only the last 3600 windows are kept: windows 1–5 were dropped)\n"))
    }

    // MARK: JSON

    /// Each command's `result` has its documented shape (docs/FPSMeter.md).
    @Test func jsonShapes() throws {
        let s = try meterSession(
            """
            fps watch windows
            fps watch hitches --over 20ms
            fps start --window 1s
            animate 1s
            run 300ms
            stall 50ms
            run 1s
            fps
            fps frames --last 1
            fps history
            fps compare
            fps tiers
            fps autohide
            fps reset
            fps stop
            fps start
            """, json: true)
        let results = Dictionary(try jsonResults(s.sink).map { ($0.command, $0.result) }) { a, _ in a }
        #expect(keys(results["fps start --window 1s"]) == ["mode", "window_ns", "cost_ns", "label"])
        #expect(keys(results["fps watch windows"]) == ["hitches", "over_ns", "all", "windows"])
        let show = try #require(results["fps"])
        #expect(
            keys(show) == [
                "running", "since_ns", "stopped_ns", "config", "reading", "window", "second", "render", "callbacks",
                "skipped", "hitches", "frame_time",
            ])
        #expect(
            keys(show["hitches"]) == [
                "count", "commit", "render", "both", "time_ns", "animating_ns", "ratio", "tier", "tiers",
            ])
        #expect(keys(show["frame_time"]) == ["intervals", "p50_ns", "p95_ns", "p99_ns", "max_ns"])
        #expect(keys(show["window"]) == ["from_ns", "to_ns", "callbacks", "presents"])
        #expect(show["reading"] as? Int == 57)
        #expect((show["hitches"] as? [String: Any])?["ratio"] as? Double == 50)
        let frames = try #require(results["fps frames --last 1"])
        #expect(keys(frames) == ["frames", "kept", "presents"])
        let frame = try #require((frames["frames"] as? [[String: Any]])?.first)
        #expect(
            keys(frame) == [
                "frame", "commit_end_ns", "render_start_ns", "render_end_ns", "present_ns", "expected_ns", "counted",
                "hitch_ns", "cause", "verdict", "dropped",
            ])
        let history = try #require(results["fps history"])
        #expect(keys(history) == ["windows", "total", "kept", "limit"])
        #expect(history["limit"] as? Int == 3600)
        #expect(
            keys((history["windows"] as? [Any])?.first) == [
                "window", "from_ns", "to_ns", "closed_ns", "callbacks", "presents", "reading",
            ])
        let compare = try #require(results["fps compare"]?["estimators"] as? [[String: Any]])
        #expect(compare.count == 7)
        for estimator in compare {
            #expect(
                keys(estimator).isSuperset(of: [
                    "name", "definition", "unit", "reading", "truth", "error", "from_ns", "to_ns",
                ]))
        }
        #expect(keys(results["fps tiers"]) == ["tiers", "tier"])
        #expect(keys(results["fps autohide"]) == ["autohide"])
        #expect(keys(results["fps reset"]) == ["since_ns"])
        #expect(keys(results["fps stop"]) == ["stopped_ns", "reading"])

        let events = try jsonEvents(s.sink)
        let window = try #require(events.first { $0["event"] as? String == "fps.window" })
        #expect(keys(window) == ["event", "t_ns", "message", "reading", "callbacks", "presents", "from_ns", "to_ns"])
        let hitch = try #require(events.first { $0["event"] as? String == "fps.hitch" })
        #expect(
            keys(hitch) == [
                "event", "t_ns", "message", "frame", "hitch_ns", "cause", "type", "type_label", "severity",
                "present_ns",
                "expected_ns",
            ])
        #expect(hitch["type"] as? String == "pre-commit")
        #expect(hitch["severity"] as? String == "high")
        #expect(hitch["hitch_ns"] as? Int == 50_000_000)
        #expect(hitch["cause"] as? String == "commit")
    }

    // MARK: Events

    /// `fps watch hitches --over d` prints hitches strictly longer than d.
    @Test func watchThresholdIsStrict() throws {
        let s = try meterSession("fps watch hitches --over 50ms\nfps start\nanimate 1s\nrun 300ms\nstall 50ms")
        #expect(s.output("run 700ms") == "")
        let t = try meterSession("fps watch hitches --over 49999999ns\nfps start\nanimate 1s\nrun 300ms\nstall 50ms")
        #expect(
            t.output("run 700ms")
                == "[0.383s] fps: hitch 50ms (commit, High): Pre-Commit(s) latency; frame 19 expected at 333.333ms\n")
    }

    /// `fps watch windows` then `fps watch hitches` print both; `fps watch off` stops both.
    @Test func watchBothAndOff() throws {
        let s = try meterSession("fps watch windows\nfps watch hitches\nfps start\nanimate 2s\nrun 300ms\nstall 50ms")
        let printed = s.output("run 800ms")
        #expect(printed.contains("fps: hitch 50ms (commit, High)"))
        s.type("fps watch off")
        #expect(s.output("run 1s") == "")
    }

    // MARK: Bad input

    @Test(arguments: [
        (
            "fps start\nfps start",
            "error: the meter is already running (since 0s); 'fps stop' first, or 'fps reset' to clear it"
        ),
        ("fps stop", "error: the meter is not running; start it with 'fps start'"),
        ("fps reset", "error: the meter is not running; start it with 'fps start'"),
        (
            "fps start\nrun 10ms\nfps stop\nfps reset",
            "error: the meter is not running (it stopped at 10ms); 'fps start' runs it again"
        ),
        ("fps", "error: the meter has not been started; start it with 'fps start'"),
        ("fps frames", "error: the meter has not been started; start it with 'fps start'"),
        ("fps compare", "error: the meter has not been started; start it with 'fps start'"),
        (
            "fps start\nfps history",
            "error: no window has closed yet: the first closes at the first callback 1s after the meter's first one"
        ),
        ("fps tiers bogus", "error: 'bogus' is not one of apple, wwdc20"),
        ("fps tiers appel", "error: 'appel' is not one of apple, wwdc20; did you mean 'apple'?"),
        ("fps start --window 0s", "error: --window must be positive (got 0s)"),
        ("fps start --window -5ms", "error: --window: negative duration '-5ms' is not allowed"),
        ("fps start --cost -1ms", "error: --cost: negative duration '-1ms' is not allowed"),
        ("fps start --mode fast", "error: --mode: 'fast' is not one of common, default, tracking"),
        ("fps watch windows --over 5ms", "error: --over applies to 'fps watch hitches' only"),
        (
            "fps watch",
            "error: missing hitches|windows|off for 'fps watch' (usage: fps watch hitches|windows|off [--over <duration>] [--all])"
        ),
        ("fps frames --last 0", "error: --last: '0' is outside 1…1000000"),
        ("fps autohide maybe", "error: 'maybe' is not a boolean: expected on|off, true|false or yes|no"),
    ])
    func badInput(script: String, error: String) throws {
        let s = try meterSession(script)
        #expect(s.sink.standardError.split(separator: "\n").last.map(String.init) == error)
    }

    /// A failed `fps start` leaves nothing behind.
    @Test func failedStartAddsNoLink() throws {
        let s = try meterSession("fps start --window 0s")
        #expect(s.engine.allTimers().filter { $0.owner == .tool("fps") }.isEmpty)
        #expect(try s.meter.statusLine() == nil)
    }
}
