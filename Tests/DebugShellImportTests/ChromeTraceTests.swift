import DebugShellCore
import DebugShellImport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// debugsh's Chrome trace read back: a trace written by hand in `trace save`'s shape
/// (docs/Trace.md), with every value expected worked out from its events; and every way a file is
/// refused.
@Suite struct ChromeTraceTests {
    /// Two simulations (a reset between), a render hitch, a frame merged into the next (frame 2,
    /// whose zero-cost commit is named in a merged slice), an idle stretch, a tool's event, a
    /// counter.
    static let trace = """
        {"displayTimeUnit": "ms", "otherData": {"generator": "debugsh test", "categories": ["display", "main", "render"], "window_start_ns": 0},
        "traceEvents": [
        {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "debugsh simulated device"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 3, "args": {"name": "Display"}},
        {"name": "vsync", "cat": "display", "ph": "i", "s": "t", "ts": 0.000, "pid": 1, "tid": 3, "args": {"index": 0}},
        {"name": "render", "cat": "render", "ph": "X", "ts": 16666.666, "dur": 20000.000, "pid": 1, "tid": 2, "args": {"frame": 1}},
        {"name": "vsync", "cat": "display", "ph": "i", "s": "t", "ts": 16666.666, "pid": 1, "tid": 3, "args": {"index": 1}},
        {"name": "vsync", "cat": "display", "ph": "i", "s": "t", "ts": 33333.333, "pid": 1, "tid": 3, "args": {"index": 2}},
        {"name": "present", "cat": "display", "ph": "i", "s": "t", "ts": 50000.000, "pid": 1, "tid": 3, "args": {"frame": 1, "vsync": 3, "expected_present_ns": 33333333, "merged_frames": 1}},
        {"name": "render hitch", "cat": "display", "ph": "X", "ts": 33333.333, "dur": 16666.667, "pid": 1, "tid": 4, "args": {"frame": 1, "cause": "render", "expected_present_ns": 33333333, "present_ns": 50000000, "hitch_ns": 16666667}},
        {"name": "fps.hitch", "cat": "tools", "ph": "i", "s": "t", "ts": 50000.000, "pid": 1, "tid": 6, "args": {"frame": 1, "hitch_ns": 16666667, "cause": "render"}},
        {"name": "render", "cat": "render", "ph": "X", "ts": 50000.000, "dur": 20000.000, "pid": 1, "tid": 2, "args": {"frame": 3}},
        {"name": "run loop iteration", "cat": "main", "ph": "X", "ts": 0.000, "dur": 2000.000, "pid": 1, "tid": 1, "args": {"iteration": 2}},
        {"name": "commit", "cat": "main", "ph": "X", "ts": 0.000, "dur": 2000.000, "pid": 1, "tid": 1, "args": {"kind": "commit", "iteration": 2}},
        {"name": "2 zero-cost items", "cat": "main", "ph": "X", "ts": 16666.666, "dur": 0.000, "pid": 1, "tid": 1, "args": {"count": 2, "items": ["ui link", "commit"]}},
        {"name": "commit", "cat": "main", "ph": "X", "ts": 33333.333, "dur": 2000.000, "pid": 1, "tid": 1, "args": {"kind": "commit", "iteration": 6}},
        {"name": "present", "cat": "display", "ph": "i", "s": "t", "ts": 83333.333, "pid": 1, "tid": 3, "args": {"frame": 3, "vsync": 5, "expected_present_ns": 66666666, "merged_frames": 2}},
        {"name": "idle", "cat": "display", "ph": "X", "ts": 100000.000, "dur": 100000.000, "pid": 1, "tid": 3, "args": {"vsyncs": 6}},
        {"name": "Presented FPS", "cat": "counters", "ph": "C", "ts": 0.000, "pid": 1, "args": {"FPS": 2}},
        {"name": "reset", "cat": "debugsh", "ph": "i", "s": "p", "ts": 200000.000, "pid": 1, "args": {"simulation": 2, "offset_ns": 200000000}},
        {"name": "commit", "cat": "main", "ph": "X", "ts": 200000.000, "dur": 0.500, "pid": 1, "tid": 1, "args": {"kind": "commit", "iteration": 1}},
        {"name": "render", "cat": "render", "ph": "X", "ts": 216666.666, "dur": 1000.000, "pid": 1, "tid": 2, "args": {"frame": 1}},
        {"name": "vsync", "cat": "display", "ph": "i", "s": "t", "ts": 216666.666, "pid": 1, "tid": 3, "args": {"index": 1}},
        {"name": "present", "cat": "display", "ph": "i", "s": "t", "ts": 233333.333, "pid": 1, "tid": 3, "args": {"frame": 1, "vsync": 2, "expected_present_ns": 233333333, "merged_frames": 1}}
        ]}

        """

