import Foundation
import Testing

/// Issue 23 on the built binary: breakpoints in scripts (a stop is not an error, the script goes
/// on, `c` finishes), recorded and replayed; `s` after `r 1s`; `after … { a; b }`; a `run until`
/// that nothing could make hold fails at once (docs/Decisions.md, "Breakpoints and the time
/// commands").
@Suite struct BreakpointScriptTests {
    static let script = """
        # a hang, found by a breakpoint
        timer nstimer poll --interval 100ms --repeats --cost 5ms
        break when main.hangs > 0
        break on timer.fired poll
        break disable 2
        after 450ms { stall 300ms; echo stalled }
        run 2s
        expect clock.now == 450ms and main.hangs == 1
        c
        expect clock.now == 2s
        break list

        """

    @Test func aScriptStopsAtABreakpointGoesOnAndFinishesWithC() throws {
        let r = try Binary.run(["--no-rc"], stdin: Self.script)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                breakpoint 1: when main.hangs > 0
                breakpoint 2: on timer.fired 'poll' — An app timer fired (timer watch on).
                stalled
                stopped at 450ms by breakpoint 1, when main.hangs > 0 (main.hangs = 1); main thread: block 'stall 300ms' (450ms to 750ms)
                #  state     hits  breakpoint
                1  enabled   1     when main.hangs > 0
                2  disabled  0     on timer.fired 'poll'

                """, "\(r)")
        // The timer's watch is off: the breakpoint on its event says so.
        #expect(
            r.stderr
                == "<stdin>:4: warning: timer.fired is said only while it is watched ('timer watch on'), which is off now: this breakpoint waits until it is on\n",
            "\(r)")
    }

    @Test func aRecordingWithBreakpointsReplaysToTheSameAnswer() throws {
        let dir = try Binary.folder(["s.dsh": Self.script])
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = ["-c", "p clock.now timer.poll.fires main.busy_until main.hangs"]
        let live = try Binary.run(["--no-rc", "-c", "record r.dsh", "s.dsh"] + check, directory: dir)
        #expect(live.status == 0, "\(live)")
        let text = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        #expect(text.contains("\nbreak when main.hangs > 0\n"), "\(text)")
        #expect(text.contains("\nafter 450ms { stall 300ms ; echo stalled }\n"), "\(text)")
        let replay = try Binary.run(["--no-rc", "r.dsh"] + check, directory: dir)
        #expect(replay.status == 0, "\(replay)")
        let answer = "clock.now = 2s\ntimer.poll.fires = 17\nmain.busy_until = 1.905s\nmain.hangs = 1\n"
        #expect(live.stdout.hasSuffix(answer), "\(live)")
        #expect(replay.stdout.hasSuffix(answer), "\(replay)\n\(text)")
    }

    @Test func theTimeCommandsAtThePrompt() throws {
        let r = try Binary.run(
            ["--no-rc", "-k"],
            stdin: """
                r 1s
                s
                p clock.now clock.vsyncs
                after 300ms echo a; echo b
                after 300ms { echo c; echo d }
                r 1s
                run until fps.value > 30

                """)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout == "clock.now = 1.016666666s\nclock.vsyncs = 62\nb\na\nc\nd\n", "\(r)")
        #expect(
            r.stderr == """
                <stdin>:4: warning: 'echo b' runs now: ';' ends the command 'after' schedules; to schedule both, write 'after 300ms { echo a; echo b }'
                <stdin>:7: error: run until fps.value > 30: fps.value has no value, and nothing will give it one: the tool 'fps' is idle and no command is scheduled (start it first, see 'help fps')

                """, "\(r)")
    }
}
