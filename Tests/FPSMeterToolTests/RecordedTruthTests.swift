import DebugShellCore
import Testing

@testable import FPSMeterTool

/// A recording's ground truth for `fps compare --recording`, by hand: vsyncs at 0, 10, 20, 30 and
/// 40 ms, presents at 10 and 30 ms. The vsyncs at 20 and 40 ms had no present since the vsync
/// before: 2 missed, 20 ms.
@Suite struct RecordedTruthTests {
    static func ms(_ n: Int64) -> SimTime { SimTime(nanoseconds: n * 1_000_000) }

    static let truth = RecordedTruth(
        RecordedTimeline(
            format: .xctrace, sources: [], end: ms(40), vsyncs: [0, 10, 20, 30, 40].map(ms),
            frames: [10, 30].map { RecordedFrame(present: ms($0)) }))

    @Test func missedVsyncsAreThoseWithNoPresentSinceTheOneBefore() {
        let all = Self.truth.span(after: Self.ms(-1), through: Self.ms(40))
        #expect(all.presents == 2 && all.missed == 2 && all.missedTime == 20_000_000)
        // (10, 30]: the present at 30, the vsync at 20 missed.
        let middle = Self.truth.span(after: Self.ms(10), through: Self.ms(30))
        #expect(middle.presents == 1 && middle.missed == 1 && middle.missedTime == 10_000_000)
    }

    @Test func vsyncsAreCountedHalfOpen() {
        #expect(Self.truth.vsyncs(from: Self.ms(0), to: Self.ms(40)) == 4)
        #expect(Self.truth.vsyncs(from: Self.ms(1), to: Self.ms(41)) == 4)
        #expect(
            RecordedTruth(RecordedTimeline(format: .displayLinkCSV, sources: [])).vsyncs(from: .zero, to: Self.ms(1))
                == nil)
    }
}
