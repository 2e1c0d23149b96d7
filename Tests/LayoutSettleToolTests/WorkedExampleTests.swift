import BuiltInTools
import DebugShell
import DebugShellTesting
import LayoutSettleTool
import Testing

/// SEMANTICS worked example L-A, as a test of the tool alone.
@Suite struct WorkedExampleTests {
    /// L-A: the last change is at v18 = 300 ms (progress 1, L1); the checker's callback at
    /// v30 = 500 ms is the first with t − 300 ms ≥ 200 ms (L4).
    @Test func workedExampleLA() throws {
        let result = try Transcript.replay(
            """
            > view add a --frame 0,0,100,100
            > view animate a --frame 0,0,200,100 --over 300ms
            > layout watch --quiet 200ms
            > run 2s
            [0.500s] layout: settled (window, 2 views, last change 0.300s)
            > get layout.settled_at
            layout.settled_at = 0.5s
            """, tools: [LayoutSettleChecker.self])
        #expect(result.matches, "\(result)")
    }
}
