import Testing

@Suite struct DisplayLinkTests {
    /// DL3: the grid is every n-th vsync, n = round(R / f) with halves up: 24 fps at 60 Hz → 3.
    @Test func preferredFramesPerSecondDL3() throws {
        try expectTranscript(
            """
            > timer displaylink film --fps 24
            > run 120ms
            > timer show film
            film: displaylink, preferred 24 fps (50ms), common mode — scheduled
            fires 3 · skipped 0 · max late 0s · next fire 150ms
            #  timestamp  fired  late  cause
            1  0s         0s     0s    -
            2  50ms       50ms   0s    -
            3  100ms      100ms  0s    -
            """)
    }

    /// DL4: a paused link fills no slot — a pending one is dropped — and resumes at its next
    /// grid vsync with a fresh timestamp.
    @Test func pauseResumeDL4() throws {
        try expectTranscript(
            """
            > timer displaylink link --fps 10
            > stall 100ms
            > run 50ms
            > timer pause link
            > run 200ms
            > timer resume link
            > run 100ms
            > timer show link
            link: displaylink, preferred 10 fps (100ms), common mode — scheduled
            fires 1 · skipped 0 · max late 0s · next fire 400ms
            #  timestamp  fired  late  cause
            1  300ms      300ms  0s    -
            """)
    }

    /// DL6: invalidating a link empties its slot: the stale callback never runs.
    @Test func invalidateEmptiesTheSlotDL6() throws {
        try expectTranscript(
            """
            > timer displaylink link
            > stall 100ms
            > run 50ms
            > timer invalidate link
            > run 100ms
            > timer show link
            link: displaylink, every vsync (16.666666ms), common mode — invalidated
            fires 0 · skipped 2
            no firings yet
            > timer resume link
            error: timer 'link' is invalidated, not paused
            """)
    }

    /// DL1 and DL7: a default-mode link is silent during a scroll, keeps its slot, and fires
    /// once when the mode returns, with the stale timestamp (mode cause).
    @Test func defaultModeAcrossAScrollDL7() throws {
        try expectTranscript(
            """
            > timer displaylink label --mode default --fps 10
            > timer displaylink common --fps 10
            > scroll 500ms
            > run 650ms
            > timer show label
            label: displaylink, preferred 10 fps (100ms), default mode — scheduled
            fires 2 · skipped 5 · max late 500ms (mode) · next fire 700ms
            fix: add it to the common modes (--mode common; in the app, link.add(to: .main, forMode: .common)): in the default mode it cannot fire while a scroll runs the tracking mode (DL1)
            #  timestamp  fired  late   cause
            1  0s         500ms  500ms  mode
            2  600ms      600ms  0s     -
            > get timer.common.fires
            timer.common.fires = 7
            """)
    }
}

@Suite struct OwnershipTests {
    /// K1: a timer with --target retains it; released by the shell, the object is kept alive — a
    /// leak — and the timer still fires. Invalidating it frees the object.
    @Test func strongTargetLeaks() throws {
        try expectTranscript(
            """
            > object new vc
            > timer nstimer poll --interval 100ms --repeats --target vc
            > object release vc
            vc is still alive: retained by poll — a leak (see 'timer leaks')
            > get timer.leaks
            timer.leaks = 1
            > run 350ms
            > get timer.poll.fires
            timer.poll.fires = 3
            > timer leaks
            1 leaked object: released by the shell, kept alive by timers (K1)
            vc: a retain cycle through poll
              poll (nstimer, 3 fires) still fires for its released owner
                fix: target a weak proxy of vc or use the block API with [weak self] (--weak), and invalidate poll in vc's deinit
            > timer invalidate poll
            vc deallocated
            > get timer.leaks
            timer.leaks = 0
            > object list
            name  state        retained by  weak timers
            vc    deallocated  -            -
            """)
    }

    /// K1: with --weak the object is deallocated when released, and its deinit invalidates every
    /// weak timer that targets it.
    @Test func weakTargetsAreInvalidatedByTheDeinit() throws {
        try expectTranscript(
            """
            > object new monitor
            > timer displaylink meter --target monitor --weak
            > timer gcd poll --interval 100ms --target monitor --weak --queue background
            > run 150ms
            > object release monitor
            monitor deallocated; its deinit invalidated meter, poll
            > get timer.count
            timer.count = 0
            > get timer.leaks
            timer.leaks = 0
            > run 100ms
            > get timer.meter.fires
            timer.meter.fires = 9
            > get timer.poll.state
            timer.poll.state = invalidated
            > timer leaks
            no leaks: no released object is kept alive by a timer
            """)
    }

