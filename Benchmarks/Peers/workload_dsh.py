"""The peers' workload (simmodel.py) as a debugsh script: K timers made with the `timer` command,
SECONDS simulated at HZ. This is what a user would run, so it measures the whole product — the
timer inspector recording every firing, the FPS meter, the interpreter — not the engine alone.

    python3 workload_dsh.py 1000 3600 60 > w.dsh && debugsh w.dsh

The mapping: `animate` with `load frame 4ms` is the 4 ms display-link callback, `every 2s stall
21ms` stands for the 120th-frame hitch, `fps start` is the FPS meter, and timer i is an NSTimer
on the main thread costing 2 us (even i) or a GCD timer on a background queue (odd i).
"""
import sys

K = int(sys.argv[1]); sim_s = int(sys.argv[2]); hz = int(sys.argv[3]) if len(sys.argv) > 3 else 60
print(f"display rate {hz}")
print(f"animate {sim_s}s")
print("load frame 4ms")
print("every 2s stall 21ms")
print("fps start")
for i in range(K):
    ms = 10 + (i * 7919) % 991; us = i % 97
    iv = f"{ms * 1000 + us}us"
    if i % 2 == 0:
        print(f"timer nstimer t{i} --interval {iv} --repeats --cost 2us")
    else:
        print(f"timer gcd g{i} --interval {iv} --queue background")
print(f"run {sim_s}s")
print("get fps.value")
