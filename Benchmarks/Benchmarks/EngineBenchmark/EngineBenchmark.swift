import Benchmark
import EngineWorkload

/// package-benchmark suites: `swift package --package-path Benchmarks benchmark`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(10)
    Benchmark.defaultConfiguration.metrics = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    // One simulated minute of the peer workload with 1,000 timers (an hour is Benchmarks/compare's job).
    Benchmark("engine: 1,000 timers, 60 s at 60 Hz", configuration: .init(maxIterations: 5)) { benchmark in
        let (engine, _) = EngineWorkload(timers: 1000, seconds: 60).makeDevice()
        benchmark.startMeasurement()
        _ = engine.advance(to: .init(nanoseconds: 60_000_000_000))
        benchmark.stopMeasurement()
    }

    // Idle time is free: a million seconds with nothing observing vsyncs.
    Benchmark("engine: idle 1,000,000 s") { benchmark in
        for _ in benchmark.scaledIterations {
            let (engine, _) = EngineWorkload(timers: 0, seconds: 0).makeDevice()
            blackHole(engine.advance(to: .init(nanoseconds: 1_000_000 * 1_000_000_000)))
        }
    }
}
