#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An element or attribute name of an XML document, interned: two names are the same name when
/// their ids are equal, so the reader compares a tag with `row` by an integer.
struct XMLName: Hashable, Sendable {
    let id: Int32
}

/// The names a document has used, each stored once (an open-addressing table keyed by the bytes).
/// A hostile file with a new name in every tag is stopped at ``limit`` names.
struct XMLNames {
    /// The most distinct names one document may use (xctrace's use a few dozen).
    static let limit = 100_000

    private var pool: [UInt8] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var hashes: [UInt32] = []
    /// Slots of the table: a name's id + 1, or 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 256)

    var count: Int { starts.count }

    /// Names of up to 16 bytes seen lately, by their bytes packed in two words (exact: no
    /// comparison of bytes needed): xctrace's names are short and few, so nearly every tag is
    /// found here without hashing its bytes.
    private struct Recent {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var count = -1
        var name = XMLName(id: -1)
    }
    private var recent = [Recent](repeating: Recent(), count: 64)

    /// The name spelled by `count` bytes at `bytes`; nil when the document already has
    /// ``limit`` names and this is a new one.
    mutating func intern(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> XMLName? {
        guard count <= 16 else { return lookUp(bytes, count) }
        var first: UInt64 = 0
        var second: UInt64 = 0
        for k in 0..<min(count, 8) { first |= UInt64(bytes[k]) << UInt64(8 * k) }
        for k in 8..<max(count, 8) { second |= UInt64(bytes[k]) << UInt64(8 * (k - 8)) }
        let slot = Int(truncatingIfNeeded: ((first ^ (second &* 31) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        let cached = recent[slot]
        if cached.count == count && cached.first == first && cached.second == second { return cached.name }
        guard let name = lookUp(bytes, count) else { return nil }
        recent[slot] = Recent(first: first, second: second, count: count, name: name)
        return name
    }

    /// The name spelled by `count` bytes, from the table of all names.
    private mutating func lookUp(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> XMLName? {
        var hash: UInt32 = 2_166_136_261
        for k in 0..<count { hash = (hash ^ UInt32(bytes[k])) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash && lengths[id] == count && equals(id, bytes, count) {
                return XMLName(id: Int32(id))
            }
            slot = (slot + 1) & mask
        }
        if starts.count >= Self.limit { return nil }
        let id = starts.count
        starts.append(pool.count)
        lengths.append(count)
        hashes.append(hash)
        pool.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        slots[slot] = Int32(id + 1)
        if starts.count * 2 > slots.count { rehash() }
        return XMLName(id: Int32(id))
    }

    /// The name spelled `text` (the reader's own names, interned before a document is read).
    mutating func intern(_ text: String) -> XMLName {
        // A NUL after the bytes, so that the buffer has an address even for "".
        let bytes = Array(text.utf8) + [0]
        // The reader's names are a few dozen, far below the limit.
        let name = bytes.withUnsafeBufferPointer { buffer -> XMLName? in
            guard let base = buffer.baseAddress else { return nil }
            return intern(base, buffer.count - 1)
        }
        return name ?? XMLName(id: -1)
    }

    /// Whether `name` is spelled by the `count` bytes at `bytes`.
    func matches(_ name: XMLName, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let id = Int(name.id)
        return id >= 0 && id < starts.count && lengths[id] == count && equals(id, bytes, count)
    }

    /// The name as text, for messages.
    func string(_ name: XMLName) -> String {
        let id = Int(name.id)
        guard id >= 0 && id < starts.count else { return "?" }
        return String(decoding: pool[starts[id]..<starts[id] + lengths[id]], as: UTF8.self)
    }

    private func equals(_ id: Int, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        pool.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress else { return count == 0 }
            return memcmp(base + starts[id], bytes, count) == 0
        }
    }

    private mutating func rehash() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for id in 0..<starts.count {
            var slot = Int(hashes[id]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id + 1)
        }
    }
}
