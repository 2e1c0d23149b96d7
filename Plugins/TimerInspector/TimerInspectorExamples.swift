import DebugShellCore

/// The examples of every `timer` and `object` verb: transcripts that `help` prints and the
/// example tests replay, so each is a test.
enum TimerInspectorExamples {
    static let nstimer = [
        // T-A: a late repeating timer fires once and skips the grid point it passed (T4).
        Example(
            """
            > timer nstimer poll --interval 50ms --repeats
            > stall 100ms
            > run 300ms
            > get timer.poll.fires
            timer.poll.fires = 4
            > get timer.poll.skipped
            timer.poll.skipped = 1
            > get timer.poll.max_late
            timer.poll.max_late = 50ms
            """),
        // T5: tolerance above the interval is an error; above half of it, clamped.
        Example(
            """
            > timer nstimer tick --interval 100ms --repeats --tolerance 80ms
            warning: --tolerance 80ms is above half the interval of a repeating timer: clamped to 50ms (T5)
            > timer nstimer late --interval 100ms --tolerance 150ms
            error: --tolerance 150ms is above the interval 100ms (T5)
            """),
    ]

    static let gcd = [
        // D-A: the late handler takes both grid points in its data (D3).
        Example(
            """
            > timer gcd poll --interval 50ms
            > stall 100ms
            > run 300ms
            > timer show poll
            poll: gcd, every 50ms, leeway 0s, main queue — scheduled
            fires 4 · data 5 · last data 1 · max late 50ms (busy) · next fire 300ms
            #  scheduled  fired  late  cause  data
            1  50ms       100ms  50ms  busy   2
            2  150ms      150ms  0s    -      1
            3  200ms      200ms  0s    -      1
            4  250ms      250ms  0s    -      1
            """),
        // D5: a background queue ignores the main thread.
        Example(
            """
            > timer gcd sync --interval 50ms --queue background
            > stall 100ms
            > run 300ms
            > get timer.sync.fires
            timer.sync.fires = 5
            > get timer.sync.max_late
            timer.sync.max_late = 0s
            """),
    ]

    static let displaylink = [
        // DL7: the busy main thread drops vsyncs; one stale callback runs when it frees.
        Example(
            """
            > timer displaylink link
            > stall 100ms
            > run 150ms
            > timer show link
            link: displaylink, every vsync (16.666666ms), common mode — scheduled
            fires 3 · skipped 6 · max late 100ms (busy) · next fire 150ms
            #  timestamp     fired         late   cause
            1  0s            100ms         100ms  busy
            2  116.666666ms  116.666666ms  0s     -
            3  133.333333ms  133.333333ms  0s     -
            """),
        // DL1: a link in default mode is silent during a scroll, then fires once, stale.
        Example(
            """
            > timer displaylink label --mode default --fps 10
            > scroll 500ms
            > run 550ms
            > timer show label
            label: displaylink, preferred 10 fps (100ms), default mode — scheduled
            fires 1 · skipped 5 · max late 500ms (mode) · next fire 600ms
            fix: add it to the common modes (--mode common; in the app, link.add(to: .main, forMode: .common)): in the default mode it cannot fire while a scroll runs the tracking mode (DL1)
            #  timestamp  fired  late   cause
            1  0s         500ms  500ms  mode
            """),
    ]

    static let after = [
        Example(
            """
            > timer after toast 250ms
            > run 300ms
            > timer show toast
            toast: after 250ms (a one-shot gcd timer), leeway 25ms, main queue — done
            fires 1 · data 1 · last data 1 · max late 0s
            #  scheduled  fired  late  cause  data
            1  250ms      250ms  0s    -      1
            """),
        // D6 with coalescing on: the leeway may delay it.
        Example(
            """
            > set runloop.coalescing on
            > timer after toast 250ms
            > run 300ms
            > get timer.toast.max_late
            timer.toast.max_late = 25ms
            """),
    ]

    static let countdown = [
        Example(
            """
            > timer countdown button 60
            > run 30500ms
            > timer show button --last 2
            button: count-down from 60s (a gcd timer every 1s), background queue, title "Resend in 30s" — scheduled
            fires 31 · data 31 · last data 1 · max late 0s · next fire 31s
            the last 2 of 31 firings; --last n shows more (the last 1000 are kept)
            #   scheduled  fired  late  cause  data
            30  29s        29s    0s    -      1
            31  30s        30s    0s    -      1
            > run 31s
            > get timer.button.fires
            timer.button.fires = 61
            > get timer.button.state
            timer.button.state = done
            """)
    ]

