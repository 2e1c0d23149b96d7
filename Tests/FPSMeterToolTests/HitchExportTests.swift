import DebugShell
import DebugShellCore
import Foundation
import Testing

@testable import FPSMeterTool

/// `fps hitches --xctrace FILE.xml`: the XML Instruments' `xctrace export` writes, byte for byte
/// for two hand-made hitches; and what the command refuses — a name that is not `.xml`, the
/// table's filters, a path it cannot write — with the meter's hitches still there afterwards.
/// The round trips through `import xctrace` are in DebugShellImportTests/XCTraceExportTests.
@Suite struct HitchExportTests {
    static let stall = "fps start\nanimate 1s\nrun 300ms\nstall 50ms\nrun 700ms"

    // MARK: The XML

    /// Two rows as `xctrace export` writes them: each value's first appearance defines an id (the
    /// ids numbered in document order), a repeat is a ref — across columns too: the second row's
    /// swap id 1 (frame 2^32 + 1 wraps as Instruments' 32-bit swap ids do) is the first row's
    /// hitch id 1, its hitch id 2 the first row's buffer count, as in vybava's iOS 18 export.
    @Test func twoRowsAsInstrumentsWritesThem() {
        let rows = [
            HitchRecord(
                frame: 19, present: SimTime(nanoseconds: 383_333_333), expected: SimTime(nanoseconds: 333_333_333),
                earliest: SimTime(nanoseconds: 300_000_000), hitch: 50 * ms,
                refresh: SimDuration(nanoseconds: 16_666_667),
                buffers: 2, type: .preCommitLatency, cause: .commit, phases: .zero, delay: nil),
            HitchRecord(
                frame: 4_294_967_297, present: SimTime(nanoseconds: 416_666_666),
                expected: SimTime(nanoseconds: 400_000_000), earliest: SimTime(nanoseconds: 366_666_667),
                hitch: 16_666_666, refresh: SimDuration(nanoseconds: 16_666_667), buffers: 2,
                type: .expensiveRender(offscreenPasses: 3), cause: .render, phases: .zero, delay: nil),
        ]
        let columns = FPSMeter.hitchesSummaryColumns.map {
            "<col><mnemonic>\($0.mnemonic)</mnemonic><name>\($0.name)</name><engineering-type>\($0.type)</engineering-type></col>"
        }.joined()
        let expected =
            "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath='//trace-toc[1]/run[1]/data[1]/table[1]'>"
            + "<schema name=\"hitches-summary\">\(columns)</schema>"
            + "<row><start-time id=\"1\" fmt=\"00:00.333.333\">333333333</start-time>"
            + "<duration id=\"2\" fmt=\"50.00 ms\">50000000</duration><uint32 id=\"3\" fmt=\"19\">19</uint32>"
            + "<event-time id=\"4\" fmt=\"00:00.300.000\">300000000</event-time>"
            + "<event-time id=\"5\" fmt=\"00:00.383.333\">383333333</event-time>"
            + "<duration id=\"6\" fmt=\"33.33 ms\">33333333</duration>"
            + "<formatted-label id=\"7\" fmt=\"1 : Hitch Duration\"><uint64 id=\"8\" fmt=\"1\">1</uint64>"
            + "<narrative-text id=\"9\" fmt=\": Hitch Duration\">: Hitch Duration</narrative-text></formatted-label>"
            + "<event-concept id=\"10\" fmt=\"High\">High</event-concept><sentinel/><sentinel/>"
            + "<uint32 id=\"11\" fmt=\"1\">1</uint32><sentinel/><uint32 id=\"12\" fmt=\"2\">2</uint32>"
            + "<uint32 id=\"13\" fmt=\"16666667\">16666667</uint32>"
            + "<string id=\"14\" fmt=\"Pre-Commit(s) latency\">Pre-Commit(s) latency</string></row>\n"
            + "<row><start-time id=\"15\" fmt=\"00:00.400.000\">400000000</start-time>"
            + "<duration id=\"16\" fmt=\"16.67 ms\">16666666</duration><uint32 ref=\"11\"/>"
            + "<event-time id=\"17\" fmt=\"00:00.366.666\">366666667</event-time>"
            + "<event-time id=\"18\" fmt=\"00:00.416.666\">416666666</event-time><duration ref=\"6\"/>"
            + "<formatted-label id=\"19\" fmt=\"2 : Hitch Duration\"><uint64 id=\"20\" fmt=\"2\">2</uint64>"
            + "<narrative-text ref=\"9\"/></formatted-label><event-concept id=\"21\" fmt=\"Low\">Low</event-concept>"
            + "<sentinel/><sentinel/><uint32 ref=\"12\"/><sentinel/><uint32 ref=\"12\"/><uint32 ref=\"13\"/>"
            + "<string id=\"22\" fmt=\"Potentially expensive render, 3 offscreen passes\">Potentially expensive "
            + "render, 3 offscreen passes</string></row>\n"
            + "</node></trace-query-result>\n"
        #expect(FPSMeter.hitchesSummaryXML(rows) == expected)
        // The hitch ids count from the first hitch kept.
        #expect(
            FPSMeter.hitchesSummaryXML(Array(rows.prefix(1)), firstNumber: 80).contains("fmt=\"80 : Hitch Duration\""))
        // No hitch: the schema and no row.
        #expect(FPSMeter.hitchesSummaryXML([]).hasSuffix("</schema></node></trace-query-result>\n"))
    }

    /// `fmt` in Instruments' style (the values of the recorded iOS 18 rows), and text escaped.
    @Test func displayTextAndEscapes() {
        #expect(InstrumentsXML.timeText(1_382_537_707) == "00:01.382.537")
        #expect(InstrumentsXML.timeText(60_161_077_541) == "01:00.161.077")
        #expect(InstrumentsXML.timeText(3_723_004_005_006) == "01:02:03.004.005")
        #expect(InstrumentsXML.durationText(16_669_668) == "16.67 ms")
        #expect(InstrumentsXML.durationText(16_676_167) == "16.68 ms")
        #expect(InstrumentsXML.durationText(33_332_791) == "33.33 ms")
        #expect(InstrumentsXML.durationText(216_666_666) == "216.67 ms")
        #expect(InstrumentsXML.durationText(1_200_000_000) == "1.20 s")
        #expect(InstrumentsXML.durationText(500_000) == "500.00 µs")
        #expect(InstrumentsXML.durationText(12) == "12 ns")
        var xml = InstrumentsXML()
        xml.leaf("string", "a < b & \"c\" > d")
        #expect(
            xml.text
                == "<string id=\"1\" fmt=\"a &lt; b &amp; &quot;c&quot; &gt; d\">a &lt; b &amp; &quot;c&quot; &gt; d</string>"
        )
    }

    // MARK: What the command refuses

    @Test func theNameAndTheFiltersAreChecked() throws {
        let run = try meterSession(Self.stall)
        #expect(
            run.output("fps hitches --xctrace hitches.csv")
                == "error: the hitches are written as an xctrace export (XML): name the file <name>.xml (got 'hitches.csv')\n"
        )
        #expect(
            run.output("fps hitches --xctrace .xml")
                == "error: the hitches are written as an xctrace export (XML): name the file <name>.xml (got '.xml')\n")
        for filter in ["--type gpu", "--severity high", "--last 3", "--worst 1"] {
            #expect(
                run.output("fps hitches --xctrace h.xml \(filter)")
                    == "error: --xctrace writes every kept hitch: --type, --severity, --last and --worst choose the "
                    + "table's rows\n", "\(filter)")
        }
        let fresh = try meterSession("")
        #expect(
            fresh.output("fps hitches --xctrace h.xml")
                == "error: the meter has not been started; start it with 'fps start'\n")
    }

    /// Paths that cannot be written are an error with the system's reason; nothing is written, an
    /// existing file stays as it was, and the hitches can then be written elsewhere.
    @Test func anUnwritablePathIsAClearErrorAndNothingIsLost() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try meterSession(Self.stall)
        let missing = dir.appendingPathComponent("no/such/folder/h.xml").path
        #expect(
            run.output("fps hitches --xctrace \(missing)")
                == "error: cannot write '\(missing)': No such file or directory\n")
        let regular = dir.appendingPathComponent("file")
        try "keep".write(to: regular, atomically: true, encoding: .utf8)
        let under = regular.path + "/h.xml"
        #expect(run.output("fps hitches --xctrace \(under)") == "error: cannot write '\(under)': Not a directory\n")
        let folder = dir.appendingPathComponent("folder.xml")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(
            run.output("fps hitches --xctrace \(folder.path)")
                == "error: cannot write '\(folder.path)': not a regular file\n")
        // A file nobody may write is refused, root included, and kept.
        let readOnly = dir.appendingPathComponent("old.xml")
        try "old".write(to: readOnly, atomically: true, encoding: .utf8)
        #expect(chmod(readOnly.path, 0o444) == 0)
        #expect(
            run.output("fps hitches --xctrace \(readOnly.path)").hasPrefix("error: cannot write '\(readOnly.path)': "))
        #expect(try String(contentsOf: readOnly, encoding: .utf8) == "old")
        // A folder that may not be written: a mode-0555 folder for a user, /sys for root (whom no
        // mode stops).
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        #expect(chmod(locked.path, 0o555) == 0)
        defer { _ = chmod(locked.path, 0o755) }
        let denied = geteuid() == 0 ? "/sys/debugsh-hitches-\(UUID().uuidString).xml" : locked.path + "/h.xml"
        #expect(run.output("fps hitches --xctrace \(denied)").hasPrefix("error: cannot write '\(denied)': "))
        #expect(!FileManager.default.fileExists(atPath: denied))
        // The hitches are untouched: written now to a good path.
        let good = dir.appendingPathComponent("h.xml").path
        #expect(
            run.output("fps hitches --xctrace \(good)")
                .hasPrefix("wrote \(good) (") && run.output("fps hitches").contains("Pre-Commit(s) latency"))
        let written = try String(contentsOfFile: good, encoding: .utf8)
        #expect(written.contains("<string id=\"14\" fmt=\"Pre-Commit(s) latency\">Pre-Commit(s) latency</string>"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "file", "folder.xml", "h.xml", "locked", "old.xml",
            ])
    }

    /// What the command says, in text and JSON: the hitches written, and those dropped.
    @Test func itSaysWhatItWrote() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.xml").path
        let one = try meterSession(Self.stall)
        let text = one.output("fps hitches --xctrace \(path)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(text == "wrote \(path) (\(bytes) bytes): 1 hitch as Instruments' hitches-summary table\n")
        let none = try meterSession("fps start\nanimate 1s\nrun 1s")
        #expect(
            none.output("fps hitches --xctrace \(path)").hasSuffix(
                " bytes): no hitch since the start: a hitches-summary table with no rows\n"))
        // R-A keeps 10 of its 89 hitches: the file has those 10, numbered 80 to 89.
        let json = try meterSession(
            "set fps.frames-kept 10\nfps start\nanimate 10s\nload gpu 20ms\nrun 3s", json: true)
        json.sink.clear()
        json.type("fps hitches --xctrace \(path)")
        let result = try #require(try jsonResults(json.sink).last?.result)
        #expect(result["file"] as? String == path)
        #expect(result["hitches"] as? Int == 10 && result["total"] as? Int == 89)
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result["bytes"] as? Int == file.utf8.count)
        #expect(file.components(separatedBy: "<row>").count - 1 == 10)
        #expect(file.contains("fmt=\"80 : Hitch Duration\"") && file.contains("fmt=\"89 : Hitch Duration\""))
        #expect(!file.contains("fmt=\"79 : Hitch Duration\""))
        let dropped = try meterSession("set fps.frames-kept 10\nfps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        #expect(
            dropped.output("fps hitches --xctrace \(path)").hasSuffix(
                " bytes): the last 10 of 89 hitches as Instruments' hitches-summary table (79 older were dropped; "
                    + "set fps.frames-kept to keep more)\n"))
    }
}
