import DebugShellCore
import DebugShellImport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every way a CSV log is refused, with its exact message and place (`file:line:column:`).
@Suite struct CSVErrorTests {
    /// A file's text, and the error it must give (`<dir>` is the folder the file is in).
    static let cases: [(text: String, error: String)] = [
        // Empty, nothing but comments, a header alone.
        ("", "<dir>/t.csv: the file is empty: a CSV log is a header line and a row per callback or frame"),
        ("\u{FEFF}", "<dir>/t.csv: the file is empty: a CSV log is a header line and a row per callback or frame"),
        ("# only\n\n# comments\n", "<dir>/t.csv: no header: the file has only comments and blank lines"),
        ("# a log\ntimestamp,duration\n\n", "<dir>/t.csv:2: a header and no rows: nothing to import"),
        // Binary data, text that is not UTF-8, a row that never ends.
        ("timestamp\n1.0\n2\u{0}.0\n", "<dir>/t.csv:3:2: binary data (byte 0x00): not a CSV text file"),
        ("timestamp\n\"1.0\u{1}\"\n", "<dir>/t.csv:2:5: binary data (byte 0x01): not a CSV text file"),
        // The header.
        (
            "time,fps\n1,2\n",
            "<dir>/t.csv:1:1: no timestamp column (a display-link log) and no present column (a frame log); the header has 'time', 'fps'"
        ),
        (
            "timestamp,present\n1,2\n",
            "<dir>/t.csv:1:11: a timestamp column (a display-link log) and a present column (a frame log): one shape per file"
        ),
        (
            "timestamp,fps,targetTimestmp\n1,2,3\n",
            "<dir>/t.csv:1:11: unknown columns 'fps', 'targetTimestmp' (a display-link log has timestamp, targetTimestamp, duration)"
        ),
        (
            "present,vsync,commit\n1,2,3\n",
            "<dir>/t.csv:1:15: unknown column 'commit' (a frame log has frame, vsync, commit_start, commit_end, render_start, render_end, present, expected_present, hitch, cause, refresh_interval)"
        ),
        (
            "timestamp,duration,present_ns\n1,2,3\n",
            "<dir>/t.csv:1:20: a timestamp column (a display-link log) and a present column (a frame log): one shape per file"
        ),
        ("timestamp,Duration,duration_s\n1,2,3\n", "<dir>/t.csv:1:20: column duration appears twice (fields 2 and 3)"),
        ("timestamp,,duration\n1,2,3\n", "<dir>/t.csv:1:11: an empty column name (field 2)"),
        ("timestamp (min)\n1\n", "<dir>/t.csv:1:1: unknown unit 'min' in 'timestamp (min)': s, ms, us (µs) or ns"),
        (
            "timestamp_ms,targetTimestamp_ms,duration\n1,2,3\n",
            "<dir>/t.csv:1:33: mixed units: 'targetTimestamp_ms' is in ms, 'duration' in s (a column that names no unit is in s): give every time column one unit"
        ),
        (
            "present,hitch_ms\n1,2\n",
            "<dir>/t.csv:1:9: mixed units: 'present' is in ns, 'hitch_ms' in ms (a column that names no unit is in ns): give every time column one unit"
        ),
        ("present,frame_ms\n1,2\n", "<dir>/t.csv:1:9: 'frame_ms': frame is a count and takes no unit"),
        ("present,cause (s)\n1,2\n", "<dir>/t.csv:1:9: 'cause (s)': cause is text and takes no unit"),
        // Rows of the wrong length.
        ("timestamp,duration\n1,0.1\n2\n", "<dir>/t.csv:3:2: 1 field where the header has 2"),
        ("timestamp,duration\n1,0.1\n2,0.1,7\n", "<dir>/t.csv:3:7: 3 fields where the header has 2"),
        ("timestamp,duration\r\n1,0.1\r\n2,0.1,\r\n", "<dir>/t.csv:3:7: 3 fields where the header has 2"),
        // Quotes.
        (
            "timestamp\n1\n\"2\n3\n",
            "<dir>/t.csv:3:1: a quoted field that never ends: the file ends inside it"
        ),
        (
            "timestamp\n\"1\"x\n",
            "<dir>/t.csv:2:4: 'x' after a closing quote: a quoted field ends at a comma or a line end"
        ),
        (
            "timestamp\n1\"5\"\n",
            "<dir>/t.csv:2:2: a quote inside a field that does not start with one: quote the whole field, doubling its quotes"
        ),
        // Numbers.
        ("timestamp\n1.0\nabc\n", "<dir>/t.csv:3:1: timestamp 'abc' is not a number (in s)"),
        ("timestamp\n1.0\n1.2.3\n", "<dir>/t.csv:3:1: timestamp '1.2.3' is not a number (in s)"),
        ("timestamp\nnan\n", "<dir>/t.csv:2:1: timestamp 'nan' is not a number (in s)"),
        ("timestamp,duration\n1, 0x10\n", "<dir>/t.csv:2:4: duration '0x10' is not a number (in s)"),
        (
            "timestamp\n1e30\n",
            "<dir>/t.csv:2:1: timestamp '1e30' is out of range (in s): at most 2^62 ns, about 146 years"
        ),
        (
            "timestamp\n-1\n",
            "<dir>/t.csv:2:1: timestamp '-1' is negative: times count from an origin, durations up from 0"
        ),
        ("timestamp,duration\n,0.1\n", "<dir>/t.csv:2:1: timestamp is empty"),
        (
            "timestamp,duration\n1,0\n",
            "<dir>/t.csv:2:3: duration '0' is not positive: it is the link's frame interval"
        ),
        ("present,frame\n1,1.5\n", "<dir>/t.csv:2:3: frame '1.5' is not a whole number"),
        ("present,frame\n1,one\n", "<dir>/t.csv:2:3: frame 'one' is not a number"),
        ("present,frame\n,1\n", "<dir>/t.csv:2:1: present is empty"),
        (
            "present,refresh_interval\n1,0\n",
            "<dir>/t.csv:2:3: refresh_interval '0' is not positive"
        ),
        // Times that go backwards.
        (
            "timestamp\n1.0\n1.5\n# a comment between\n1.25\n",
            "<dir>/t.csv:5:1: timestamp '1.25' is before the previous row's '1.5' (line 3): timestamps go forward"
        ),
        (
            "present\n200\n100\n",
            "<dir>/t.csv:3:1: present '100' is before the previous row's '200' (line 2): presents go forward"
        ),
        (
            "timestamp,targetTimestamp\n1.0,0.9\n",
            "<dir>/t.csv:2:5: targetTimestamp '0.9' is before timestamp '1.0'"
        ),
        (
            "present,commit_start,commit_end\n100,50,40\n",
            "<dir>/t.csv:2:8: commit_end '40' is before commit_start '50'"
        ),
        (
            "present,render_start,render_end\n100,50,40\n",
            "<dir>/t.csv:2:8: render_end '40' is before render_start '50'"
        ),
        (
            "present,hitch\n100,200\n",
            "<dir>/t.csv:2:5: hitch '200' is longer than present '100': a hitch ends at its present, after the origin"
        ),
    ]

