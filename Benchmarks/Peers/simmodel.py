"""The peers' workload: what debugsh's engine benchmark simulates, written down once for the
Python peers (sim_heapq.py, sim_simpy.py) and mirrored by the Swift floor (../Floor).

Virtual time is integer nanoseconds everywhere.
- Vsync n is at n * 1e9 // HZ (n = 1, 2, ...): computed from n, so it never drifts.
- The display link's callback runs at a vsync only if the main thread is free then
  (t >= busy_until). A callback costs 4 ms of main-thread work, every 120th one 25 ms (a hitch),
  so vsyncs that come while the thread is busy are dropped.
- The FPS meter counts callbacks per 1 s window, one sample per window.
- K repeating timers: timer i has the interval (10 + (i*7919) % 991) ms + (i % 97) us — assorted
  from 10 ms to about 1 s, about 4.7 Hz a timer on average — and first fires at its interval.
  Even i are NSTimer-like: they run on the main thread, cost 2 us each, and their lateness (how
  long the main thread kept them waiting) is summed. Odd i are GCD-like timers on a background
  queue: they are only counted.

An event is a vsync or a timer firing; every implementation reports the same counts.
"""
NS = 1_000_000_000
MAIN_TIMER_COST = 2_000
FRAME_WORK = 4_000_000
HITCH_WORK = 25_000_000


def intervals(K):
    """Timer i's interval in ns."""
    return [(10 + (i * 7919) % 991) * 1_000_000 + (i % 97) * 1_000 for i in range(K)]


def expected_timer_events(K, sim_ns):
    """Timer firings in (0, sim_ns]: each timer fires at k * interval, k >= 1."""
    return sum(sim_ns // iv for iv in intervals(K))


def expected_vsync_events(hz, sim_ns):
    """Vsyncs n >= 1 with n * NS // hz <= sim_ns."""
    n = sim_ns * hz // NS
    while (n + 1) * NS // hz <= sim_ns:
        n += 1
    while n > 0 and n * NS // hz > sim_ns:
        n -= 1
    return n


class Stats:
    """What a run counts; summary() is the JSON every implementation prints."""
    __slots__ = ("vsyncs", "callbacks", "dropped", "main_fires", "gcd_fires",
                 "lateness", "busy_until", "win_end", "win_count", "fps_samples")

    def __init__(self):
        self.vsyncs = self.callbacks = self.dropped = 0
        self.main_fires = self.gcd_fires = self.lateness = 0
        self.busy_until = 0
        self.win_end = NS
        self.win_count = 0
        self.fps_samples = []

    def summary(self):
        fs = self.fps_samples
        return dict(vsyncs=self.vsyncs, callbacks=self.callbacks, dropped=self.dropped,
                    main_fires=self.main_fires, gcd_fires=self.gcd_fires,
                    lateness_ns=self.lateness, fps_windows=len(fs),
                    fps_min=min(fs) if fs else None,
                    fps_mean=round(sum(fs) / len(fs), 3) if fs else None)
