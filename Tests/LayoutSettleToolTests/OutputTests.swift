import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

@testable import LayoutSettleTool

/// JSON shapes (docs/LayoutSettle.md), the status line, completion and `help`.
@Suite struct OutputTests {
    /// The JSON lines of a script run with --json.
    func jsonLines(_ script: String) throws -> [String] {
        let (stdout, stderr, _) = try Transcript.run(
            script, tools: [LayoutSettleChecker.self], options: SessionOptions(json: true))
        #expect(stderr == "")
        return stdout.split(separator: "\n").map(String.init)
    }

    @Test func viewCommandResults() throws {
        let lines = try jsonLines(
            """
            view add a --frame 0,0,100,100.5 --alpha 0.25
            view set a --hidden on
            view grow a 3 --fanout 2
            view remove a.1
            view count
            view tree a --depth 0
            """)
        #expect(
            lines == [
                #"{"command": "view add a --frame 0,0,100,100.5 --alpha 0.25", "ok": true, "result": {"name": "a", "parent": "window", "frame": [0, 0, 100, 100.5], "alpha": 0.25, "hidden": false, "rotation": 0}}"#,
                #"{"command": "view set a --hidden on", "ok": true, "result": {"name": "a", "parent": "window", "frame": [0, 0, 100, 100.5], "alpha": 0.25, "hidden": true, "rotation": 0, "changed": ["hidden"]}}"#,
                #"{"command": "view grow a 3 --fanout 2", "ok": true, "result": {"parent": "a", "added": 3, "fanout": 2, "first": "a.1", "last": "a.3", "views": 5}}"#,
                #"{"command": "view remove a.1", "ok": true, "result": {"name": "a.1", "removed": 2}}"#,
                #"{"command": "view count", "ok": true, "result": {"root": "window", "views": 3}}"#,
                #"{"command": "view tree a --depth 0", "ok": true, "result": {"views": [{"name": "a", "parent": "window", "depth": 0, "frame": [0, 0, 100, 100.5], "alpha": 0.25, "hidden": true, "rotation": 0, "views": 2}], "omitted": 0}}"#,
            ])
    }

    /// `layout show` has the same keys with or without a watch; the event carries exact ns.
    @Test func watchResultsAndEvents() throws {
        let lines = try jsonLines(
            """
            layout
            view add a --frame 0,0,100,100
            view animate a --frame 0,0,200,100 --over 300ms
            layout watch
            run 1s
            layout
            layout diff --limit 1
            """)
        #expect(
            lines[0]
                == #"{"command": "layout", "ok": true, "result": {"state": "idle", "mode": null, "root": null, "views": 1, "start_ns": null, "end_ns": null, "settled_at_ns": null, "last_change_ns": null, "last_changed_view": null, "changes": 0, "frames": 0, "cost_ns": 0, "flag_set_ns": null, "late_changes": 0, "late_last_ns": null, "stop_reason": null, "diagnosis": null}}"#
        )
        #expect(
            lines[3]
                == #"{"command": "layout watch", "ok": true, "result": {"root": "window", "mode": "quiet", "views": 2, "start_ns": 0, "quiet_ns": 200000000, "timeout_ns": 10000000000, "poll_ns": 200000000, "leeway_ns": 50000000, "cost_per_view_ns": 50, "replaced": false}}"#
        )
        #expect(
            lines[4]
                == #"{"event": "layout.settled", "t_ns": 500000000, "message": "settled (window, 2 views, last change 300ms)", "root": "window", "mode": "quiet", "views": 2, "last_change_ns": 300000000, "last_changed_view": "a", "changes": 18}"#
        )
        #expect(
            lines[6]
                == #"{"command": "layout", "ok": true, "result": {"state": "settled", "mode": "quiet", "root": "window", "views": 2, "start_ns": 0, "end_ns": 500000000, "settled_at_ns": 500000000, "last_change_ns": 300000000, "last_changed_view": "a", "changes": 18, "frames": 31, "cost_ns": 7100, "flag_set_ns": null, "late_changes": 0, "late_last_ns": null, "stop_reason": null, "diagnosis": null}}"#
        )
        #expect(
            lines[7]
                == #"{"command": "layout diff --limit 1", "ok": true, "result": {"t_ns": 300000000, "views": 1, "changes": [{"view": "a", "changed": ["frame"], "before": {"frame": [0, 0, 194.444, 100], "alpha": 1, "hidden": false, "rotation": 0}, "after": {"frame": [0, 0, 200, 100], "alpha": 1, "hidden": false, "rotation": 0}, "parent": null}], "omitted": 0}}"#
        )
    }

    @Test func timeoutEventCarriesTheDiagnosis() throws {
        let lines = try jsonLines("view add s\nview spin s\nlayout watch --quiet 10ms --timeout 50ms\nrun 100ms")
        #expect(
            lines.last { $0.hasPrefix(#"{"event""#) }
                == #"{"event": "layout.timeout", "t_ns": 50000000, "message": "timeout (window, 2 views, not settled after 50ms: s changed every frame; the tree does not repeat: 5 distinct states)", "root": "window", "mode": "quiet", "views": 2, "last_change_ns": 50000000, "changes": 4, "diagnosis": {"kept_changing": [{"view": "s", "frames": 4, "properties": ["rotation"], "last_change_ns": 50000000, "cause": "view spin without an end", "removed": false}], "kept_changing_total": 1, "changed_views": 1, "frames": 4, "changed_frames": 4, "longest_still_ns": 16666667, "states": {"distinct": 5, "more": false, "recurrences": 0, "period_frames": null, "oscillates": false}}}"#
        )
    }

    /// The status line in each state (docs/LayoutSettle.md): none while idle.
    @Test func statusLines() throws {
        let s = try LayoutSession()
        #expect(s.run("status") == "layout —\n")
        s.run("view add cell7 --frame 0,0,100,44", "view animate cell7 --frame 0,0,100,88 --over 300ms", "layout watch")
        #expect(s.run("status") == "layout settling · quiet 0/200ms · no change yet\n")
        // At 420 ms the last change (300 ms) is 120 ms old.
        s.run("run 420ms")
        #expect(s.run("status") == "layout settling · quiet 120/200ms · last change cell7\n")
        s.run("run 1s")
        #expect(s.run("status") == "layout settled at 500ms · 2 views\n")
        // Seed mode: the animation changes a at v1…v6 (100 ms); v7 = 116.666666 ms repeats v6's
        // snapshot and sets the flag, which the poll at 200 ms will report.
        s.run(
            "reset", "view add a", "view animate a --frame 0,0,10,10 --over 100ms", "layout watch --mode seed",
            "run 5ms")
        #expect(s.run("status") == "layout settling · seed · flag clear · no change yet\n")
        s.run("run 50ms")
        #expect(s.run("status") == "layout settling · seed · flag clear · last change a\n")
        s.run("run 70ms")
        #expect(s.run("status") == "layout settling · seed · flag set · last change a\n")
        s.run("reset", "view add s", "view spin s", "layout watch --timeout 1s", "run 2s")
        #expect(s.run("status") == "layout timeout at 1s · 2 views · s kept changing\n")
        s.run("layout stop")
        #expect(s.run("status") == "layout timeout at 1s · 2 views · s kept changing\n")
        s.run("reset", "layout watch", "layout stop")
        #expect(s.run("status") == "layout —\n")
        // Colour: the state word.
        s.run("layout watch")
        let line = try #require(try s.tool.statusLine())
        #expect(
            line.runs.count >= 2 && line.runs[1].text == "settling" && line.runs[1].style == .color(RGB(230, 180, 0)))
    }

    /// Completion of view names (`candidates(for: NameDomain("view"))`) in every place a view
    /// is named.
    @Test func completesViewNames() throws {
        let s = try LayoutSession()
        s.run("view add header", "view add hero", "view grow header 2")
        #expect(s.session.complete("view set he").candidates == ["header", "hero", "header.1", "header.2"])
        #expect(s.session.complete("view add x --parent her").candidates == ["hero"])
        #expect(s.session.complete("layout watch header.").candidates == ["header.1", "header.2"])
        #expect(try s.tool.candidates(for: NameDomain("timer")) == [])
    }

    /// `help` shows the commands, options and examples from the declaration.
    @Test func help() throws {
        let s = try LayoutSession()
        let out = s.run("help layout watch")
        #expect(
            out.contains(
                "USAGE: layout watch [<root>] [--quiet <duration>] [--timeout <duration>]\n                    [--mode quiet|seed]"
            ),
            "\(out)")
        #expect(out.contains("[0.500s] layout: settled (window, 2 views, last change 300ms)"))
        #expect(s.run("help view").contains("grow"))
    }

    /// Metrics without a watch: idle, no times, 0 changes, the whole tree's views.
    @Test func metricsWithoutAWatch() throws {
        let values = try metrics(
            after: "view grow window 10",
            ["layout.state", "layout.settled_at", "layout.last_change", "layout.changes", "layout.views"])
        #expect(values == ["idle", "none", "none", "0", "11"])
    }
}
