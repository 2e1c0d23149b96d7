import DebugShellCore

/// The examples of each `fps` verb: transcripts that `help fps` prints and the example tests
/// replay, so every one of them is true.
enum FPSMeterExamples {
    static let show: [Example] = [
        // Worked example R-A: the seed's "the label reads 55+ while Instruments shows far fewer".
        Example(
            """
            > fps start
            > animate 10s
            > load gpu 20ms
            > run 3s
            > fps
            meter        running since 0s · common mode · window 1s · cost 0s · label on
            reading      60 fps (last window (1s, 2s]: 60 callbacks, 30 presents)
            render       30 fps (presents in [2s, 3s))
            callbacks    60 in [2s, 3s) · skipped vsyncs 0
            hitches      89 (commit 0 · render 89 · both 0), 1.483s in 3s animating
            hitch ratio  494.444 ms/s · severe (apple tiers)
            frame time   p50 33.333ms · p95 33.333ms · p99 33.333ms ·
                         max 33.333ms (88 intervals)
            """),
        Example(
            """
            > fps
            error: the meter has not been started; start it with 'fps start'
            """),
    ]

    static let start: [Example] = [
        Example(
            """
            > fps start
            > run 1100ms
            > get fps.value
            fps.value = 60
            """),
        // No clamp to 60 (F1: at most the refresh rate).
        Example(
            """
            > display rate 120Hz
            > fps start
            > run 1100ms
            > get fps.value
            fps.value = 120
            """),
        // Worked example DL-A: a 100 ms stall; the stale callback starts the first window.
        Example(
            """
            > fps start
            > stall 100ms
            > run 2s
            > get fps.value
            fps.value = 54
            > get fps.skipped
            fps.skipped = 6
            """),
        // F1: in default mode the link is silent during a scroll, so the next window spans it.
        Example(
            """
            > fps start --mode default
            > run 1s
            > scroll 2s
            > run 2100ms
            > get fps.value
            fps.value = 0
            """),
        Example(
            """
            > fps start --window 0s
            error: --window must be positive (got 0s)
            > fps start --window 500ms --cost 1ms --label off
            > fps start
            error: the meter is already running (since 0s); 'fps stop' first, or 'fps reset' to clear it
            """),
    ]

    static let stop: [Example] = [
        Example(
            """
            > fps start
            > run 1100ms
            > fps stop
            > run 5s
            > get fps.value
            fps.value = 60
            > fps stop
            error: the meter is not running (it stopped at 1.1s); 'fps start' runs it again
            """)
    ]

    static let reset: [Example] = [
        Example(
            """
            > fps start
            > stall 100ms
            > run 1100ms
            > get fps.value
            fps.value = 54
            > fps reset
            > get fps.value
            fps.value = none
            > run 1100ms
            > get fps.value
            fps.value = 60
            """)
    ]

    static let frames: [Example] = [
        Example(
            """
            > fps start
            > animate 10s
            > load gpu 20ms
            > run 3s
            > fps frames --last 3
            the last 3 of 89 presents; times in ms, hitch - = not animating (A2)
            frame  commit end  render start  render end   present  expected   hitch  verdict
              173    2866.667      2883.333    2903.333  2916.667  2900.000  16.667  render
              175    2900.000      2916.667    2936.667  2950.000  2933.333  16.667  render
              177    2933.333      2950.000    2970.000  2983.333  2966.667  16.667  render
            """),
        Example(
            """
            > fps start
            > animate 1s
            > run 300ms
            > stall 50ms
            > run 700ms
            > fps frames --worst 1
            the 1 worst of 1 hitch; times in ms, hitch - = not animating (A2)
            frame  commit end  render start  render end  present  expected   hitch  verdict
               19     350.000       366.667     366.667  383.333   333.333  50.000  commit
            """),
        // --csv writes every kept present to a file (docs/Import.md, "CSV"); the table's choices
        // do not apply to it.
        Example(
            """
            > fps start
            > animate 1s
            > run 1s
            > fps frames --csv frames.txt
            error: the frames are written as CSV: name the file <name>.csv (got 'frames.txt')
            > fps frames --csv frames.csv --worst 3
            error: --csv writes every kept present: --hitches, --last and --worst choose the table's rows
            """),
    ]

