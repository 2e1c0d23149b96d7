import DebugShellCore
import DebugShellImport
import Foundation
import Testing

/// The XML reader under the importer: strict well-formedness with the place of each fault, the
/// subset of XML it reads (entities, character references, CDATA, comments, processing
/// instructions, a byte order mark, CR LF), and files far larger than its 256 KiB buffer, whose
/// tokens, long texts and line counts cross the chunks it reads.
@Suite struct XMLTokenizerTests {
    static let wellFormedness: [(String, String)] = [
        (
            "<trace-toc>&foo;</trace-toc>",
            "1:12: unknown entity '&foo;' (XML has &amp; &lt; &gt; &quot; &apos; and "
                + "character references)"
        ),
        ("<trace-toc>a & b</trace-toc>", "1:14: '&' that starts no entity: write '&amp;' for an '&'"),
        ("<trace-toc>&#0;</trace-toc>", "1:12: '&#0;' is not a character XML allows"),
        ("<trace-toc>&#xD800;</trace-toc>", "1:12: '&#xD800;' is not a character XML allows"),
        ("<trace-toc a=\"<\"/>", "1:15: '<' in the value of the attribute 'a'"),
        ("<trace-toc a=\"1\" a=\"2\"/>", "1:18: attribute 'a' given twice in <trace-toc>"),
        ("<trace-toc a=1/>", "1:14: expected a value in quotes for the attribute 'a'"),
        ("<trace-toc a/>", "1:13: expected '=' after the attribute name 'a'"),
        ("<trace-toc a=\"1\"b=\"2\"/>", "1:17: expected an attribute name, '>' or '/>' in <trace-toc>"),
        ("<!DOCTYPE trace-toc><trace-toc/>", "1:1: a DOCTYPE: xctrace writes none, and debugsh does not read them"),
        ("<trace-toc/>x", "1:13: text outside the root element"),
        ("x<trace-toc/>", "1:1: text outside the root element"),
        ("<trace-toc/><trace-toc/>", "1:13: a second root element <trace-toc>: a document has one"),
        (
            "<trace-toc>\u{1}</trace-toc>",
            "1:12: control character 0x01: XML allows tab, newline and carriage return only"
        ),
        ("<trace-toc>< </trace-toc>", "1:12: '<' not followed by a name: write '&lt;' for a '<' in text"),
        ("<trace-toc>a]]>b</trace-toc>", "1:13: ']]>' in text: XML allows it only to end a CDATA section"),
        ("<![CDATA[x]]><trace-toc/>", "1:1: a CDATA section outside the root element"),
        ("</trace-toc>", "1:1: end tag </trace-toc> with no element open"),
        ("<trace-toc></trace-toc >x", "1:25: text outside the root element"),
        ("<trace-toc></trace-toc x>", "1:24: expected '>' to end </trace-toc>"),
        ("<trace-toc><!-- a -- b --></trace-toc>", "1:19: '--' inside a comment: XML forbids it"),
        ("<trace-toc><!- x --></trace-toc>", "1:12: expected '<!--' to start a comment"),
        ("<trace-toc><!ENTITY x></trace-toc>", "1:12: expected '<!--' or '<![CDATA[' after '<!'"),
        ("\n<?xml version=\"1.0\"?><trace-toc/>", "2:1: an XML declaration that is not at the start of the file"),
        (
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><trace-toc/>",
            "1:1: the file says it is ISO-8859-1: debugsh reads UTF-8 XML, as xctrace writes it"
        ),
        ("<trace-toc><!-- a", "1:18: truncated: the file ends inside a comment"),
        ("<trace-toc><![CDATA[a", "1:22: truncated: the file ends inside a CDATA section"),
        ("<trace-toc>&amp", "1:16: truncated: the file ends inside an entity reference"),
        ("<trace-toc a=\"x", "1:16: truncated: the file ends inside the tag <trace-toc>"),
        ("<trace-toc><?pi x", "1:18: truncated: the file ends inside the processing instruction <?pi"),
        ("<trace-toc>\n  <run>\n    <info>", "3:11: truncated: the file ends inside <info> in <run> in <trace-toc>"),
        ("<trace-toc>" + String(repeating: "<a>", count: 64), "1:201: elements nested deeper than 64"),
        // Limits that keep a hostile file from growing the buffer or taking quadratic time.
        ("<trace-toc" + String(repeating: " ", count: 1 << 20) + "/>", "1:1: a tag longer than 1 MiB"),
        ("<trace-toc a=\"" + String(repeating: "x", count: 1 << 20) + "\"/>", "1:1: a tag longer than 1 MiB"),
        ("<" + String(repeating: "x", count: 1 << 20) + "/>", "1:1: a tag longer than 1 MiB"),
        (
            "<trace-toc" + (0...256).map { " a\($0)=''" }.joined() + "/>",
            "1:\(11 + (0..<256).map { " a\($0)=''".count }.reduce(0, +) + 1): more than 256 attributes in <trace-toc>"
        ),
    ]

