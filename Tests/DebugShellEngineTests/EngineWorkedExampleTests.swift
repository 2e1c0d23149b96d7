import DebugShellCore
import Testing

@testable import DebugShellEngine

/// Records every observation of the kinds asked for.
final class Recorder: DeviceObserver {
    var firings: [TimerFiring] = []
    var presents: [PresentInfo] = []
    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        switch observation {
        case .timerFired(let f): firings.append(f)
        case .presented(let p): presents.append(p)
        default: break
        }
    }
}

let ms: Int64 = 1_000_000

@Suite struct EngineWorkedExamples {
    /// DL-A: 60 Hz; `fps start; stall 100ms; run 2s` — the meter reads 54, 6 vsyncs skipped.
    @Test func dlA() {
        let engine = DeviceEngine()
        var last: SimTime?
        var count = 0
        var reading: Int?
        var first: (timestamp: SimTime, start: SimTime)?
        let link = engine.addDisplayLink(DisplayLinkConfig(owner: .tool("fps"), label: "meter")) { cb in
            if first == nil { first = (cb.timestamp, cb.start) }
            guard let l = last else { last = cb.timestamp; return .zero }
            count += 1
            let span = cb.timestamp - l
            if span >= .seconds(1) {
                reading = Int((Double(count) / (Double(span.nanoseconds) / 1e9)).rounded())
                count = 0
                last = cb.timestamp
            }
            return .zero
        }
        engine.stall(.milliseconds(100), dirtiesUI: false)
        _ = engine.advance(to: SimTime(nanoseconds: 2_000 * ms))
        #expect(first?.timestamp == .zero)
        #expect(first?.start == SimTime(nanoseconds: 100 * ms))
        #expect(reading == 54)
        #expect(engine.timerInfo(link)?.skipped == 6)
    }

    /// T-A: `timer nstimer poll --interval 50ms --repeats; stall 100ms; run 300ms`.
    @Test func tA() {
        let engine = DeviceEngine()
        let rec = Recorder()
        _ = engine.addObserver(rec, kinds: .timerFired)
        let id = engine.addRunLoopTimer(
            RunLoopTimerConfig(interval: .milliseconds(50), repeats: true, owner: .app, label: "poll"), callback: nil)
        engine.stall(.milliseconds(100), dirtiesUI: false)
        _ = engine.advance(to: SimTime(nanoseconds: 300 * ms))
        let starts = rec.firings.map { $0.start.nanoseconds / ms }
        #expect(starts == [100, 150, 200, 250])
        #expect(rec.firings[0].lateness == .milliseconds(50))
        #expect(rec.firings[0].cause == .busy)
        #expect(engine.timerInfo(id)?.fires == 4)
        #expect(engine.timerInfo(id)?.skipped == 1)
        // A run-loop timer's firing covers one point (D3 is GCD's): data 1 each, 4 in all.
        #expect(engine.timerInfo(id)?.lastData == 1)
        #expect(engine.timerInfo(id)?.totalData == 4)
    }

    /// RL5's worked example: `timer nstimer tick --interval 50ms --cost 10ms --ui; after 55ms stall
    /// 10ms; run 100ms`. The iteration after the timer's drains the stall first (RL4.1), so the
    /// commit starts at 70, not 60: the frame renders from v5 and is presented at v6 = 100.
    @Test func rl5CommitWaitsForADrain() {
        let engine = DeviceEngine()
        let rec = Recorder()
        final class Commits: DeviceObserver {
            var starts: [Int64] = []
            var items: [String] = []
            func device(_ device: any SimulatedDevice, observed o: DeviceObservation) {
                switch o {
                case .commit(_, let start, _, _): starts.append(start.nanoseconds)
                case .mainItem(let m): items.append("\(m.kind) \(m.start.nanoseconds / ms) i\(m.iteration)")
                default: break
                }
            }
        }
        let commits = Commits()
        _ = engine.addObserver(rec, kinds: .present)
        _ = engine.addObserver(commits, kinds: [.commit, .mainItem])
        _ = engine.addRunLoopTimer(
            RunLoopTimerConfig(
                interval: .milliseconds(50), repeats: false, cost: .milliseconds(10), dirtiesUI: true, owner: .app,
                label: "tick"),
            callback: nil)
        engine.schedule(at: SimTime(nanoseconds: 55 * ms)) { engine.stall(.milliseconds(10), dirtiesUI: false) }
        _ = engine.advance(to: SimTime(nanoseconds: 100 * ms))
        #expect(commits.starts == [70 * ms])
        #expect(engine.commits == 1)
        #expect(engine.presents == 0)
        // Three iterations: the timer's (step 3), the drain (step 1), the commit (step 2).
        #expect(commits.items == ["timer 50 i1", "block 60 i2", "commit 70 i3"])
        _ = engine.advance(to: SimTime(nanoseconds: 101 * ms))
        #expect(rec.presents.map(\.present.nanoseconds) == [100 * ms])
    }

