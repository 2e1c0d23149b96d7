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

@Suite struct DeviceKindTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// V13: on an iPad the game link of V8 gets its 120 Hz with no Info.plist key, and its
    /// ProMotion display goes down to 24 Hz; `clock`, the meter's status line, `reset` and a
    /// recording's preamble say or keep the device.
    @Test func aGameLinkOnAnIPad() throws {
        try expectTranscript(
            """
            > device ipad
            > display adaptive
            > timer displaylink g --range 80,120,120
            > run 1s
            > get clock.rate timer.g.fires
            clock.rate = 120
            timer.g.fires = 120
            > timer invalidate g
            > run 100ms
            > get clock.rate
            clock.rate = 24
            > clock
            device    iPad
            now       1.1s
            vsyncs    132
            refreshes 123
            rate      adaptive 24–120 Hz, now 24 Hz
            mode      default
            main      idle
            > reset
            > device
            iPad
            > display
            adaptive 24–120 Hz, now 24 Hz
            """)
    }

    /// V12: the iPhone stays the default, and its rules are V8's: the same link is held at 60 Hz.
    @Test func theIPhoneIsTheDefault() throws {
        try expectTranscript(
            """
            > device
            iPhone
            > display adaptive --min 24Hz --max 120Hz
            > timer displaylink g --range 80,120,120
            > run 1s
            > get timer.g.fires
            timer.g.fires = 60
            > device ipad
            > run 1s
            > get timer.g.fires
            timer.g.fires = 180
            """)
    }

    @Test func theStatusLineAndThePreambleSayIPad() throws {
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: MemorySink())
        _ = session.runScript("device ipad\ndisplay adaptive\n", origin: ScriptOrigin(name: "t"))
        #expect(session.recorder.preamble() == ["device ipad", "display adaptive --min 24Hz --max 120Hz"])
        let run = try Transcript.run(
            "device ipad\ndisplay adaptive\nfps start --label off\nrun 2s\nstatus\n", tools: BuiltInTools.all)
        #expect(run.stdout.contains("display 60 Hz (iPad 24–120 Hz)"), "\(run.stdout)")
    }
}

@Suite struct NativeRateTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// V14: `--fps 0` set by the app asks for the native rate, the display's maximum after caps:
    /// 60 Hz on an iPhone without the key, 120 with it (a link that sets nothing keeps the
    /// system default, 60); during a 120 Hz scroll it fires at 120.
    @Test func fpsZeroIsTheNativeRate() throws {
        try expectTranscript(
            """
            > display adaptive
            > timer displaylink n --fps 0
            > timer displaylink d
            > run 1s
            > get clock.rate timer.n.fires timer.d.fires
            clock.rate = 60
            timer.n.fires = 60
            timer.d.fires = 60
            > set app.high_frame_rates on
            > run 1s
            > get clock.rate timer.n.fires timer.d.fires
            clock.rate = 120
            timer.n.fires = 180
            timer.d.fires = 120
            > timer invalidate n
            > scroll 1s
            > timer displaylink s --fps 0
            > run 500ms
            > get clock.rate timer.s.fires timer.d.fires
            clock.rate = 120
            timer.s.fires = 60
            timer.d.fires = 150
            """)
    }

    /// V14: on a fixed display `--fps 0` is DL3's "0 means R", as it always was.
    @Test func fpsZeroOnAFixedDisplay() throws {
        try expectTranscript(
            """
            > display rate 90
            > timer displaylink n --fps 0
            > run 1s
            > get timer.n.fires
            timer.n.fires = 90
            """)
    }
}