    @Test func malformedXMLIsRefusedWithItsPlace() throws {
        let folder = try TemporaryFolder()
        for (k, (text, message)) in Self.wellFormedness.enumerated() {
            let said = try folder.failure(of: text, name: "\(k).xml")
            #expect(said == "\(k).xml:" + message, "\(text)")
        }
    }

    @Test func encodingsOtherThanUTF8AreRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("16.xml", bytes: [0xFF, 0xFE, 0x3C, 0x00])
        #expect(folder.failure(["16.xml"]) == "16.xml:1:1: UTF-16: debugsh reads UTF-8 XML, as xctrace writes it")
        try folder.write("ff.xml", bytes: Array("<trace-toc>".utf8) + [0xFF] + Array("</trace-toc>".utf8))
        #expect(folder.failure(["ff.xml"]) == "ff.xml:1:12: not UTF-8: byte 0xFF")
        try folder.write("cut.xml", bytes: Array("<trace-toc>".utf8) + [0xC3, 0x3C])
        #expect(folder.failure(["cut.xml"]) == "cut.xml:1:13: not UTF-8: byte 0x3C")
        try folder.write("over.xml", bytes: Array("<trace-toc a=\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"/>".utf8))
        #expect(folder.failure(["over.xml"]) == "over.xml:1:16: not UTF-8: byte 0xA0")
        // Columns count characters: é is one.
        try folder.write("col.xml", "<trace-toc>é&x;</trace-toc>")
        #expect(
            folder.failure(["col.xml"])
                == "col.xml:1:13: unknown entity '&x;' (XML has &amp; &lt; &gt; &quot; &apos; and character references)"
        )
    }

    /// What the reader accepts: references in text and attributes, CDATA, comments and
    /// processing instructions between anything, a UTF-8 byte order mark, single quotes, CR LF
    /// line ends (normalized to LF in text, to a space in attributes), spaces in tags.
    @Test func theSubsetOfXMLItReads() throws {
        let bom = "\u{FEFF}"
        let text =
            bom + """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- exported by hand -->
                <?xctrace ignored?>
                <trace-query-result >
                <node xpath='//trace-toc[1]/run[1]/data[1]/table[8]'><schema name='hitch&#x65;s'><col><mnemonic>start</mnemonic></col><col><mnemonic >duration</mnemonic></col><col><!-- c --><mnemonic>narrative-description</mnemonic></col></schema>
                <row><start-time fmt="a &lt; b">1<!-- x -->2</start-time><duration id = "1" >3</duration><string>a&lt;b&amp;c&quot;d&apos;e&gt;&#233;&#x1F600;</string></row>
                <row><start-time>20</start-time><duration ref="1"/><string><![CDATA[x < y & ]] z]]></string></row>
                <row><start-time>30</start-time><duration ref="1" /><string>line\r\nnext\rlast</string></row>
                </node></trace-query-result>
                <!-- after -->

                """
        let folder = try TemporaryFolder()
        let timeline = try XCTraceImport.read([try folder.write("subset.xml", text)])
        #expect(timeline.hitches.map(\.start.nanoseconds) == [12, 20, 30])
        #expect(timeline.hitches.map(\.duration.nanoseconds) == [3, 3, 3])
        #expect(timeline.hitches.map(\.description) == ["a<b&c\"d'e>é😀", "x < y & ]] z", "line\nnext\nlast"])
    }

