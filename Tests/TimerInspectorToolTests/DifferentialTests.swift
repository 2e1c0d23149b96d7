import DebugShellCore
import DebugShellTesting
import Testing

@testable import TimerInspectorTool

/// Two independent ways to the same numbers: the inspector's history of firings (its own
/// records, from the device's observations) and the device's counters (kept in its timer
/// records, apart from any observer). On seeded random scenarios — main and background timers of
/// every kind, stalls, scrolls, animations, coalescing, pauses and invalidations, and runs that
/// end inside callbacks — they agree after every run: fires (K2: from the start), skips decided
/// at now (T4, T8), a dispatch timer's data (D3) and the largest lateness (K2).
@Suite struct DifferentialTests {
    struct Scenario {
        var rng: SplitMix
        var names: [String] = []
        var objects: [String] = []

        mutating func ms(_ range: ClosedRange<Int>) -> String { "\(Int.random(in: range, using: &rng))ms" }
        mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func timer() -> String {
            let name = "t\(names.count)"
            names.append(name)
            let target =
                !objects.isEmpty && chance(0.2) ? " --target \(pick(objects))\(chance(0.5) ? " --weak" : "")" : ""
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1:
                return
                    "timer nstimer \(name) --interval \(ms(3...90))\(chance(0.8) ? " --repeats" : "") --cost \(ms(0...70))"
                    + " --mode \(pick(["default", "default", "common", "tracking"]))"
                    + (chance(0.3) ? " --tolerance \(ms(0...2))" : "") + target
            case 2:
                return "timer gcd \(name) --interval \(ms(3...90)) --queue \(pick(["main", "background"]))"
                    + " --cost \(ms(0...70))\(chance(0.1) ? " --once" : "")\(chance(0.3) ? " --leeway \(ms(0...2))" : "")"
                    + target
            case 3:
                return "timer displaylink \(name) --fps \(pick([0, 0, 30, 20])) --cost \(ms(0...20))"
                    + " --mode \(pick(["common", "default", "tracking"]))" + target
            default:
                return "timer after \(name) \(ms(0...200)) --cost \(ms(0...30))"
            }
        }

        mutating func step() -> String {
            switch Int.random(in: 0..<16, using: &rng) {
            case 0, 1, 2: return timer()
            case 3: return "stall \(ms(0...300))"
            case 4: return "scroll \(ms(20...400))"
            case 5: return "animate \(ms(20...400))"
            case 6: return "set runloop.coalescing \(pick(["on", "off"]))"
            case 7, 8:
                guard !names.isEmpty else { return "stall 5ms" }
                return "timer \(pick(["pause", "resume", "invalidate", "resume"])) \(pick(names))"
            case 9:
                let name = "o\(objects.count)"
                objects.append(name)
                return "object new \(name)"
            case 10:
                guard !objects.isEmpty else { return "stall 1ms" }
                return "object release \(pick(objects))"
            case 11: return "after \(ms(0...150)) stall \(ms(1...120))"
            case 12: return "load frame \(ms(0...12))"
            default:
                // Run lengths that often end inside a callback, and instants done by `step`.
                return pick([
                    "run \(ms(1...250))", "run \(Int.random(in: 1...900_000, using: &rng))us", "step", "step 3",
                ])
            }
        }
    }

    @Test func theHistoryAgreesWithTheDevicesCounters() throws {
        let (start, seed) = SplitMix.seeded()
        var scenario = Scenario(rng: start)
        var compared = 0
        for round in 0..<30 {
            scenario.names = []
            scenario.objects = []
            let driver = try Driver()
            let inspector = try #require(driver.inspector)
            var lines: [String] = []
            for _ in 0..<Int.random(in: 20...80, using: &scenario.rng) {
                let line = scenario.step()
                lines.append(line)
                driver.run(line)
                guard line.hasPrefix("run") || line.hasPrefix("step") else { continue }
                let device = driver.session.engine
                for name in scenario.names {
                    guard let history = inspector.history(name), let index = inspector.entryByName[name],
                        let info = device.timerInfo(inspector.entries[index].id)
                    else { continue }
                    let context =
                        "seed \(seed) (DEBUGSH_TEST_SEED=\(seed)), round \(round), timer \(name) at \(device.now)\n"
                        + lines.joined(separator: "\n")
                    if info.fires > 0 { compared += 1 }
                    #expect(history.fires == info.fires, "fires\n\(context)")
                    #expect(history.maxLate == (info.fires > 0 ? info.maxLateness : nil), "max late\n\(context)")
                    switch info.kind {
                    case .runLoopTimer: #expect(history.skipped == info.skipped, "skipped\n\(context)")
                    case .dispatchTimer: #expect(history.data == info.totalData, "data\n\(context)")
                    case .displayLink: break
                    }
                    if history.fires != info.fires || history.skipped != info.skipped && info.kind == .runLoopTimer
                        || history.maxLate != (info.fires > 0 ? info.maxLateness : nil)
                    {
                        return
                    }
                }
            }
        }
        // Not vacuous: many timers had fired when they were compared.
        #expect(compared > 300, "seed \(seed): only \(compared) comparisons")
    }

    /// Run-length history against a recording of every firing: on random scenarios the
    /// inspector that keeps only off-grid firings shows exactly what the one that keeps every
    /// firing shows — every timer's `timer show --last 1000`, `timer list`, the metrics — after
    /// every run, runs that end inside callbacks and `timer watch` switched on and off included.
    @Test func runLengthHistoryShowsWhatAFullRecordingShows() throws {
        let (start, seed) = SplitMix.seeded()
        var scenario = Scenario(rng: start)
        var compared = 0
        for round in 0..<25 {
            scenario.names = []
            scenario.objects = []
            let full = try Driver(json: true)
            let runLength = try Driver(json: true)
            try #require(full.inspector).keepsEveryFiring = true
            var lines: [String] = []
            for _ in 0..<Int.random(in: 20...80, using: &scenario.rng) {
                var line = scenario.step()
                if Int.random(in: 0..<20, using: &scenario.rng) == 0 {
                    line = Bool.random(using: &scenario.rng) ? "timer watch on" : "timer watch off"
                }
                lines.append(line)
                let a = full.run(line)
                let b = runLength.run(line)
                let context =
                    "seed \(seed) (DEBUGSH_TEST_SEED=\(seed)), round \(round)\n" + lines.joined(separator: "\n")
                #expect(a == b, "\(context)")
                guard line.hasPrefix("run") || line.hasPrefix("step") else { continue }
                for name in scenario.names {
                    let show = "timer show \(name) --last 1000"
                    let x = full.run(show)
                    let y = runLength.run(show)
                    if x.contains("\"firings\": [{") { compared += 1 }
                    #expect(x == y, "\(name)\n\(context)")
                    if x != y { return }
                }
                #expect(full.run("metrics timer") == runLength.run("metrics timer"), "\(context)")
            }
        }
        #expect(compared > 200, "seed \(seed): only \(compared) comparisons")
    }
}
