import DebugShellCore
import DebugShellImport
import Testing

/// Hand-written CSV logs, read to the nanosecond: every expected value below is worked out by
/// hand from the rows (docs/Import.md, "CSV"), not taken from debugsh's output.
@Suite struct CSVReadTests {
    /// A display-link log as an in-app FPS label writes it at 120 Hz: seconds on the
    /// CACurrentMediaTime clock, CRLF line ends, a comment, a quoted row, one skipped vsync.
    @Test func aDisplayLinkLogInSeconds() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "link.csv",
            "# FPSMonitor, iPhone, 120 Hz\r\n"
                + "timestamp,targetTimestamp,duration\r\n"
                + "5012.345678901,5012.354012234,0.008333333\r\n"
                + "5012.354012234,5012.362345567,0.008333333\r\n"
                + "\"5012.362345567\",\"5012.370678901\",0.008333334\r\n"
                + "# the main thread was busy: one vsync without a callback\r\n"
                + "5012.379012234, 5012.387345567 ,0.008333333\r\n")
        let t = try readCSV(path)
        #expect(t.format == .displayLinkCSV)
        #expect(t.sources == [path])
        // Relative to the first timestamp, 5012.345678901 s:
        //   5012.354012234 − 5012.345678901 = 0.008333333 s, 5012.362345567 − … = 0.016666666 s,
        //   5012.370678901 − … = 0.025 s, 5012.379012234 − … = 0.033333333 s, and so on.
        #expect(
            t.linkCallbacks == [
                RecordedLinkCallback(timestamp: ns(0), targetTimestamp: ns(8_333_333), duration: duration(8_333_333)),
                RecordedLinkCallback(
                    timestamp: ns(8_333_333), targetTimestamp: ns(16_666_666), duration: duration(8_333_333)),
                RecordedLinkCallback(
                    timestamp: ns(16_666_666), targetTimestamp: ns(25_000_000), duration: duration(8_333_334)),
                RecordedLinkCallback(
                    timestamp: ns(33_333_333), targetTimestamp: ns(41_666_666), duration: duration(8_333_333)),
            ])
        // Durations 8333333, 8333333, 8333334, 8333333: the lower median is 8333333.
        #expect(t.refreshInterval == duration(8_333_333))
        #expect(t.refreshSource == .declared)
        #expect(t.start == .zero)
        // The later of the last timestamp and its target.
        #expect(t.end == ns(41_666_666))
        #expect(t.frames.isEmpty && t.hitches.isEmpty && t.vsyncs.isEmpty)
        #expect(
            t.notes == [
                "times are since the first timestamp, 5012.345678901 s on the log's clock (CACurrentMediaTime for a CADisplayLink)",
                "a display-link log has no frames and no hitch list: it shows what an FPS label counted",
            ])
    }

    /// Milliseconds named in the header, no duration: the refresh interval is the median gap.
    /// Decimals past the nanosecond round to the nearest one, halves away from zero.
    @Test func aDisplayLinkLogInMilliseconds() throws {
        let scratch = try Scratch()
        let path = try scratch.write("ms.csv", "Timestamp (ms)\n100.5\n117.1666665\n133.833333\n167.166666\n")
        let t = try readCSV(path)
        // 117.1666665 ms = 117166666.5 ns → 117166667; minus 100500000.
        #expect(t.linkCallbacks.map(\.timestamp) == [ns(0), ns(16_666_667), ns(33_333_333), ns(66_666_666)])
        #expect(t.linkCallbacks.allSatisfy { $0.targetTimestamp == nil && $0.duration == nil })
        // Gaps 16666667, 16666666, 33333333: sorted, the lower median is 16666667.
        #expect(t.refreshInterval == duration(16_666_667))
        #expect(t.refreshSource == .vsyncMedian)
        #expect(t.end == ns(66_666_666))
        #expect(
            t.notes.first
                == "times are since the first timestamp, 0.1005 s on the log's clock (CACurrentMediaTime for a CADisplayLink)"
        )
    }

    /// Every spelling of a unit, in any order and case, and `target_timestamp` for
    /// `targetTimestamp`; one row without a duration leaves the refresh interval assumed.
    @Test func unitsAndNames() throws {
        let scratch = try Scratch()
        for header in [
            "TARGET_TIMESTAMP_NS,timestamp_ns", "targetTimestamp (ns),Timestamp (ns)",
            "target timestamp(ns), timestamp [x]",
        ] {
            let path = try scratch.write("u.csv", "\(header)\n2016666667,2000000000\n")
            let result = Result { () throws(ImportError) in try readCSV(path) }
            if header.hasSuffix("[x]") {
                // `[x]` is no unit: `timestamp [x]` is a column of its own.
                #expect(throws: ImportError.self) { try result.get() }
                continue
            }
            let t = try result.get()
            #expect(t.linkCallbacks == [RecordedLinkCallback(timestamp: ns(0), targetTimestamp: ns(16_666_667))])
            #expect(t.refreshInterval == duration(16_666_667) && t.refreshSource == .assumed)
            #expect(t.notes.contains("no duration and no two timestamps apart: the refresh interval is assumed, 60 Hz"))
        }
        let us = try scratch.write("us.csv", "timestamp (µs),duration_us\n1.5,8333.3334\n")
        #expect(
            try readCSV(us).linkCallbacks == [RecordedLinkCallback(timestamp: ns(0), duration: duration(8_333_333))])
        let exponent = try scratch.write(
            "e.csv", "timestamp,duration\n1.5e3,8.333333e-3\n1500.0083333330,8.3333335E-3\n")
        #expect(
            try readCSV(exponent).linkCallbacks == [
                RecordedLinkCallback(timestamp: ns(0), duration: duration(8_333_333)),
                RecordedLinkCallback(timestamp: ns(8_333_333), duration: duration(8_333_334)),
            ])
    }

    /// A frame log written by hand: columns in another order and case, empty fields (unknown),
    /// a quoted cause with a comma and a doubled quote, a UTF-8 byte-order mark, no final line end.
    @Test func aFrameLogByHand() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "frames.csv",
            "\u{FEFF}Present,Frame,VSYNC,Commit_Start,commit_end,render start,render_end,expected_present,hitch,cause\n"
                + "50000000,1,0,1000000,5000000,16666666,20000000,33333333,16666667,render\n"
                + "# frame 2 was merged into 3\n"
                + "83333333,3,,,,,,66666666,,\n"
                + "150000000,4,100000000,100000000,140000000,141000000,142000000,133333333,16666667,\"commit, \"\"late\"\"\""
        )
        let t = try readCSV(path)
        #expect(t.format == .framesCSV)
        #expect(
            t.frames == [
                RecordedFrame(
                    present: ns(50_000_000), vsync: ns(0), commitStart: ns(1_000_000), commitEnd: ns(5_000_000),
                    renderStart: ns(16_666_666), renderEnd: ns(20_000_000), expectedPresent: ns(33_333_333),
                    cause: "render", number: 1, hitch: duration(16_666_667)),
                RecordedFrame(present: ns(83_333_333), expectedPresent: ns(66_666_666), number: 3),
                RecordedFrame(
                    present: ns(150_000_000), vsync: ns(100_000_000), commitStart: ns(100_000_000),
                    commitEnd: ns(140_000_000), renderStart: ns(141_000_000), renderEnd: ns(142_000_000),
                    expectedPresent: ns(133_333_333), cause: "commit, \"late\"", number: 4, hitch: duration(16_666_667)),
            ])
        // A hitch is [present − hitch, present).
        #expect(
            t.hitches == [
                RecordedHitch(start: ns(33_333_333), duration: duration(16_666_667), description: "render"),
                RecordedHitch(start: ns(133_333_333), duration: duration(16_666_667), description: "commit, \"late\""),
            ])
        // The earliest time in the log to its last present.
        #expect(t.start == .zero && t.end == ns(150_000_000))
        #expect(t.refreshInterval == duration(16_666_667) && t.refreshSource == .assumed)
        #expect(
            t.notes == [
                "no refresh_interval: the refresh interval is assumed, 60 Hz",
                "1 of 3 frames have an empty hitch: not counted for hitches (A2), or not measured",
                "a frame log has no display-link callbacks: no FPS label's reading to compare",
            ])
    }

    /// `refresh_interval` declares the display's cadence (its lower median); units reach every
    /// time column, the frame number stays a count; times need not start at 0.
    @Test func aFrameLogInMillisecondsWithItsRefresh() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "ms.csv",
            "frame,present_ms,expected_present_ms,hitch_ms,refresh_interval_ms\n"
                + "7,1008.333333,1008.333333,0,8.333333\n"
                + "8,1025,1016.666667,8.333333,8.333334\n"
                + "9,1033.333333,1033.333333,0,8.333333\n")
        let t = try readCSV(path)
        #expect(t.frames.map(\.present) == [ns(1_008_333_333), ns(1_025_000_000), ns(1_033_333_333)])
        #expect(t.frames.map(\.number) == [7, 8, 9])
        #expect(t.frames.map(\.hitch) == [.zero, duration(8_333_333), .zero])
        #expect(t.hitches == [RecordedHitch(start: ns(1_016_666_667), duration: duration(8_333_333))])
        #expect(t.refreshInterval == duration(8_333_333) && t.refreshSource == .declared)
        #expect(t.start == ns(1_008_333_333) && t.end == ns(1_033_333_333))
    }
}