    /// Instruments-style rows (id/ref compression) far past the buffer: every token boundary
    /// falls somewhere inside a chunk, and each value is still exact.
    static func vsyncRows(_ count: Int) -> [String] {
        var rows: [String] = []
        var id = 8
        for k in 0..<count {
            let t = 481_099_833 + k * 16_666_667
            if k == 0 {
                rows.append(
                    "<start-time id=\"1\" fmt=\"00:00.481.099\">\(t)</start-time><duration id=\"2\" fmt=\"1 ns\">1"
                        + "</duration><display-name id=\"3\" fmt=\"Display 1\">Display 1</display-name>"
                        + "<render-buffer-depth id=\"4\" fmt=\"2\">2</render-buffer-depth><narrative id=\"5\" fmt=\"VSync "
                        + "Request\"><narrative-text id=\"6\" fmt=\"VSync Request \">VSync Request </narrative-text>"
                        + "<start-time ref=\"1\"/></narrative><vsync-event id=\"7\" fmt=\"VSYNC\">VSYNC</vsync-event>")
            } else {
                rows.append(
                    "<start-time id=\"\(id)\" fmt=\"x\">\(t)</start-time><duration ref=\"2\"/><display-name ref=\"3\"/>"
                        + "<render-buffer-depth ref=\"4\"/><narrative id=\"\(id + 1)\" fmt=\"VSync Request\">"
                        + "<narrative-text ref=\"6\"/><start-time ref=\"\(id)\"/></narrative><vsync-event ref=\"7\"/>")
                id += 2
            }
        }
        return rows
    }

    static let vsyncColumns = ["timestamp", "duration", "display-name", "color", "event-label", "event"]

    @Test func filesLargerThanTheBufferAreReadExactly() throws {
        let count = 30_000
        let text = exportDocument([
            (schema: "display-vsyncs-interval", columns: Self.vsyncColumns, rows: Self.vsyncRows(count))
        ])
        #expect(text.utf8.count > 8 << 20 / 2)
        let folder = try TemporaryFolder()
        let timeline = try XCTraceImport.read([try folder.write("big.xml", text)])
        #expect(timeline.vsyncs.count == count)
        #expect(
            timeline.vsyncs.enumerated().allSatisfy { $0.element.nanoseconds == 481_099_833 + $0.offset * 16_666_667 })
        #expect(timeline.refreshInterval == SimDuration(nanoseconds: 16_666_667))
        // Lines are counted across every chunk: a fault after the last row is on line 4 + count.
        let broken = text.replacingOccurrences(of: "</node>", with: "&oops;</node>")
        #expect(
            try folder.failure(of: broken, name: "broken.xml")
                == "broken.xml:\(4 + count):1: unknown entity '&oops;' (XML has &amp; &lt; &gt; &quot; &apos; and "
                + "character references)")
    }

    /// Text, comments and CDATA longer than a chunk pass through in pieces.
    @Test func longTextCommentsAndCDATA() throws {
        let long = String(repeating: "0123456789abcdef", count: 20_000)  // 320,000 characters
        let rows = [
            "<start-time>1</start-time><duration>2</duration><string>\(long)&amp;\(long)</string>",
            "<start-time>3</start-time><duration>2</duration><string><!--\(long)--><![CDATA[\(long)]]></string>",
        ]
        let text = exportDocument([
            (schema: "hitches", columns: ["start", "duration", "narrative-description"], rows: rows)
        ])
        let folder = try TemporaryFolder()
        let timeline = try XCTraceImport.read([try folder.write("long.xml", text)])
        #expect(timeline.hitches.map(\.description) == [long + "&" + long, long])
    }

    /// A FIFO is read like a file, however its writer paces itself.
    @Test func aFIFOIsReadAsItIsWritten() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/pipe.xml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try Fixtures.bytes("hitches.xml")
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            var offset = 0
            while offset < bytes.count {
                let piece = min(777, bytes.count - offset)
                handle.write(Data(bytes[offset..<offset + piece]))
                offset += piece
            }
            try? handle.close()
        }
        writer.start()
        var viaFIFO = try XCTraceImport.read([fifo])
        let viaFile = try XCTraceImport.read([Fixtures.path("hitches.xml")])
        viaFIFO.sources = viaFile.sources
        #expect(viaFIFO == viaFile)
    }

    /// A FIFO no one writes to: waiting for it stops when `interrupted()` says so.
    @Test func waitingForAWriterStopsWhenInterrupted() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/silent.xml"
        #expect(mkfifo(fifo, 0o600) == 0)
        var asked = 0
        do {
            _ = try XCTraceImport.read([fifo]) {
                asked += 1
                return asked > 3
            }
            Issue.record("a FIFO with no writer was imported")
        } catch {
            #expect(error.description == "interrupted: nothing was imported")
        }
        #expect(asked == 4)
    }
}
