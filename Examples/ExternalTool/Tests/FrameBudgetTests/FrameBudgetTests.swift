import DebugShellCore
import DebugShellTesting
import FrameBudget
import Testing

/// The budget plugin's examples replayed as tests, as `help budget` and `help spans` print them,
/// and what the examples do not show: the budget at another rate, a budget changed while
/// watching, a frame over budget in both parts, the frames kept, the spans tool's kinds of item.
@Suite struct FrameBudgetTests {
    /// The plugin's tools: a transcript's session has these and the shell's own commands.
    static var tools: [any DebugTool.Type] { [BudgetWatcher.self, LongSpans.self] }

    @Test(arguments: Transcript.examples(of: BudgetWatcher.self))
    func budgetExample(_ example: LabeledExample) throws {
        try Transcript.expectMatch(example, tools: Self.tools)
    }

    @Test(arguments: Transcript.examples(of: LongSpans.self))
    func spansExample(_ example: LabeledExample) throws {
        try Transcript.expectMatch(example, tools: Self.tools)
    }

    /// The default budget, `1f`, is one frame at the rate in force when it is read: a 10 ms
    /// render is within it at 60 Hz and over it at 120 Hz.
    @Test func theDefaultBudgetFollowsTheRefreshRate() throws {
        let script = """
            budget start --quiet
            animate 100ms
            load gpu 10ms
            run 100ms
            get budget.over_frames
            display rate 120
            run 10ms
            settings show budget.limit
            animate 100ms
            run 100ms
            get budget.over_frames
            get budget.cause.render
            display rate 60
            run 10ms
            settings show budget.limit
            """
        let r = try Transcript.run(script, tools: Self.tools)
        #expect(r.stderr == "", "\(r.stderr)")
        #expect(
            r.stdout == """
                budget.over_frames = 0
                budget.limit = 8.333333ms
                budget.over_frames = 7
                budget.cause.render = 7
                budget.limit = 16.666666ms

                """, "\(r.stdout)")
    }

    /// A budget set while watching applies from the next frame; each frame keeps the budget it
    /// was measured against.
    @Test func aBudgetSetWhileWatchingAppliesFromTheNextFrame() throws {
        let script = """
            budget start --quiet
            animate 200ms
            load gpu 20ms
            run 100ms
            set budget.limit 25ms
            run 100ms
            budget list --all
            get budget.over_frames
            get budget.over_ratio
            """
        let r = try Transcript.run(script, tools: Self.tools)
        #expect(r.stderr == "", "\(r.stderr)")
        #expect(
            r.stdout == """
                frame  present       commit  render  cost  limit        cause
                1      50ms          0s      20ms    20ms  16.666666ms  render
                3      83.333333ms   0s      20ms    20ms  16.666666ms  render
                5      116.666666ms  0s      20ms    20ms  25ms         -
                7      150ms         0s      20ms    20ms  25ms         -
                9      183.333333ms  0s      20ms    20ms  25ms         -
                budget.over_frames = 2
                budget.over_ratio = 0.4

                """, "\(r.stdout)")
    }

    /// Under `worst`, a frame whose commit and render are both over budget counts as `both`;
    /// the status line counts it.
    @Test func aFrameOverInBothPartsCountsAsBoth() throws {
        let script = """
            budget start
            animate 20ms
            load commit 20ms
            load gpu 20ms
            run 100ms
            status
            metrics budget.cause
            """
        let r = try Transcript.run(script, tools: Self.tools)
        #expect(r.stderr == "", "\(r.stderr)")
        #expect(
            r.stdout == """
                [0.067s] budget: frame 1 over budget: commit 20ms, render 20ms > 16.666666ms
                budget 16.666666ms · 1 frame · 1 over · worst 20ms
                spans —
                budget.cause.commit = 0
                budget.cause.render = 0
                budget.cause.both = 1

                """, "\(r.stdout)")
    }

    /// The counts cover every frame; `budget list` and `budget plot` the last 10,000, oldest
    /// first.
    @Test func theLastTenThousandFramesAreKept() throws {
        let script = """
            budget start --quiet
            animate 170s
            run 170s
            get budget.frames
            budget list --all
            """
        let r = try Transcript.run(script, tools: Self.tools)
        #expect(r.stderr == "", "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        try #require(lines.count == 2 + BudgetWatcher.keptFrames, "\(lines.count) lines")
        #expect(lines[0] == "budget.frames = 10198")
        #expect(lines[1].hasPrefix("frame "))
        #expect(lines[2].hasPrefix("199 "), "\(lines[2])")
        #expect(lines.last?.hasPrefix("10198 ") == true, "\(lines.last ?? "")")
    }

    /// `spans` counts main-thread items of any kind by their length, and names them; an item
    /// of exactly `spans.over` is not longer than it.
    @Test func spansCountsItemsLongerThanTheSetting() throws {
        let script = """
            spans start
            animate 50ms
            load commit 60ms
            run 200ms
            stall 50ms
            stall 51ms
            run 200ms
            get spans.count
            spans start
            """
        let r = try Transcript.run(script, tools: Self.tools)
        #expect(
            r.stdout == """
                [0.000s] spans: commit runs 60ms (over 50ms)
                [0.250s] spans: main-queue block 'stall 51ms' runs 51ms (over 50ms)
                spans.count = 2

                """, "\(r.stdout)")
        #expect(r.stderr.contains("error: spans is already counting: 'spans stop' first"), "\(r.stderr)")
    }
}
