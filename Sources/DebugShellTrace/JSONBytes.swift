/// Pieces of JSON made once per save and written for many events, one after another in one
/// block of bytes — piece `k` runs from `offsets[k]` to `offsets[k + 1]` — so that writing one
/// costs its bytes: no array of its own to retain and release, no bounds check but the piece's.
struct JSONPieces {
    /// The bytes and the offsets, allocated once and freed with the pieces.
    private final class Storage {
        let bytes: UnsafeMutablePointer<UInt8>
        let offsets: UnsafeMutablePointer<Int>

        init(_ bytes: [UInt8], _ ends: [Int]) {
            // Room to read a whole block of 16 past the last piece (``write(_:to:)-cursor``).
            self.bytes = .allocate(capacity: bytes.count + JSONCursor.block)
            self.bytes.initialize(from: bytes, count: bytes.count)
            (self.bytes + bytes.count).initialize(repeating: 0, count: JSONCursor.block)
            offsets = .allocate(capacity: ends.count + 1)
            offsets[0] = 0
            for (k, end) in ends.enumerated() { offsets[k + 1] = end }
        }

        deinit {
            bytes.deallocate()
            offsets.deallocate()
        }
    }

    private let storage: Storage
    let count: Int
    /// The longest piece's length.
    let longest: Int

    private init(bytes: [UInt8], ends: [Int]) {
        storage = Storage(bytes, ends)
        count = ends.count
        var longest = 0
        var from = 0
        for end in ends {
            longest = max(longest, end - from)
            from = end
        }
        self.longest = longest
    }

    /// Pieces as they are.
    init(_ pieces: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for piece in pieces {
            bytes.append(contentsOf: piece.utf8)
            ends.append(bytes.count)
        }
        self.init(bytes: bytes, ends: ends)
    }

    /// Strings quoted and escaped (``JSONBytes/string(_:)``).
    init(quoting strings: [String]) {
        var out = JSONBytes(capacity: strings.reduce(0) { $0 + $1.utf8.count + 2 })
        var ends: [Int] = []
        ends.reserveCapacity(strings.count)
        for string in strings {
            out.string(string)
            ends.append(out.count)
        }
        self.init(bytes: out.array, ends: ends)
    }

    @inline(__always)
    func write(_ k: Int, to out: inout JSONBytes) {
        precondition(k >= 0 && k < count, "no piece \(k)")
        let from = storage.offsets[k]
        out.bytes(storage.bytes + from, count: storage.offsets[k + 1] &- from)
    }

    /// Piece `k` at a cursor: copied in whole blocks of 16, the last one's bytes past the piece
    /// landing in the room the cursor's owner keeps beyond what it reserved (``JSONCursor``).
    @inline(__always)
    func write(_ k: Int, to out: inout JSONCursor) {
        precondition(k >= 0 && k < count, "no piece \(k)")
        let from = storage.offsets[k]
        out.blocks(storage.bytes + from, count: storage.offsets[k + 1] &- from)
    }
}

/// A buffer of JSON bytes with fast writers of text, integers and time stamps, written in place;
/// a writer that streams hands it on a megabyte at a time (``flush(_:)``), and starts again at the
/// front of the same block: a save allocates it once. Each write costs its bytes and a bounds
/// check: text is copied a word (8 bytes) at a time, numbers are written two digits at a time
/// from a table, with no division but by constants and no Foundation — an event of a
/// million-event trace is some thirty writes.
struct JSONBytes: ~Copyable {
    /// What a streaming writer hands on at a time.
    static let chunk = 1 << 20

    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last flush.
    private(set) var count = 0

