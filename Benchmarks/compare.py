#!/usr/bin/env python3
"""Runs the peer workload (Peers/simmodel.py) in debugsh's engine and in the peer models, in one
run on one machine, and prints wall time per simulated hour with the ratios the README's
performance targets name (debugsh within 2× of the floor, at least 5× the heapq loop and 15× SimPy).

    python3 Benchmarks/compare.py [--timers 1000] [--seconds 3600] [--hz 60] [--runs 3] [--skip-simpy]

debugsh: Benchmarks/.build/release/enginebench (the workload through the plugin API: animation,
4 ms per tick, a 21 ms stall every 2 s, the FPS meter's link, K timers — even i NSTimers on the
main thread costing 2 µs, odd i GCD timers on background queues).
floor: Floor/ `simbench binheap-bu` (the bare binary-heap loop), built in release.
peers: Peers/sim_heapq.py and Peers/sim_simpy.py (SimPy installed with pip when missing).
Everything is in this repository; nothing outside it is needed.
"""
import argparse, json, os, statistics, subprocess, sys

from peers import PEERS, ROOT, build_floor


def run(cmd, cwd=None):
    out = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def build():
    print("building enginebench (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "enginebench"],
                   cwd=os.path.join(ROOT, "Benchmarks"), check=True, capture_output=True)
    return (os.path.join(ROOT, "Benchmarks", ".build", "release", "enginebench"),
            os.path.join(build_floor(), "simbench"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--timers", type=int, default=1000)
    p.add_argument("--seconds", type=int, default=3600)
    p.add_argument("--hz", type=int, default=60)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--skip-simpy", action="store_true")
    a = p.parse_args()
    engine, floor = build()
    k, s, hz = str(a.timers), str(a.seconds), str(a.hz)
    impls = {
        "debugsh": [engine, k, s, hz],
        "floor binheap-bu": [floor, "binheap-bu", k, s, hz],
        "heapq": [sys.executable, os.path.join(PEERS, "sim_heapq.py"), k, s, hz],
    }
    if not a.skip_simpy:
        try:
            import simpy  # noqa: F401
        except ImportError:
            print("installing simpy…", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "simpy"], check=True)
        impls["simpy"] = [sys.executable, os.path.join(PEERS, "sim_simpy.py"), k, s, hz]
    # Runs are interleaved (debugsh, floor, heapq, simpy, debugsh, …) so that the machine's drift
    # (other tenants, frequency changes) falls on every implementation alike.
    results = {name: [] for name in impls}
    for i in range(a.runs):
        for name, cmd in impls.items():
            if name == "simpy" and i >= max(1, a.runs // 3):
                continue
            r = run(cmd, cwd=PEERS)
            results[name].append(r)
            print(f"  {name} run {i + 1}: {r['run_s']:.3f} s, {r['ns_per_event']:.1f} ns/event", file=sys.stderr)
    hour = 3600 / a.seconds
    med = {n: statistics.median(x["run_s"] for x in v) for n, v in results.items()}
    best = {n: min(x["run_s"] for x in v) for n, v in results.items()}
    ns = {n: statistics.median(x["ns_per_event"] for x in v) for n, v in results.items()}
    base = results["floor binheap-bu"][0]
    mine = results["debugsh"][0]
    print(f"\nworkload: {a.timers} timers, {a.seconds} s simulated at {a.hz} Hz "
          f"(floor events {base['events']}, debugsh events {mine['events']}); medians of {a.runs} interleaved runs "
          f"(SimPy: {len(results.get('simpy', []))}) and the fastest run")
    print(f"{'impl':<18} {'wall per sim hour':>18} {'best':>8} {'ns/event':>10} {'debugsh is':>14}")
    for n in impls:
        ratio = med[n] / med["debugsh"]
        label = "—" if n == "debugsh" else (f"{ratio:.1f}× faster" if ratio >= 1 else f"{1 / ratio:.2f}× slower")
        print(f"{n:<18} {med[n] * hour:>17.2f}s {best[n] * hour:>7.2f}s {ns[n]:>10.1f} {label:>14}")

    def ratio(x, y):
        return f"{med[x] / med[y]:.2f} (best {best[x] / best[y]:.2f})"

    print(f"\ndebugsh ÷ floor = {ratio('debugsh', 'floor binheap-bu')} (target ≤ 2)")
    if "simpy" in med:
        print(f"simpy ÷ debugsh = {ratio('simpy', 'debugsh')} (target ≥ 15)")
    print(f"heapq ÷ debugsh = {ratio('heapq', 'debugsh')} (target ≥ 5)")
    print(f"same work: vsyncs {mine['vsyncs']} vs {base['vsyncs']}, main fires {mine['main_fires']} vs {base['main_fires']}, "
          f"background fires {mine['gcd_fires']} vs {base['gcd_fires']}")


if __name__ == "__main__":
    main()
