"""The peers' workload (simmodel.py) in SimPy, written as SimPy intends: one generator process
for the vsync and one per timer. Prints one JSON line with its timing and event counts.

    python3 sim_simpy.py K SIM_S [HZ]

Needs SimPy (`pip install simpy`; 4.1.2 measured).
"""
import sys, time, json, simpy
from simmodel import *


def vsync_proc(env, st, hz):
    n = 0
    while True:
        n += 1
        yield env.timeout(n * NS // hz - env.now)
        t = env.now
        st.vsyncs += 1
        while t >= st.win_end:                 # the FPS meter's 1 s windows
            st.fps_samples.append(st.win_count)
            st.win_count = 0
            st.win_end += NS
        if t >= st.busy_until:                 # the display link fires only on a free main thread
            st.callbacks += 1
            st.win_count += 1
            st.busy_until = t + (HITCH_WORK if st.callbacks % 120 == 0 else FRAME_WORK)
        else:
            st.dropped += 1


def main_timer_proc(env, st, iv):
    while True:
        yield env.timeout(iv)
        t = env.now
        b = st.busy_until
        if b > t:
            st.lateness += b - t
            st.busy_until = b + MAIN_TIMER_COST
        else:
            st.busy_until = t + MAIN_TIMER_COST
        st.main_fires += 1


def gcd_timer_proc(env, st, iv):
    while True:
        yield env.timeout(iv)
        st.gcd_fires += 1


def run(K, sim_s, hz):
    sim_ns = int(sim_s * NS)
    t0 = time.perf_counter()
    env = simpy.Environment()
    st = Stats()
    env.process(vsync_proc(env, st, hz))
    for i, iv in enumerate(intervals(K)):
        env.process((main_timer_proc if i % 2 == 0 else gcd_timer_proc)(env, st, iv))
    t1 = time.perf_counter()
    env.run(until=sim_ns + 1)          # 'until' leaves out the events at exactly that time
    t2 = time.perf_counter()
    s = st.summary()
    events = st.vsyncs + st.main_fires + st.gcd_fires
    return dict(impl="simpy", K=K, sim_s=sim_s, hz=hz, setup_s=t1 - t0, run_s=t2 - t1,
                events=events, events_per_s=events / (t2 - t1),
                ns_per_event=(t2 - t1) * 1e9 / events,
                vsync_per_s=st.vsyncs / (t2 - t1),
                timer_events_per_s=(st.main_fires + st.gcd_fires) / (t2 - t1),
                sim_speed=sim_s / (t2 - t1), **s)


if __name__ == "__main__":
    K = int(sys.argv[1]); sim_s = float(sys.argv[2]); hz = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    print(json.dumps(run(K, sim_s, hz)))