    static let pause = [
        // T8: while paused nothing fires; resumed, the grid points passed are skipped.
        Example(
            """
            > timer nstimer poll --interval 100ms --repeats
            > run 150ms
            > timer pause poll
            > run 300ms
            > get timer.poll.state
            timer.poll.state = paused
            > timer resume poll
            > run 100ms
            > get timer.poll.fires
            timer.poll.fires = 2
            > get timer.poll.skipped
            timer.poll.skipped = 3
            """)
    ]

    static let resume = [
        // D4: a suspended source counts its targets and delivers them in one handler.
        Example(
            """
            > timer gcd poll --interval 100ms
            > run 150ms
            > timer pause poll
            > run 300ms
            > timer resume poll
            > run 10ms
            > timer show poll
            poll: gcd, every 100ms, leeway 0s, main queue — scheduled
            fires 2 · data 4 · last data 3 · max late 250ms (paused) · next fire 500ms
            #  scheduled  fired  late   cause   data
            1  100ms      100ms  0s     -       1
            2  200ms      450ms  250ms  paused  3
            """),
        // DL4: a resumed link's next callback is at its next grid vsync, with a fresh timestamp.
        Example(
            """
            > timer displaylink link --fps 10
            > run 50ms
            > timer pause link
            > run 200ms
            > timer resume link
            > run 100ms
            > timer show link
            link: displaylink, preferred 10 fps (100ms), common mode — scheduled
            fires 2 · skipped 0 · max late 0s · next fire 400ms
            #  timestamp  fired  late  cause
            1  0s         0s     0s    -
            2  300ms      300ms  0s    -
            """),
    ]

    static let invalidate = [
        // DL6: no callback follows.
        Example(
            """
            > timer displaylink link
            > run 40ms
            > timer invalidate link
            > run 100ms
            > get timer.link.fires
            timer.link.fires = 3
            > get timer.link.state
            timer.link.state = invalidated
            """),
        // K1: invalidating the last timer that retains a released object frees it.
        Example(
            """
            > object new vc
            > timer nstimer poll --interval 1s --repeats --target vc
            > object release vc
            vc is still alive: retained by poll — a leak (see 'timer leaks')
            > timer invalidate poll
            vc deallocated
            """),
    ]

    static let list = [
        Example(
            """
            > timer nstimer poll --interval 50ms --repeats
            > timer gcd sync --interval 1s --queue background --leeway 100ms
            > timer displaylink link --fps 30
            > stall 100ms
            > run 300ms
            > timer list
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            poll  nstimer      default     50ms      0s          scheduled  4      1
            sync  gcd          background  1s        100ms       scheduled  0      0
            link  displaylink  common      33.333ms  -           scheduled  6      3

            name  max late    next fire
            poll  50ms busy   300ms
            sync  -           1s
            link  100ms busy  300ms
            > timer list --sort fires --limit 1
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            link  displaylink  common      33.333ms  -           scheduled  6      3

            name  max late    next fire
            link  100ms busy  300ms
            … 2 more (3 timers: 3 scheduled); --limit n shows more
            """),
        // --all: the tools' own links and timers and the app's UI link too.
        Example(
            """
            > animate 100ms
            > run 200ms
            > timer list --all
            name       kind         mode/queue  interval  tol/leeway  state      fires
            system:UI  displaylink  common      16.667ms  -           scheduled  6

            name       skipped  max late  next fire
            system:UI  0        0s        -
            """),
    ]

    static let show = [
        // T-A in full: the late firing, its cause, the skipped grid point.
        Example(
            """
            > timer nstimer poll --interval 50ms --repeats
            > stall 100ms
            > run 300ms
            > timer show poll
            poll: nstimer, repeats every 50ms, tolerance 0s, default mode — scheduled
            fires 4 · skipped 1 · max late 50ms (busy) · next fire 300ms
            #  scheduled  fired  late  cause  skipped
            1  50ms       100ms  50ms  busy   1
            2  150ms      150ms  0s    -      0
            3  200ms      200ms  0s    -      0
            4  250ms      250ms  0s    -      0
            """),
        // A recorded display link (a display-link log, 'import csv'), not an app timer.
        Example(
            """
            > timer show --recording
            error: no recording: timer show --recording reads a recording's display-link callbacks (a display-link log, 'import csv', has them)
            """),
    ]

