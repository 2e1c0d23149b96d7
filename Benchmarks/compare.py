#!/usr/bin/env python3
"""Runs the peer workload (Peers/simmodel.py) in debugsh and in the peer models, in one run on one
machine, and prints wall time per simulated hour with the ratios the README's performance
section names.

    python3 Benchmarks/compare.py [--timers 1000] [--seconds 3600] [--hz 60] [--runs 3]
                                  [--skip-simpy] [--skip-scale]

The headline is the product: the release `debugsh` binary running the workload as a script
(Peers/workload_dsh.py: the timers made with `timer`, the timer inspector recording, the FPS meter
attached, `animate` with `load frame 4ms`, a 21 ms stall every 2 s) — what a user runs, start-up
and script included. Beside it:
- debugsh engine: Benchmarks/.build/release/enginebench, the same workload through the plugin API
  (no interpreter, no inspector);
- floor: Floor/ `simbench binheap-bu`, the bare binary-heap loop, built in release;
- heapq and SimPy: Peers/sim_heapq.py and Peers/sim_simpy.py (SimPy installed with pip when
  missing).
- debugsh --trace: the binary again, tracing the run (`--trace`), against the untraced run;
Then, unless --skip-scale, the scale check: 100,000 timers (half NSTimer, half GCD, 10 ms–1 s)
for one simulated minute through the binary, its wall time and peak memory.
Everything is in this repository; nothing outside it is needed.
"""
import argparse, json, os, resource, statistics, subprocess, sys, tempfile, time

from peers import PEERS, ROOT, build_floor


def run_json(cmd, cwd=None):
    out = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_binary(cmd):
    """Runs a command; returns its wall time in seconds and its peak RSS in MB."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{cmd[0]} failed: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def build():
    print("building debugsh and enginebench (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "debugsh"], cwd=ROOT, check=True,
                   capture_output=True)
    bench = os.path.join(ROOT, "Benchmarks")
    made = subprocess.run(["swift", "build", "-c", "release", "--product", "enginebench"], cwd=bench,
                          capture_output=True, text=True)
    if made.returncode != 0:
        raise SystemExit(f"building enginebench failed:\n{made.stdout[-3000:]}{made.stderr[-3000:]}")
    return (os.path.join(ROOT, ".build", "release", "debugsh"),
            os.path.join(ROOT, "Benchmarks", ".build", "release", "enginebench"),
            os.path.join(build_floor(), "simbench"))


def workload(k, s, hz):
    script = subprocess.run([sys.executable, os.path.join(PEERS, "workload_dsh.py"), str(k), str(s), str(hz)],
                            check=True, capture_output=True, text=True).stdout
    f = tempfile.NamedTemporaryFile("w", suffix=".dsh", delete=False)
    f.write(script)
    f.close()
    return f.name


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--timers", type=int, default=1000)
    p.add_argument("--seconds", type=int, default=3600)
    p.add_argument("--hz", type=int, default=60)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--skip-simpy", action="store_true")
    p.add_argument("--skip-scale", action="store_true")
    a = p.parse_args()
    debugsh, engine, floor = build()
    k, s, hz = str(a.timers), str(a.seconds), str(a.hz)
    script = workload(a.timers, a.seconds, a.hz)
    impls = {
        "debugsh": None,
        "debugsh --trace": None,
        "debugsh engine": [engine, k, s, hz],
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
    # Runs are interleaved (debugsh, engine, floor, heapq, simpy, debugsh, …) so that the
    # machine's drift (other tenants, frequency changes) falls on every implementation alike.
    results = {name: [] for name in impls}
    rss = []
    traced_rss = []
    for i in range(a.runs):
        for name, cmd in impls.items():
            if name == "simpy" and i >= max(1, a.runs // 3):
                continue
            if name == "debugsh":
                wall, peak = run_binary([debugsh, "--no-rc", script])
                rss.append(peak)
                r = {"run_s": wall}
            elif name == "debugsh --trace":
                with tempfile.TemporaryDirectory() as folder:
                    wall, peak = run_binary([debugsh, "--no-rc", "--trace", os.path.join(folder, "t.json"), script])
                traced_rss.append(peak)
                r = {"run_s": wall}
            else:
                r = run_json(cmd, cwd=PEERS)
            results[name].append(r)
            print(f"  {name} run {i + 1}: {r['run_s']:.3f} s", file=sys.stderr)
    os.unlink(script)
    hour = 3600 / a.seconds
    med = {n: statistics.median(x["run_s"] for x in v) for n, v in results.items()}
    best = {n: min(x["run_s"] for x in v) for n, v in results.items()}
    base = results["floor binheap-bu"][0]
    eng = results["debugsh engine"][0]
    events = base["events"]
    print(f"\nworkload: {a.timers} timers, {a.seconds} s simulated at {a.hz} Hz, {events} events; "
          f"medians of {a.runs} interleaved runs (SimPy: {len(results.get('simpy', []))}) and the fastest run")
    print(f"{'impl':<18} {'wall per sim hour':>18} {'best':>8} {'ns/event':>10} {'vs debugsh':>14}")
    for n in impls:
        ratio = med[n] / med["debugsh"]
        label = "—" if n == "debugsh" else (f"{ratio:.1f}× slower" if ratio >= 1 else f"{1 / ratio:.2f}× faster")
        print(f"{n:<18} {med[n] * hour:>17.2f}s {best[n] * hour:>7.2f}s {med[n] * 1e9 / events:>10.1f} {label:>14}")
    print("  debugsh: the release binary running the workload script (timers made with `timer`, the inspector and")
    print(f"  the FPS meter recording; start-up and script included; peak memory {max(rss):.0f} MB)")

    def ratio(x, y):
        return f"{med[x] / med[y]:.2f} (best {best[x] / best[y]:.2f})"

    print("  debugsh --trace: the same with `--trace t.json` (the trace's default: the first million events, then")
    print(f"  recording stops; the file written at the end; peak memory {max(traced_rss):.0f} MB)")

    print(f"\ndebugsh ÷ floor        = {ratio('debugsh', 'floor binheap-bu')} (target ≤ 2)")
    print(f"traced ÷ untraced      = {ratio('debugsh --trace', 'debugsh')} (target ≤ 1.5)")
    print(f"debugsh engine ÷ floor = {ratio('debugsh engine', 'floor binheap-bu')}")
    print(f"heapq ÷ debugsh        = {ratio('heapq', 'debugsh')}")
    if "simpy" in med:
        print(f"simpy ÷ debugsh        = {ratio('simpy', 'debugsh')}")
    print(f"same work: vsyncs {eng['vsyncs']} vs {base['vsyncs']}, main fires {eng['main_fires']} vs "
          f"{base['main_fires']}, background fires {eng['gcd_fires']} vs {base['gcd_fires']}")

    if not a.skip_scale:
        big = workload(100_000, 60, 60)
        print("\nscale: 100,000 timers (half NSTimer, half GCD, 10 ms–1 s), one simulated minute, the inspector on",
              file=sys.stderr)
        walls, peaks = [], []
        for _ in range(max(1, a.runs // 2)):
            wall, peak = run_binary([debugsh, "--no-rc", big])
            walls.append(wall)
            peaks.append(peak)
        os.unlink(big)
        print(f"\nscale: 100,000 timers, 1 simulated minute: {statistics.median(walls):.2f} s "
              f"(target ≤ 5 s), peak {max(peaks):.0f} MB (target ≤ 200 MB)")


if __name__ == "__main__":
    main()
