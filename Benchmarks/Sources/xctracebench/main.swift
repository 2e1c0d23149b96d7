import DebugShellImport

#if canImport(Glibc)
    import Glibc
#endif

/// `xctracebench FILE…`: reads an xctrace export with debugsh's reader (XCTraceImport, what
/// `import xctrace` runs) and prints one JSON line: seconds, rows kept, and the refresh interval
/// read — for Benchmarks/xctrace_import.py, which times Python's iterparse on the same file.
func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let paths = Array(CommandLine.arguments.dropFirst())
guard !paths.isEmpty else {
    print("usage: xctracebench FILE|FOLDER…")
    exit(2)
}
let t0 = monotonic()
do {
    let timeline = try XCTraceImport.read(paths)
    let seconds = monotonic() - t0
    let rows = timeline.vsyncs.count + timeline.frames.count + timeline.hitches.count + timeline.fpsSamples.count
    let interval = timeline.refreshInterval?.nanoseconds ?? -1
    print(
        "{\"seconds\": \(seconds), \"vsyncs\": \(timeline.vsyncs.count), \"rows\": \(rows), "
            + "\"refresh_ns\": \(interval), \"last_vsync_ns\": \(timeline.vsyncs.last?.nanoseconds ?? -1)}")
} catch {
    print("xctracebench: \(error)")
    exit(1)
}
