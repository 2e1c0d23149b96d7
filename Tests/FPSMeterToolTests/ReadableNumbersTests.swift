import DebugShellCore
import Testing

@testable import FPSMeterTool

/// Issue 23: the meter's numbers read as a person reads them and are right — durations in
/// reports, Matrix's dropped time, the hitch ratio after an animation ends — its tables fit 80
/// columns, fast hitches are summarised, the frames kept are a setting, and the status line's
/// colours do not call a misleading number good.
@Suite struct ReadableNumbersTests {
    // MARK: Durations in reports (SimFormat.readable)

    /// `fps show` and `fps compare` write durations and times with at most three decimals.
    @Test func reportsRoundDurations() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        let show = s.output("fps")
        #expect(show.contains("hitches      89 (commit 0 · render 89 · both 0), 1.483s in 3s animating\n"))
        #expect(show.contains("frame time   p50 33.333ms · p95 33.333ms · p99 33.333ms ·\n"))
        let compare = s.output("fps compare")
        #expect(compare.contains("Sentry             delay 0s · slow 0 · frozen 0  1.483s missed (89)  -1.483s\n"))
        #expect(compare.contains("over [1.983s, 2.983s]\n"))
        #expect(!compare.contains("1.483333334s"))
        // get keeps the exact value, which can be pasted into expect.
        #expect(try s.value("fps.hitch_time") == "1.483333334s")
    }

    /// The status line shows the hitch ratio with the precision `get` and `fps show` use.
    @Test func statusLineRatioMatchesReport() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        let line = try #require(try s.meter.statusLine())
        #expect(line.plain == "fps 60 · render 30 · hitch 494.444 ms/s severe · ██")
        #expect(try s.value("fps.hitch_ratio") == "494.444")
    }

    // MARK: Matrix's dropped time

    /// Seed 004's default-mode meter across a 2 s scroll: one interval of 121 periods (v60 →
    /// v181) drops 120 frames, 2 s of them — not 721.93 s in a 4 s run.
    @Test func matrixDropsTwoSecondsNotSevenHundred() throws {
        let s = try meterSession("fps start --mode default\nrun 1s\nscroll 2s\nrun 3s")
        let compare = s.output("fps compare")
        #expect(compare.contains("Matrix             drop 2s (120 frames)          0s missed (0)  +2s\n"))
        let matrix = try #require(try s.meter.estimatorResults().first { $0.name == "Matrix" })
        // 120 frames of v61 − v60 = 16,666,666 ns each.
        #expect(matrix.reading == 120 * (v(61) - v(60)))
    }

    /// A 100 ms stall in an animation: the interval v30 → v37 drops 6 frames, 100 ms, which is
    /// what the display missed.
    @Test func matrixAgreesWithTheDisplayOnAStall() throws {
        let s = try meterSession("fps start\nanimate 3s\nrun 500ms\nstall 100ms\nrun 1500ms")
        let r = try s.meter.estimatorResults()
        let matrix = try #require(r.first { $0.name == "Matrix" })
        #expect(matrix.reading == 6 * (v(31) - v(30)))
        #expect(matrix.truth == v(38) - v(32))
        #expect(try #require(matrix.error).magnitude <= 6)
    }

    // MARK: The hitch ratio after an animation ends (R4)

    /// Worked example: `animate 5s` GPU-bound. Ticks v0…v299 are presented every other vsync from
    /// v3 to v303, each 16.667 ms late: 151 hitches. The last, at v303, is late after v302, the
    /// animation's last expected present (its end delayed by R3's two vsyncs), so it is a hitch
    /// but not one of the 5 animating seconds: the ratio is 150 × 16.667 ms / 5 s = 500, as in
    /// the steady state, not 151 × 16.667 / 5 = 503.333.
    @Test func hitchRatioAfterAnAnimationEnds() throws {
        let s = try meterSession("fps start\nanimate 5s\nload gpu 20ms\nrun 6s")
        #expect(try s.value("fps.hitches") == "151")
        #expect(try s.value("fps.hitch_time") == "2.516666667s")
        #expect(try s.value("fps.hitch_ratio") == "500")
        // Later presents of a still screen change nothing.
        s.type("run 5s")
        #expect(try s.value("fps.hitch_ratio") == "500")
    }

    /// R-A is unchanged: while the animation runs every hitch is in animating time.
    @Test func hitchRatioDuringAnAnimation() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        #expect(try s.value("fps.hitch_ratio") == "494.444")
    }

    // MARK: Tables fit 80 columns

    @Test(arguments: [
        "fps start\nanimate 10s\nload gpu 20ms\nrun 3s",
        "fps start --mode default\nrun 1s\nscroll 2s\nrun 3s",
        "fps start\nanimate 3s\nrun 500ms\nstall 100ms\nrun 1500ms",
    ])
    func reportsFitEightyColumns(_ script: String) throws {
        let s = try meterSession(script)
        for command in ["fps", "fps compare", "fps frames", "fps history"] {
            for line in s.output(command).split(separator: "\n") {
                #expect(line.count <= 80, "\(command): \(line.count) columns: \(line)")
            }
        }
    }

    // MARK: Hitches at high rates are summarised

    /// GPU-bound, 30 hitches a second: one line a second after the first, `--all` each.
    @Test func watchSummarisesFastHitches() throws {
        let s = try meterSession("fps watch hitches\nfps start\nanimate 10s\nload gpu 20ms")
        let printed = s.output("run 3500ms").split(separator: "\n")
        #expect(
            printed == [
                "[0.050s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 1 expected at 33.333ms",
                "[1.000s] fps: 28 more hitches in [0s, 1s): 466.667ms (render 28), longest 16.667ms; --all lists each",
                "[2.000s] fps: 30 hitches in [1s, 2s): 500ms (render 30), longest 16.667ms",
                "[3.000s] fps: 30 hitches in [2s, 3s): 500ms (render 30), longest 16.667ms",
            ])
        s.type("fps watch hitches --all")
        #expect(s.output("run 1s").split(separator: "\n").count == 30)
    }

    /// Hitches a second or more apart print in full, as before.
    @Test func watchPrintsRareHitchesInFull() throws {
        let s = try meterSession(
            "fps watch hitches\nfps start\nanimate 5s\nrun 300ms\nstall 50ms\nrun 1s\nstall 100ms")
        #expect(
            s.output("run 1s") == """
                [1.433s] fps: hitch 100ms (commit, High): Pre-Commit(s) latency; frame 76 expected at 1.333s

                """)
    }

    /// The summary is an event of its own in JSON.
    @Test func watchSummaryInJSON() throws {
        let s = try meterSession(
            "fps watch hitches\nfps start\nanimate 10s\nload gpu 20ms\nrun 2100ms", json: true)
        let events = try jsonEvents(s.sink)
        let summary = try #require(events.first { $0["event"] as? String == "fps.hitches" })
        #expect(summary["count"] as? Int == 28)
        #expect(summary["from_ns"] as? Int == 0 && summary["to_ns"] as? Int == 1_000_000_000)
        #expect(summary["render"] as? Int == 28)
    }

    // MARK: fps.frames-kept

    /// The presents kept are a setting; `fps frames` says when older ones were dropped.
    @Test func framesKeptIsASetting() throws {
        let s = try meterSession("set fps.frames-kept 10\nfps start\nanimate 1s\nrun 1s")
        let meter = try s.meter
        #expect(meter.frames.count == 10)
        let text = s.output("fps frames --last 2")
        #expect(text.hasPrefix("the last 2 of 10 presents; times in ms"))
        #expect(
            text.hasSuffix(
                "(only the last 10 of 58 presents are kept: 48 older were dropped;\nset fps.frames-kept to keep more, up to 100000)\n"
            ))
        // More keeps more from now on; fewer drops the oldest at once.
        s.type("set fps.frames-kept 5")
        #expect(meter.frames.count == 5)
        #expect(s.output("set fps.frames-kept 100001").contains("outside 1…100000"))
    }

    /// `fps plot` says that its default span starts at the oldest present kept.
    @Test func plotSaysOlderFramesWereDropped() throws {
        let s = try meterSession("set fps.frames-kept 10\nfps start\nanimate 1s\nrun 1s")
        let text = s.output("fps plot --width 60")
        #expect(text.contains("only the last 10 presents are kept (fps.frames-kept)"))
    }

    // MARK: Status-line colours

    /// GPU-bound: the label's 60 disagrees with the 30 presented, so it is not coloured green;
    /// the render count gets the hue, and `severe` is red.
    @Test func statusColoursDoNotCallAMisleadingNumberGood() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        let line = try #require(try s.meter.statusLine())
        let styles = Dictionary(line.runs.map { ($0.text, $0.style) }) { a, _ in a }
        #expect(styles["60"] == .plain)
        #expect(styles["30"] == .color(FPSMeter.labelColor(30, rate: 60)))
        #expect(styles["severe"] == .color(RGB.hue(0)))
        // When the label agrees with the display, its number keeps HyFPSLabel's green.
        let fine = try meterSession("fps start\nanimate 10s\nrun 3s")
        let fineLine = try #require(try fine.meter.statusLine())
        #expect(fineLine.runs.first { $0.text == "60" }?.style == .color(FPSMeter.labelColor(60, rate: 60)))
        #expect(fineLine.runs.first { $0.text == "good" }?.style == .color(RGB.hue(0.3)))
    }
}
