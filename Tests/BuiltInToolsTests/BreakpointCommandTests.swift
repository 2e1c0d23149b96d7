import BuiltInTools
import DebugShellInterpreter
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell

/// LLDB's `breakpoint command add` (issue 37, 8): `break command add N { … }` runs its commands
/// when breakpoint N stops time, after the stop is said and before the prompt returns or the
/// script goes on; `break list` shows them, `break command delete N` clears them, and `record`
/// keeps them.
@Suite struct BreakpointCommandTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    @Test func aStopRunsItsCommandsAndTheListShowsThem() throws {
        try expectTranscript(
            """
            > timer nstimer t --interval 100ms --repeats
            > break when timer.t.fires >= 2
            breakpoint 1: when timer.t.fires >= 2
            > alias now = get clock.now
            > break command add 1 { now; echo stopped }
            > break list
            #  state    hits  breakpoint
            1  enabled  0     when timer.t.fires >= 2
                              { get clock.now; echo stopped }
            > run 1s
            stopped at 200ms by breakpoint 1, when timer.t.fires >= 2 (timer.t.fires = 2); main thread: idle since 200ms (last: timer 't')
            clock.now = 200ms
            stopped
            > break command add 1 get timer.t.fires
            > break disable 1
            > break when timer.t.fires >= 5
            breakpoint 2: when timer.t.fires >= 5
            > c
            stopped at 500ms by breakpoint 2, when timer.t.fires >= 5 (timer.t.fires = 5); main thread: idle since 500ms (last: timer 't')
            > break enable 1
            > break delete 2
            > break when timer.t.fires >= 7
            breakpoint 3: when timer.t.fires >= 7
            > break command add 3 echo three
            > break command delete 1
            > c
            stopped at 700ms by breakpoint 3, when timer.t.fires >= 7 (timer.t.fires = 7); main thread: idle since 700ms (last: timer 't')
            three
            > break list
            #  state    hits  breakpoint
            1  enabled  1     when timer.t.fires >= 2
            3  enabled  1     when timer.t.fires >= 7
                              { echo three }
            """)
    }

    @Test func onlyCommandsThatNeitherMoveTimeNorEndTheSessionAreTaken() throws {
        try expectTranscript(
            """
            > break when main.hangs > 0
            breakpoint 1: when main.hangs > 0
            > break command add 1 { echo a; run 1s }
            error: 'run' cannot be a breakpoint's command: only commands that neither move time nor end the session can
            > break command add 1 exit 3
            error: 'exit' cannot be a breakpoint's command: only commands that neither move time nor end the session can
            > break command add 1 { nosuch }
            error: unknown command 'nosuch' (try 'help')
            > break command add 2 echo x
            error: no breakpoint 2 (see 'break list')
            > break command add 1
            error: 'break command add 1' needs a command, or a block '{ a; b }' of them
            > break command add 1 { echo a
            error: the block '{ … }' is not closed: '}' must be its last word, alone
            > break list
            #  state    hits  breakpoint
            1  enabled  0     when main.hangs > 0
            """)
        // `--check` refuses the same, without running anything.
        var checker = ScriptChecker(session: try Session(tools: BuiltInTools.all, sink: MemorySink()))
        checker.check(
            "break when main.hangs > 0\nbreak command add 1 { echo a; run 1s }\n",
            origin: ScriptOrigin(name: "check.dsh"))
        let problems = checker.problems
        #expect(problems.contains { $0.message.contains("'run' cannot be") && $0.location.line == 2 }, "\(problems)")
    }

    /// A script goes on after a stop's commands; a failed one fails the stop as a failed command
    /// would, at the line that added it, and the rest of the block does not run.
    @Test func aFailedCommandFailsTheStopWhereItWasAdded() throws {
        let run = try Transcript.run(
            """
            break when --once main.hangs > 0
            break command add 1 { echo first; expect main.hangs == 0; echo never }
            after 100ms stall 300ms
            run 1s
            echo not reached
            """, tools: BuiltInTools.all)
        #expect(run.outcome == .failed)
        #expect(
            run.stdout
                == "breakpoint 1: when main.hangs > 0 (once)\nstopped at 100ms by breakpoint 1, when main.hangs > 0 (once) (main.hangs = 1); main thread: block 'stall 300ms' (100ms to 400ms)\nfirst\n",
            "\(run.stdout)")
        #expect(
            run.stderr == "test.dsh:2: error: expectation failed: main.hangs == 0 (main.hangs = 1)\n", "\(run.stderr)")
    }

    /// A recording defines the commands (aliases expanded) and its replay's stop runs them once;
    /// the commands that ran are not recorded themselves. After `reset` the preamble keeps them.
    @Test func aRecordingKeepsThemAndItsReplayRunsThem() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("debugsh-bc-\(UUID().uuidString).dsh").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let live = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: live)
        for line in [
            "record \(path)", "alias hangs = get main.hangs", "break when main.hangs > 0",
            "break command add 1 { hangs; echo seen }", "after 100ms stall 300ms", "run 1s", "record stop",
        ] {
            #expect(session.runLine(line) == .finished, "\(line)\n\(live.combined)")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("break command add 1 { get main.hangs ; echo seen }\n"), "\(text)")
        #expect(!text.contains("\necho seen"), "\(text)")
        let replay = MemorySink()
        let replayed = try Session(tools: BuiltInTools.all, sink: replay)
        #expect(replayed.runScript(text, origin: ScriptOrigin(name: "replay.dsh")) == .finished, "\(replay.combined)")
        #expect(replay.standardOutput.hasSuffix("main.hangs = 1\nseen\n"), "\(replay.standardOutput)")
        #expect(replay.standardOutput.components(separatedBy: "seen").count == 2, "\(replay.standardOutput)")
        // `reset` keeps breakpoints: a recording made after it starts by defining them again.
        #expect(replayed.time.breakpoints.definitions().contains("break command add 1 { get main.hangs; echo seen }"))
    }

    /// `break command <Tab>` offers add and delete; a breakpoint's command completes as a typed
    /// one does, in a block too.
    @Test func itsCommandsComplete() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        #expect(session.complete("break command ").candidates == ["add", "delete"])
        #expect(session.complete("break command add 1 get clock.n").candidates == ["clock.now"])
        #expect(session.complete("break command add 1 { echo a; get clock.n").candidates == ["clock.now"])
        #expect(session.complete("break command add 1 { ec").candidates == ["echo"])
    }

    /// `play` (the interactive front end's ticks) runs a stop's commands where it stops.
    @Test func aStopOfPlayRunsThem() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        session.time.supportsPlay = true
        for line in [
            "break when main.hangs > 0", "break command add 1 echo from play", "after 50ms stall 300ms", "play",
        ] {
            #expect(session.runLine(line) == .finished, "\(line)\n\(sink.combined)")
        }
        var ticks = 0
        while session.time.playSpeed != nil && ticks < 100 {
            session.time.playTick(wallNanoseconds: 10_000_000)
            ticks += 1
        }
        #expect(session.time.playSpeed == nil, "play stopped at the breakpoint")
        #expect(sink.standardOutput.hasSuffix("(50ms to 350ms)\nfrom play\n"), "\(sink.standardOutput)")
    }
}
