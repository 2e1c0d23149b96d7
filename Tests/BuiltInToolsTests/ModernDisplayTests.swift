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

    /// V5 (issue 35, 4): a frame waiting or in flight asks what produced it. An animation ranged
    /// 10,30,30 on an idle adaptive display runs it at 30 Hz, its frames asking 30 as it does
    /// (each asked the 60 Hz default before: 60 Hz, 59 refreshes, 57 presents); its last frame
    /// shown at 1033.333 ms, the display falls to 10 Hz.
    @Test func aRangedAnimationRunsAnIdleDisplayAtItsRate() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start --range 10,120 --label off
            > animate 1s --range 10,30,30
            > run 1s
            > get clock.rate clock.refreshes fps.render
            clock.rate = 30
            clock.refreshes = 30
            fps.render = 28
            > run 1s
            > get clock.rate clock.refreshes
            clock.rate = 10
            clock.refreshes = 41
            """)
    }

    /// V3, S4.3: at a refresh the display picks its rate before the links fill their slots, so a
    /// refresh where the rate changes starts every link's cadence (V4): the 30 fps link fires at
    /// the fall from 120 to 30 Hz, 16.667 ms after its last firing.
    @Test func theChoiceComesBeforeTheSlots() throws {
        let r = try Transcript.run(
            """
            display adaptive
            set app.high_frame_rates on
            timer displaylink s --fps 30
            timer displaylink f --fps 120
            run 10ms
            timer invalidate f
            run 90ms
            get timer.s.fires clock.rate
            timer show s
            """, tools: BuiltInTools.all)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("timer.s.fires = 4"))
        #expect(lines.contains("clock.rate = 30"))
        let fired = lines.filter { $0.first.map { "1234".contains($0) } == true }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }
        #expect(fired == ["0s", "16.666666ms", "50ms", "83.333333ms"])
    }

    /// V5, R4: the hitch ratio's window is delayed by two refreshes at the rate the frame was
    /// promised (60 Hz at its tick), not the rate at its present (120 Hz): 10 ms of frame 4's
    /// 16.667 ms hitch count, 35 ms in 60 animating ms.
    @Test func theRatioWindowUsesThePromisedRate() throws {
        try expectTranscript(
            """
            > display adaptive
            > set app.high_frame_rates on
            > fps start --range 10,120,0 --label off
            > load gpu 20ms
            > animate 60ms
            > after 60ms timer displaylink f --fps 120
            > run 1s
            > get fps.hitches fps.hitch_time fps.hitch_ratio
            fps.hitches = 3
            fps.hitch_time = 41.666668ms
            fps.hitch_ratio = 583.333
            """)
    }

    /// V2: a request above the display's maximum gets the maximum, and its link every refresh;
    /// on a display whose maximum is 60 Hz no cap is named, for the key would change nothing.
    @Test func aRequestAboveTheMaximum() throws {
        try expectTranscript(
            """
            > display adaptive
            > set app.high_frame_rates on
            > timer displaylink a --fps 240
            > timer displaylink r --range 80,240,240
            > run 1s
            > get clock.rate timer.a.fires timer.r.fires
            clock.rate = 120
            timer.a.fires = 120
            timer.r.fires = 120
            """)
        let r = try Transcript.run(
            """
            display adaptive --max 60Hz
            timer displaylink r --range 10,120,90
            run 1s
            get timer.r.fires
            timer show r
            """, tools: BuiltInTools.all)
        #expect(r.stdout.contains("timer.r.fires = 60"))
        #expect(!r.stdout.contains("fix:"))
    }

    /// V1: a `--min` between two rates is a bound; the display rests at its lowest rate above it,
    /// and prints the range as given.
    @Test func aMinimumThatIsNotARate() throws {
        try expectTranscript(
            """
            > display adaptive --min 25Hz
            > run 100ms
            > display
            adaptive 25–120 Hz, now 30 Hz
            > timer displaylink t --range 25,25,25
            > run 1s
            > get clock.rate timer.t.fires
            clock.rate = 30
            timer.t.fires = 30
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