    init(capacity: Int = JSONBytes.chunk + 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity + JSONCursor.slack)
    }

    deinit { base.deallocate() }

    /// Whether a streaming writer should hand the bytes on.
    var isFull: Bool { count >= JSONBytes.chunk }

    /// Hands the bytes written so far to `body`, then starts again empty.
    mutating func flush<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        defer { count = 0 }
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes written so far, as an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes: where they go.
    @inline(__always)
    private mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count &+ n > capacity) { grow(count + n) }
        return base + count
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let grown = max(capacity * 2, needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown + JSONCursor.slack)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    /// A cursor at the end of what is written, with room for `n` bytes (and the slack beyond them
    /// that a cursor may write over): an event's bytes are written through it, its place in a
    /// register, then ``commit(_:)`` takes them.
    @inline(__always)
    mutating func cursor(reserving n: Int) -> JSONCursor {
        JSONCursor(room(n))
    }

    /// Takes what `cursor` (from ``cursor(reserving:)``, with no other write since) wrote.
    @inline(__always)
    mutating func commit(_ cursor: JSONCursor) {
        count = cursor.p - base
        precondition(count <= capacity, "a cursor wrote past the room it reserved")
    }

    /// Copies `n` bytes: a run of up to 64 a word at a time (the last word overlapping the one
    /// before it rather than a byte at a time), a longer one with `memcpy`. Most of what a trace
    /// writes is runs of 2–40 bytes, for which a call of `memcpy` costs more than the copy.
    @inline(__always)
    static func copy(_ from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count n: Int) {
        let s = UnsafeRawPointer(from)
        let d = UnsafeMutableRawPointer(to)
        if n >= 8 {
            if _slowPath(n > 64) {
                d.copyMemory(from: s, byteCount: n)
                return
            }
            var i = 0
            while i &+ 8 < n {
                d.storeBytes(of: s.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            d.storeBytes(
                of: s.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let head = s.loadUnaligned(as: UInt32.self)
            let tail = s.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            d.storeBytes(of: head, as: UInt32.self)
            d.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n > 0 {
            to[0] = from[0]
            to[n &- 1] = from[n &- 1]
            if n == 3 { to[1] = from[1] }
        }
    }

    /// `n` bytes from `from`, as they are.
    @inline(__always)
    mutating func bytes(_ from: UnsafePointer<UInt8>, count n: Int) {
        JSONBytes.copy(from, to: room(n), count: n)
        count &+= n
    }

    /// Bytes as they are.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        self.bytes(from, count: bytes.count)
    }

    @inline(__always)
    mutating func bytes(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { bytes($0) }
    }

    /// The last byte written since the last flush.
    var last: UInt8? { count > 0 ? base[count - 1] : nil }

    /// Text known when compiled.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        bytes(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Text made at run time, as it is.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    /// Whether a byte of a string needs escaping in JSON: `"`, `\`, a control character, DEL.
    @inline(__always)
    private static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == 0x7F
    }

    /// A string, quoted and escaped byte for byte as ``JSONValue/serialized`` writes it: `"` and
    /// `\` escaped, `\n`, `\r`, `\t`, other control characters and DEL as `\u00xx`, the rest
    /// (UTF-8 beyond ASCII too) as it is. A string with nothing to escape — nearly all — is
    /// copied whole.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            if !utf8.contains(where: JSONBytes.needsEscape) {
                let p = room(utf8.count + 2)
                p[0] = UInt8(ascii: "\"")
                if let from = utf8.baseAddress { JSONBytes.copy(from, to: p + 1, count: utf8.count) }
                p[utf8.count + 1] = UInt8(ascii: "\"")
                count &+= utf8.count + 2
                return
            }
            // At most six bytes for each (`\u001f`), and the quotes.
            let p = room(utf8.count * 6 + 2)
            let hex: StaticString = "0123456789abcdef"
            var n = 0
            p[n] = UInt8(ascii: "\"")
            n += 1
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    p[n] = UInt8(ascii: "\\")
                    p[n + 1] = b
                    n += 2
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    p[n] = UInt8(ascii: "\\")
                    switch b {
                    case UInt8(ascii: "\n"): p[n + 1] = UInt8(ascii: "n")
                    case UInt8(ascii: "\r"): p[n + 1] = UInt8(ascii: "r")
                    default: p[n + 1] = UInt8(ascii: "t")
                    }
                    n += 2
                case 0..<0x20, 0x7F:
                    p[n] = UInt8(ascii: "\\")
                    p[n + 1] = UInt8(ascii: "u")
                    p[n + 2] = UInt8(ascii: "0")
                    p[n + 3] = UInt8(ascii: "0")
                    p[n + 4] = hex.utf8Start[Int(b >> 4)]
                    p[n + 5] = hex.utf8Start[Int(b & 15)]
                    n += 6
                default:
                    p[n] = b
                    n += 1
                }
            }
            p[n] = UInt8(ascii: "\"")
            count += n + 1
        }
    }

    @inline(__always)
    mutating func int(_ value: Int64) {
        if _slowPath(value < 0) {
            room(1).pointee = UInt8(ascii: "-")
            count &+= 1
        }
        unsigned(value.magnitude)
    }

    /// The decimal digits from `00` to `99`, two bytes each.
    static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// 10⁰ … 10¹⁹.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// How many decimal digits `value` has (1 for 0): from its bit length, log₁₀ 2 ≈ 1233 / 4096,
    /// and one comparison.
    @inline(__always)
    static func digits(_ value: UInt64) -> Int {
        let v = value | 1
        let bits = 64 &- v.leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return guess &+ (v >= powersOfTen[guess] ? 1 : 0)
    }

    /// `value`'s digits, `digits` of them, written right to left two at a time at `p`.
    @inline(__always)
    private static func writeDigits(_ value: UInt64, _ digits: Int, at p: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(JSONBytes.pairs.utf8Start)
        let d = UnsafeMutableRawPointer(p)
        var v = value
        var i = digits
        while v >= 100 {
            let q = v / 100
            let r = Int(truncatingIfNeeded: v &- q &* 100)
            v = q
            i &-= 2
            d.storeBytes(
                of: pair.loadUnaligned(fromByteOffset: r &* 2, as: UInt16.self), toByteOffset: i, as: UInt16.self)
        }
        if v >= 10 {
            d.storeBytes(
                of: pair.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: v) &* 2, as: UInt16.self),
                as: UInt16.self)
        } else {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// Digits, written in place from the right, two at a time.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        let digits = JSONBytes.digits(value)
        JSONBytes.writeDigits(value, digits, at: room(digits))
        count &+= digits
    }

    /// A number in hexadecimal, lower case, without a prefix.
    mutating func hex(_ value: UInt64) {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        let p = room(digits)
        let hex: StaticString = "0123456789abcdef"
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[i] = hex.utf8Start[Int(v & 15)]
            v >>= 4
        }
        count += digits
    }

    /// Nanoseconds as microseconds with three decimals: `16666.667`.
    @inline(__always)
    mutating func micros(_ ns: Int64) {
        let v = UInt64(max(0, ns))
        let whole = v / 1000
        let frac = Int(truncatingIfNeeded: v &- whole &* 1000)
        let digits = JSONBytes.digits(whole)
        let p = room(digits &+ 4)
        JSONBytes.writeDigits(whole, digits, at: p)
        let hundreds = frac / 100
        p[digits] = UInt8(ascii: ".")
        p[digits &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
        UnsafeMutableRawPointer(p + (digits &+ 2)).storeBytes(
            of: UnsafeRawPointer(JSONBytes.pairs.utf8Start).loadUnaligned(
                fromByteOffset: (frac &- hundreds &* 100) &* 2, as: UInt16.self),
            as: UInt16.self)
        count &+= digits &+ 4
    }
}

