// The bare event-loop floor: the peers' workload (Benchmarks/Peers/simmodel.py) with no run-loop
// semantics at all — a heap of (time, id) and the handlers' arithmetic — so that debugsh's engine
// can be measured against the least any event loop must do. Virtual time is Int64 nanoseconds.
// Prints one JSON line with its timing and event counts, as the Python peers do.
//
//     simbench heap|heap-poppush|binheap|binheap-bu K SIM_S [HZ]
//
//   heap          swift-collections' Heap (a min-max heap): peek, then replaceMin
//   heap-poppush  swift-collections' Heap: popMin, then insert
//   binheap       a hand-written binary min-heap of packed UInt64 keys (t << 21 | id), replaceTop
//   binheap-bu    the same heap with Floyd's bottom-up replaceTop and a branch-free child choice
import HeapModule
#if canImport(Glibc)
import Glibc
#endif

let NS: Int64 = 1_000_000_000
let MAIN_TIMER_COST: Int64 = 2_000
let FRAME_WORK: Int64 = 4_000_000
let HITCH_WORK: Int64 = 25_000_000

@inline(__always) func nowNs() -> UInt64 {
    var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

struct Entry: Comparable {
    var t: Int64
    var id: Int32
    @inline(__always) static func < (a: Entry, b: Entry) -> Bool {
        a.t != b.t ? a.t < b.t : a.id < b.id
    }
}

struct BinHeap {  // min-heap of packed UInt64
    var a: [UInt64] = []
    @inline(__always) var top: UInt64 { a[0] }
    mutating func heapify() {
        var i = a.count / 2 - 1
        while i >= 0 { siftDown(i); i -= 1 }
    }
    @inline(__always) mutating func siftDown(_ start: Int) {
        a.withUnsafeMutableBufferPointer { p in
            let n = p.count
            var i = start
            let x = p[i]
            while true {
                var c = 2 * i + 1
                if c >= n { break }
                if c + 1 < n && p[c + 1] < p[c] { c += 1 }
                if p[c] >= x { break }
                p[i] = p[c]; i = c
            }
            p[i] = x
        }
    }
    @inline(__always) mutating func replaceTop(_ x: UInt64) { a[0] = x; siftDown(0) }
    // Floyd bottom-up replace: walk the hole to a leaf choosing the smaller child with a
    // branch-free select, then sift x up (usually 0-1 steps, since new times are late).
    @inline(__always) mutating func replaceTopBottomUp(_ x: UInt64) {
        a.withUnsafeMutableBufferPointer { p in
            let n = p.count
            var i = 0
            var c = 1
            while c + 1 < n {
                let l = p[c], r = p[c + 1]
                let pick = c &+ (r < l ? 1 : 0)
                p[i] = r < l ? r : l
                i = pick; c = 2 &* i &+ 1
            }
            if c < n { p[i] = p[c]; i = c }
            while i > 0 {
                let parent = (i &- 1) >> 1
                let pv = p[parent]
                if pv <= x { break }
                p[i] = pv; i = parent
            }
            p[i] = x
        }
    }
}

struct Stats {
    var vsyncs = 0, callbacks = 0, dropped = 0, mainFires = 0, gcdFires = 0
    var lateness: Int64 = 0, busyUntil: Int64 = 0, winEnd: Int64 = NS, winCount = 0
    var fps: [Int] = []
    @inline(__always) mutating func vsync(_ t: Int64) {
        vsyncs += 1
        while t >= winEnd { fps.append(winCount); winCount = 0; winEnd += NS }
        if t >= busyUntil {
            callbacks += 1; winCount += 1
            busyUntil = t + (callbacks % 120 == 0 ? HITCH_WORK : FRAME_WORK)
        } else { dropped += 1 }
    }
    @inline(__always) mutating func timer(_ t: Int64, _ idx: Int) {
        if idx & 1 == 0 {
            if busyUntil > t { lateness += busyUntil - t; busyUntil += MAIN_TIMER_COST }
            else { busyUntil = t + MAIN_TIMER_COST }
            mainFires += 1
        } else { gcdFires += 1 }
    }
}

func intervals(_ K: Int) -> [Int64] {
    (0..<K).map { (i: Int) -> Int64 in
        let ms: Int = 10 + (i * 7919) % 991
        let us: Int = i % 97
        return Int64(ms * 1_000_000 + us * 1_000)
    }
}

func runHeap(K: Int, simNs: Int64, hz: Int64, popPush: Bool) -> Stats {
    let ivs = intervals(K)
    var h = Heap<Entry>((0..<K).map { Entry(t: ivs[$0], id: Int32($0 + 1)) } + [Entry(t: NS / hz, id: 0)])
    var st = Stats()
    var n: Int64 = 1
    while true {
        let e = popPush ? h.removeMin() : h.min!
        if e.t > simNs { break }
        let nxt: Entry
        if e.id == 0 {
            st.vsync(e.t); n += 1
            nxt = Entry(t: n * NS / hz, id: 0)
        } else {
            let idx = Int(e.id) - 1
            st.timer(e.t, idx)
            nxt = Entry(t: e.t + ivs[idx], id: e.id)
        }
        if popPush { h.insert(nxt) } else { _ = h.replaceMin(with: nxt) }
    }
    return st
}

func runBin(K: Int, simNs: Int64, hz: Int64, bottomUp: Bool = false) -> Stats {
    let ivs = intervals(K)
    @inline(__always) func pack(_ t: Int64, _ id: Int) -> UInt64 { UInt64(t) << 21 | UInt64(id) }
    var h = BinHeap()
    h.a.reserveCapacity(K + 1)
    for i in 0..<K { h.a.append(pack(ivs[i], i + 1)) }
    h.a.append(pack(NS / hz, 0))
    h.heapify()
    var st = Stats()
    var n: Int64 = 1
    let mask: UInt64 = (1 << 21) - 1
    while true {
        let k = h.top
        let t = Int64(k >> 21), id = Int(k & mask)
        if t > simNs { break }
        if id == 0 {
            st.vsync(t); n += 1
            let nk = pack(n * NS / hz, 0)
            if bottomUp { h.replaceTopBottomUp(nk) } else { h.replaceTop(nk) }
        } else {
            st.timer(t, id - 1)
            let nk = pack(t + ivs[id - 1], id)
            if bottomUp { h.replaceTopBottomUp(nk) } else { h.replaceTop(nk) }
        }
    }
    return st
}

let args = CommandLine.arguments
let impl = args[1]
let K = Int(args[2])!
let simS = Double(args[3])!
let hz = args.count > 4 ? Int64(args[4])! : 60
let simNs = Int64(simS * Double(NS))
let t1 = nowNs()
let st: Stats
switch impl {
case "heap": st = runHeap(K: K, simNs: simNs, hz: hz, popPush: false)
case "heap-poppush": st = runHeap(K: K, simNs: simNs, hz: hz, popPush: true)
case "binheap": st = runBin(K: K, simNs: simNs, hz: hz)
case "binheap-bu": st = runBin(K: K, simNs: simNs, hz: hz, bottomUp: true)
default: fatalError("impl?")
}
let t2 = nowNs()
let runS = Double(t2 - t1) / 1e9
let events = st.vsyncs + st.mainFires + st.gcdFires
let fpsMin = st.fps.min() ?? -1
let fpsMean = st.fps.isEmpty ? -1.0 : Double(st.fps.reduce(0, +)) / Double(st.fps.count)
print("{\"impl\": \"swift-\(impl)\", \"K\": \(K), \"sim_s\": \(simS), \"hz\": \(hz), \"run_s\": \(runS), \"events\": \(events), \"events_per_s\": \(Double(events) / runS), \"ns_per_event\": \(runS * 1e9 / Double(events)), \"vsync_per_s\": \(Double(st.vsyncs) / runS), \"timer_events_per_s\": \(Double(st.mainFires + st.gcdFires) / runS), \"sim_speed\": \(simS / runS), \"vsyncs\": \(st.vsyncs), \"callbacks\": \(st.callbacks), \"dropped\": \(st.dropped), \"main_fires\": \(st.mainFires), \"gcd_fires\": \(st.gcdFires), \"lateness_ns\": \(st.lateness), \"fps_windows\": \(st.fps.count), \"fps_min\": \(fpsMin), \"fps_mean\": \(fpsMean)}")