    static let hitches: [Example] = [
        Example(
            """
            > fps start
            > animate 1s
            > run 300ms
            > stall 50ms
            > run 700ms
            > fps hitches
            1 hitch; times in ms
            present  frame   hitch  severity  type                   phases  delayed by
            383.333     19  50.000  High      Pre-Commit(s) latency  -       block 'stall 50ms' 300.000–350.000
            """),
        // R-B: a render with offscreen passes overruns its refresh interval.
        Example(
            """
            > fps start
            > animate 1s
            > after 510ms load offscreen 40 500us
            > after 520ms load offscreen 0
            > run 1s
            > fps hitches --type offscreen
            1 hitch; times in ms
            present  frame   hitch  severity  type                                               phases   delayed by
            550.000     31  16.667  Low       Potentially expensive render, 40 offscreen passes  o40×0.5  render of frame 31 516.667–536.667
            """),
        // --xctrace writes every kept hitch as Instruments' hitches-summary table, which 'import
        // xctrace' reads back (docs/Import.md); the table's choices do not apply to it.
        Example(
            """
            > fps start
            > animate 1s
            > run 300ms
            > stall 50ms
            > run 700ms
            > fps hitches --xctrace hitches.csv
            error: the hitches are written as an xctrace export (XML): name the file <name>.xml (got 'hitches.csv')
            > fps hitches --xctrace hitches.xml --severity high
            error: --xctrace writes every kept hitch: --type, --severity, --last and --worst choose the table's rows
            > fps hitches --xctrace /nonexistent/hitches.xml
            error: cannot write '/nonexistent/hitches.xml': No such file or directory
            """),
    ]

    static let history: [Example] = [
        Example(
            """
            > fps start
            > run 500ms
            > stall 200ms
            > run 2700ms
            > fps history
            ▇██  windows 1–3, 0–60 fps
            window  from  to  callbacks  presents  fps
                 1    0s  1s         48         0   48
                 2    1s  2s         60         1   60
                 3    2s  3s         60         1   60
            > fps history --last 1
            █  windows 3–3, 0–60 fps
            window  from  to  callbacks  presents  fps
                 3    2s  3s         60         1   60
            """),
        Example(
            """
            > fps start
            > fps history
            error: no window has closed yet: the first closes at the first callback 1s after the meter's first one
            """),
    ]

    static let compare: [Example] = [
        Example(
            """
            > fps compare --recording
            error: no recording: 'import csv <display-link log>' or 'import xctrace <files>' reads one
            """),
        // Worked example R-A: every estimator that counts callbacks reads the main thread, not the display.
        Example(
            """
            > fps start
            > animate 10s
            > load gpu 20ms
            > run 3s
            > fps compare
            estimator          reading                       truth               error
            YYFPSLabel         60 fps                        30 fps              +30 fps
                               over (1s, 2s]
            HyFPSLabel         60 fps                        30 fps              +30 fps
                               over (1s, 2s]
            GDPerformanceView  61 fps                        31 fps              +30 fps
                               over [1.983s, 2.983s]
            DXFPSLabel         —                             —                   —
                               0s of tracking, under 1s
            KMCGeigerCounter   0 dropped · 0 clicks          30 missed           -30
                               over (1.983s, 2.983s]
            Sentry             delay 0s · slow 0 · frozen 0  1.483s missed (89)  -1.483s
                               over (0s, 2.983s]
            Matrix             drop 0s (0 frames)            1.483s missed (89)  -1.483s
                               over (0s, 2.983s]
            truth: frames presented over the same span; missed = vsyncs that expected a
            present (animating, R3) and had none
            """),
        // F1, seed 004: a meter in default mode across a scroll; the display kept presenting.
        Example(
            """
            > fps start --mode default
            > run 1s
            > scroll 2s
            > run 3s
            > fps compare
            estimator          reading                       truth          error
            YYFPSLabel         0 fps                         60 fps         -60 fps
                               over (1s, 3.017s]
            HyFPSLabel         0 fps                         60 fps         -60 fps
                               over (1s, 3.017s]
            GDPerformanceView  59 fps                        5 fps          +54 fps
                               over [2.983s, 3.983s]
            DXFPSLabel         0 fps                         59 fps         -59 fps
                               over 2s of tracking
            KMCGeigerCounter   1 dropped · 1 clicks          0 missed       +1
                               over (2.983s, 3.983s]
            Sentry             delay 2s · slow 0 · frozen 1  0s missed (0)  +2s
                               over (0s, 3.983s]
            Matrix             drop 2s (120 frames)          0s missed (0)  +2s
                               over (0s, 3.983s]
            truth: frames presented over the same span; missed = vsyncs that expected a
            present (animating, R3) and had none
            """),
    ]

