import Testing

/// The worked examples T-A and D-A of docs/Semantics.md, through the `timer` commands, with their exact
/// numbers.
@Suite struct WorkedExampleTests {
    /// T-A (T2, T4, K2): fires at 100, 150, 200, 250; fires = 4, skipped = 1 (the grid point 100,
    /// equal to when the late callback returned); the first is 50 ms late, main thread busy.
    @Test func tA() throws {
        try expectTranscript(
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
            > get timer.poll.fires
            timer.poll.fires = 4
            > get timer.poll.skipped
            timer.poll.skipped = 1
            > get timer.poll.max_late
            timer.poll.max_late = 50ms
            > get timer.late
            timer.late = 1
            """)
    }

    /// D-A (D3, D5, K2): handlers at 100 (data 2), 150, 200, 250; fires = 4, data total 5,
    /// last_data = 1, max_late = 50ms (from the oldest grid point the handler covers).
    @Test func dA() throws {
        try expectTranscript(
            """
            > timer gcd poll --interval 50ms --queue main
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
            > get timer.poll.fires
            timer.poll.fires = 4
            > get timer.poll.last_data
            timer.poll.last_data = 1
            > get timer.poll.max_late
            timer.poll.max_late = 50ms
            > get timer.poll.skipped
            timer.poll.skipped = 0
            """)
    }

    /// D-A on a background queue (D5): handlers at 50, 100, 150, 200, 250, each data 1, late 0.
    @Test func dABackground() throws {
        try expectTranscript(
            """
            > timer gcd poll --interval 50ms --queue background
            > stall 100ms
            > run 300ms
            > timer show poll
            poll: gcd, every 50ms, leeway 0s, background queue — scheduled
            fires 5 · data 5 · last data 1 · max late 0s · next fire 300ms
            #  scheduled  fired  late  cause  data
            1  50ms       50ms   0s    -      1
            2  100ms      100ms  0s    -      1
            3  150ms      150ms  0s    -      1
            4  200ms      200ms  0s    -      1
            5  250ms      250ms  0s    -      1
            > get timer.late
            timer.late = 0
            """)
    }

    /// The three under one stall together (RL4): with zero costs each keeps its numbers, and
    /// the display link runs its one stale callback (DL7, DL-A's 6 skipped vsyncs).
    @Test func allThreeUnderOneStall() throws {
        try expectTranscript(
            """
            > timer nstimer ns --interval 50ms --repeats
            > timer gcd main --interval 50ms
            > timer gcd bg --interval 50ms --queue background
            > timer displaylink link
            > stall 100ms
            > run 300ms
            > timer list
            name  kind         mode/queue  interval  tol/leeway  state      fires  skipped
            ns    nstimer      default     50ms      0s          scheduled  4      1
            main  gcd          main        50ms      0s          scheduled  4      0
            bg    gcd          background  50ms      0s          scheduled  5      0
            link  displaylink  common      16.667ms  -           scheduled  12     6

            name  max late    next fire
            ns    50ms busy   300ms
            main  50ms busy   300ms
            bg    0s          300ms
            link  100ms busy  300ms
            > get timer.main.last_data
            timer.main.last_data = 1
            > get timer.late
            timer.late = 3
            """)
    }
}
