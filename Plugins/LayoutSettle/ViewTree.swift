import DebugShellCore

/// A view's index in the ``ViewTree``'s storage; slots of removed views are reused.
typealias ViewSlot = Int32

/// The properties of a view that L1 compares: its frame relative to its parent, alpha, hidden
/// and rotation (degrees).
struct ViewProperties: Equatable, Sendable {
    var frame: FrameRect
    var alpha: Double
    var hidden: Bool
    var rotation: Double

    static let initial = ViewProperties(frame: .zero, alpha: 1, hidden: false, rotation: 0)
}

/// What changed about a view between two checker frames (L1).
struct ChangeKinds: OptionSet, Hashable, Sendable {
    var rawValue: UInt8
    static let frame = ChangeKinds(rawValue: 1 << 0)
    static let alpha = ChangeKinds(rawValue: 1 << 1)
    static let hidden = ChangeKinds(rawValue: 1 << 2)
    static let rotation = ChangeKinds(rawValue: 1 << 3)
    static let parent = ChangeKinds(rawValue: 1 << 4)
    static let added = ChangeKinds(rawValue: 1 << 5)
    static let removed = ChangeKinds(rawValue: 1 << 6)

    /// The kinds in a fixed order, as words: `frame`, `alpha`, … `added`, `removed`.
    var words: [String] {
        var out: [String] = []
        if contains(.added) { out.append("added") }
        if contains(.frame) { out.append("frame") }
        if contains(.alpha) { out.append("alpha") }
        if contains(.hidden) { out.append("hidden") }
        if contains(.rotation) { out.append("rotation") }
        if contains(.parent) { out.append("parent") }
        if contains(.removed) { out.append("removed") }
        return out
    }
}

/// One view's record: tree links, properties and the incremental digests.
///
/// The digest of a subtree is `mix(own, childSum)`, where `own` hashes the view's identity and
/// properties and `childSum` is the wrapping sum of its children's digests. A change updates
/// `own` and then walks up the parent chain adjusting each ancestor's `childSum` by the
/// difference: O(depth) per changed view, independent of the tree's size and of fan-out, so the
/// checker never walks or stringifies the tree (L2's digest comparison; README, Performance).
struct ViewNode {
    var parent: ViewSlot = -1
    var firstChild: ViewSlot = -1
    var lastChild: ViewSlot = -1
    var next: ViewSlot = -1
    var previous: ViewSlot = -1
    /// The grow batch that named it, or −1 for a view with an explicit name.
    var batch: Int32 = -1
    /// Its index within its batch.
    var ordinal: Int32 = 0
    /// The checker epoch in which it last changed (dedupes changed views per checker frame).
    var stamp: UInt32 = 0
    /// Views in its subtree, itself included.
    var count: Int32 = 1
    var alive = false
    var hidden = false
    var x = 0.0, y = 0.0, width = 0.0, height = 0.0
    var alpha = 1.0
    var rotation = 0.0
    /// A unique number per view ever made: its identity (the original's `-description` has the
    /// object's address, so a replaced view with the same frame is still a change).
    var serial: UInt64 = 0
    var own: UInt64 = 0
    var digest: UInt64 = 0
    var childSum: UInt64 = 0

    var properties: ViewProperties {
        get {
            ViewProperties(
                frame: FrameRect(x: x, y: y, width: width, height: height), alpha: alpha, hidden: hidden,
                rotation: rotation)
        }
        set {
            // `+ 0` turns −0 into 0: equal values must hash alike.
            x = newValue.frame.x + 0
            y = newValue.frame.y + 0
            width = newValue.frame.width + 0
            height = newValue.frame.height + 0
            alpha = newValue.alpha + 0
            hidden = newValue.hidden
            rotation = newValue.rotation + 0
        }
    }
}

