import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

@testable import TimerInspectorTool

@Suite struct ListTests {
    @Test func emptyAndSorted() throws {
        try expectTranscript(
            """
            > timer list
            no timers (make one with 'timer nstimer', 'timer gcd', 'timer displaylink' or 'timer after')
            > timer nstimer b --interval 50ms --repeats
            > timer gcd c --interval 20ms --queue background
            > timer displaylink a --mode default
            > stall 100ms
            > run 200ms
            > timer
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            b     nstimer      default     50ms      0s          scheduled  2      1
            c     gcd          background  20ms      0s          scheduled  9      0
            a     displaylink  default     16.667ms  -           scheduled  6      6

            name  max late    next fire
            b     50ms busy   200ms
            c     0s          200ms
            a     100ms busy  200ms
            > timer list --sort name
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            a     displaylink  default     16.667ms  -           scheduled  6      6
            b     nstimer      default     50ms      0s          scheduled  2      1
            c     gcd          background  20ms      0s          scheduled  9      0

            name  max late    next fire
            a     100ms busy  200ms
            b     50ms busy   200ms
            c     0s          200ms
            > timer list --sort late
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            a     displaylink  default     16.667ms  -           scheduled  6      6
            b     nstimer      default     50ms      0s          scheduled  2      1
            c     gcd          background  20ms      0s          scheduled  9      0

            name  max late    next fire
            a     100ms busy  200ms
            b     50ms busy   200ms
            c     0s          200ms
            > timer list --sort fires --limit 2
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            c     gcd          background  20ms      0s          scheduled  9      0
            a     displaylink  default     16.667ms  -           scheduled  6      6

            name  max late    next fire
            c     0s          200ms
            a     100ms busy  200ms
            … 1 more (3 timers: 3 scheduled); --limit n shows more
            """)
    }

    /// Past --limit (default 50) the list is summarised, with the states of all rows.
    @Test func summarisedPastTheLimit() throws {
        let driver = try Driver()
        for i in 0..<60 { driver.run("timer gcd t\(i) --interval \(i + 1)ms --queue background") }
        driver.run("timer pause t3", "timer invalidate t4")
        let text = driver.run("timer list")
        let lines = text.split(separator: "\n")
        // Wider than 80 columns: two blocks of columns, each a header and 50 rows, each row
        // starting with its name (split drops the blank line between the blocks).
        #expect(lines.count == 103)
        #expect(lines[1].hasPrefix("t0  "))
        #expect(lines[50].hasPrefix("t49 "))
        #expect(lines[51].hasPrefix("name "))
        #expect(lines[101].hasPrefix("t49 "))
        #expect(lines[102] == "… 10 more (60 timers: 58 scheduled, 1 paused, 1 invalidated); --limit n shows more")
        #expect(driver.run("timer list --limit 60").split(separator: "\n").count == 122)
        #expect(driver.get("timer.count") == "59")
    }

    /// Tools' own links and the app's UI link are hidden and not counted without --all.
    @Test func allShowsToolsAndTheUILink() throws {
        try expectTranscript(
            """
            > probe
            > animate 50ms
            > run 100ms
            > timer list
            no timers (make one with 'timer nstimer', 'timer gcd', 'timer displaylink' or 'timer after')
            > timer nstimer poll --interval 30ms
            > run 50ms
            > timer list --all
            name        kind         mode/queue  interval   tol/leeway  state      fires
            system:UI   displaylink  common      16.667ms   -           scheduled  3
            probe:link  displaylink  common      16.667ms   -           scheduled  9
            poll        nstimer      default     30ms once  0s          done       1

            name        skipped  max late  next fire
            system:UI   0        0s        -
            probe:link  0        0s        150ms
            poll        0        0s        -
            > get timer.count
            timer.count = 0
            > get timer.wakeups
            timer.wakeups = 1
            """)
    }
}

