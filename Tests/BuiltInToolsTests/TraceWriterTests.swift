import DebugShellCore
import Foundation
import Testing

@testable import DebugShellTrace

/// The trace writer's parts, each against what it stands for: ``JSONBytes`` writes what
/// ``JSONValue/serialized`` and `String(_:)` write, and ``TraceRecordStore`` holds what an array
/// would.
@Suite struct TraceWriterTests {
    func written(_ write: (inout JSONBytes) -> Void) -> String {
        var out = JSONBytes(capacity: 8)
        write(&out)
        return String(decoding: out.array, as: UTF8.self)
    }

    /// Every ASCII character, DEL, and UTF-8 beyond ASCII, escaped as `JSONValue` escapes them.
    @Test func stringsAreEscapedAsJSONValueEscapesThem() {
        var texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "plain", "q\"uo\\te", "tab\there\nline\r", "ünï 日本 🎉", "\u{1F}\u{7F}\u{80}", "x\u{0}y"]
        texts.append(String(repeating: "\"\u{1}", count: 300))
        for text in texts {
            #expect(written { $0.string(text) } == JSONValue.string(text).serialized, "\(Array(text.utf8))")
        }
    }

    @Test func integersAreWrittenAsStringWritesThem() {
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 101, 16_666_666, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { values.append(Int64.random(in: .min ... .max, using: &rng) >> Int64.random(in: 0..<63)) }
        for value in values { #expect(written { $0.int(value) } == String(value)) }
        #expect(written { $0.unsigned(.max) } == String(UInt64.max))
    }

    /// Microseconds with the nanoseconds kept as three decimals; a time before 0 is 0.
    @Test func timeStampsAreMicrosecondsWithThreeDecimals() {
        #expect(written { $0.micros(16_666_666) } == "16666.666")
        #expect(written { $0.micros(0) } == "0.000")
        #expect(written { $0.micros(7) } == "0.007")
        #expect(written { $0.micros(1_000) } == "1.000")
        #expect(written { $0.micros(-5) } == "0.000")
        #expect(written { $0.micros(.max) } == "9223372036854775.807")
    }

    /// A buffer grows past its first capacity and hands its bytes on whole.
    @Test func aBufferGrowsAndFlushes() {
        var out = JSONBytes(capacity: 8)
        for k in 0..<1_000 {
            out.raw("ab")
            out.int(Int64(k))
        }
        let expected = (0..<1_000).map { "ab\($0)" }.joined()
        #expect(out.last == UInt8(ascii: "9"))
        var flushed: [UInt8] = []
        out.flush { flushed.append(contentsOf: $0) }
        #expect(String(decoding: flushed, as: UTF8.self) == expected)
        #expect(out.count == 0 && out.last == nil && !out.isFull)
    }

    @Test func piecesAreWrittenByIndex() {
        let pieces = JSONPieces(["", "a", "bc", "\"d\""])
        let quoted = JSONPieces(quoting: ["x", "", "y\"z"])
        #expect(pieces.count == 4 && quoted.count == 3)
        #expect(written { out in for k in [3, 0, 2, 1, 2] { pieces.write(k, to: &out) } } == "\"d\"bcabc")
        #expect(written { out in for k in 0..<3 { quoted.write(k, to: &out) } } == #""x""""y\"z""#)
    }

    /// What a cursor writes, through a buffer's reservation.
    func throughCursor(_ write: (inout JSONCursor) -> Void) -> String {
        var out = JSONBytes(capacity: 8)
        var cursor = out.cursor(reserving: 256)
        write(&cursor)
        out.commit(cursor)
        return String(decoding: out.array, as: UTF8.self)
    }

    /// The cursor's numbers, four digits at a time, are the buffer's and `String(_:)`'s: every
    /// number of one to twenty digits, each power of ten and its neighbours, random ones.
    @Test func aCursorWritesNumbersAsTheBufferDoes() {
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 16_666_666, .max, .max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1, power / 2, power + power / 3]
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 { values.append(UInt64.random(in: .min ... .max, using: &rng) >> UInt64.random(in: 0..<64)) }
        for value in values {
            #expect(throughCursor { $0.unsigned(value) } == String(value))
            #expect(throughCursor { $0.hex(value) } == String(value, radix: 16))
            let signed = Int64(bitPattern: value)
            #expect(throughCursor { $0.int(signed) } == String(signed))
            #expect(throughCursor { $0.micros(signed) } == written { $0.micros(signed) }, "\(signed)")
        }
        #expect(throughCursor { $0.int(.min) } == String(Int64.min))
        // Every fraction of a microsecond.
        for ns in Int64(0)..<2_000 { #expect(throughCursor { $0.micros(ns) } == written { $0.micros(ns) }) }
        #expect(throughCursor { $0.micros(16_666_666) } == "16666.666")
    }

    /// Pieces copied in blocks of 16 through a cursor are the pieces, whatever their lengths.
    @Test func aCursorWritesPiecesWhole() {
        let texts = (0..<40).map { String(repeating: "x", count: $0) + "|" }
        let pieces = JSONPieces(texts)
        #expect(pieces.longest == 40)
        let order = [39, 0, 15, 16, 17, 31, 32, 33, 3, 38]
        #expect(
            throughCursor { c in
                for k in order { pieces.write(k, to: &c) }
                c.raw("\"end\"")
            } == order.map { texts[$0] }.joined() + "\"end\"")
    }

    /// An on-time callback's or handler's scheduled time is its time stamp's digits, copied
    /// rather than formatted again: right at every size of stamp (and below a microsecond, where
    /// the stamp's digits are not the time's); a late one's is its own.
    @Test func anOnTimeCallbacksScheduledTimeIsItsStamp() throws {
        var timeline = TraceTimeline(categories: .all, limit: 1_000, keep: .first)
        timeline.beginSimulation(at: 0, mode: .default)
        let starts: [Int64] = [
            0, 7, 999, 1_000, 1_001, 16_666_666, 99_999_999_999, 100_000_000_000, 123_456_789_012_345,
        ]
        var expected: [Int64] = []
        for (k, t) in starts.enumerated() {
            for late: Int64 in [0, 1, 1_000] {
                timeline.record(
                    .timerItem, track: TraceTimeline.mainTrack, name: -1, start: t + late, end: t + late + 2_000,
                    primary: t, reference: Int32(k), code: 2 << 8)
                timeline.record(
                    .queueHandler, track: TraceTimeline.queueTrackBase, name: -1, start: t + late, end: t + late,
                    primary: t, reference: Int32(k))
                expected += [t, t]
            }
        }
        var bytes: [UInt8] = []
        _ = TraceRecorder.encode(timeline, generator: "t") { bytes.append(contentsOf: $0) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let args = events.compactMap { $0["args"] as? [String: Any] }.filter { $0["scheduled_ns"] != nil }
        #expect(args.compactMap { ($0["scheduled_ns"] as? NSNumber)?.int64Value } == expected)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.contains("\"ts\": 123456789012.345, \"dur\": 2.000")
                && text.contains("\"scheduled_ns\": 123456789012345,"))
    }

    func record(_ k: Int) -> TraceRecord {
        TraceRecord(
            start: Int64(k), end: Int64(k) + 1, primary: Int64(k) * 3, secondary: -Int64(k), name: Int32(k % 7),
            track: 1, reference: Int32(k % 11), code: Int16(k % 5), kind: .render)
    }

    /// Records across several chunks: by index, in a ring's order from any start, and a copy that
    /// changes leaves the original as it was (the snapshot a save writes).
    @Test func aRecordStoreHoldsWhatAnArrayWould() {
        let n = 2 * TraceRecordStore.chunkSize + 123
        var store = TraceRecordStore(capacity: n)
        for k in 0..<n { store.append(record(k)) }
        #expect(store.count == n)
        for k in [0, 1, TraceRecordStore.chunkSize - 1, TraceRecordStore.chunkSize, n - 1] {
            #expect(store[k].primary == Int64(k) * 3 && store[k].start == Int64(k))
        }
        for start in [0, 5, TraceRecordStore.chunkSize, n - 1] {
            var order: [Int64] = []
            var positions: [Int] = []
            store.forEach(from: start) { position, r in
                positions.append(position)
                order.append(r.start)
            }
            #expect(positions == Array(0..<n))
            #expect(order == (Array(start..<n) + Array(0..<start)).map(Int64.init), "from \(start)")
        }
        var copy = store
        copy[TraceRecordStore.chunkSize + 1].primary = -1
        copy.append(record(n))
        #expect(copy[TraceRecordStore.chunkSize + 1].primary == -1 && copy.count == n + 1)
        #expect(store[TraceRecordStore.chunkSize + 1].primary == Int64(TraceRecordStore.chunkSize + 1) * 3)
        #expect(store.count == n)
        // Both go on from the chunk they share, each with its own records.
        store.append(record(n + 7))
        copy[n - 1].primary = -2
        #expect(store[n].start == Int64(n + 7) && copy[n].start == Int64(n))
        #expect(store[n - 1].primary == Int64(n - 1) * 3 && copy[n - 1].primary == -2)
        // A small trace reserves no more than its limit.
        var small = TraceRecordStore(capacity: 3)
        for k in 0..<5 { small.append(record(k)) }
        #expect(small.count == 5 && small[4].start == 4)
    }

    /// Kinds and causes are recorded as their indexes, found without a search.
    @Test func kindsAndCausesAreTheirIndexes() {
        for (k, kind) in TraceTimeline.itemKinds.enumerated() { #expect(TraceTimeline.index(of: kind) == Int64(k)) }
        #expect(TraceTimeline.code(of: nil) == 0)
        for (k, cause) in TraceTimeline.causes.enumerated() { #expect(TraceTimeline.code(of: cause) == Int16(k + 1)) }
    }
}