    @Test func aTraceByHand() throws {
        let scratch = try Scratch()
        let path = try scratch.write("t.json", Self.trace)
        let t = try readChrome(path)
        #expect(t.format == .chrome && t.sources == [path])
        // Frame 1: rendered at 16.666666 ms, so its commit is the last to end before then —
        // [0, 2 ms) — not the zero-cost one that ended at 16.666666 ms itself (R1). Frame 3:
        // rendered at 50 ms, after frame 1's render: the last commit to end in [16.666666, 50) ms.
        // After the reset, frame 1 again: its own commit.
        #expect(
            t.frames == [
                RecordedFrame(
                    present: ns(50_000_000), commitStart: ns(0), commitEnd: ns(2_000_000), renderStart: ns(16_666_666),
                    renderEnd: ns(36_666_666), expectedPresent: ns(33_333_333), cause: "render", number: 1,
                    hitch: duration(16_666_667)),
                RecordedFrame(
                    present: ns(83_333_333), commitStart: ns(33_333_333), commitEnd: ns(35_333_333),
                    renderStart: ns(50_000_000), renderEnd: ns(70_000_000), expectedPresent: ns(66_666_666), number: 3),
                RecordedFrame(
                    present: ns(233_333_333), commitStart: ns(200_000_000), commitEnd: ns(200_000_500),
                    renderStart: ns(216_666_666), renderEnd: ns(217_666_666), expectedPresent: ns(233_333_333),
                    number: 1),
            ])
        #expect(
            t.hitches == [RecordedHitch(start: ns(33_333_333), duration: duration(16_666_667), description: "render")])
        #expect(
            t.vsyncs == [0, 16_666_666, 33_333_333, 50_000_000, 83_333_333, 216_666_666, 233_333_333].map(ns))
        // Consecutive indices 0→1, 1→2, 2→3 and (after the reset) 1→2: 16666666, 16666667,
        // 16666667, 16666667; the lower median is 16666667.
        #expect(t.refreshInterval == duration(16_666_667) && t.refreshSource == .vsyncMedian)
        #expect(t.start == .zero && t.end == ns(233_333_333))
        #expect(
            t.notes == [
                "6 vsyncs of idle stretches are counted in the trace, not listed: they are not among the vsyncs",
                "2 simulations (1 reset): frame numbers start again at each, times run on",
                "a frame without a hitch slice was on time or not counted for hitches (A2): the trace does not say which; nor which vsync a frame's update began at",
            ])
    }

    /// A bare array of events; a hitch neither stage caused (`hitch`, cause none: the frame waited
    /// for the render server) reads as the FPS meter calls it, a render hitch; a render the
    /// trace's window cut (`truncated`) has no start and no commit; without the main thread, no
    /// commits.
    @Test func anArrayOfEvents() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "a.json",
            """
            [{"name": "render", "cat": "render", "ph": "X", "ts": 1000, "dur": 5000, "args": {"frame": 7, "truncated": true}},
             {"name": "present", "cat": "display", "ph": "i", "ts": 8333.333, "args": {"frame": 7, "vsync": -1, "expected_present_ns": 8333333}},
             {"name": "render", "cat": "render", "ph": "X", "ts": 8333.333, "dur": 100, "args": {"frame": 8}},
             {"name": "present", "cat": "display", "ph": "i", "ts": 25000, "args": {"frame": 8, "vsync": 3, "expected_present_ns": 16666666}},
             {"name": "hitch", "cat": "display", "ph": "X", "ts": 16666.667, "dur": 8333.333, "args": {"frame": 8, "cause": "none", "present_ns": 25000000, "hitch_ns": 8333334}}]
            """)
        let t = try readChrome(path)
        #expect(
            t.frames == [
                RecordedFrame(
                    present: ns(8_333_333), renderEnd: ns(6_000_000), expectedPresent: ns(8_333_333), number: 7),
                RecordedFrame(
                    present: ns(25_000_000), renderStart: ns(8_333_333), renderEnd: ns(8_433_333),
                    expectedPresent: ns(16_666_666), cause: "render", number: 8, hitch: duration(8_333_334)),
            ])
        // The slice's own arguments: 25000000 − 8333334.
        #expect(
            t.hitches == [RecordedHitch(start: ns(16_666_666), duration: duration(8_333_334), description: "render")])
        // No vsync index on the first present: no two consecutive vsyncs.
        #expect(t.refreshInterval == duration(16_666_667) && t.refreshSource == .assumed)
        #expect(t.start == ns(1_000_000) && t.end == ns(25_000_000))
        #expect(
            Array(t.notes.prefix(2)) == [
                "no two consecutive vsyncs in the trace: the refresh interval is assumed, 60 Hz",
                "no main thread in the trace (its main category was off): frames have no commit phase",
            ])
    }

    static let cases: [(text: String, error: String)] = [
        ("", "<dir>/t.json: the file is empty: a Chrome trace is a JSON object with traceEvents"),
        (" \n\t", "<dir>/t.json: only white space: a Chrome trace is a JSON object with traceEvents"),
        (
            "x",
            "<dir>/t.json:1:1: 'x' where a Chrome trace starts: '{' (an object with traceEvents) or '[' (an array of events)"
        ),
        ("{\"traceEvents\": [", "<dir>/t.json:1:18: the file ends where a value should be: it is cut short"),
        (
            "{\"traceEvents\": [{\"name\": \"vsync\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": 1, \"args\": {\"index\": 0}}",
            "<dir>/t.json:1:95: the file ends inside the traceEvents array: it is cut short"
        ),
        (
            "{\"traceEvents\": [{\"name\": \"vsync\", \"args\": {\"index\": 0",
            "<dir>/t.json:1:55: the file ends inside an object: it is cut short"
        ),
        ("{\"traceEvents\": [tru]}", "<dir>/t.json:1:18: not a JSON value (true, false or null?)"),
        (
            "{\"traceEvents\": []}",
            "<dir>/t.json: no display events (vsync, present, idle, hitch): not a trace that 'trace save' wrote with its display category"
        ),
        (
            "{\"otherData\": {}}",
            "<dir>/t.json: no display events (vsync, present, idle, hitch): not a trace that 'trace save' wrote with its display category"
        ),
        (
            "[{\"name\": \"present\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": 5}]",
            "<dir>/t.json:1:2: 'present' without its frame (a whole number)"
        ),
        (
            "[{\"name\": \"vsync\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": \"5\"}]",
            "<dir>/t.json:1:2: 'vsync': its ts is not a time in µs from 0"
        ),
        ("[{\"ts\": -1}]", "<dir>/t.json:1:2: an event: its ts is not a time in µs from 0"),
        (
            "[{\"name\": \"present\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": 5, \"args\": {\"frame\": 1, \"expected_present_ns\": -3}}]",
            "<dir>/t.json:1:2: 'present': expected_present_ns -3 is not a time in ns from 0"
        ),
        (
            "[{\"name\": \"idle\", \"cat\": \"display\", \"ph\": \"X\", \"ts\": 5}]",
            "<dir>/t.json:1:2: 'idle': a slice (ph X) without a dur in µs from 0"
        ),
        (
            "[\n{\"name\": \"render hitch\", \"cat\": \"display\", \"ph\": \"X\", \"ts\": 5, \"dur\": 1, \"args\": {\"frame\": 1, \"present_ns\": 10, \"hitch_ns\": 11}}]",
            "<dir>/t.json:2:1: 'render hitch': hitch_ns 11 does not fit before present_ns 10"
        ),
        ("[1]", "<dir>/t.json:1:2: an event that is not an object"),
        ("[{} {}]", "<dir>/t.json:1:5: '{' where ',' or ']' should be"),
        ("[] x", "<dir>/t.json:1:4: 'x' after the trace's end"),
        ("{\"traceEvents\": \"no\"}", "<dir>/t.json:1:17: '\"' where the traceEvents array should be"),
        ("{\"a\" 1}", "<dir>/t.json:1:6: '1' where ':' after a key should be"),
        ("{1}", "<dir>/t.json:1:2: '1' where a key in quotes should be"),
        ("[\"abc", "<dir>/t.json:1:2: a string that never ends: the file is cut short"),
        ("[\"a\u{1}\"]", "<dir>/t.json:1:4: byte 0x01 in a string: control characters are escaped in JSON"),
        ("[\"\\q\"]", "<dir>/t.json:1:3: an unknown escape after \\: 'q'"),
        ("[\"\\ud800x\"]", "<dir>/t.json:1:3: a \\u escape of half a character (a lone surrogate)"),
        ("[\"\\u12G4\"]", "<dir>/t.json:1:3: a \\u escape without four hex digits"),
        ("[01]", "<dir>/t.json:1:2: '01' is not a JSON number"),
        ("[-]", "<dir>/t.json:1:2: '-' is not a JSON number"),
        ("[1.]", "<dir>/t.json:1:2: '1.' is not a JSON number"),
        (
            String(repeating: "[", count: 70),
            "<dir>/t.json:1:66: values nested deeper than 64 levels: not a trace's event"
        ),
        (
            "\u{0}",
            "<dir>/t.json:1:1: byte 0x00 where a Chrome trace starts: '{' (an object with traceEvents) or '[' (an array of events)"
        ),
    ]

    @Test(arguments: cases.indices)
    func aBadTraceIsRefused(_ index: Int) throws {
        let scratch = try Scratch()
        let (text, expected) = Self.cases[index]
        let path = try scratch.write("t.json", text)
        #expect(failure({ () throws(ImportError) in try readChrome(path) }, in: scratch) == expected, "\(text)")
    }

    /// A string that is not UTF-8; a FIFO; an interrupt.
    @Test func notTextNotAFileInterrupted() throws {
        let scratch = try Scratch()
        let bytes = try scratch.write("b.json", bytes: Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8))
        #expect(
            failure({ () throws(ImportError) in try readChrome(bytes) }, in: scratch)
                == "<dir>/b.json:1:2: a string that is not UTF-8 text")
        let fifo = scratch.path("pipe.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            failure({ () throws(ImportError) in try readChrome(fifo) }, in: scratch)
                == "<dir>/pipe.json: a FIFO, not a regular file: an import reads a file whole, all or nothing; save the data to a file first"
        )
        var text = "[\n"
        for i in 0..<5000 {
            text +=
                "{\"name\": \"vsync\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": \(i), \"args\": {\"index\": \(i)}},\n"
        }
        text += "{}]"
        let big = try scratch.write("big.json", text)
        var polls = 0
        let message = failure(
            { () throws(ImportError) in
                try ChromeTraceImport.read(
                    big,
                    interrupted: {
                        polls += 1
                        return true
                    })
            }, in: scratch)
        #expect(message == "<dir>/big.json:4097: interrupted: nothing was imported")
        #expect(polls == 1)
        // Keys of the trace object are polled as events are.
        let keys = try scratch.write(
            "keys.json", "{" + (0..<5000).map { "\"k\($0)\": \($0)" }.joined(separator: ",\n") + "}")
        #expect(
            failure({ () throws(ImportError) in try ChromeTraceImport.read(keys, interrupted: { true }) }, in: scratch)
                == "<dir>/keys.json:4096: interrupted: nothing was imported")
        // White space is bounded, as a CSV row is.
        let blank = try scratch.write("blank.json", "[" + String(repeating: " ", count: (1 << 20) + 1) + "]")
        #expect(
            failure({ () throws(ImportError) in try readChrome(blank) }, in: scratch)
                == "<dir>/blank.json:1:1048578: more than 1 MiB of white space in a row: not a trace")
        let whole = try readChrome(big)
        #expect(whole.vsyncs.count == 5000)
        // 1 µs apart, consecutive indices.
        #expect(whole.refreshInterval == duration(1000) && whole.refreshSource == .vsyncMedian)
    }
}