    static let tiers: [Example] = [
        Example(
            """
            > fps tiers
            apple (Xcode Organizer): good ≤ 10 ms/s · warning ≤ 25 · critical ≤ 50 · severe above
            > fps tiers wwdc20
            > fps start
            > animate 2s
            > load commit 20ms
            > run 2s
            > get fps.hitch_ratio
            fps.hitch_ratio = 166.667
            > get fps.tier
            fps.tier = critical
            > fps tiers apple
            > get fps.tier
            fps.tier = severe
            > fps tiers bogus
            error: 'bogus' is not one of apple, wwdc20
            """)
    ]

    static let autohide: [Example] = [
        Example(
            """
            > fps autohide
            autohide off (the status line hides 2s after the reading last changed)
            > fps autohide on
            > get fps.value
            fps.value = none
            > fps autohide
            autohide on (the status line hides 2s after the reading last changed)
            """)
    ]

    static let watch: [Example] = [
        Example(
            """
            > fps watch windows
            > fps start
            > run 2100ms
            [1.000s] fps: 60 fps (60 callbacks in 1s, 0 presented)
            [2.000s] fps: 60 fps (60 callbacks in 1s, 1 presented)
            """),
        Example(
            """
            > fps watch hitches --over 60ms
            > fps start
            > animate 1s
            > run 300ms
            > stall 50ms
            > run 300ms
            > stall 100ms
            > run 300ms
            [0.733s] fps: hitch 100ms (commit, High): Pre-Commit(s) latency; frame 34 expected at 633.333ms
            > get fps.hitches
            fps.hitches = 2
            > fps watch off
            > fps watch windows --over 1ms
            error: --over applies to 'fps watch hitches' only
            """),
        // GPU-bound: a hitch every other vsync. The first prints in full, then one line a second.
        Example(
            """
            > fps watch hitches
            > fps start
            > animate 10s
            > load gpu 20ms
            > run 2500ms
            [0.050s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 1 expected at 33.333ms
            [1.000s] fps: 28 more hitches in [0s, 1s): 466.667ms (render 28), longest 16.667ms; --all lists each
            [2.000s] fps: 30 hitches in [1s, 2s): 500ms (render 30), longest 16.667ms
            > fps watch hitches --all
            > run 100ms
            [2.517s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 149 expected at 2.5s
            [2.550s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 151 expected at 2.533s
            [2.583s] fps: hitch 16.667ms (render, Low): Potentially expensive GPU work; frame 153 expected at 2.567s
            """),
    ]
}