@Suite struct ShowAndWatchTests {
    /// The history keeps the last 1,000 firings per timer (README, Limits), numbered from the first.
    @Test func ringKeepsTheLastThousand() throws {
        let driver = try Driver()
        driver.run("timer gcd fast --interval 1ms --queue background", "run 1201ms")
        #expect(driver.get("timer.fast.fires") == "1200")
        let last = driver.run("timer show fast --last 2")
        #expect(
            last == """
                fast: gcd, every 1ms, leeway 0s, background queue — scheduled
                fires 1200 · data 1200 · last data 1 · max late 0s · next fire 1.201s
                the last 2 of 1200 firings; --last n shows more (the last 1000 are kept)
                #     scheduled  fired   late  cause  data
                1199  1.199s     1.199s  0s    -      1
                1200  1.2s       1.2s    0s    -      1
                """)
        let all = driver.run("timer show fast --last 1000").split(separator: "\n")
        #expect(all.count == 1004)
        #expect(all[4].hasPrefix("201   201ms      201ms   0s"))
        #expect(driver.run("timer show fast --last 1001") == "error: --last: '1001' is outside 1…1000")
    }

    /// Run-length history: only off-grid firings are records; the on-grid ones between them are
    /// reconstructed on their grid (T4: after k skips the next is k + 1 intervals on). The
    /// largest lateness and its cause are kept apart, and a resume restarts the grid (T8).
    @Test func firingLog() {
        var log = FiringLog()
        let a = log.addTimer(pattern: .runLoop(interval: 10), origin: SimTime(nanoseconds: 10))
        let b = log.addTimer(pattern: .dispatch(interval: 10), origin: SimTime(nanoseconds: 5))
        let link = log.addTimer(pattern: .everyFiring, origin: .zero)
        for ring in [a, b, link] { log.assign(timer: ring, to: ring) }  // device timer ids 0, 1, 2
        #expect(log.last(5, of: a, fires: 0).isEmpty)
        #expect(log.maxLate(a, fires: 0) == nil)
        #expect(log.maxLate(a, fires: 3)?.lateness == .zero)
        // Firing 500 is 7 ms late (above the 1 ms threshold: the timer is late); firing 700 skips
        // two grid points.
        log.append(
            FiringRecord(
                number: 500, scheduled: SimTime(nanoseconds: 5_000), lateness: .milliseconds(7), cause: .busy,
                extra: 0),
            timer: a)
        #expect(log.lateCount == 1)
        log.append(
            FiringRecord(number: 700, scheduled: SimTime(nanoseconds: 7_000), lateness: .zero, cause: nil, extra: 2),
            timer: a)
        #expect(log.lateCount == 1)
        let firings = log.last(2_000, of: a, fires: 1_005)
        #expect(firings.count == 1_000 && log.kept(a, fires: 1_005) == 1_000)
        #expect(firings.first?.number == 6 && firings.first?.record.scheduled == SimTime(nanoseconds: 60))
        #expect(firings.map(\.number) == Array(6...1_005))
        let byNumber = Dictionary(uniqueKeysWithValues: firings.map { ($0.number, $0.record) })
        #expect(byNumber[500]?.lateness == .milliseconds(7) && byNumber[500]?.start == SimTime(nanoseconds: 7_005_000))
        #expect(byNumber[700]?.extra == 2)
        #expect(byNumber[701]?.scheduled == SimTime(nanoseconds: 7_030))
        #expect(byNumber[1_005]?.scheduled == SimTime(nanoseconds: 10_070))
        #expect(log.maxLate(a, fires: 1_005)?.lateness == .milliseconds(7))
        #expect(log.maxLate(a, fires: 1_005)?.cause == .busy)
        #expect(log.extraTotal(a, fires: 1_005) == 2)
        // T8: a restart moves the grid; the firings after it follow the new one.
        log.restart(a, number: 1_006, scheduled: SimTime(nanoseconds: 20_000))
        #expect(log.last(2, of: a, fires: 1_007).map(\.record.scheduled) == [20_000, 20_010].map(SimTime.init))
        // D3: after a handler covering three grid points, the next is three intervals on.
        log.append(
            FiringRecord(
                number: 2, scheduled: SimTime(nanoseconds: 15), lateness: .nanoseconds(25), cause: .busy, extra: 3),
            timer: b)
        #expect(log.last(4, of: b, fires: 4).map(\.record.scheduled) == [5, 15, 45, 55].map(SimTime.init))
        #expect(log.extraTotal(b, fires: 4) == 6)
        // A display link's every firing is a record.
        for k in 1...3 {
            log.append(
                FiringRecord(
                    number: Int64(k), scheduled: SimTime(nanoseconds: Int64(k) * 16), lateness: .zero, cause: nil,
                    extra: 0),
                timer: link)
        }
        #expect(log.last(5, of: link, fires: 3).map(\.record.scheduled) == [16, 32, 48].map(SimTime.init))
        // A timer the log does not know: nothing is kept, nothing counted.
        log.append(FiringRecord(number: 1, scheduled: .zero, lateness: .seconds(3_600), cause: nil, extra: 1), timer: 7)
        #expect(log.lateCount == 1 && log.kept(link, fires: 3) == 3)
    }

    /// Records are staged and stored in batches (FiringLog.append): a log read after every
    /// firing and one read only at the end, past several batches, with timers added on the way
    /// (which changes every ring's limit), rings that drop records and firings of device timers
    /// that have no ring (another tool's), show the same firings and the same totals.
    @Test func stagedRecordsReadAsIfStoredAtOnce() {
        var eager = FiringLog()
        var lazy = FiringLog()
        var timers: [Int] = []
        var fires: [Int64] = []
        var random = SplitMix(state: 14)
        let total = FiringLog.stagingCapacity * 3 + 123
        for n in 0..<total {
            // Timers come while the busy rings still grow: 2,100 in all, past 1,500 each ring's
            // share shrinks (from 1,000 records to 714), so which records went in before matters.
            if n == 0 || n == 10_000 || n == 30_000 {
                for _ in 0..<700 {
                    let origin = SimTime(nanoseconds: 10)
                    let ring = eager.addTimer(pattern: .runLoop(interval: 10), origin: origin)
                    _ = lazy.addTimer(pattern: .runLoop(interval: 10), origin: origin)
                    // Device timer 2r + 1 is ring r's; the even ids are other tools' timers.
                    eager.assign(timer: 2 * ring + 1, to: ring)
                    lazy.assign(timer: 2 * ring + 1, to: ring)
                    timers.append(ring)
                    fires.append(0)
                }
            }
            let t = Int(random.next() % UInt64(min(timers.count, 50)))  // a few busy timers
            fires[t] += 1 + Int64(random.next() % 8 == 0 ? 1 : 0)  // now and then one on the grid between
            let record = FiringRecord(
                number: fires[t], scheduled: SimTime(nanoseconds: fires[t] * 10),
                lateness: .nanoseconds(Int64(random.next() % 3_000_000)), cause: .busy, extra: Int64(random.next() % 2))
            let foreign = random.next() % 5 == 0
            eager.append(record, timer: foreign ? 2 * t : 2 * t + 1)
            lazy.append(record, timer: foreign ? 2 * t : 2 * t + 1)
            _ = eager.kept(t, fires: fires[t])  // a read stores what is staged
        }
        let (lazyLate, eagerLate) = (lazy.lateCount, eager.lateCount)
        #expect(lazyLate == eagerLate && lazyLate > 0)
        let (lazyMax, eagerMax) = (lazy.maxLate?.lateness, eager.maxLate?.lateness)
        #expect(lazyMax == eagerMax && lazyMax != nil)
        for t in timers {
            func shown(_ log: inout FiringLog) -> [[Int64]] {
                log.last(1_000, of: t, fires: fires[t]).map { [$0.number, $0.record.scheduled.nanoseconds] }
            }
            /// What the timer's history says, read from one log.
            func summary(_ log: inout FiringLog) -> (SimDuration?, Int64, Bool) {
                (
                    log.maxLate(t, fires: fires[t])?.lateness, log.extraTotal(t, fires: fires[t]),
                    log.isCutShort(t, fires: fires[t])
                )
            }
            let (lazyShown, eagerShown) = (shown(&lazy), shown(&eager))
            #expect(lazyShown == eagerShown)
            let (lazySummary, eagerSummary) = (summary(&lazy), summary(&eager))
            #expect(lazySummary == eagerSummary)
        }
    }

    /// When a ring is full, its oldest record goes and the window starts after it.
    @Test func firingLogDropsItsOldestRecords() {
        var log = FiringLog()
        let a = log.addTimer(pattern: .runLoop(interval: 10), origin: SimTime(nanoseconds: 10))
        log.assign(timer: 0, to: a)
        for k in 1...1_200 {
            log.append(
                FiringRecord(
                    number: Int64(k), scheduled: SimTime(nanoseconds: Int64(k) * 10), lateness: .nanoseconds(1),
                    cause: .busy, extra: 0),
                timer: a)
        }
        #expect(log.kept(a, fires: 1_200) == 1_000 && !log.isCutShort(a, fires: 1_200))
        let firings = log.last(1_000, of: a, fires: 1_200)
        #expect(firings.first?.number == 201 && firings.allSatisfy { $0.record.lateness == .nanoseconds(1) })
    }

    /// A record packs its cause into spare bits; every cause, and none, reads back exactly, up
    /// to the horizon.
    @Test func recordsPackExactly() {
        let near = SimTime(nanoseconds: SimTime.horizon.nanoseconds - 1)
        for cause in [nil, LatenessCause.mode, .busy, .coalesced, .paused] {
            let r = FiringRecord(
                number: 7, scheduled: near, lateness: SimDuration(nanoseconds: (1 << 62) - 2), cause: cause,
                extra: Int64.max)
            #expect(r.scheduled == near)
            #expect(r.lateness.nanoseconds == (1 << 62) - 2)
            #expect(r.cause == cause)
            #expect(r.extra == Int64.max && r.number == 7 && !r.isRestart)
        }
        #expect(FiringRecord.restart(number: 3, scheduled: near).isRestart)
        #expect(MemoryLayout<FiringRecord>.stride == 32)
    }

    /// `timer watch` prints each firing as a `timer.fired` event while time runs, and stops. At
    /// 100 ms the timer and the handler's block became ready at 50 ms: timers go first (RL4.3).
    @Test func watchEvents() throws {
        try expectTranscript(
            """
            > timer gcd poll --interval 50ms
            > timer nstimer tick --interval 50ms --repeats
            > timer watch on
            > stall 100ms
            > run 160ms
            [0.100s] timer: tick fired 50ms late (busy, scheduled 50ms)
            [0.100s] timer: poll fired 50ms late (busy, scheduled 50ms), data 2
            [0.150s] timer: tick fired
            [0.150s] timer: poll fired, data 1
            > timer watch off
            > run 100ms
            > get timer.tick.fires
            timer.tick.fires = 4
            """)
    }

    /// Names that are not `timer.<name>.<field>` are no metric of the tool's, never a trap.
    @Test func malformedMetricNames() throws {
        let driver = try Driver()
        driver.run("timer nstimer a --interval 1s")
        let inspector = try #require(driver.inspector)
        for name in [
            "timer.", "timer.fires", "timer..fires", "timer.a.", "timer.a.nope", "timers.a.fires", "timer.b.fires",
        ] {
            #expect(inspector.metric(name) == nil, "\(name)")
        }
        #expect(inspector.metric("timer.a.fires") == .integer(0))
    }

    /// K2: a callback still running is counted in fires, listed and its lateness counted from
    /// its start.
    @Test func aRunningCallback() throws {
        try expectTranscript(
            """
            > timer nstimer slow --interval 50ms --cost 100ms
            > run 100ms
            > timer show slow
            slow: nstimer, once after 50ms, tolerance 0s, default mode, cost 100ms — done
            fires 1 · skipped 0 · max late 0s · callback running since 50ms
            #  scheduled  fired  late  cause  skipped
            1  50ms       50ms   0s    -      0
            > run 100ms
            > timer show slow
            slow: nstimer, once after 50ms, tolerance 0s, default mode, cost 100ms — done
            fires 1 · skipped 0 · max late 0s
            #  scheduled  fired  late  cause  skipped
            1  50ms       50ms   0s    -      0
            """)
    }

    /// The status line: live timers, late ones with the largest lateness and its cause, leaks,
    /// wake-ups; none before the tool is used.
    @Test func statusLine() throws {
        try expectTranscript(
            """
            > status
            timer —
            probe —
            > object new vc
            > status
            timers 0 · late 0 · leaks 0 · wakeups 0
            probe —
            > timer nstimer poll --interval 50ms --repeats --target vc
            > timer gcd g --interval 50ms --queue background
            > timer displaylink l --fps 20
            > timer after once 10ms
            > object release vc
            vc is still alive: retained by poll — a leak (see 'timer leaks')
            > stall 100ms
            > run 300ms
            > status
            timers 3 · late 3 (max 100ms, busy) · leaks 1 · wakeups 10
            probe —
            """)
    }
}
