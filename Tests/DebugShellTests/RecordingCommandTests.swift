import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Testing

@testable import DebugShell

/// `recording` and the `rec.*` metrics on a timeline opened by hand (the readers have tests of
/// their own): the numbers computed here by hand.
@Suite struct RecordingCommandTests {
    /// Two hitches (216.666666 ms High, 16.666666 ms Low at 60 Hz) over 10 s, presents at 0,
    /// 100 and 300 ms.
    static let timeline = RecordedTimeline(
        format: .xctrace, sources: ["hitches.xml"], start: .zero, end: SimTime(nanoseconds: 10_000_000_000),
        refreshInterval: SimDuration(nanoseconds: 16_666_666), refreshSource: .displayInfo(hertz: 60),
        frames: [0, 100, 300].map { RecordedFrame(present: SimTime(nanoseconds: $0 * 1_000_000)) },
        hitches: [
            RecordedHitch(
                start: SimTime(nanoseconds: 4_961_155_833), duration: SimDuration(nanoseconds: 216_666_666),
                description: "Potentially expensive app update(s)"),
            RecordedHitch(start: SimTime(nanoseconds: 13_961_169_916), duration: SimDuration(nanoseconds: 16_666_666)),
        ], notes: ["no per-frame phases: 'recording frames' shows presents only"])

    static func session() throws -> (Session, MemorySink) {
        let sink = MemorySink()
        let session = try Session(tools: [], sink: sink)
        return (session, sink)
    }

    @Test func beforeAnImportTheMetricsHaveNoValue() throws {
        let (session, sink) = try Self.session()
        _ = session.runScript("recording\nget rec.hitches\nexpect rec.hitches == 0", origin: ScriptOrigin(name: "t"))
        #expect(
            sink.standardOutput
                == "no recording ('import xctrace|csv|chrome <file>' reads one)\nrec.hitches = none\n")
        #expect(sink.standardError == "t:3: error: expectation failed: rec.hitches has no value yet\n")
    }

    @Test func theMetricsReadTheRecording() throws {
        let (session, sink) = try Self.session()
        session.imported.open(Self.timeline)
        _ = session.runScript(
            "get rec.hitches rec.hitch_time rec.hitch_ratio rec.worst_hitch rec.high_hitches rec.frames rec.frame_p50 rec.duration",
            origin: ScriptOrigin(name: "t"))
        #expect(
            sink.standardOutput == """
                rec.hitches = 2
                rec.hitch_time = 233.333332ms
                rec.hitch_ratio = 23.333
                rec.worst_hitch = 216.666666ms
                rec.high_hitches = 1
                rec.frames = 3
                rec.frame_p50 = 100ms
                rec.duration = 10s

                """)
        #expect(sink.standardError.isEmpty)
        // They are listed with the others, and a script can gate on them.
        #expect(session.allMetricNames().contains("rec.hitch_ratio"))
        #expect(session.runScript("expect rec.hitch_ratio < 25 and rec.high_hitches == 1", origin: .typed) == .finished)
    }

    @Test func theSummaryAndTheHitches() throws {
        let (session, sink) = try Self.session()
        session.imported.open(Self.timeline)
        _ = session.runScript("recording\nrecording hitches\nrecording hitches --severity low", origin: .typed)
        #expect(
            sink.standardOutput == """
                recording  xctrace: hitches.xml
                span       0s to 10s (10s)
                display    60 Hz (device-display-info: 60 Hz), refresh interval 16.666666ms
                frames     3 presented · 0.3 fps · interval p50 100ms, p95 200ms, p99 200ms
                hitches    2 · 233.333332ms hitch time · 23.333 ms/s (warning) · worst 216.666666ms
                severity   High 1 · Moderate 0 · Low 1
                stages     commit 1 · render 0 · unknown 1
                note       no per-frame phases: 'recording frames' shows presents only
                #  start          duration      intervals  severity  stage    description
                1  4.961155833s   216.666666ms  13.00      High      commit   Potentially expensive app update(s)
                2  13.961169916s  16.666666ms   1.00       Low       unknown
                #  start          duration     intervals  severity  stage    description
                2  13.961169916s  16.666666ms  1.00       Low       unknown

                """)
    }

    @Test func closeLetsTheRecordingGo() throws {
        let (session, sink) = try Self.session()
        session.imported.open(Self.timeline)
        _ = session.runScript("recording close\nget rec.frames\nrecording close", origin: .typed)
        #expect(sink.standardOutput == "rec.frames = none\n")
        #expect(sink.standardError == "error: no recording to close\n")
    }
}