/// A batch of views made by one `view grow`: their names are `<prefix>.<ordinal>`, computed on
/// demand instead of stored, so a million generated views cost no strings.
struct GrowBatch {
    var prefix: String
    var firstOrdinal: Int
    /// Slot of each view by its index in the batch.
    var slots: [ViewSlot]
    var live: Int
}

/// The simulated app's view tree (docs/LayoutSettle.md): a root `window`, named views, generated subtrees.
///
/// Storage is one array of records addressed by slot, with a free list; children are an
/// intrusive doubly linked list in insertion order. Every mutation keeps subtree counts and
/// digests up to date along the parent chain only.
struct ViewTree {
    static let window: ViewSlot = 0
    /// The limit of views in the tree, `window` included (README, Limits).
    static let maxViews = 10_000_000
    /// The limit of views one `view grow` may add (README, Limits).
    static let maxGrow = 1_000_000

    private(set) var nodes: [ViewNode] = []
    private var free: [ViewSlot] = []
    private var explicitNames: [ViewSlot: String] = [:]
    private var byName: [String: ViewSlot] = [:]
    private(set) var batches: [GrowBatch] = []
    private var batchesByPrefix: [String: [Int32]] = [:]
    /// The next ordinal a grow under a prefix uses.
    private var nextOrdinal: [String: Int] = [:]
    /// The largest `<prefix>.<n>` given explicitly, so generated names never collide with it.
    private var largestExplicitOrdinal: [String: Int] = [:]
    private var nextSerial: UInt64 = 0
    /// Live views, `window` included.
    private(set) var liveCount = 0

    init() {
        var window = ViewNode()
        window.alive = true
        window.width = 390
        window.height = 844
        nextSerial = 1
        window.serial = nextSerial
        nodes.append(window)
        explicitNames[0] = "window"
        byName["window"] = 0
        liveCount = 1
        refreshOwn(0)
        nodes[0].digest = mix(nodes[0].own, 0)
    }

    // MARK: - Reading

    @inline(__always) subscript(slot: ViewSlot) -> ViewNode { nodes[Int(slot)] }

    @inline(__always) func isAlive(_ slot: ViewSlot) -> Bool {
        slot >= 0 && Int(slot) < nodes.count && nodes[Int(slot)].alive
    }

    @inline(__always) func properties(_ slot: ViewSlot) -> ViewProperties { nodes[Int(slot)].properties }

    @inline(__always) func digest(_ slot: ViewSlot) -> UInt64 { nodes[Int(slot)].digest }

    @inline(__always) func count(_ slot: ViewSlot) -> Int { Int(nodes[Int(slot)].count) }

    /// The view's name: explicit, or `<prefix>.<ordinal>` for a generated one.
    func name(_ slot: ViewSlot) -> String {
        let node = nodes[Int(slot)]
        if node.batch < 0 { return explicitNames[slot] ?? "?" }
        let batch = batches[Int(node.batch)]
        return "\(batch.prefix).\(batch.firstOrdinal + Int(node.ordinal))"
    }

    /// The live view with this name.
    func lookup(_ name: String) -> ViewSlot? {
        if let slot = byName[name] { return slot }
        guard let (prefix, ordinal) = ViewTree.splitOrdinal(name), let ids = batchesByPrefix[prefix] else { return nil }
        // Batches of one prefix have increasing, disjoint ordinal ranges.
        for id in ids.reversed() {
            let batch = batches[Int(id)]
            guard ordinal >= batch.firstOrdinal else { continue }
            let index = ordinal - batch.firstOrdinal
            guard index < batch.slots.count else { return nil }
            let slot = batch.slots[index]
            let node = nodes[Int(slot)]
            return node.alive && node.batch == id && Int(node.ordinal) == index ? slot : nil
        }
        return nil
    }