/// The touch and the ramp (V15, V16), and what a scroll's frames and a frame being committed ask
/// (V17): each worked example of docs/Semantics.md with its exact answers.
@Suite struct TouchAndRampTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// V15: on a display resting at 10 Hz a scroll's touch at 1045 ms raises it at the next vsync
    /// of the 120 Hz grid, 1050 ms, where the scroll's first tick is; by 1145 ms, 12 refreshes at
    /// 120 Hz and 10 presents (the refresh at 1100 ms at 10 Hz gave 6 and 4).
    @Test func theTouchRaisesTheDisplayAtOnce() throws {
        try expectTranscript(
            """
            > display adaptive
            > run 1045ms
            > scroll 200ms
            > display
            adaptive 10–120 Hz, now 10 Hz (adaptive 10–120 Hz, now 120 Hz from 1.05s)
            > run 100ms
            > get clock.rate clock.refreshes render.presents
            clock.rate = 120
            clock.refreshes = 23
            render.presents = 10
            """)
    }

    /// V16: `display.ramp 1` steps the display down one rate a refresh after a scroll, from 60 Hz
    /// at 108.333 ms to 10 Hz at 650 ms (27 refreshes in the first second, 22 with no ramp);
    /// `display.ramp 2` holds each rate two refreshes (12 Hz at 1 s). The default is no ramp.
    @Test func theRampStepsDown() throws {
        try expectTranscript(
            """
            > settings display
            display.ramp = 0  Refreshes an adaptive display holds each rate on its way down, one rate at a time; 0 falls at once (V16).
            > display adaptive
            > set display.ramp 1
            > scroll 100ms
            > run 150ms
            > get clock.rate
            clock.rate = 40
            > run 499ms
            > display
            adaptive 10–120 Hz, now 10.909 Hz, ramp 1
            > run 351ms
            > get clock.rate clock.refreshes
            clock.rate = 10
            clock.refreshes = 27
            > reset
            > set display.ramp 2
            > scroll 100ms
            > run 1s
            > get clock.rate clock.refreshes
            clock.rate = 12
            clock.refreshes = 31
            """)
    }

    /// V17: a scroll's frames ask what the scroll asks, 120 Hz: its last frame, ticked at
    /// 91.667 ms and expected at 108.333, keeps the display at 120 Hz and is shown on time (it
    /// asked the 60 Hz default before: the display fell to 60 Hz and showed it at 116.667).
    @Test func aScrollsFramesAskTheScrollsRate() throws {
        let r = try Transcript.run(
            """
            display adaptive
            fps start --range 10,120 --label off
            scroll 100ms
            run 1s
            get render.presents clock.rate
            fps frames
            """, tools: BuiltInTools.all)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("render.presents = 12"))
        #expect(lines.contains("clock.rate = 10"))
        #expect(
            lines.last == "   12      91.667       100.000     100.000  108.333   108.333  0.000  on time",
            "\(r.stdout)")
    }

    /// V17: a frame asks from its commit's start: the second commit (30–60 ms) holds the display
    /// at 60 Hz through the refresh at 50 ms, after the animation's end, and its frame is shown
    /// at 83.333 ms (the display fell to 10 Hz under it before: shown at 166.667).
    @Test func aFrameBeingCommittedAsks() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start --range 10,120 --label off
            > load commit 30ms
            > animate 40ms
            > run 300ms
            > get render.presents clock.refreshes
            render.presents = 2
            clock.refreshes = 8
            > fps frames
            2 presents; times in ms, hitch - = not animating (A2)
            frame  commit end  render start  render end  present  expected   hitch  verdict
                1      30.000        33.333      33.333   50.000    33.333  16.667  commit
                2      60.000        66.667      66.667   83.333    50.000  16.667  commit
            """)
    }
}
