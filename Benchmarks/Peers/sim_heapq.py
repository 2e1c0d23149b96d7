"""The peers' workload (simmodel.py) as a hand-written event loop over Python's heapq: what a
careful Python programmer would write. Prints one JSON line with its timing and event counts.

    python3 sim_heapq.py K SIM_S [HZ] [poppush|replace]

Variants: 'poppush' (heappop then heappush, the usual way) or 'replace' (heapreplace).
"""
import sys, time, json
from heapq import heapify, heappop, heappush, heapreplace
from simmodel import *


def run(K, sim_s, hz, variant="poppush"):
    sim_ns = int(sim_s * NS)
    t0 = time.perf_counter()
    ivs = intervals(K)
    # An entry is (time_ns, id): id 0 is the vsync, id i+1 timer i. (t, id) is unique, so the
    # order of events at one instant is fixed.
    heap = [(iv, i + 1) for i, iv in enumerate(ivs)]
    heap.append((NS // hz, 0))
    heapify(heap)
    st = Stats()
    n = 1
    vsyncs = callbacks = dropped = main_fires = gcd_fires = lateness = 0
    busy_until = 0; win_end = NS; win_count = 0; fps = []
    t1 = time.perf_counter()
    replace = variant == "replace"
    while True:
        if replace:
            t, i = heap[0]
        else:
            t, i = heappop(heap)
        if t > sim_ns:
            break
        if i == 0:
            vsyncs += 1
            while t >= win_end:
                fps.append(win_count); win_count = 0; win_end += NS
            if t >= busy_until:
                callbacks += 1; win_count += 1
                busy_until = t + (HITCH_WORK if callbacks % 120 == 0 else FRAME_WORK)
            else:
                dropped += 1
            n += 1
            nxt = (n * NS // hz, 0)
        else:
            if i & 1:       # id odd = timer index even: on the main thread (NSTimer-like)
                if busy_until > t:
                    lateness += busy_until - t; busy_until += MAIN_TIMER_COST
                else:
                    busy_until = t + MAIN_TIMER_COST
                main_fires += 1
            else:
                gcd_fires += 1
            nxt = (t + ivs[i - 1], i)
        if replace:
            heapreplace(heap, nxt)
        else:
            heappush(heap, nxt)
    t2 = time.perf_counter()
    st.vsyncs, st.callbacks, st.dropped = vsyncs, callbacks, dropped
    st.main_fires, st.gcd_fires, st.lateness, st.fps_samples = main_fires, gcd_fires, lateness, fps
    events = vsyncs + main_fires + gcd_fires
    return dict(impl="heapq-" + variant, K=K, sim_s=sim_s, hz=hz, setup_s=t1 - t0, run_s=t2 - t1,
                events=events, events_per_s=events / (t2 - t1),
                ns_per_event=(t2 - t1) * 1e9 / events,
                vsync_per_s=vsyncs / (t2 - t1),
                timer_events_per_s=(main_fires + gcd_fires) / (t2 - t1),
                sim_speed=sim_s / (t2 - t1), **st.summary())


if __name__ == "__main__":
    K = int(sys.argv[1]); sim_s = float(sys.argv[2]); hz = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    variant = sys.argv[4] if len(sys.argv) > 4 else "poppush"
    print(json.dumps(run(K, sim_s, hz, variant)))