    /// K1 and T6: a one-shot retains its target until it fires; then the object goes, and its
    /// deinit invalidates its weak link at that instant (timers before links at a tie, RL4.3).
    @Test func oneShotReleasesItsTargetWhenItFires() throws {
        try expectTranscript(
            """
            > object new vc
            > timer nstimer once --interval 100ms --target vc
            > timer displaylink link --target vc --weak
            > object release vc
            vc is still alive: retained by once — a leak (see 'timer leaks')
            > run 50ms
            > get timer.leaks
            timer.leaks = 1
            > run 100ms
            > get timer.leaks
            timer.leaks = 0
            > get timer.link.fires
            timer.link.fires = 6
            > object list
            name  state        retained by  weak timers
            vc    deallocated  -            link
            """)
    }

    /// A paused timer still retains its target; the leak report says so.
    @Test func pausedTimersStillRetain() throws {
        try expectTranscript(
            """
            > object new vc
            > timer gcd refresh --interval 1s --target vc
            > timer pause refresh
            > object release vc
            vc is still alive: retained by refresh — a leak (see 'timer leaks')
            > timer leaks
            1 leaked object: released by the shell, kept alive by timers (K1)
            vc: a retain cycle through refresh
              refresh (gcd, 0 fires) is paused but still retains it
                fix: capture vc weakly in the handler ([weak self]; --weak) and cancel refresh in vc's deinit
            """)
    }

    @Test func badTargets() throws {
        try expectTranscript(
            """
            > timer nstimer a --interval 1s --target vc
            error: unknown object 'vc' (make one with 'object new vc')
            > object new view
            > timer nstimer a --interval 1s --target veiw
            error: unknown object 'veiw'; did you mean 'view'?
            > timer displaylink a --weak
            error: --weak needs --target <object>
            > object release view
            view deallocated
            > get timer.leaks
            timer.leaks = 0
            > timer gcd a --interval 1s --target view
            error: object 'view' was released (deallocated); a new timer cannot target it
            > object release view
            error: object 'view' was already released (deallocated)
            > object release nothing
            error: unknown object 'nothing' (make one with 'object new nothing')
            > object
            name  state        retained by  weak timers
            view  deallocated  -            -
            """)
    }
}

@Suite struct CountdownTests {
    /// Seed 003's count-down button: n + 1 handlers at now, now + 1 s, …, now + n s on a
    /// background queue; each sets the title on the main queue (a block that dirties the UI,
    /// so one commit each); the last restores the title and cancels → done.
    @Test func countdownFromThree() throws {
        try expectTranscript(
            """
            > timer countdown button 3
            > timer watch on
            > run 1500ms
            [0.000s] timer: button fired, data 1
            [1.000s] timer: button fired, data 1
            > timer show button
            button: count-down from 3s (a gcd timer every 1s), background queue, title "Resend in 2s" — scheduled
            fires 2 · data 2 · last data 1 · max late 0s · next fire 2s
            #  scheduled  fired  late  cause  data
            1  0s         0s     0s    -      1
            2  1s         1s     0s    -      1
            > run 3s
            [2.000s] timer: button fired, data 1
            [3.000s] timer: button fired, data 1
            > timer show button --last 1
            button: count-down from 3s (a gcd timer every 1s), background queue, title "Send code" — done
            fires 4 · data 4 · last data 1 · max late 0s
            the last 1 of 4 firings; --last n shows more (the last 1000 are kept)
            #  scheduled  fired  late  cause  data
            4  3s         3s     0s    -      1
            > get render.commits
            render.commits = 4
            > get timer.count
            timer.count = 0
            """)
    }

    /// The title blocks wait for a busy main thread; the background timer does not (D5).
    @Test func titlesWaitForTheMainThread() throws {
        try expectTranscript(
            """
            > timer countdown button 5
            > stall 2500ms
            > run 2400ms
            > timer show button --last 1
            button: count-down from 5s (a gcd timer every 1s), background queue, title "Send code" — scheduled
            fires 3 · data 3 · last data 1 · max late 0s · next fire 3s
            the last 1 of 3 firings; --last n shows more (the last 1000 are kept)
            #  scheduled  fired  late  cause  data
            3  2s         2s     0s    -      1
            > run 200ms
            > timer show button --last 1
            button: count-down from 5s (a gcd timer every 1s), background queue, title "Resend in 3s" — scheduled
            fires 3 · data 3 · last data 1 · max late 0s · next fire 3s
            the last 1 of 3 firings; --last n shows more (the last 1000 are kept)
            #  scheduled  fired  late  cause  data
            3  2s         2s     0s    -      1
            """)
    }
}
