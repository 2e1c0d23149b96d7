import Foundation
import Testing

/// Long horizons cost what happens, not how much time passes: the targets a dispatch timer
/// misses while its handler waits are merged in closed form (D3, D4), as an NSTimer's skipped
/// grid points are (T4).
@Suite struct LongHorizonTests {
    @Test(arguments: ["timer gcd g --interval 1ms", "timer gcd g --interval 1ms --queue background --cost 1000000s"])
    func aMillisecondTimerBehindAMillionSeconds(timer: String) throws {
        let r = try Binary.run(
            [
                "--no-rc", "-c", timer, "-c", "stall 1000000s", "-c", "run 1000001s", "-c", "get timer.g.fires",
                "-c", "get timer.wakeups",
            ], timeout: 600)
        // Its cost is counted in instants, not timed (BuiltInToolsTests.LongHorizonCostTests).
        #expect(r.status == 0, "\(r)")
        if timer.contains("background") {
            // One handler of a million seconds, then one with every target that passed meanwhile;
            // each target still a wake-up.
            #expect(r.stdout == "timer.g.fires = 2\ntimer.wakeups = 1000000999\n", "\(r)")
        } else {
            // The first handler waits behind the stall with every target since; then one a ms.
            #expect(r.stdout == "timer.g.fires = 1000\ntimer.wakeups = 1000000999\n", "\(r)")
        }
    }
}
