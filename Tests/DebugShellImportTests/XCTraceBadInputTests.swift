import DebugShellImport
import Foundation
import Testing

/// Every way an xctrace import refuses a file, with the exact message docs/Import.md gives and
/// the place (`file:line:column`, columns in characters from 1). An import is all or nothing:
/// each of these returns no timeline at all.
@Suite struct XCTraceBadInputTests {
    /// A document with one `display-vsyncs-interval` table and these rows (line 4 on).
    static func vsyncs(_ rows: [String], columns: [String] = ["timestamp", "display-name"]) -> String {
        exportDocument([(schema: "display-vsyncs-interval", columns: columns, rows: rows)])
    }

    static let vsyncsContext = "(table 'display-vsyncs-interval', column 'timestamp')"

    @Test func malformedXMLNamesItsPlace() throws {
        let folder = try TemporaryFolder()
        #expect(
            try folder.failure(of: "<trace-query-result><node></row></trace-query-result>")
                == "t.xml:1:27: mismatched end tag: </row> closes <node>")
    }

    @Test func aTruncatedFileSaysWhereItEnds() throws {
        let folder = try TemporaryFolder()
        let head =
            "<trace-query-result>\n<node><schema name=\"display-vsyncs-interval\"><col><mnemonic>timestamp"
            + "</mnemonic></col></schema>\n<row><start-time>5</start-time></row>\n"
        #expect(
            try folder.failure(of: head + "<row><start-time>5</start-time>")
                == "t.xml:4:32: truncated: the file ends inside <row> in <node> in <trace-query-result>")
        #expect(
            try folder.failure(of: head + "<row><start-ti")
                == "t.xml:4:15: truncated: the file ends inside the tag <start-ti>")
        #expect(
            try folder.failure(of: head + "<row><start-time>5</start-time><dur")
                == "t.xml:4:36: truncated: the file ends inside the tag <dur>")
        // The real hitches.xml cut after its third row.
        let hitches = try Fixtures.bytes("hitches.xml")
        var newlines = 0
        let cut = hitches.prefix { byte in
            if byte == 10 { newlines += 1 }
            return newlines < 5
        }
        try folder.write("cut.xml", bytes: Array(cut) + [10])
        #expect(
            folder.failure(["cut.xml"]) == "cut.xml:6:1: truncated: the file ends inside <node> in <trace-query-result>"
        )
    }

    @Test func anUnknownTableNamesTheKnownOnes() throws {
        let folder = try TemporaryFolder()
        let text = exportDocument([(schema: "time-profile", columns: ["time"], rows: [])])
        #expect(
            try folder.failure(of: text)
                == "t.xml:3:54: table 'time-profile' is not one debugsh reads (it reads core-animation-fps-estimate, "
                + "device-display-info, display-surface-swap, display-vsyncs-interval, displayed-surfaces-interval, "
                + "hitches, hitches-frame-lifetimes, hitches-renders, hitches-summary, hitches-updates)")
    }

    @Test func aMissingColumnIsNamedWithTheTable() throws {
        let folder = try TemporaryFolder()
        let text = exportDocument([(schema: "hitches", columns: ["start", "narrative-description"], rows: [])])
        #expect(
            try folder.failure(of: text)
                == "t.xml:3:54: table 'hitches' has no column 'duration' (its columns: start, narrative-description)")
    }

    @Test func aRefToAnUndefinedID() throws {
        let folder = try TemporaryFolder()
        let text = Self.vsyncs(["<start-time id=\"1\">5</start-time><sentinel/>", "<start-time ref=\"7\"/><sentinel/>"])
        #expect(
            try folder.failure(of: text)
                == "t.xml:5:6: ref=\"7\" names an id that no element before it defines (a cut or edited export?)")
    }

    @Test func timesThatGoBackwards() throws {
        let folder = try TemporaryFolder()
        let text = Self.vsyncs(["<start-time>200</start-time><sentinel/>", "<start-time>100</start-time><sentinel/>"])
        #expect(
            try folder.failure(of: text)
                == "t.xml:5:6: times go backwards: 100 comes after 200 in the row before \(Self.vsyncsContext)")
        // Equal times are not backwards.
        let equal = Self.vsyncs(["<start-time>200</start-time><sentinel/>", "<start-time>200</start-time><sentinel/>"])
        #expect(try folder.failure(of: equal, name: "e.xml") == "imported")
    }

    @Test func emptyFilesAndFilesWithNoTable() throws {
        let folder = try TemporaryFolder()
        #expect(try folder.failure(of: "") == "t.xml: empty file")
        #expect(
            try folder.failure(of: "\n", name: "n.xml")
                == "n.xml:2:1: truncated: the file ends before any element: not an XML document")
        #expect(
            try folder.failure(
                of: "<?xml version=\"1.0\"?>\n<trace-query-result>\n</trace-query-result>\n", name: "q.xml")
                == "q.xml: no table in the file: its <trace-query-result> is empty (did the export's xpath match no "
                + "table?)")
        try folder.write("toc.xml", XCTraceTableTests.toc)
        #expect(folder.failure(["toc.xml"]) == "no table: the files hold only a TOC (export tables with --xpath too)")
        #expect(
            try folder.failure(of: "<html></html>", name: "h.xml")
                == "h.xml:1:1: not an xctrace export: the root element is <html> (xctrace writes <trace-query-result> "
                + "for tables, <trace-toc> for a TOC)")
    }

    @Test func rowsAndCellsThatDoNotFitTheSchema() throws {
        let folder = try TemporaryFolder()
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time>1</start-time><sentinel/><sentinel/>"]))
                == "t.xml:4:43: a row with more cells than the 2 columns of table 'display-vsyncs-interval'")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time>1</start-time>"]), name: "u.xml")
                == "u.xml:4:32: a row with 1 cells: table 'display-vsyncs-interval' has 2 columns")
        #expect(
            try folder.failure(of: Self.vsyncs(["<sentinel/><sentinel/>"]), name: "s.xml")
                == "s.xml:4:6: an empty cell where a value is needed \(Self.vsyncsContext)")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time>abc</start-time><sentinel/>"]), name: "a.xml")
                == "a.xml:4:6: 'abc' is not a whole number \(Self.vsyncsContext)")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time>-5</start-time><sentinel/>"]), name: "m.xml")
                == "m.xml:4:6: -5 is not a time in nanoseconds from 0 to 2^62 \(Self.vsyncsContext)")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time><x/></start-time><sentinel/>"]), name: "c.xml")
                == "c.xml:4:6: an element with elements inside where a number is expected \(Self.vsyncsContext)")
        let hitch = exportDocument([
            (
                schema: "hitches", columns: ["start", "duration", "narrative-description", "is-system"],
                rows: ["<start-time>1</start-time><duration>2</duration><string>a</string><boolean>2</boolean>"]
            )
        ])
        #expect(
            try folder.failure(of: hitch, name: "b.xml")
                == "b.xml:4:72: 2 is not a boolean (0 or 1) (table 'hitches', column 'is-system')")
    }

    @Test func idsAndRefs() throws {
        let folder = try TemporaryFolder()
        let twice = Self.vsyncs([
            "<start-time id=\"1\">5</start-time><sentinel/>", "<start-time id=\"1\">6</start-time><sentinel/>",
        ])
        #expect(try folder.failure(of: twice) == "t.xml:5:6: id=\"1\" is defined twice")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time id=\"x\">5</start-time><sentinel/>"]), name: "x.xml")
                == "x.xml:4:6: id=\"x\" is not a number")
        #expect(
            try folder.failure(of: Self.vsyncs(["<start-time ref=\"-1\"/><sentinel/>"]), name: "r.xml")
                == "r.xml:4:6: ref=\"-1\" is not a number")
        #expect(
            try folder.failure(
                of: Self.vsyncs([
                    "<start-time id=\"1\">5</start-time><sentinel/>", "<start-time id=\"2\" ref=\"1\"/><sentinel/>",
                ]),
                name: "b.xml") == "b.xml:5:6: an element with both an id and a ref")
    }

    @Test func theDocumentsShape() throws {
        let folder = try TemporaryFolder()
        #expect(
            try folder.failure(of: "<trace-query-result><node><schema/></node></trace-query-result>")
                == "t.xml:1:27: a <schema> without a name")
        #expect(
            try folder.failure(of: "<trace-query-result><node><row/></node></trace-query-result>", name: "r.xml")
                == "r.xml:1:27: a <row> before the <schema> of its table")
        #expect(
            try folder.failure(of: "<trace-query-result><node xpath='x'></node></trace-query-result>", name: "n.xml")
                == "n.xml:1:21: a <node> without a <schema>: no table to read")
        let noMnemonic =
            "<trace-query-result><node><schema name=\"hitches\"><col><name>Start</name></col></schema>"
            + "</node></trace-query-result>"
        #expect(
            try folder.failure(of: noMnemonic, name: "m.xml")
                == "m.xml:1:50: column 1 of table 'hitches' has no <mnemonic>")
        let twoColumns =
            "<trace-query-result><node><schema name=\"hitches\"><col><mnemonic>start</mnemonic></col><col>"
            + "<mnemonic>start</mnemonic></col></schema></node></trace-query-result>"
        #expect(
            try folder.failure(of: twoColumns, name: "c.xml") == "c.xml:1:87: table 'hitches' has two columns 'start'")
    }

    @Test func aSchemaWithTooManyColumns() throws {
        let folder = try TemporaryFolder()
        let text = exportDocument([(schema: "hitches", columns: (0...1_000).map { "c\($0)" }, rows: [])])
        let column1001 =
            54 + "<schema name=\"hitches\">".count
            + (0..<1_000).map {
                "<col><mnemonic>c\($0)</mnemonic><name>c\($0)</name><engineering-type>t</engineering-type></col>".count
            }
            .reduce(0, +)
        #expect(try folder.failure(of: text) == "t.xml:3:\(column1001): table 'hitches' has more than 1000 columns")
    }

    @Test func aTableGivenTwiceOrTwoRuns() throws {
        let folder = try TemporaryFolder()
        let table = Self.vsyncs(["<start-time>5</start-time><sentinel/>"])
        try folder.write("a.xml", table)
        try folder.write("b.xml", table)
        #expect(
            folder.failure(["a.xml", "b.xml"])
                == "b.xml:3:54: table 'display-vsyncs-interval' is given twice (first in a.xml): give each table once")
        let run2 = exportDocument([
            (schema: "hitches", columns: ["start", "duration", "narrative-description"], rows: [])
        ])
        .replacingOccurrences(of: "run[1]", with: "run[2]")
        try folder.write("c.xml", run2)
        #expect(
            folder.failure(["a.xml", "c.xml"])
                == "c.xml:3:1: tables of two runs, 1 (a.xml) and 2: import one run at a time")
        var toc = XCTraceTableTests.toc.replacingOccurrences(of: "run number=\"1\"", with: "run number=\"2\"")
        try folder.write("toc.xml", toc)
        #expect(folder.failure(["toc.xml", "a.xml"]) == "toc.xml: the TOC has no run 1, which the tables are of")
        toc = XCTraceTableTests.toc.replacingOccurrences(of: "93.275372", with: "ninety")
        try folder.write("bad-toc.xml", toc)
        #expect(
            folder.failure(["bad-toc.xml", "a.xml"])
                == "bad-toc.xml:12:9: the TOC's duration 'ninety' is not a number of seconds")
        toc = XCTraceTableTests.toc.replacingOccurrences(of: "93.275372", with: "9999999999")
        try folder.write("long-toc.xml", toc)
        #expect(
            folder.failure(["long-toc.xml", "a.xml"])
                == "long-toc.xml:12:9: the TOC's duration '9999999999' is not a number of seconds")
        #expect(
            folder.failure(["toc.xml", "bad-toc.xml"])
                == "bad-toc.xml:2:1: a second TOC (the first is toc.xml): give one")
    }

    @Test func pathsThatAreNotFilesToRead() throws {
        let folder = try TemporaryFolder()
        #expect(folder.failure(["missing.xml"]) == "missing.xml: cannot open: No such file or directory")
        #expect(
            failure(["/dev/zero"]) == "/dev/zero: not a regular file, a folder or a FIFO: debugsh reads none of those")
        try FileManager.default.createDirectory(atPath: folder.path + "/empty", withIntermediateDirectories: false)
        #expect(folder.failure(["empty"]) == "empty: no .xml file in the folder")
        #expect(failure([]) == "no file to import")
    }

    func failure(_ paths: [String]) -> String {
        do {
            _ = try XCTraceImport.read(paths)
            return "imported"
        } catch {
            return error.description
        }
    }

    /// A 10 GB file is read a chunk at a time: this sparse one is refused at its first byte,
    /// having read one chunk.
    @Test func aTenGigabyteFileIsNotReadWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/big.xml"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()
        #expect(
            folder.failure(["big.xml"])
                == "big.xml:1:1: control character 0x00: XML allows tab, newline and carriage return only")
    }

    /// Ctrl-C: `interrupted()` is asked at every chunk; once it says yes, nothing is returned.
    @Test func anInterruptedImportReturnsNothing() throws {
        let folder = try TemporaryFolder()
        let rows = (0..<20_000).map { "<start-time>\($0 * 1000)</start-time><sentinel/>" }
        let path = try folder.write("many.xml", Self.vsyncs(rows))
        var asked = 0
        do {
            _ = try XCTraceImport.read([path]) {
                asked += 1
                return asked >= 3
            }
            Issue.record("the import went on after interrupted() said yes")
        } catch {
            #expect(error.description == "interrupted: nothing was imported")
        }
        #expect(asked == 3)
    }
}