/// Where an event's bytes go, written left to right with no check of room: its owner
/// (``JSONBytes/cursor(reserving:)``) reserved enough for the most the event can write, and keeps
/// ``slack`` bytes beyond any reservation, which copying in whole blocks may write over. A value
/// of one pointer, so that the compiler keeps it in a register: a write through the buffer's own
/// fields reloads them after every byte it stores.
struct JSONCursor {
    /// What a copy in blocks may write past its bytes.
    static let block = 16
    /// What a buffer keeps beyond its capacity.
    static let slack = 64

    var p: UnsafeMutablePointer<UInt8>

    @inline(__always)
    init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

    /// Text known when compiled: its bytes become stores of constants.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        JSONBytes.copy(text.utf8Start, to: p, count: text.utf8CodeUnitCount)
        p += text.utf8CodeUnitCount
    }

    /// `n` bytes, copied in whole blocks of 16 (the source readable to the end of its last block).
    @inline(__always)
    mutating func blocks(_ from: UnsafePointer<UInt8>, count n: Int) {
        let s = UnsafeRawPointer(from)
        let d = UnsafeMutableRawPointer(p)
        var i = 0
        repeat {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            d.storeBytes(
                of: s.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self), toByteOffset: i &+ 8, as: UInt64.self)
            i &+= 16
        } while i < n
        p += n
    }

    /// The nanoseconds a time stamp written earlier by this cursor stands for — its `length`
    /// bytes at `stamp`, microseconds of at least one whole digit with three decimals — as
    /// ``int(_:)`` writes them: its digits without the point.
    @inline(__always)
    mutating func copyDigits(ofStamp stamp: UnsafeMutablePointer<UInt8>, length: Int) {
        blocks(stamp, count: length &- 4)
        // The three decimals, and a byte after them that what follows writes over.
        UnsafeMutableRawPointer(p).storeBytes(
            of: UnsafeRawPointer(stamp + (length &- 3)).loadUnaligned(as: UInt32.self), as: UInt32.self)
        p += 3
    }

    /// One byte.
    @inline(__always)
    mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    /// The byte written last.
    @inline(__always)
    var last: UInt8 { p[-1] }

    @inline(__always)
    mutating func int(_ value: Int64) {
        if _slowPath(value < 0) { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// Two digits of `v` (< 100) as two bytes.
    @inline(__always)
    static func pair(_ v: UInt32) -> UInt16 {
        UnsafeRawPointer(JSONBytes.pairs.utf8Start).loadUnaligned(fromByteOffset: Int(v) &* 2, as: UInt16.self)
    }

    /// Exactly four digits of `g` (< 10,000), leading zeros kept.
    @inline(__always)
    mutating func four(_ g: UInt32) {
        let hi = (g &* 5243) &>> 19  // g / 100 for g < 43,699
        let d = UnsafeMutableRawPointer(p)
        d.storeBytes(of: JSONCursor.pair(hi), as: UInt16.self)
        d.storeBytes(of: JSONCursor.pair(g &- hi &* 100), toByteOffset: 2, as: UInt16.self)
        p += 4
    }

    /// Exactly eight digits of `v` (< 100,000,000), leading zeros kept.
    @inline(__always)
    mutating func eight(_ v: UInt32) {
        let hi = v / 10_000
        four(hi)
        four(v &- hi &* 10_000)
    }

    /// `g` (< 10,000) with no leading zeros: one to four digits.
    @inline(__always)
    mutating func upToFour(_ g: UInt32) {
        if g < 100 {
            if g < 10 {
                byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: g))
            } else {
                UnsafeMutableRawPointer(p).storeBytes(of: JSONCursor.pair(g), as: UInt16.self)
                p += 2
            }
        } else if g < 1000 {
            let hi = (g &* 5243) &>> 19
            byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hi))
            UnsafeMutableRawPointer(p).storeBytes(of: JSONCursor.pair(g &- hi &* 100), as: UInt16.self)
            p += 2
        } else {
            four(g)
        }
    }

    /// `v` (< 100,000,000) with no leading zeros.
    @inline(__always)
    mutating func upToEight(_ v: UInt32) {
        if v < 10_000 {
            upToFour(v)
        } else {
            let hi = v / 10_000
            upToFour(hi)
            four(v &- hi &* 10_000)
        }
    }

    /// Digits, as ``JSONBytes/unsigned(_:)`` writes them: four at a time from a table of pairs,
    /// dividing only by constants.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        if value < 100_000_000 {
            upToEight(UInt32(truncatingIfNeeded: value))
        } else {
            wide(value)
        }
    }

    /// A number of nine digits or more.
    @inline(never)
    mutating func wide(_ value: UInt64) {
        let high = value / 100_000_000
        let low = UInt32(truncatingIfNeeded: value &- high &* 100_000_000)
        if high < 100_000_000 {
            upToEight(UInt32(truncatingIfNeeded: high))
        } else {
            let top = high / 100_000_000
            upToEight(UInt32(truncatingIfNeeded: top))
            eight(UInt32(truncatingIfNeeded: high &- top &* 100_000_000))
        }
        eight(low)
    }

    /// Nanoseconds as microseconds with three decimals, as ``JSONBytes/micros(_:)`` writes them.
    @inline(__always)
    mutating func micros(_ ns: Int64) {
        let v = UInt64(max(0, ns))
        let whole = v / 1000
        let frac = UInt32(truncatingIfNeeded: v &- whole &* 1000)
        unsigned(whole)
        let hundreds = (frac &* 41) &>> 12  // frac / 100 for frac < 1,000
        let d = UnsafeMutableRawPointer(p)
        d.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
        d.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds), toByteOffset: 1, as: UInt8.self)
        d.storeBytes(of: JSONCursor.pair(frac &- hundreds &* 100), toByteOffset: 2, as: UInt16.self)
        p += 4
    }

    /// A number in hexadecimal, lower case, without a prefix.
    mutating func hex(_ value: UInt64) {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        let hex: StaticString = "0123456789abcdef"
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[i] = hex.utf8Start[Int(v & 15)]
            v >>= 4
        }
        p += digits
    }
}
