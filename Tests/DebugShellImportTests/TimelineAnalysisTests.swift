import DebugShellCore
import DebugShellImport
import Testing

/// What debugsh reads from a recorded timeline, computed by hand.
@Suite struct TimelineAnalysisTests {
    static func ms(_ n: Int64) -> SimDuration { SimDuration(nanoseconds: n * 1_000_000) }
    static func at(_ ns: Int64) -> SimTime { SimTime(nanoseconds: ns) }

    /// Instruments' bands: a hitch at most one refresh interval late is Low, more than one
    /// Moderate, more than two High — the iPhone 11 rows of real-timelines: 16.669668 ms at
    /// 16.666125 ms is Moderate, 16.665833 ms is Low.
    @Test func severityBandsFollowTheRefreshInterval() {
        let r = SimDuration(nanoseconds: 16_666_125)
        #expect(TimelineAnalysis.Severity.of(SimDuration(nanoseconds: 16_669_668), interval: r) == .moderate)
        #expect(TimelineAnalysis.Severity.of(SimDuration(nanoseconds: 16_665_833), interval: r) == .low)
        #expect(TimelineAnalysis.Severity.of(SimDuration(nanoseconds: 33_332_250), interval: r) == .moderate)
        #expect(TimelineAnalysis.Severity.of(SimDuration(nanoseconds: 33_332_251), interval: r) == .high)
    }

    @Test func stagesFromInstrumentsStrings() {
        #expect(TimelineAnalysis.Stage.of("Potentially expensive app update(s)") == .commit)
        #expect(TimelineAnalysis.Stage.of("Pre-Commit(s) latency") == .commit)
        #expect(TimelineAnalysis.Stage.of("Expensive Commit(s)") == .commit)
        #expect(TimelineAnalysis.Stage.of("Commit to Render latency") == .render)
        #expect(
            TimelineAnalysis.Stage.of(
                "Potentially expensive render, 64 offscreen passes), Potentially expensive GPU work") == .render)
        #expect(TimelineAnalysis.Stage.of("") == .unknown)
        #expect(TimelineAnalysis.Stage.of("commit") == .commit)
        #expect(TimelineAnalysis.Stage.of("both") == .render)
    }

    /// Three hitches of 216.666666, 16.666666 and 50 ms over a 10 s recording at 60 Hz: 283.333332
    /// ms in all, 28.333 ms/s (28.3333332 rounded to thousandths), one High, one Low, one High.
    @Test func hitchTimeRatioAndCounts() {
        let timeline = RecordedTimeline(
            format: .xctrace, sources: ["h.xml"], start: .zero, end: SimTime(nanoseconds: 10_000_000_000),
            refreshInterval: SimDuration(nanoseconds: 16_666_666), refreshSource: .assumed,
            hitches: [
                RecordedHitch(
                    start: Self.at(1_000_000_000), duration: SimDuration(nanoseconds: 216_666_666),
                    description: "Potentially expensive app update(s)"),
                RecordedHitch(start: Self.at(2_000_000_000), duration: SimDuration(nanoseconds: 16_666_666)),
                RecordedHitch(
                    start: Self.at(3_000_000_000), duration: Self.ms(50), description: "Commit to Render latency"),
            ])
        let a = TimelineAnalysis(timeline)
        #expect(a.hitchTime == SimDuration(nanoseconds: 283_333_332))
        #expect(a.hitchRatio == MetricNumber(thousandths: 28_333))
        #expect(a.worstHitch == SimDuration(nanoseconds: 216_666_666))
        #expect(a.hitches.map(\.severity) == [.high, .low, .high])
        #expect(a.count(.commit) == 1 && a.count(.render) == 1 && a.count(.unknown) == 1)
    }

    /// Presents at 0, 16, 33, 66 and 83 ms: intervals 16, 17, 33, 17 ms; sorted 16, 17, 17, 33.
    /// Nearest rank: p50 is the 2nd (17 ms), p95 and p99 the 4th (33 ms).
    @Test func frameIntervalPercentilesAreNearestRank() {
        let presents: [Int64] = [0, 16, 33, 66, 83]
        let timeline = RecordedTimeline(
            format: .framesCSV, sources: ["f.csv"], end: Self.at(100_000_000),
            frames: presents.map { RecordedFrame(present: Self.at($0 * 1_000_000)) }, hasHitchList: true)
        let a = TimelineAnalysis(timeline)
        #expect(a.frameInterval(percentile: 50) == Self.ms(17))
        #expect(a.frameInterval(percentile: 95) == Self.ms(33))
        #expect(a.frameInterval(percentile: 99) == Self.ms(33))
        #expect(a.framesPerSecond == MetricNumber(50))
        #expect(a.hitchRatio == MetricNumber(0))
    }

    /// A display-link log has no hitch list: its hitch numbers have no value, not zero.
    @Test func aLinkLogHasNoHitchList() {
        let timeline = RecordedTimeline(
            format: .displayLinkCSV, sources: ["l.csv"], end: Self.at(1_000_000_000),
            linkCallbacks: [RecordedLinkCallback(timestamp: .zero)])
        let a = TimelineAnalysis(timeline)
        #expect(!a.hasHitchList)
        #expect(a.hitchRatio == nil)
    }
}