    /// D-A: `timer gcd poll --interval 50ms --queue main; stall 100ms; run 300ms`.
    @Test func dA() {
        let engine = DeviceEngine()
        let rec = Recorder()
        _ = engine.addObserver(rec, kinds: .timerFired)
        let id = engine.addDispatchTimer(
            DispatchTimerConfig(interval: .milliseconds(50), queue: .main, owner: .app, label: "poll"), callback: nil)
        engine.stall(.milliseconds(100), dirtiesUI: false)
        _ = engine.advance(to: SimTime(nanoseconds: 300 * ms))
        #expect(rec.firings.map { $0.start.nanoseconds / ms } == [100, 150, 200, 250])
        #expect(rec.firings.map(\.data) == [2, 1, 1, 1])
        let info = engine.timerInfo(id)
        #expect(info?.fires == 4)
        #expect(info?.totalData == 5)
        #expect(info?.lastData == 1)
        #expect(info?.maxLateness == .milliseconds(50))
    }

    /// D-A on a background queue: handlers at 50…250, each data 1, late 0.
    @Test func dABackground() {
        let engine = DeviceEngine()
        let rec = Recorder()
        _ = engine.addObserver(rec, kinds: .timerFired)
        _ = engine.addDispatchTimer(
            DispatchTimerConfig(interval: .milliseconds(50), queue: .background, owner: .app, label: "poll"),
            callback: nil)
        engine.stall(.milliseconds(100), dirtiesUI: false)
        _ = engine.advance(to: SimTime(nanoseconds: 300 * ms))
        #expect(rec.firings.map { $0.start.nanoseconds / ms } == [50, 100, 150, 200, 250])
        #expect(rec.firings.allSatisfy { $0.data == 1 && $0.lateness == .zero })
    }

    /// R-A: `fps start; animate 10s; load gpu 20ms; run 3s` — presents every other vsync.
    @Test func rA() {
        let engine = DeviceEngine()
        let rec = Recorder()
        _ = engine.addObserver(rec, kinds: .present)
        var callbacks = 0
        _ = engine.addDisplayLink(DisplayLinkConfig(owner: .tool("fps"), label: "meter")) { _ in
            callbacks += 1; return .zero
        }
        engine.animate(for: .seconds(10))
        engine.gpuCost = .milliseconds(20)
        _ = engine.advance(to: SimTime(nanoseconds: 3_000 * ms))
        let presents = rec.presents.map(\.present.nanoseconds)
        #expect(presents.prefix(3) == [50_000_000, 83_333_333, 116_666_666])
        #expect(rec.presents.count == 89)
        #expect(callbacks == 180)
        var hitch: Int64 = 0
        for p in rec.presents where p.counted {
            // R4: every present is a 16.667 ms render hitch.
            #expect(p.hitch.nanoseconds == 16_666_667 || p.hitch.nanoseconds == 16_666_666)
            #expect(p.renderLate && !p.commitLate)
            hitch += p.hitch.nanoseconds
        }
        // 89 × 16.667 ms over 3 s ≈ 494 ms/s.
        #expect(hitch / ms == 1483)
        #expect(rec.presents.filter { $0.present.nanoseconds >= 2_000 * ms }.count == 30)
    }
}
