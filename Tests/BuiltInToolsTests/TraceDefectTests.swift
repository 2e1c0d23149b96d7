import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// The defects issue 32 found by looking at traces in Perfetto's UI, each checked on the trace as
/// Perfetto reads it (``PerfettoImport``).
@Suite struct TraceDefectTests {
    let base = TraceTests()

    /// Issue 32: after a `reset`, a timer item's `lateness_ns` added the reset's offset (its
    /// scheduled time was the simulation's, its start the trace's) and a hitch's
    /// `expected_present_ns` was the simulation's while its `present_ns` was the trace's. Every
    /// time in the arguments is on the trace's clock now.
    @Test func timesInArgumentsAreOnTheTracesClockAfterAReset() throws {
        let (_, trace, _) = try base.traced([
            "trace start", "run 1500ms", "reset", "timer nstimer tick --interval 100ms --repeats --cost 1ms",
            "timer gcd bg --interval 50ms --queue background --cost 1ms", "timer displaylink link --cost 1ms",
            "animate 1s",
            "load gpu 20ms", "run 1s",
        ])
        let offset: Int64 = 1_500_000_000
        let timed = trace.slices.filter { $0.args["lateness_ns"] != nil }
        for name in ["tick", "bg", "link"] { #expect(timed.contains { $0.name == name }, "\(name)") }
        #expect(timed.count > 40)
        for slice in timed {
            let scheduled = Int64(try #require(slice.args["scheduled_ns"] as? Int))
            let lateness = Int64(try #require(slice.args["lateness_ns"] as? Int))
            #expect(scheduled >= offset, "\(slice): scheduled on the trace's clock")
            #expect(lateness == max(0, slice.ts - scheduled), "\(slice)")
            // Late by a callback's cost at most (the link and the timer meet), never by the offset.
            #expect(lateness <= 2_000_000, "\(slice) reads \(lateness) ns late")
        }
        let hitches = trace.slices(onThread: "Hitches")
        #expect(hitches.count > 10)
        for hitch in hitches {
            let expected = Int64(try #require(hitch.args["expected_present_ns"] as? Int))
            let present = Int64(try #require(hitch.args["present_ns"] as? Int))
            let length = Int64(try #require(hitch.args["hitch_ns"] as? Int))
            #expect(present == hitch.end && expected == hitch.ts, "\(hitch)")
            #expect(present - expected == length && expected >= offset, "\(hitch)")
        }
        // The presents' expected times were already the trace's: they still are.
        for present in trace.slices(onThread: "Display") where present.name == "present" {
            #expect(Int64(present.args["expected_present_ns"] as? Int ?? 0) >= offset, "\(present)")
        }
    }

    /// Issue 32: zero-cost items merged into one slice kept only their names, so a late timer's
    /// lateness and cause vanished, and a merged commit could not be found by searching "commit"
    /// (the tour: 376 of 528). The merged slice is named by what it holds and lists each late
    /// callback with its arguments.
    @Test func mergedItemsKeepLatenessAndCommitsAreFindable() throws {
        let (session, trace, _) = try base.traced([
            "trace start --categories main", "timer nstimer a --interval 100ms --repeats", "timer displaylink ui",
            "animate 1s", "after 250ms stall 100ms", "run 1s",
        ])
        let main = trace.slices(onThread: "Main thread")
        let merged = main.filter { $0.args["items"] != nil }
        #expect(merged.count > 20)
        // Every commit is found by its name, merged or not, and they are all there.
        var commits = 0
        for slice in main where slice.name.contains("commit") {
            let items = slice.args["items"] as? [String] ?? [slice.name]
            commits += items.filter { $0 == "commit" }.count
        }
        let allCommits = main.reduce(0) { sum, slice in
            sum + (slice.args["items"] as? [String] ?? [slice.name]).filter { $0 == "commit" }.count
        }
        #expect(commits == allCommits && Int64(commits) == base.metric(session, "render.commits"), "\(commits)")
        #expect(merged.contains { ($0.args["items"] as? [String])?.contains("commit") == true })
        // The stall [250 ms, 350 ms) makes `a`'s 300 ms firing 50 ms late, and the links' 250 ms
        // callbacks 100 ms late; all zero-cost, they are merged with the commit at 350 ms.
        let at350 = try #require(merged.first { $0.ts == 350_000_000 })
        #expect(at350.name.contains("commit") && at350.name.contains("late"), "\(at350.name)")
        let late = try #require(at350.args["late"] as? [[String: Any]])
        let a = try #require(late.first { $0["name"] as? String == "a" })
        #expect(a["scheduled_ns"] as? Int == 300_000_000 && a["lateness_ns"] as? Int == 50_000_000)
        #expect(a["cause"] as? String == "busy" && a["kind"] as? String == "timer" && a["timer"] is Int)
        // Every late callback anywhere is listed with its lateness; none on time is.
        for slice in merged {
            for entry in slice.args["late"] as? [[String: Any]] ?? [] {
                #expect((entry["lateness_ns"] as? Int ?? 0) > 0 && entry["cause"] as? String != nil, "\(entry)")
            }
        }
        // `a` fired 9 times: each is a slice of its own with its arguments, or a merged item.
        let alone = main.filter { $0.name == "a" && $0.args["timer"] != nil }.count
        let inMerged = merged.reduce(0) { $0 + (($1.args["items"] as? [String])?.filter { $0 == "a" }.count ?? 0) }
        #expect(alone + inMerged == Int(base.metric(session, "timer.a.fires")))
    }

    /// Issue 32: an item of no length at its iteration's end stood beside the iteration (Perfetto
    /// closes a slice where the next begins), or inside a sibling item of no length there
    /// (`fps meter` inside `commit`). Each sits in its run-loop iteration now: those at an
    /// iteration's end in an iteration of no length at that instant.
    @Test func zeroLengthItemsSitInTheirIteration() throws {
        let (_, trace, _) = try base.traced([
            "trace start", "fps start", "timer displaylink ui", "timer nstimer t --interval 50ms --repeats",
            "view add a --frame 0,0,10,10", "layout watch", "animate 1s", "load gpu 20ms", "after 300ms stall 100ms",
            "run 1s", "reset", "fps start", "animate 500ms", "run 600ms",
        ])
        let main = trace.slices(onThread: "Main thread")
        let items = main.filter { $0.name != "run loop iteration" }
        let zero = items.filter { $0.dur == 0 }
        #expect(zero.count > 50)
        for item in items {
            let parent = item.parent.map { trace.slices[$0] }
            #expect(parent?.name == "run loop iteration", "\(item) in \(parent.map(\.description) ?? "nothing")")
            if item.dur == 0, let parent { #expect(parent.ts <= item.ts && item.ts <= parent.end) }
        }
        // The meter's callbacks are all there, each in an iteration (alone or merged).
        let meter = items.reduce(0) { sum, slice in
            sum + (slice.args["items"] as? [String] ?? [slice.name]).filter { $0 == "fps meter" }.count
        }
        #expect(meter >= 80, "\(meter)")
    }

    /// Issue 32: the FPS meter's `label reading` counter held its last value after `fps stop` and
    /// across a reset, and each reading stood a window after the presented FPS of the same span.
    /// A reading is written at its window's start, as a second's presented FPS is at the second's,
    /// and the counter drops to 0 when the meter stops and when the simulation ends.
    @Test func theLabelReadingIsAlignedAndDropsWhenItsSourceStops() throws {
        let ms: Int64 = 1_000_000
        let (_, trace, _) = try base.traced([
            "trace start", "fps start --window 250ms", "animate 3s", "load gpu 20ms", "run 1100ms", "fps stop",
            "run 500ms", "fps start --window 250ms", "run 600ms", "reset", "animate 1s", "run 1s",
        ])
        let label = trace.counters.filter { $0.track == "fps: label reading" }.map { ($0.ts / ms, $0.value) }
        // The first meter's windows [0, 250) … [750, 1000) ms, each read at its start; then 0 at its
        // stop (1.1 s); the second's from its start (1.6 s) until the reset (2.2 s), then nothing.
        #expect(label.map(\.0) == [0, 250, 500, 750, 1100, 1600, 1850, 2200], "\(label)")
        #expect(label.map(\.1) == [60, 60, 60, 60, 0, 60, 60, 0], "\(label)")
        // Beside it, the presented FPS of the first second from the same instant.
        let presented = trace.counters.filter { $0.track == "Presented FPS" }
        #expect(presented.first?.ts == 0 && presented.first.map { $0.value < 40 } == true)
        // The next simulation's label track says nothing: its last value is the 0 of the reset.
        #expect(label.last.map { $0.1 == 0 && $0.0 <= 2200 } == true)
    }
}
