import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Testing

/// Random mutations of valid files never trap a reader: each read either gives a timeline or
/// throws an ``ImportError`` (typed throws: nothing else can come out). Seeded
/// (`DEBUGSH_TEST_SEED`); a trap would end the test process, naming no seed, so the seed is
/// written to the file's name.
@Suite struct ImportFuzzTests {
    static let linkLog = """
        # FPS label log
        timestamp,targetTimestamp,duration
        5012.345678901,5012.354012234,0.008333333
        5012.354012234,5012.362345567,0.008333333
        "5012.362345567","5012.370678901",0.008333334
        5012.379012234,5012.387345567,0.008333333

        """

    static let frameLog = """
        frame,vsync,commit_start,commit_end,render_start,render_end,present,expected_present,hitch,cause,refresh_interval
        1,0,0,2000000,16666666,36666666,50000000,33333333,16666667,render,16666667
        3,33333333,33333333,35333333,50000000,70000000,83333333,66666666,16666667,"render",16666667
        4,,66666666,68666666,83333333,103333333,116666666,100000000,,,16666667

        """

    /// Bytes that matter to the readers, inserted or swapped in.
    static let special: [UInt8] = Array("\",\r\n#{}[]:-+.eE0123456789 \\u\t".utf8) + [0, 0xFF, 0xC3, 0xEF, 0xBB, 0xBF]

    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...6, using: &rng) {
            let i = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &rng)
            let byte = special.randomElement(using: &rng) ?? 0
            switch Int.random(in: 0...6, using: &rng) {
            case 0 where !out.isEmpty: out[i] = byte
            case 1: out.insert(byte, at: i)
            case 2 where !out.isEmpty: out.remove(at: i)
            case 3: out = Array(out.prefix(i))
            case 4 where !out.isEmpty:
                // A stretch repeated: rows, keys or digits twice.
                let end = min(out.count, i + Int.random(in: 1...40, using: &rng))
                out.insert(contentsOf: out[i..<end], at: end)
            case 5 where !out.isEmpty: out[i] = UInt8.random(in: 0...255, using: &rng)
            default:
                // A long run of one byte: deep nesting, long numbers, long fields.
                out.insert(contentsOf: repeatElement(byte, count: Int.random(in: 1...300, using: &rng)), at: i)
            }
        }
        return out
    }

    @Test func mutatedFilesNeverTrap() throws {
        let (generator, seed) = SplitMix.seeded()
        var rng = generator
        let scratch = try Scratch()
        let trace = Array(ChromeTraceTests.trace.utf8)
        var read = 0
        var refused = 0
        for round in 0..<400 {
            for (name, source, isCSV) in [
                ("link", Array(Self.linkLog.utf8), true), ("frames", Array(Self.frameLog.utf8), true),
                ("trace", trace, false),
            ] {
                let path = try scratch.write("seed-\(seed)-\(round)-\(name)", bytes: Self.mutate(source, &rng))
                do {
                    let t = try isCSV ? readCSV(path) : readChrome(path)
                    read += 1
                    // What was read holds together.
                    #expect(t.linkCallbacks.map(\.timestamp) == t.linkCallbacks.map(\.timestamp).sorted())
                    #expect(t.frames.map(\.present) == t.frames.map(\.present).sorted())
                    #expect(t.refreshInterval.map { $0 > .zero } == true)
                } catch {
                    refused += 1
                    #expect(error.file == path, "seed \(seed): \(error)")
                    #expect(!error.message.isEmpty)
                }
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(read > 0 && refused > 0, "seed \(seed): \(read) read, \(refused) refused")
    }
}
