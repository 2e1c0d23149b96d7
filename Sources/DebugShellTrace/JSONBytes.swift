/// Pieces of JSON made once per save and written for many events, one after another in one
/// array — piece `k` ends at `ends[k]` where piece `k − 1` ended — so that writing one costs its
/// bytes, without retaining and releasing an array of its own.
struct JSONPieces {
    private let bytes: [UInt8]
    private let ends: [Int]

    /// Pieces as they are.
    init(_ pieces: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for piece in pieces {
            bytes.append(contentsOf: piece.utf8)
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
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
        bytes = out.array
        self.ends = ends
    }

    var count: Int { ends.count }

    @inline(__always)
    func write(_ k: Int, to out: inout JSONBytes) {
        let from = k == 0 ? 0 : ends[k - 1]
        let to = ends[k]
        bytes.withUnsafeBufferPointer { out.bytes(UnsafeBufferPointer(rebasing: $0[from..<to])) }
    }
}

/// A buffer of JSON bytes with fast writers of text, integers and time stamps, written in place;
/// a writer that streams hands it on a megabyte at a time (``flush(_:)``). Each write costs its
/// bytes and a bounds check: an event of a million-event trace is some thirty writes.
struct JSONBytes: ~Copyable {
    /// What a streaming writer hands on at a time.
    static let chunk = 1 << 20

    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last flush.
    private(set) var count = 0

    init(capacity: Int = JSONBytes.chunk + 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
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
        if count + n > capacity { grow(count + n) }
        return base + count
    }

    private mutating func grow(_ needed: Int) {
        let grown = max(capacity * 2, needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    /// Bytes as they are.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        room(bytes.count).update(from: from, count: bytes.count)
        count += bytes.count
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
        text.withUTF8Buffer { bytes($0) }
    }

    /// Text made at run time, as it is.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    /// A string, quoted and escaped byte for byte as ``JSONValue/serialized`` writes it: `"` and
    /// `\` escaped, `\n`, `\r`, `\t`, other control characters and DEL as `\u00xx`, the rest
    /// (UTF-8 beyond ASCII too) as it is.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
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

    mutating func int(_ value: Int64) {
        if value < 0 {
            room(1).pointee = UInt8(ascii: "-")
            count += 1
            unsigned(value.magnitude)
        } else {
            unsigned(UInt64(value))
        }
    }

    /// Digits, written in place from the right, two at a time.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value
        if rest >= 10_000_000_000_000_000 {
            digits += 16
            rest /= 10_000_000_000_000_000
        }
        if rest >= 100_000_000 {
            digits += 8
            rest /= 100_000_000
        }
        if rest >= 10_000 {
            digits += 4
            rest /= 10_000
        }
        if rest >= 100 {
            digits += 2
            rest /= 100
        }
        if rest >= 10 { digits += 1 }
        let p = room(digits)
        let pairs: StaticString =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let pair = pairs.utf8Start
        var v = value
        var i = digits
        while v >= 100 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            i -= 2
            p[i] = pair[r]
            p[i + 1] = pair[r + 1]
        }
        if v >= 10 {
            let r = Int(truncatingIfNeeded: v) &* 2
            p[0] = pair[r]
            p[1] = pair[r + 1]
        } else {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
        count += digits
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
    mutating func micros(_ ns: Int64) {
        let v = UInt64(max(0, ns))
        unsigned(v / 1000)
        let frac = v % 1000
        let p = room(4)
        p[0] = UInt8(ascii: ".")
        p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 100)
        p[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 10 % 10)
        p[3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac % 10)
        count += 4
    }
}
