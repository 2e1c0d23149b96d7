import DebugShellCore
import Testing

@testable import FPSMeterTool

/// Vsync k at 60 Hz: floor(k · 1e9 / 60) ns (S2).
func v(_ k: Int64) -> Int64 { k * 1_000_000_000 / 60 }

/// `fps compare`: each classic estimator against a value computed by hand from the timeline.
@Suite struct EstimatorLabTests {
    /// The results by estimator name.
    func lab(_ script: String) throws -> [String: FPSMeter.EstimatorResult] {
        let s = try meterSession(script)
        let results = try s.meter.estimatorResults()
        #expect(
            results.map(\.name) == [
                "YYFPSLabel", "HyFPSLabel", "GDPerformanceView", "DXFPSLabel", "KMCGeigerCounter", "Sentry", "Matrix",
            ])
        return Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
    }

    /// R-A: the meter's link fires every vsync while the display presents every other one.
    @Test func gpuBoundAnimation() throws {
        let r = try lab("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        // YY and Hy: the window (1 s, 2 s] holds v61…v120 = 60 callbacks; the odd vsyncs v61…v119
        // presented: 30.
        for name in ["YYFPSLabel", "HyFPSLabel"] {
            let e = try #require(r[name])
            #expect(e.reading == 60 && e.truth == 30 && e.error == 30, "\(name)")
            #expect(e.span?.from == SimTime(nanoseconds: 1000 * ms) && e.span?.to == SimTime(nanoseconds: 2000 * ms))
        }
        // GD: [v119, v179] is closed at both ends: 61 callbacks (its 61-at-60-Hz quirk), 31 presents.
        let gd = try #require(r["GDPerformanceView"])
        #expect(gd.reading == 61 && gd.truth == 31)
        #expect(gd.span?.from == SimTime(nanoseconds: 1_983_333_333))
        // KMC: no vsync lacked a callback; the even vsyncs v120…v178 lacked a present: 30.
        let kmc = try #require(r["KMCGeigerCounter"])
        #expect(kmc.reading == 0 && kmc.truth == 30 && kmc.error == -30)
        // Sentry and Matrix see no slow interval; the display missed the even vsyncs v2…v178:
        // 89 periods, each v(k+1) − v(k).
        let sentry = try #require(r["Sentry"])
        #expect(sentry.reading == 0)
        let missed = stride(from: Int64(2), through: 178, by: 2).reduce(Int64(0)) { $0 + v($1 + 1) - v($1) }
        #expect(sentry.truth == missed)
        #expect(missed == 1_483_333_334)
        let matrix = try #require(r["Matrix"])
        #expect(matrix.reading == 0 && matrix.truth == sentry.truth)
        // No tracking time: DXFPSLabel has no reading.
        #expect(r["DXFPSLabel"]?.reading == nil)
    }

    /// A 100 ms stall at v30 = 500 ms during an animation, drained before the links (RL4.1). The
    /// meter's callbacks have timestamps v0…v30, then v37…v119 (v31…v36 skipped, DL7); the frame
    /// of tick v30 is presented at v38.
    @Test func stallDuringAnAnimation() throws {
        let r = try lab("fps start\nanimate 3s\nrun 500ms\nstall 100ms\nrun 1500ms")
        // YY: (0 s, 1 s] counts v1…v30 and v37…v60 = 54; presents v2…v31 and v38…v60 = 53.
        let yy = try #require(r["YYFPSLabel"])
        #expect(yy.reading == 54 && yy.truth == 53)
        // KMC: one interval (v30 → v37, 116.667 ms) above 1.5 periods.
        let kmc = try #require(r["KMCGeigerCounter"])
        #expect(kmc.extra.first { $0.0 == "clicks" }?.1 == .int(1))
        #expect(kmc.reading == 0)
        // Sentry (targetTimestamp is the next grid vsync, DL2): v37 − v30's target v31 = 100 ms of delay; 116.667 ms > 1/59 s is slow, not frozen.
        let sentry = try #require(r["Sentry"])
        let delay: Int64 = v(37) - v(31)
        #expect(sentry.reading == delay)
        #expect(sentry.extra.first { $0.0 == "slow" }?.1 == .int(1))
        #expect(sentry.extra.first { $0.0 == "frozen" }?.1 == .int(0))
        #expect(sentry.extra.first { $0.0 == "frames" }?.1 == .int(31 + 83))
        // The truth: v32…v37 expected a present and had none: 6 periods = v38 − v32 = 100 ms.
        let missedTime: Int64 = v(38) - v(32)
        #expect(sentry.truth == missedTime)
        // Matrix: Δ = v37 − v30 = 7 frame intervals (T = v31 − v30) drops 6 frames, 6·T: the
        // 100 ms the display missed, to within the grid's nanoseconds.
        let matrix = try #require(r["Matrix"])
        #expect(matrix.reading == 6 * (v(31) - v(30)))
        #expect(matrix.extra.first { $0.0 == "dropped_frames" }?.1 == .int(6))
        #expect(matrix.extra.first { $0.0 == "slow_intervals" }?.1 == .int(1))
    }

    /// HyFPSLabel clamps to 60; YYFPSLabel does not (120 Hz, an animation presenting every frame).
    @Test func hyFPSLabelClampsAt120Hz() throws {
        let r = try lab("display rate 120Hz\nfps start\nanimate 4s\nrun 2100ms")
        #expect(r["YYFPSLabel"]?.reading == 120)
        #expect(r["YYFPSLabel"]?.truth == 120)
        #expect(r["HyFPSLabel"]?.reading == 60)
        #expect(r["HyFPSLabel"]?.error == -60)
    }

    /// DXFPSLabel counts only while the run loop tracks: a 2 s scroll has 120 callbacks (60 a
    /// second) and presents v2…v119 = 118 (59 a second).
    @Test func dxFPSLabelCountsTrackingTimeOnly() throws {
        let r = try lab("fps start\nscroll 2s\nrun 2s")
        let dx = try #require(r["DXFPSLabel"])
        #expect(dx.reading == 60 && dx.truth == 59)
        #expect(dx.extra.first { $0.0 == "tracking_ns" }?.1 == .int(2_000_000_000))
        // Under a second of tracking there is no reading yet.
        let short = try lab("fps start\nscroll 500ms\nrun 2s")
        #expect(short["DXFPSLabel"]?.reading == nil)
    }

    /// Seed 004's complaint: a default-mode meter is silent through a 2 s scroll, then fires once
    /// with the stale timestamp 1 s: Sentry sees a frozen frame of 2 s delay that the display
    /// never showed, Matrix 2 s of dropped frames, YY a reading of 0.
    @Test func defaultModeAcrossAScroll() throws {
        let r = try lab("fps start --mode default\nrun 1s\nscroll 2s\nrun 3s")
        #expect(r["YYFPSLabel"]?.reading == 0)
        #expect(r["YYFPSLabel"]?.truth == 60)
        let sentry = try #require(r["Sentry"])
        #expect(sentry.extra.first { $0.0 == "frozen" }?.1 == .int(1))
        // The interval v60 → v181 (3.016 s) minus v60's expected duration: v181 − v61 = 2 s.
        #expect(sentry.reading == 2_000_000_000)
        #expect(sentry.truth == 0)
        let matrix = try #require(r["Matrix"])
        // The interval v60 → v181 is 121 frame intervals (T = v61 − v60): 120 dropped, 120·T.
        #expect(matrix.reading == 120 * (v(61) - v(60)))
        #expect(matrix.extra.first { $0.0 == "dropped_frames" }?.1 == .int(120))
        // KMC: the vsync v180 (3 s) has no callback with its timestamp in (v179, v239].
        #expect(r["KMCGeigerCounter"]?.reading == 1)
    }

    /// Every estimator is passive: running the lab adds no link and costs nothing.
    @Test func estimatorsArePassive() throws {
        let s = try meterSession("fps start\nanimate 2s\nrun 2s\nfps compare")
        #expect(s.engine.allTimers().filter { $0.owner == .tool("fps") }.count == 1)
        #expect(try s.value("fps.skipped") == "0")
    }
}