extension FPSMeterExamples {
    static let plot: [Example] = [
        // R-A, the seed's picture: the label reads 60 while the display presents 30, every
        // frame a render hitch (R4).
        Example(
            """
            > fps start
            > animate 10s
            > load gpu 20ms
            > run 3s
            > fps plot --width 60
            fps plot: 0s to 3s at 60 Hz
            frame time per present (ms)
               40 ┤
                  │▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅▅ 2×
                  │██████████████████████████████████████████████████
                  │██████████████████████████████████████████████████
               20 ┤██████████████████████████████████████████████████ 1×
                  │██████████████████████████████████████████████████
                  │██████████████████████████████████████████████████
                  │██████████████████████████████████████████████████
                0 ┼──────────────────────────────────────────────────
            hitch │rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr
            fps per window: the label's reading, the frames presented
               60 ┤━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
               50 ┤
               40 ┤
               30 ┤──────────────────────────────────────────────────
               20 ┤
               10 ┤
                0 ┤
                  └┬───────┬───────┬────────┬───────┬───────┬───────┬
                   0s      0.5s    1s       1.5s    2s      2.5s   3s
                                        time (s)
            █ on time  c commit hitch  r render hitch
            b commit and render hitch  ╌ 1× budget 16.667ms
            ╌ 2× budget 33.333ms  ─ frames presented per second
            ━ FPS label's reading
            the last window, from 2s to 3s, is still open: drawn as it
            stands (59 callbacks, 30 presented to 2.983333333s)
            89 presents, 88 frame times, 89 hitches (commit 0, render
            89, both 0), 2 windows, from 0s to 3s
            """),
        // A stall is one long commit hitch (c); the scroll after it is shaded as tracking.
        Example(
            """
            > fps start
            > animate 4s
            > run 1s
            > stall 100ms --ui
            > scroll 1s
            > run 3s
            > fps plot --from 500ms --to 2500ms --width 60 --height 9
            fps plot: 500ms to 2.5s at 60 Hz
            frame time per present (ms)
                     │
                 200 ┤
                     │           ▃▃▃
                 100 ┤           ███
                     │▃▃▃▃▃▃▃▃▃▃▃███▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃ 1×/2×
                   0 ┼────────────────────────────────────────────
               hitch │           ccc
            fps per window: the label's reading, the frames presented
                  60 ┤════════════════════════════════════════════
                  40 ┤
                  20 ┤
                   0 ┤
            tracking │           ░░░░░░░░░░░░░░░░░░░░░░
                     └┬──────────┬──────────┬──────────┬─────────┬
                      0.5s       1s         1.5s       2s     2.5s
                                        time (s)
            █ on time  c commit hitch  r render hitch
            b commit and render hitch  ╌ 1× budget 16.667ms
            ╌ 2× budget 33.333ms  ─ frames presented per second
            ━ FPS label's reading  ═ both  ░ tracking
            115 presents, 115 frame times, 1 hitch (commit 1, render 0,
            both 0), 3 windows, from 500ms to 2.5s
            """),
        Example(
            """
            > fps plot
            error: the meter has not been started; start it with 'fps start'
            > fps start
            > fps plot
            error: nothing to plot: no frame has been presented and no window has closed since the meter started at 0s
            > run 2s
            > fps plot --from 3s
            error: nothing to plot from 3s: the meter's data ends at 2s (now)
            > fps plot --from 1s --to 500ms
            error: --from 1s is not before --to 500ms
            > fps plot chart.png
            error: the chart is written as SVG: name the file <name>.svg (got 'chart.png')
            > fps plot chart.svg --width 100
            error: --width and --height size the chart in the terminal; an SVG file scales
            > fps plot /nonexistent/chart.svg
            error: cannot write '/nonexistent/chart.svg': No such file or directory
            """),
        Example(
            """
            > fps plot --recording
            error: no recording: 'import xctrace|csv|chrome <file>' reads one
            > fps plot --compare
            error: --compare needs a recording: 'import xctrace|csv|chrome <file>' reads one, 'replay start' replays it
            """),
    ]
}
