import DebugShellTesting
import Foundation
import Testing

/// An outside plugin written from docs/Plugins.md alone — the example, Examples/ExternalTool —
/// passes a scenario of `expect` lines as a script, as a user of it would write one: values that
/// have none yet (`none`), `run until` on its metric, its events, and the built-in tools beside it.
@Suite(.serialized) struct PluginScenarioTests {
    @Test func theExamplePluginPassesAScenarioOfExpectLines() throws {
        let library = try ExamplePlugin.library.get()
        let dir = try Binary.folder([
            "hangs.dsh": """
            plugin require hangs --from '\(library)'
            hangs start --over 100ms --poll 10ms
            stall 90ms
            run 200ms
            expect hangs.count == 0 and hangs.longest == none
            stall 250ms
            run until hangs.count == 1 --timeout 1s
            expect clock.now == 300ms and hangs.longest == 100ms
            run 1s
            expect hangs.count == 1 and hangs.longest == 250ms and hangs.blocked == 250ms
            timer nstimer slow --interval 500ms --cost 180ms
            run 1s
            expect hangs.count == 2 and hangs.longest == 250ms and hangs.blocked == 430ms
            expect timer.slow.fires == 1 and main.hangs == 1
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            ["hangs.dsh"], directory: dir,
            environment: [
                "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
            ])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        #expect(
            r.stdout == """
                [0.300s] hangs: main thread blocked 100ms by a main-queue block 'stall 250ms' (since 200ms)
                [1.900s] hangs: main thread blocked 100ms by the NSTimer 'slow' (since 1.8s)

                """, "\(r)")
    }
}
