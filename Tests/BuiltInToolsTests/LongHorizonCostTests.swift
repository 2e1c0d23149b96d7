import BuiltInTools
import DebugShell
import DebugShellTesting
import Testing

/// Long horizons cost what happens, not how much time passes (D3, D4, T4), counted in the
/// engine's instants rather than timed: a million seconds behind a stall is a handful of them.
@Suite struct LongHorizonCostTests {
    @Test(arguments: ["timer gcd g --interval 1ms", "timer gcd g --interval 1ms --queue background --cost 1000000s"])
    func aMillisecondTimerBehindAMillionSecondsIsFewInstants(timer: String) throws {
        let session = try Session(tools: BuiltInTools.all, sink: MemorySink())
        for line in [timer, "stall 1000000s", "run 1000001s"] { _ = session.runLine(line) }
        #expect(session.engine.now.nanoseconds == 1_000_001 * 1_000_000_000)
        // A millisecond timer over the last second is about a thousand instants; the million
        // seconds behind the stall add a handful, not a billion.
        #expect(session.engine.instantsProcessed < 5_000, "\(session.engine.instantsProcessed) instants")
    }
}
