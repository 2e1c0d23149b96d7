import DebugShellImport
import Testing

/// An import error names its place as a compiler does: `file:line:column: message`, with what
/// is known of the place.
@Suite struct ImportErrorTests {
    @Test func thePlaceComesFirst() {
        #expect(ImportError("bad", file: "t.xml", line: 3, column: 7).description == "t.xml:3:7: bad")
        #expect(ImportError("bad", file: "t.xml", line: 3).description == "t.xml:3: bad")
        #expect(ImportError("bad", file: "t.xml").description == "t.xml: bad")
        #expect(ImportError("bad").description == "bad")
    }
}
