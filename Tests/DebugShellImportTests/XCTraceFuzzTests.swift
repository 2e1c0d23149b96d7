import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Testing

/// Any bytes give a timeline or an ImportError, never a trap: the real fixtures, mutated at
/// random (bytes flipped, cut, repeated, and markup spliced in where it hurts), are imported
/// one by one. A failure prints its seed (`DEBUGSH_TEST_SEED=<seed> swift test` repeats it).
@Suite struct XCTraceFuzzTests {
    /// Bits of markup that break a document in the ways a parser must survive.
    static let splices: [[UInt8]] =
        [
            "<", ">", "&", "&#", "&#x110000;", "&#0;", "&amp", "\"", "'", "/>", "</row>", "</node>", "<row>",
            "<sentinel/>",
            "<![CDATA[", "]]>", "<!--", "-->", "<?", "?>", "<!DOCTYPE x>", " id=\"1\"", " ref=\"1\"", " ref=\"999999\"",
            " id=\"99999999999\"", "-1", "99999999999999999999", "\u{0}", "\r\n", "<schema name=\"hitches\">",
            "<col><mnemonic>start</mnemonic></col>", "<trace-toc>", "é",
        ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xFE, 0xFF]]

    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !out.isEmpty else { break }
            let at = Int.random(in: 0..<out.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: out[at] = UInt8.random(in: 0...255, using: &random)
            case 1: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...40, using: &random)))
            case 2: out.insert(contentsOf: splices.randomElement(using: &random) ?? [], at: at)
            case 3:
                let end = min(out.count, at + Int.random(in: 1...200, using: &random))
                out.insert(contentsOf: out[at..<end], at: Int.random(in: 0...out.count, using: &random))
            case 4: out.removeSubrange(at...)
            default:
                // A digit changed: times go backwards, ids point elsewhere.
                if let digit = out[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    out[digit] = UInt8.random(in: 0x30...0x39, using: &random)
                }
            }
        }
        return out
    }

    @Test func mutatedFixturesNeverTrap() throws {
        var (random, seed) = SplitMix.seeded()
        let folder = try TemporaryFolder()
        var imported = 0
        var refused = 0
        for name in Fixtures.names {
            let bytes = try Fixtures.bytes(name)
            for _ in 0..<150 {
                let path = try folder.write("fuzz.xml", bytes: Self.mutate(bytes, &random))
                do {
                    let timeline = try XCTraceImport.read([path])
                    imported += 1
                    // What an import returns holds what it promises.
                    #expect(zip(timeline.vsyncs, timeline.vsyncs.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed)")
                    #expect(
                        zip(timeline.hitches, timeline.hitches.dropFirst()).allSatisfy { $0.start <= $1.start },
                        "seed \(seed)")
                    #expect(timeline.hitches.allSatisfy { $0.duration >= .zero }, "seed \(seed)")
                    #expect(timeline.refreshInterval.map { $0 > .zero } == true, "seed \(seed)")
                } catch {
                    refused += 1
                    #expect(!error.message.isEmpty, "seed \(seed)")
                }
            }
        }
        // A document larger than the reader's buffer, so that faults fall across its chunks.
        let big = Array(
            exportDocument([
                (
                    schema: "display-vsyncs-interval", columns: XMLTokenizerTests.vsyncColumns,
                    rows: XMLTokenizerTests.vsyncRows(3_000)
                )
            ]).utf8)
        for _ in 0..<30 {
            let path = try folder.write("fuzz.xml", bytes: Self.mutate(big, &random))
            do {
                let timeline = try XCTraceImport.read([path])
                imported += 1
                #expect(zip(timeline.vsyncs, timeline.vsyncs.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed)")
            } catch {
                refused += 1
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(imported > 0 && refused > 0, "seed \(seed): \(imported) imported, \(refused) refused")
    }
}
