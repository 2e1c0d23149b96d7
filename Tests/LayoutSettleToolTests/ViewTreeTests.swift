import DebugShellCore
import Testing

@testable import LayoutSettleTool

/// The view tree's incremental bookkeeping: subtree counts and digests updated along the parent
/// chain must equal a recomputation from scratch, whatever the sequence of changes.
@Suite struct ViewTreeTests {
    /// Recomputes count and digest of `slot`'s subtree by walking it.
    func recompute(_ tree: ViewTree, _ slot: ViewSlot) -> (count: Int, digest: UInt64) {
        var count = 1
        var sum: UInt64 = 0
        for child in tree.children(slot) {
            let (c, d) = recompute(tree, child)
            count += c
            sum &+= d
        }
        return (count, mix(tree[slot].own, sum))
    }

    func expectConsistent(_ tree: ViewTree, sourceLocation: SourceLocation = #_sourceLocation) {
        var stack: [ViewSlot] = [ViewTree.window]
        var live = 0
        while let slot = stack.popLast() {
            live += 1
            let (count, digest) = recompute(tree, slot)
            #expect(tree.count(slot) == count, "count of \(tree.name(slot))", sourceLocation: sourceLocation)
            #expect(tree.digest(slot) == digest, "digest of \(tree.name(slot))", sourceLocation: sourceLocation)
            stack += tree.children(slot)
        }
        #expect(tree.liveCount == live, sourceLocation: sourceLocation)
    }

    /// A small deterministic generator, so the sequence is the same on every run.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            return Int(mix(state, 0) % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomChangesKeepCountsAndDigests(seed: UInt64) {
        var tree = ViewTree()
        var random = SplitMix(state: seed)
        var names: [String] = ["window"]
        for step in 0..<400 {
            let live = names.filter { tree.lookup($0) != nil }
            let pick = live[random.next(live.count)]
            guard let slot = tree.lookup(pick) else { continue }
            switch random.next(6) {
            case 0, 1:
                let name = "v\(step)"
                _ = tree.add(
                    name: name, parent: slot,
                    properties: ViewProperties(
                        frame: FrameRect(x: Double(step), y: 0, width: 10, height: 10), alpha: 1, hidden: false,
                        rotation: 0))
                names.append(name)
            case 2:
                var p = tree.properties(slot)
                p.alpha = Double(random.next(5)) / 4
                p.frame.x += 1
                _ = tree.set(slot, p)
            case 3 where slot != ViewTree.window:
                tree.remove(slot) { _ in }
            case 4 where slot != ViewTree.window:
                let target = live[random.next(live.count)]
                if let parent = tree.lookup(target), !tree.isWithin(parent, subtreeOf: slot) {
                    tree.move(slot, to: parent)
                }
            case 5:
                let result = tree.grow(under: slot, count: 1 + random.next(20), fanout: 1 + random.next(4))
                names.append(contentsOf: [result.first, result.last])
            default:
                break
            }
        }
        expectConsistent(tree)
    }

    /// A change and its undo restore the digest; the same frame on a new view does not (the
    /// view's identity is part of it, as the original's `-description` has its address).
    @Test func digestsFollowStateAndIdentity() {
        var tree = ViewTree()
        let a = tree.add(name: "a", parent: ViewTree.window, properties: .initial)
        let start = tree.digest(ViewTree.window)
        var p = tree.properties(a)
        p.alpha = 0.5
        #expect(tree.set(a, p) == [.alpha])
        #expect(tree.digest(ViewTree.window) != start)
        p.alpha = 1
        _ = tree.set(a, p)
        #expect(tree.digest(ViewTree.window) == start)
        #expect(tree.set(a, p) == [])
        tree.remove(a) { _ in }
        _ = tree.add(name: "a", parent: ViewTree.window, properties: .initial)
        #expect(tree.digest(ViewTree.window) != start)
        // −0 and 0 are the same value (L1 compares values).
        var q = tree.properties(ViewTree.window)
        let before = tree.digest(ViewTree.window)
        q.frame.x = -0.0
        #expect(tree.set(ViewTree.window, q) == [])
        #expect(tree.digest(ViewTree.window) == before)
    }

    /// Generated names resolve both ways, and stop resolving once their view is gone.
    @Test func generatedNames() {
        var tree = ViewTree()
        let list = tree.add(name: "list", parent: ViewTree.window, properties: .initial)
        let grown = tree.grow(under: list, count: 20, fanout: 4)
        #expect(grown.first == "list.1" && grown.last == "list.20")
        let slot = tree.lookup("list.17")
        #expect(slot.map { tree.name($0) } == "list.17")
        // list.17 hangs under list.4: (17 − 1) / 4 = 4.
        #expect(slot.map { tree.name(tree[$0].parent) } == "list.4")
        tree.remove(tree.lookup("list.4") ?? -1) { _ in }
        #expect(tree.lookup("list.17") == nil)
        #expect(tree.lookup("list.5") != nil)
        #expect(tree.lookup("list.05") == nil)
        #expect(tree.lookup("list.0") == nil)
        expectConsistent(tree)
    }

    /// A modest scale check in a debug build: 100,000 views with three spinners for one second;
    /// each checker frame sees exactly the three changed views.
    @Test func largeTreeThreeSpinners() throws {
        let s = try LayoutSession()
        s.run(
            "view grow window 100000", "view spin window.99999", "view spin window.50000", "view spin window.7",
            "layout watch --timeout 1s", "run 1s")
        #expect(s.run("get layout.views", "get layout.changes") == "layout.views = 100001\nlayout.changes = 60\n")
        let watch = try #require(try s.tool.watch)
        #expect(watch.lastFrame?.views == 3)
        // L3: 60 callbacks × (0.2 µs + 3 × 0.05 µs).
        #expect(watch.totalCost == .nanoseconds(60 * 350))
    }
}
