import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell

/// Modern display code on every display: frame-rate ranges on a fixed display (DL3, DL-B), the
/// native rate, the iPad, and a frame in flight asking for its producer's rate — each worked
/// example of docs/Semantics.md with its exact answers.
@Suite struct ModernDisplayTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// DL-B: a range's preferred rate is the link's cadence on a fixed display, as
    /// `preferredFramesPerSecond` is (DL3): 30 a second at 120 Hz and at 60 Hz; a range that
    /// prefers none fires at its maximum.
    @Test func aRangeOnAFixedDisplay() throws {
        try expectTranscript(
            """
            > display rate 120
            > timer displaylink d --range 10,120,30
            > timer displaylink m --range 10,40
            > run 1s
            > get timer.d.fires timer.m.fires
            timer.d.fires = 30
            timer.m.fires = 40
            > timer invalidate d
            > timer invalidate m
            > display rate 60
            > timer displaylink h --range 10,60,30
            > run 1s
            > get timer.h.fires
            timer.h.fires = 30
            """)
    }
}