    static let watch = [
        Example(
            """
            > timer nstimer poll --interval 50ms --repeats
            > timer watch on
            > stall 100ms
            > run 200ms
            [0.100s] timer: poll fired 50ms late (busy, scheduled 50ms)
            [0.150s] timer: poll fired
            > timer watch off
            > run 100ms
            """),
        // Only the late firings, with their cause; a timer late because of its mode gets a fix.
        Example(
            """
            > timer nstimer poll --interval 50ms --repeats
            > timer watch late
            > scroll 120ms
            > run 300ms
            [0.120s] timer: poll fired 70ms late (mode, scheduled 50ms)
            """),
    ]

    static let leaks = [
        // Seed 004: a display link retains its target; released, the owner leaks.
        Example(
            """
            > object new monitor
            > timer displaylink meter --target monitor
            > object release monitor
            monitor is still alive: retained by meter — a leak (see 'timer leaks')
            > run 1s
            > timer leaks
            1 leaked object: released by the shell, kept alive by timers (K1)
            monitor: a retain cycle through meter
              meter (displaylink, 60 fires) still fires for its released owner
                fix: make the link's target a weak proxy of monitor (seed 004; --weak) and invalidate meter in monitor's deinit
            > get timer.leaks
            timer.leaks = 1
            """),
        // The fix: the weak proxy lets the owner go; its deinit invalidates the link.
        Example(
            """
            > object new monitor
            > timer displaylink meter --target monitor --weak
            > object release monitor
            monitor deallocated; its deinit invalidated meter
            > timer leaks
            no leaks: no released object is kept alive by a timer
            """),
    ]

    static let objectNew = [
        Example(
            """
            > object new vc
            > timer nstimer poll --interval 1s --repeats --target vc
            > object list
            name  state  retained by  weak timers
            vc    alive  poll         -
            > object new vc
            error: object 'vc' already exists (alive); names stay taken until 'reset'
            """)
    ]

    static let objectRelease = [
        Example(
            """
            > object new vc
            > object release vc
            vc deallocated
            > timer nstimer poll --interval 1s --target vc
            error: object 'vc' was released (deallocated); a new timer cannot target it
            """)
    ]

    static let objectList = [
        Example(
            """
            > object new a
            > object new b
            > timer gcd refresh --interval 1s --target a
            > timer gcd poll --interval 1s --target b --weak
            > object release a
            a is still alive: retained by refresh — a leak (see 'timer leaks')
            > object release b
            b deallocated; its deinit invalidated poll
            > object list
            name  state        retained by  weak timers
            a     leaked       refresh      -
            b     deallocated  -            poll
            """)
    ]
}

extension TimerInspectorExamples {
    static let plot: [Example] = [
        // K2: a stall makes one firing late (busy, b), a scroll another (mode, m): the timer is in
        // default mode.
        Example(
            """
            > timer nstimer clock --interval 100ms --repeats
            > run 300ms
            > stall 150ms
            > run 350ms
            > scroll 300ms
            > run 500ms
            > timer plot clock --width 60 --height 6
            timer plot: clock, 0s to 1.15s
            lateness (ms): how long after its scheduled time it ran
            250 ┤                              m
            200 ┤
            150 ┤             b
            100 ┤
             50 ┤
              0 ┤╌╌╌╌·╌╌╌·╌╌╌╌╌╌╌╌╌╌╌╌·╌╌╌╌·╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌·╌╌╌·╌╌ late
                └┬───────┬────────┬────────┬───────┬────────┬──────
                 0s      0.2s     0.4s     0.6s    0.8s     1s
                                 scheduled time (s)
            · on time  m late: mode  b late: busy  ╌ late threshold 1ms
            8 firings (firings 1–8), 2 late (mode 1, busy 1), max
            lateness 250ms, from 0s to 1.15s
            """),
        Example(
            """
            > timer plot nope
            error: unknown timer 'nope' (see 'timer list')
            > timer nstimer clock --interval 100ms --repeats
            > timer plot clck
            error: unknown timer 'clck'; did you mean 'clock'?
            > timer plot clock
            error: timer 'clock' has not fired yet: nothing to plot
            > run 1s
            > timer plot clock --from 2s
            error: nothing to plot from 2s: the simulation is at 1s
            > timer plot clock --from 500ms --to 200ms
            error: --from 500ms is not before --to 200ms
            > timer plot clock --to 50ms
            error: timer 'clock' has no firing kept between 0s and 50ms
            > timer plot clock clock.png
            error: the chart is written as SVG: name the file <name>.svg (got 'clock.png')
            > timer plot clock /nonexistent/clock.svg
            error: cannot write '/nonexistent/clock.svg': No such file or directory
            """),
    ]
}