    @Test(arguments: cases.indices)
    func aBadLogIsRefused(_ index: Int) throws {
        let scratch = try Scratch()
        let (text, expected) = Self.cases[index]
        let path = try scratch.write("t.csv", text)
        #expect(failure({ () throws(ImportError) in try readCSV(path) }, in: scratch) == expected, "\(text)")
    }

    /// Text that is not UTF-8 in a header name, and in a cause.
    @Test func notUTF8() throws {
        let scratch = try Scratch()
        let header = try scratch.write("h.csv", bytes: Array("timestamp,dur".utf8) + [0xFF] + Array("\n1,2\n".utf8))
        #expect(
            failure({ () throws(ImportError) in try readCSV(header) }, in: scratch)
                == "<dir>/h.csv:1:11: not UTF-8 text")
        let cause = try scratch.write("c.csv", bytes: Array("present,cause\n1,ren".utf8) + [0xC3, 0x28] + [0x0A])
        #expect(
            failure({ () throws(ImportError) in try readCSV(cause) }, in: scratch) == "<dir>/c.csv:2:3: not UTF-8 text")
    }

    /// A missing file, a folder, a FIFO (refused without waiting for a writer), a device.
    @Test func notARegularFile() throws {
        let scratch = try Scratch()
        #expect(
            failure({ () throws(ImportError) in try readCSV(scratch.path("missing.csv")) }, in: scratch)
                == "<dir>/missing.csv: cannot open: No such file or directory")
        #expect(
            failure({ () throws(ImportError) in try readCSV(scratch.url.path) }, in: scratch)
                == "<dir>: a directory, not a file")
        let fifo = scratch.path("pipe.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            failure({ () throws(ImportError) in try readCSV(fifo) }, in: scratch)
                == "<dir>/pipe.csv: a FIFO, not a regular file: an import reads a file whole, all or nothing; save the data to a file first"
        )
        #expect(
            failure({ () throws(ImportError) in try readCSV("/dev/zero") }, in: scratch)
                == "/dev/zero: not a regular file (a device or a socket)")
    }

    /// A row of more than a megabyte is refused as it is read, not kept.
    @Test func aRowOfAMegabyte() throws {
        let scratch = try Scratch()
        let path = try scratch.write(
            "long.csv", "timestamp\n\"" + String(repeating: "1", count: (1 << 20) + 1) + "\"\n")
        #expect(
            failure({ () throws(ImportError) in try readCSV(path) }, in: scratch)
                == "<dir>/long.csv:2:1: a row longer than 1 MiB: not a CSV log")
    }

    /// Interrupted: polled every 4096 rows; the read stops there with an error, nothing kept.
    @Test func anInterruptStopsIt() throws {
        let scratch = try Scratch()
        var text = "timestamp\n"
        for i in 0..<10_000 { text += "\(i)\n" }
        let path = try scratch.write("big.csv", text)
        var polls = 0
        let message = failure(
            { () throws(ImportError) in
                try CSVImport.read(
                    path,
                    interrupted: {
                        polls += 1
                        return polls == 2
                    })
            }, in: scratch)
        #expect(message == "<dir>/big.csv:8193: interrupted: nothing was imported")
        #expect(polls == 2)
        #expect(try readCSV(path).linkCallbacks.count == 10_000)

        // Megabytes of comments: polled every megabyte read, rows or not. Lines of 100 bytes:
        // the 1,048,576th byte is on line 10486.
        let comments = try scratch.write(
            "comments.csv", String(repeating: "#" + String(repeating: "x", count: 98) + "\n", count: 30_000))
        #expect(
            failure({ () throws(ImportError) in try CSVImport.read(comments, interrupted: { true }) }, in: scratch)
                == "<dir>/comments.csv:10486: interrupted: nothing was imported")
    }
}
