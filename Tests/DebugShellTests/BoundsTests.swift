import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// A sink that calls `onWrite` with each text written, after keeping it.
final class WatchingSink: OutputSink {
    let memory = MemorySink()
    var onWrite: (String) -> Void = { _ in }

    func write(_ text: String, to stream: OutputStreamKind) {
        memory.write(text, to: stream)
        onWrite(text)
    }
}

/// The session's own bounds and its interrupts (issue 15), in process.
@Suite struct SessionBoundsTests {
    func session(_ sink: any OutputSink = MemorySink()) throws -> Session {
        try Session(tools: [CounterTool.self], options: SessionOptions(), sink: sink)
    }

    @Test func anInterruptStopsAScriptBeforeItsNextCommand() throws {
        let sink = WatchingSink()
        let s = try session(sink)
        var interrupted = false
        s.isInterrupted = { interrupted }
        sink.onWrite = { if $0 == "two\n" { interrupted = true } }
        let outcome = s.runScript("echo one\necho two\necho three\n", origin: ScriptOrigin(name: "s.dsh"))
        #expect(outcome == .interrupted)
        #expect(sink.memory.standardOutput == "one\ntwo\n")
        #expect(sink.memory.standardError == "s.dsh:2: error: interrupted at 0s\n")
    }

    @Test func commandsAnInterruptHeldBackRunWhenTimeMovesAgain() throws {
        let sink = WatchingSink()
        let s = try session(sink)
        var interrupted = false
        s.isInterrupted = { interrupted }
        sink.onWrite = { if $0 == "a\n" { interrupted = true } }
        _ = s.runLine("at 1s echo a; at 1s echo b; at 1500ms echo c")
        #expect(s.runLine("run 2s") == .interrupted)
        // Time stopped after the instant in which the interrupt came; b waits, nothing is lost.
        #expect(sink.memory.combined == "a\nerror: interrupted at 1s\n")
        #expect(s.engine.now == SimTime(nanoseconds: 1_000_000_000))
        interrupted = false
        sink.memory.clear()
        _ = s.runLine("run 1s")
        #expect(sink.memory.combined == "b\nc\n")
    }

    @Test func theHistoryKeepsTheLastTenThousandAndNumbersGoOn() throws {
        let sink = MemorySink()
        let s = try session(sink)
        for i in 1...(Session.historyLimit + 5) { _ = s.runLine("alias q\(i % 3) = echo") }
        sink.clear()
        _ = s.runLine("history 2")
        #expect(sink.standardOutput == "10005  alias q0 = echo\n10006  history 2\n")
        #expect(s.history.count == Session.historyLimit)
    }

    @Test func aliasesListInTheOrderTheyWereFirstDefined() throws {
        let sink = MemorySink()
        let s = try session(sink)
        for line in ["alias b = echo 1", "alias a = echo 2", "alias c = echo 3", "alias b = echo 4", "unalias c"] {
            _ = s.runLine(line)
        }
        sink.clear()
        _ = s.runLine("alias")
        #expect(sink.standardOutput.hasSuffix("\nyours:\n  b = echo 4\n  a = echo 2\n"), "\(sink.standardOutput)")
    }

    @Test func tooManyWaitingCommandsIsAnError() throws {
        let sink = MemorySink()
        let s = try session(sink)
        s.scheduler.pendingLimit = 3
        for _ in 1...4 { _ = s.runLine("after 1s echo x") }
        #expect(sink.standardError == "error: too many scheduled commands: at most 3 may wait at once\n")
        _ = s.runLine("run 2s")
        // Once they ran, there is room again; `every` keeps one waiting at a time.
        _ = s.runLine("every 1s --times 2 echo y")
        _ = s.runLine("after 1s echo z")
        _ = s.runLine("run 3s")
        #expect(sink.standardOutput == "x\nx\nx\ny\nz\ny\n")
        #expect(s.scheduler.pending == 0)
    }

    @Test func nestedSchedulingKeepsEachLevelsCommand() throws {
        let sink = MemorySink()
        let s = try session(sink)
        _ = s.runLine("after 1ms after 2ms every 1ms --times 2 echo deep; echo now")
        _ = s.runLine("run 10ms")
        #expect(sink.standardOutput == "now\ndeep\ndeep\n")
        // `; echo now` runs now, and says so (issue 23).
        #expect(sink.standardError.hasPrefix("warning: 'echo now' runs now: ';' ends the command 'after' schedules"))
        sink.clear()
        _ = s.runLine("after 1ms after 2ms counter nope")
        _ = s.runLine("run 10ms")
        #expect(sink.standardError.contains("error: at 11ms: unknown verb 'nope' for 'counter'"))
    }
}
