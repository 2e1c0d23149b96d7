import DebugShellTesting
import HangDetector
import Testing

/// The hang detector's examples replayed as tests, as `help hangs` prints them, and the watchdog
/// checked against a scenario whose hangs are known.
@Suite struct HangDetectorTests {
    /// Every example in the declaration prints exactly what it says.
    @Test(arguments: Transcript.examples(of: HangDetector.self))
    func example(_ example: LabeledExample) throws {
        try Transcript.expectMatch(example, tools: [HangDetector.self])
    }

    /// A block of at least --over is reported once, when the watchdog first sees it, with its
    /// length: what has passed while it runs, its whole length once it ended. A shorter block is
    /// no hang.
    @Test func aHangIsReportedWithItsLength() throws {
        let script = """
            hangs start --over 100ms --poll 10ms
            stall 90ms
            run 200ms
            stall 250ms
            run 120ms
            hangs
            run 1s
            hangs
            get hangs.count
            get hangs.longest
            """
        let r = try Transcript.run(script, tools: [HangDetector.self])
        #expect(r.stderr == "", "\(r.stderr)")
        #expect(
            r.stdout == """
                [0.300s] hangs: main thread blocked 100ms by a main-queue block 'stall 250ms' (since 200ms)
                #  start     length     seen at   blocked by
                1  200ms     120ms+     300ms     a main-queue block 'stall 250ms'
                #  start     length     seen at   blocked by
                1  200ms     250ms      300ms     a main-queue block 'stall 250ms'
                hangs.count = 1
                hangs.longest = 250ms

                """, "\(r.stdout)")
    }
}
