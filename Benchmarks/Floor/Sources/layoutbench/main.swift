// The layout-settle checker's per-frame cost in Swift: the same tree and approaches as
// Benchmarks/Peers/layout_bench.py. Prints one JSON line per size, approach and mutation count.
//
//     layoutbench [Ns] [approaches] [mutations]        e.g. layoutbench 100000 naive 3
//
//   naive         the seed's recursive "<Class: 0xADDR; frame = (x y; w h)>" String, built by
//                 concatenation and compared with ==
//   naive-buffer  the same text appended into one String with reserved capacity
//   flat          an O(N) walk into a reused [Double] buffer (id, x, y, w, h, child count)
//   incremental   a dirty flag propagated to the ancestors on mutation and a cached 64-bit hash
//                 per subtree: only the dirty path is recomputed, the root digests compared
#if canImport(Glibc)
import Glibc
#endif

@inline(__always) func nowNs() -> UInt64 {
    var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

let CLASSES = ["UIView", "UILabel", "UIImageView", "UIButton", "UIScrollView", "UIStackView"]
let NS: Int64 = 1_000_000_000

final class View {
    let id: Int
    let cls: String
    let addr: UInt
    var x: Double, y: Double, w: Double, h: Double
    var children: [View] = []
    unowned(unsafe) var parent: View?
    var dirty = true
    var hash: UInt64 = 0
    init(_ i: Int, _ parent: View?) {
        id = i; cls = CLASSES[i % CLASSES.count]; addr = 0x600000c00000 + UInt(i) * 0x40
        x = Double((i % 37) * 8); y = Double(i / 37 % 50) * 4.5
        w = 100.0 + Double(i % 13); h = 44.0
        self.parent = parent
    }
}

func build(_ n: Int) -> [View] {
    var views = [View(0, nil)]
    views.reserveCapacity(n)
    for i in 1..<n {
        let p = views[(i - 1) / 8]
        let v = View(i, p); p.children.append(v); views.append(v)
    }
    return views
}

func describe(_ v: View) -> String {
    var s = "<\(v.cls): 0x\(String(v.addr, radix: 16)); frame = (\(v.x) \(v.y); \(v.w) \(v.h))>"
    for c in v.children { s += describe(c) }
    return s
}

func describeInto(_ v: View, _ s: inout String) {
    s += "<\(v.cls): 0x\(String(v.addr, radix: 16)); frame = (\(v.x) \(v.y); \(v.w) \(v.h))>"
    for c in v.children { describeInto(c, &s) }
}

func flatInto(_ v: View, _ out: inout [Double]) {
    out.append(Double(v.id)); out.append(v.x); out.append(v.y); out.append(v.w); out.append(v.h)
    out.append(Double(v.children.count))
    for c in v.children { flatInto(c, &out) }
}

@inline(__always) func mix(_ h: UInt64, _ x: UInt64) -> UInt64 {
    var z = (h ^ x) &+ 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
    return z ^ (z >> 31)
}

func digest(_ v: View) -> UInt64 {
    if !v.dirty { return v.hash }
    var h = mix(UInt64(v.id), v.x.bitPattern)
    h = mix(h, v.y.bitPattern); h = mix(h, v.w.bitPattern); h = mix(h, v.h.bitPattern)
    h = mix(h, UInt64(v.children.count))
    for c in v.children { h = mix(h, digest(c)) }
    v.hash = h; v.dirty = false
    return h
}

@inline(__always) func markDirty(_ v: View) {
    var n: View? = v
    while let c = n, !c.dirty { c.dirty = true; n = c.parent }
}

enum Approach: String { case naive, naiveBuffer = "naive-buffer", flat, incremental }

final class Checker {
    let views: [View]; let root: View; let approach: Approach; let m: Int
    var picks: [Int] = []; var pi = 0
    var t: Int64 = 0, lastChange: Int64 = 0, changedFrames = 0, frames = 0, settledFrames = 0
    var prevS = "", prevF: [Double] = [], curF: [Double] = [], prevD: UInt64 = 0
    var bytes = 0
    init(_ views: [View], _ a: Approach, _ m: Int) {
        self.views = views; root = views[0]; approach = a; self.m = m
        var s: UInt64 = 42
        for _ in 0..<4096 { s ^= s << 13; s ^= s >> 7; s ^= s << 17; picks.append(Int(s % UInt64(views.count))) }
        _ = snapshotAndCompare()
    }
    func snapshotAndCompare() -> Bool {
        switch approach {
        case .naive:
            let s = describe(root); let ch = s != prevS; bytes = s.utf8.count; prevS = s; return ch
        case .naiveBuffer:
            var s = ""; s.reserveCapacity(max(bytes, 64)); describeInto(root, &s)
            let ch = s != prevS; bytes = s.utf8.count; prevS = s; return ch
        case .flat:
            curF.removeAll(keepingCapacity: true); flatInto(root, &curF)
            let ch = curF != prevF; swap(&curF, &prevF); return ch
        case .incremental:
            let d = digest(root); let ch = d != prevD; prevD = d; return ch
        }
    }
    func frame() {
        let inc = approach == .incremental
        for _ in 0..<m {
            let v = views[picks[pi]]; pi = (pi + 1) & 4095
            v.x += 1.0
            if inc { markDirty(v) }
        }
        let ch = snapshotAndCompare()
        t += NS / 60; frames += 1
        if ch { changedFrames += 1; lastChange = t }
        if t - lastChange >= NS / 5 { settledFrames += 1 }
    }
}

func bench(_ fn: () -> Void, minBatchNs: UInt64 = 50_000_000, reps: Int = 7) -> (Double, Int) {
    var b = 1
    while true {
        let t = nowNs(); for _ in 0..<b { fn() }; let dt = nowNs() - t
        if dt >= minBatchNs || b >= 1 << 24 { break }
        b = max(b * 2, Int(Double(b) * Double(minBatchNs) / Double(max(dt, 1)) * 1.2))
    }
    var samples: [Double] = []
    for _ in 0..<reps {
        let t = nowNs(); for _ in 0..<b { fn() }
        samples.append(Double(nowNs() - t) / Double(b))
    }
    samples.sort()
    return (samples[samples.count / 2], b)
}

let args = CommandLine.arguments
let Ns = args.count > 1 ? args[1].split(separator: ",").map { Int($0)! } : [1000, 10000, 100000]
let approaches = args.count > 2 ? args[2].split(separator: ",").map { Approach(rawValue: String($0))! }
                                : [.naive, .naiveBuffer, .flat, .incremental]
let ms = args.count > 3 ? args[3].split(separator: ",").map { Int($0)! } : [0, 3]
for n in Ns {
    for a in approaches {
        for m in ms {
            let views = build(n)
            let t0 = nowNs(); let ck = Checker(views, a, m); let first = Double(nowNs() - t0) / 1000
            let (med, b) = bench({ ck.frame() })
            let ok = ck.changedFrames == (m > 0 ? ck.frames : 0)
            print("{\"lang\": \"swift\", \"N\": \(n), \"approach\": \"\(a.rawValue)\", \"m\": \(m), \"us_per_frame\": \(med / 1000), \"batch\": \(b), \"reps\": 7, \"first_snapshot_us\": \(first), \"snapshot_bytes\": \(a == .naive || a == .naiveBuffer ? String(ck.bytes) : "null"), \"ok\": \(ok)}")
        }
    }
}
