import DebugShellImport

#if canImport(Glibc)
    import Glibc
#endif

/// `xctracebench [--interrupt-after SECONDS] FILE…`: reads an xctrace export with debugsh's
/// reader (XCTraceImport, what `import xctrace` runs) and prints one JSON line: seconds, rows
/// kept, the refresh interval read — for Benchmarks/xctrace_import.py, which times Python's
/// iterparse on the same file. With `--interrupt-after`, `interrupted()` says yes from that
/// moment on, as Ctrl-C would, and the line says how long after it the import stopped.
func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

var paths = Array(CommandLine.arguments.dropFirst())
var interruptAfter: Double?
if paths.first == "--interrupt-after", paths.count > 1 {
    interruptAfter = Double(paths[1])
    paths.removeFirst(2)
}
guard !paths.isEmpty else {
    print("usage: xctracebench [--interrupt-after SECONDS] FILE|FOLDER…")
    exit(2)
}
let t0 = monotonic()
let deadline = interruptAfter.map { t0 + $0 } ?? .infinity
do {
    let timeline = try XCTraceImport.read(paths) { monotonic() >= deadline }
    let seconds = monotonic() - t0
    let rows = timeline.vsyncs.count + timeline.frames.count + timeline.hitches.count + timeline.fpsSamples.count
    let interval = timeline.refreshInterval?.nanoseconds ?? -1
    print(
        "{\"seconds\": \(seconds), \"vsyncs\": \(timeline.vsyncs.count), \"rows\": \(rows), "
            + "\"refresh_ns\": \(interval), \"last_vsync_ns\": \(timeline.vsyncs.last?.nanoseconds ?? -1)}")
} catch {
    let stopped = monotonic()
    if stopped >= deadline && error == ImportError("interrupted: nothing was imported") {
        print("{\"interrupted\": true, \"latency_ms\": \((stopped - deadline) * 1000)}")
    } else {
        print("xctracebench: \(error)")
        exit(1)
    }
}