    /// `list.12` → (`list`, 12) when the suffix is a canonical positive integer.
    static func splitOrdinal(_ name: String) -> (String, Int)? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let digits = name[name.index(after: dot)...]
        guard let first = digits.first, first != "0", digits.count <= 12,
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits)
        else { return nil }
        return (String(name[..<dot]), n)
    }

    /// The children of `slot`, in insertion order.
    func children(_ slot: ViewSlot) -> [ViewSlot] {
        var out: [ViewSlot] = []
        var c = nodes[Int(slot)].firstChild
        while c >= 0 {
            out.append(c)
            c = nodes[Int(c)].next
        }
        return out
    }

    /// Whether `slot` is `ancestor` or lies below it: O(depth).
    @inline(__always) func isWithin(_ slot: ViewSlot, subtreeOf ancestor: ViewSlot) -> Bool {
        if ancestor == ViewTree.window { return true }
        var s = slot
        while s >= 0 {
            if s == ancestor { return true }
            s = nodes[Int(s)].parent
        }
        return false
    }

    /// Explicit names, sorted, and up to `generatedLimit` generated ones (completion).
    func names(generatedLimit: Int) -> [String] {
        var out = byName.keys.sorted()
        var left = generatedLimit
        for (id, batch) in batches.enumerated() where left > 0 {
            for (index, slot) in batch.slots.enumerated() where left > 0 {
                let node = nodes[Int(slot)]
                if node.alive && node.batch == Int32(id) && Int(node.ordinal) == index {
                    out.append("\(batch.prefix).\(batch.firstOrdinal + index)")
                    left -= 1
                }
            }
        }
        return out
    }

    /// Explicit names only, for did-you-mean.
    var explicitNameList: [String] { byName.keys.sorted() }

    // MARK: - Changing

    /// Adds a view with an explicit name as the last child of `parent`.
    mutating func add(name: String, parent: ViewSlot, properties: ViewProperties) -> ViewSlot {
        let slot = allocate()
        nodes[Int(slot)].properties = properties
        nodes[Int(slot)].batch = -1
        explicitNames[slot] = name
        byName[name] = slot
        if let (prefix, n) = ViewTree.splitOrdinal(name) {
            largestExplicitOrdinal[prefix] = max(largestExplicitOrdinal[prefix] ?? 0, n)
        }
        refreshOwn(slot)
        nodes[Int(slot)].digest = mix(nodes[Int(slot)].own, 0)
        link(slot, under: parent)
        propagate(from: parent, count: 1, sum: nodes[Int(slot)].digest)
        return slot
    }

    /// Adds `count` generated views under `parent`, as a tree with the given fan-out: generated
    /// view k (from 1) hangs under generated view (k − 1) / fanout, view 0 being `parent`.
    /// Child j of a parent gets the frame `0, 44·j, 390, 44` (rows of a table).
    ///
    /// - Returns: the batch and the slots in ordinal order.
    mutating func grow(under parent: ViewSlot, count: Int, fanout: Int) -> (batch: Int, first: String, last: String) {
        let prefix = name(parent)
        let firstOrdinal = max(nextOrdinal[prefix] ?? 1, (largestExplicitOrdinal[prefix] ?? 0) + 1)
        nextOrdinal[prefix] = firstOrdinal + count
        let id = Int32(batches.count)
        var slots: [ViewSlot] = []
        slots.reserveCapacity(count)
        for index in 0..<count {
            let slot = allocate()
            nodes[Int(slot)].batch = id
            nodes[Int(slot)].ordinal = Int32(index)
            slots.append(slot)
        }
        batches.append(GrowBatch(prefix: prefix, firstOrdinal: firstOrdinal, slots: slots, live: count))
        batchesByPrefix[prefix, default: []].append(id)
        // Link in ordinal order, so each parent's children stand in ordinal order; the position
        // among siblings gives the row.
        var rowOfParent = [Int32](repeating: 0, count: count + 1)
        for index in 0..<count {
            let k = index + 1
            let p = (k - 1) / fanout
            let parentSlot = p == 0 ? parent : slots[p - 1]
            let row = rowOfParent[p]
            rowOfParent[p] = row + 1
            let slot = slots[index]
            nodes[Int(slot)].x = 0
            nodes[Int(slot)].y = 44 * Double(row)
            nodes[Int(slot)].width = 390
            nodes[Int(slot)].height = 44
            refreshOwn(slot)
            link(slot, under: parentSlot)
        }
        // Counts and digests bottom-up: a child's ordinal is always above its parent's.
        var topSum: UInt64 = 0
        for index in stride(from: count - 1, through: 0, by: -1) {
            let slot = slots[index]
            let node = nodes[Int(slot)]
            let digest = mix(node.own, node.childSum)
            nodes[Int(slot)].digest = digest
            let k = index + 1
            let p = (k - 1) / fanout
            if p == 0 {
                topSum &+= digest
            } else {
                let ps = Int(slots[p - 1])
                nodes[ps].count += node.count
                nodes[ps].childSum &+= digest
            }
        }
        propagate(from: parent, count: Int32(count), sum: topSum)
        let first = "\(prefix).\(firstOrdinal)"
        let last = "\(prefix).\(firstOrdinal + count - 1)"
        return (Int(id), first, last)
    }

    /// Sets a view's properties; returns what changed (nothing when every value is the same, L1).
    mutating func set(_ slot: ViewSlot, _ properties: ViewProperties) -> ChangeKinds {
        let old = nodes[Int(slot)].properties
        var kinds: ChangeKinds = []
        if old.frame != properties.frame { kinds.insert(.frame) }
        if old.alpha != properties.alpha { kinds.insert(.alpha) }
        if old.hidden != properties.hidden { kinds.insert(.hidden) }
        if old.rotation != properties.rotation { kinds.insert(.rotation) }
        guard !kinds.isEmpty else { return [] }
        nodes[Int(slot)].properties = properties
        refreshOwn(slot)
        refreshDigest(slot)
        return kinds
    }

    /// Moves a view (with its subtree) to the end of `parent`'s children.
    mutating func move(_ slot: ViewSlot, to parent: ViewSlot) {
        let old = nodes[Int(slot)].parent
        let count = nodes[Int(slot)].count
        let digest = nodes[Int(slot)].digest
        unlink(slot)
        propagate(from: old, count: -count, sum: 0 &- digest)
        link(slot, under: parent)
        propagate(from: parent, count: count, sum: digest)
    }

    /// Removes a view and its subtree; `visit` sees each removed view (pre-order) before it goes.
    mutating func remove(_ slot: ViewSlot, visit: (ViewSlot) -> Void) {
        let parent = nodes[Int(slot)].parent
        let count = nodes[Int(slot)].count
        let digest = nodes[Int(slot)].digest
        unlink(slot)
        propagate(from: parent, count: -count, sum: 0 &- digest)
        var stack: [ViewSlot] = [slot]
        while let s = stack.popLast() {
            visit(s)
            var c = nodes[Int(s)].lastChild
            while c >= 0 {
                stack.append(c)
                c = nodes[Int(c)].previous
            }
            release(s)
        }
    }

    /// Stamps a changed view with the checker's epoch; true when it is its first change in it.
    mutating func stamp(_ slot: ViewSlot, epoch: UInt32) -> Bool {
        guard nodes[Int(slot)].stamp != epoch else { return false }
        nodes[Int(slot)].stamp = epoch
        return true
    }

    /// The slots of `slot`'s subtree in pre-order, at most `limit` of them, with depths.
    func preorder(from slot: ViewSlot, maxDepth: Int, limit: Int) -> [(slot: ViewSlot, depth: Int)] {
        // The stack holds the next node to visit at each level; siblings follow by their links,
        // so the cost is what is visited, whatever the fan-out.
        var out: [(slot: ViewSlot, depth: Int)] = []
        var stack: [(ViewSlot, Int)] = [(slot, 0)]
        while out.count < limit, let (s, d) = stack.popLast() {
            out.append((s, d))
            if d > 0, nodes[Int(s)].next >= 0 { stack.append((nodes[Int(s)].next, d)) }
            if d < maxDepth, nodes[Int(s)].firstChild >= 0 { stack.append((nodes[Int(s)].firstChild, d + 1)) }
        }
        return out
    }

    // MARK: - Storage

    private mutating func allocate() -> ViewSlot {
        nextSerial += 1
        liveCount += 1
        var node = ViewNode()
        node.alive = true
        node.serial = nextSerial
        if let slot = free.popLast() {
            nodes[Int(slot)] = node
            return slot
        }
        nodes.append(node)
        return ViewSlot(nodes.count - 1)
    }

    private mutating func release(_ slot: ViewSlot) {
        let node = nodes[Int(slot)]
        if node.batch < 0 {
            if let name = explicitNames.removeValue(forKey: slot) { byName.removeValue(forKey: name) }
        } else {
            let b = Int(node.batch)
            batches[b].live -= 1
            if batches[b].live == 0 { batches[b].slots = [] }
        }
        nodes[Int(slot)] = ViewNode()
        free.append(slot)
        liveCount -= 1
    }

    private mutating func link(_ slot: ViewSlot, under parent: ViewSlot) {
        let p = Int(parent)
        nodes[Int(slot)].parent = parent
        nodes[Int(slot)].next = -1
        nodes[Int(slot)].previous = nodes[p].lastChild
        if nodes[p].lastChild >= 0 {
            nodes[Int(nodes[p].lastChild)].next = slot
        } else {
            nodes[p].firstChild = slot
        }
        nodes[p].lastChild = slot
    }

    private mutating func unlink(_ slot: ViewSlot) {
        let node = nodes[Int(slot)]
        let p = Int(node.parent)
        if node.previous >= 0 { nodes[Int(node.previous)].next = node.next } else { nodes[p].firstChild = node.next }
        if node.next >= 0 { nodes[Int(node.next)].previous = node.previous } else { nodes[p].lastChild = node.previous }
        nodes[Int(slot)].parent = -1
        nodes[Int(slot)].next = -1
        nodes[Int(slot)].previous = -1
    }

    // MARK: - Digests

    private mutating func refreshOwn(_ slot: ViewSlot) {
        let n = nodes[Int(slot)]
        var h = mix(n.serial, n.x.bitPattern)
        h = mix(h, n.y.bitPattern)
        h = mix(h, n.width.bitPattern)
        h = mix(h, n.height.bitPattern)
        h = mix(h, n.alpha.bitPattern)
        h = mix(h, n.rotation.bitPattern)
        nodes[Int(slot)].own = mix(h, n.hidden ? 1 : 0)
    }

    /// Recomputes `slot`'s digest and passes the difference up the parent chain.
    private mutating func refreshDigest(_ slot: ViewSlot) {
        let s = Int(slot)
        let digest = mix(nodes[s].own, nodes[s].childSum)
        let delta = digest &- nodes[s].digest
        nodes[s].digest = digest
        propagate(from: nodes[s].parent, count: 0, sum: delta)
    }

    /// Adds `count` views and `sum` to the child sums from `start` up to `window`.
    private mutating func propagate(from start: ViewSlot, count: Int32, sum: UInt64) {
        var p = start
        var delta = sum
        while p >= 0 {
            let i = Int(p)
            nodes[i].count += count
            if delta != 0 {
                nodes[i].childSum &+= delta
                let digest = mix(nodes[i].own, nodes[i].childSum)
                delta = digest &- nodes[i].digest
                nodes[i].digest = digest
            } else if count == 0 {
                return
            }
            p = nodes[i].parent
        }
    }
}

/// SplitMix64's finaliser over `h ^ x`: a cheap, well-spread 64-bit mix.
@inline(__always) func mix(_ h: UInt64, _ x: UInt64) -> UInt64 {
    var z = (h ^ x) &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
