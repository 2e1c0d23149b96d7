import BuiltInTools
import DebugShell
import DebugShellTesting
import Testing

/// `reset` makes a fresh simulation and lets the old one go, whatever the tools did with it.
@Suite struct ResetTests {
    @Test func resetFreesTheOldDeviceAndItsTools() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        for line in [
            "fps start", "fps watch hitches", "view add a --frame 0,0,10,10", "layout watch", "view spin a",
            "timer nstimer t --interval 10ms --repeats", "timer watch on", "object new o",
            "timer displaylink d --target o", "after 5s echo later", "animate 1s", "run 500ms",
        ] {
            #expect(session.runLine(line) == .finished, "\(line)")
        }
        weak let oldDevice = session.engine
        weak let oldTool = session.tools.instances.last
        #expect(session.runLine("reset") == .finished)
        #expect(oldDevice == nil, "the old device is still alive after reset")
        #expect(oldTool == nil, "an old tool is still alive after reset")
    }

    @Test func resetKeepsAPendingRateChange() throws {
        let result = try Transcript.replay(
            "> run 5ms\n> display rate 120\n> reset\n> display\n120 Hz", tools: BuiltInTools.all)
        #expect(result.matches, "\(result)")
    }
}

/// A trap outside any call into a tool's code (debugsh's own, a plugin's thread, a `deinit` at
/// `reset`) is stamped with the device's time, not 0.000s (issue 36, 16).
@Suite struct TrapStampTests {
    @Test func aTrapOutsideToolCodeReadsTheDevicesTime() throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        _ = session.runLine("run 1.5s")
        let words = session.lastWords(signal: 4)  // SIGILL
        #expect(words.hasPrefix("debugsh trapped at 1.500s"), "\(words)")
        #expect(words.hasSuffix("a bug in debugsh; please report it, with the recording if there is one"), "\(words)")
    }
}
