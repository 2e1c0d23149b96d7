import EngineWorkload

#if canImport(Glibc)
    import Glibc
#endif

/// `enginebench K SIM_S [HZ]`: the peers' workload in debugsh, one JSON line like the peers.
func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let args = CommandLine.arguments
guard args.count >= 3, let k = Int(args[1]), let seconds = Int64(args[2]) else {
    print("usage: enginebench K SIM_S [HZ]")
    exit(2)
}
let hz = args.count > 3 ? Int(args[3]) ?? 60 : 60
let workload = EngineWorkload(timers: k, seconds: seconds, hertz: hz)
let t0 = monotonic()
let (engine, counts) = workload.makeDevice()
let t1 = monotonic()
_ = engine.advance(to: .init(nanoseconds: seconds * 1_000_000_000))
let t2 = monotonic()
let c = counts()
let run = t2 - t1
let windows = c.windows
let fpsMin = windows.min() ?? -1
let fpsMean = windows.isEmpty ? -1 : Double(windows.reduce(0, +)) / Double(windows.count)
print(
    "{\"impl\": \"debugsh\", \"K\": \(k), \"sim_s\": \(seconds), \"hz\": \(hz), \"setup_s\": \(t1 - t0), \"run_s\": \(run), "
        + "\"events\": \(c.events), \"ns_per_event\": \(run * 1e9 / Double(max(1, c.events))), \"vsyncs\": \(c.vsyncs), "
        + "\"callbacks\": \(c.meterCallbacks), \"main_fires\": \(c.mainFires), \"gcd_fires\": \(c.backgroundFires), "
        + "\"presents\": \(c.presents), \"fps_windows\": \(windows.count), \"fps_min\": \(fpsMin), \"fps_mean\": \(fpsMean)}"
)
