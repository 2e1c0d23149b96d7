#!/usr/bin/env python3
"""Runs the peer workload (Peers/simmodel.py) in debugsh and in the peer models, in one run on one
machine, and prints wall time per simulated hour with the ratios the README's performance
section names.

    python3 Benchmarks/compare.py [--timers 1000] [--seconds 3600] [--hz 60] [--runs 3]
                                  [--skip-simpy] [--skip-scale] [--skip-engine] [--skip-trace] [--skip-heapq]
                                  [--callgrind] [--cg-seconds 60,300]

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
Each run's CPU time (user + system, from the kernel) is printed beside its wall time: the ratio to
the floor that issue 38 names is the CPU time's, which a shared machine moves less.

With --callgrind the binary and the floor also run under valgrind's callgrind, with its cache
simulation, on the workload for two lengths (--cg-seconds, 60 and 300 s by default): the
difference divided by the difference in simulated seconds is what one simulated second costs —
instructions, first-level instruction and data misses, last-level misses — with start-up and the
script's set-up left out. The binary's start-up (`debugsh --no-rc -c quit`) is counted too.
Callgrind counts are repeatable where times are not; they need `valgrind` on the PATH.

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
    """Runs a command; returns its wall time in seconds, its peak RSS in MB and its CPU time
    (user + system) in seconds."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{cmd[0]} failed: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def children_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def run_json_cpu(cmd, cwd=None):
    """run_json, with the child's CPU time (user + system) in seconds as `cpu_s`."""
    before = children_cpu()
    r = run_json(cmd, cwd=cwd)
    r["cpu_s"] = children_cpu() - before
    return r


# What callgrind's cache simulation reports, and the names printed for them.
CG_EVENTS = ["Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]


def callgrind(cmd):
    """Runs a command under callgrind with the cache simulation; returns its event totals."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cg.out")
        env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", f"--callgrind-out-file={out}"] + cmd,
                       check=True, capture_output=True, env=env)
        events, totals = None, None
        with open(out) as f:
            for line in f:
                if line.startswith("events:"):
                    events = line.split()[1:]
                elif line.startswith("summary:") or line.startswith("totals:"):
                    totals = [int(x) for x in line.split()[1:]]
        counts = dict(zip(events, totals))
        return {e: counts.get(e, 0) for e in CG_EVENTS}


def per_second(short, long, seconds):
    """What one simulated second costs: the difference of two runs over their simulated seconds."""
    return {e: (long[e] - short[e]) / seconds for e in CG_EVENTS}


def callgrind_report(debugsh, floor, a):
    """The callgrind section: instructions and simulated cache misses per simulated second of
    the binary and the floor, and the binary's start-up."""
    lengths = [int(x) for x in a.cg_seconds.split(",")]
    short_s, long_s = lengths[0], lengths[1]
    k, hz = str(a.timers), str(a.hz)
    print(f"\ncallgrind ({a.timers} timers at {a.hz} Hz; {long_s} s − {short_s} s, divided by "
          f"{long_s - short_s} simulated seconds; --cache-sim=yes)…", file=sys.stderr)
    rows = {}
    scripts = {n: workload(a.timers, n, a.hz) for n in (short_s, long_s)}
    try:
        d = {n: callgrind([debugsh, "--no-rc", scripts[n]]) for n in (short_s, long_s)}
    finally:
        for f in scripts.values():
            os.unlink(f)
    rows["debugsh"] = per_second(d[short_s], d[long_s], long_s - short_s)
    f = {n: callgrind([floor, "binheap-bu", k, str(n), hz]) for n in (short_s, long_s)}
    rows["floor binheap-bu"] = per_second(f[short_s], f[long_s], long_s - short_s)
    events = run_json([floor, "binheap-bu", k, str(long_s), hz], cwd=PEERS)["events"] / long_s
    startup = callgrind([debugsh, "--no-rc", "-c", "quit"])["Ir"]
    print(f"\ncallgrind, per simulated second ({events:,.0f} events; {long_s} s − {short_s} s over "
          f"{long_s - short_s} s, so start-up and set-up are left out):")
    print(f"{'impl':<18} {'instructions':>13} {'per event':>10} {'I1 misses':>10} {'D1 misses':>10} "
          f"{'LL misses':>10}")
    for name, r in rows.items():
        d1 = r["D1mr"] + r["D1mw"]
        ll = r["ILmr"] + r["DLmr"] + r["DLmw"]
        print(f"{name:<18} {r['Ir'] / 1e6:>12.3f}M {r['Ir'] / events:>10.0f} {r['I1mr']:>10,.0f} {d1:>10,.0f} "
              f"{ll:>10,.0f}")
    ratio = rows["debugsh"]["Ir"] / rows["floor binheap-bu"]["Ir"]
    print(f"debugsh ÷ floor (instructions) = {ratio:.2f}")
    print(f"start-up, debugsh --no-rc -c quit: {startup / 1e6:.2f}M instructions (target ≤ 20M)")


def build(engine=True):
    print("building debugsh" + (" and enginebench" if engine else "") + " (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "debugsh"], cwd=ROOT, check=True,
                   capture_output=True)
    bench = os.path.join(ROOT, "Benchmarks")
    if engine:
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
    p.add_argument("--skip-engine", action="store_true", help="leave out the engine alone (no Benchmarks/ build)")
    p.add_argument("--skip-trace", action="store_true", help="leave out the traced run")
    p.add_argument("--skip-heapq", action="store_true", help="leave out the heapq peer")
    p.add_argument("--callgrind", action="store_true",
                   help="also count instructions and cache misses per simulated second under callgrind")
    p.add_argument("--cg-seconds", default="60,300", help="the two workload lengths callgrind runs")
    a = p.parse_args()
    debugsh, engine, floor = build(engine=not a.skip_engine)
    k, s, hz = str(a.timers), str(a.seconds), str(a.hz)
    script = workload(a.timers, a.seconds, a.hz)
    impls = {
        "debugsh": None,
        "debugsh --trace": None,
        "debugsh engine": [engine, k, s, hz],
        "floor binheap-bu": [floor, "binheap-bu", k, s, hz],
        "heapq": [sys.executable, os.path.join(PEERS, "sim_heapq.py"), k, s, hz],
    }
    if a.skip_engine:
        del impls["debugsh engine"]
    if a.skip_trace:
        del impls["debugsh --trace"]
    if a.skip_heapq:
        del impls["heapq"]
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
                wall, peak, cpu = run_binary([debugsh, "--no-rc", script])
                rss.append(peak)
                r = {"run_s": wall, "cpu_s": cpu}
            elif name == "debugsh --trace":
                with tempfile.TemporaryDirectory() as folder:
                    wall, peak, cpu = run_binary(
                        [debugsh, "--no-rc", "--trace", os.path.join(folder, "t.json"), script])
                traced_rss.append(peak)
                r = {"run_s": wall, "cpu_s": cpu}
            else:
                r = run_json_cpu(cmd, cwd=PEERS)
            results[name].append(r)
            print(f"  {name} run {i + 1}: {r['run_s']:.3f} s, CPU {r['cpu_s']:.3f} s", file=sys.stderr)
    os.unlink(script)
    hour = 3600 / a.seconds
    med = {n: statistics.median(x["run_s"] for x in v) for n, v in results.items()}
    best = {n: min(x["run_s"] for x in v) for n, v in results.items()}
    cpu = {n: statistics.median(x["cpu_s"] for x in v) for n, v in results.items()}
    base = results["floor binheap-bu"][0]
    events = base["events"]
    print(f"\nworkload: {a.timers} timers, {a.seconds} s simulated at {a.hz} Hz, {events} events; "
          f"medians of {a.runs} interleaved runs (SimPy: {len(results.get('simpy', []))}) and the fastest run")
    print(f"{'impl':<18} {'wall per sim hour':>18} {'best':>8} {'CPU per sim hour':>17} {'ns/event':>10} "
          f"{'vs debugsh':>14}")
    for n in impls:
        ratio = med[n] / med["debugsh"]
        label = "—" if n == "debugsh" else (f"{ratio:.1f}× slower" if ratio >= 1 else f"{1 / ratio:.2f}× faster")
        print(f"{n:<18} {med[n] * hour:>17.2f}s {best[n] * hour:>7.2f}s {cpu[n] * hour:>16.2f}s "
              f"{med[n] * 1e9 / events:>10.1f} {label:>14}")
    print("  debugsh: the release binary running the workload script (timers made with `timer`, the inspector and")
    print(f"  the FPS meter recording; start-up and script included; peak memory {max(rss):.0f} MB)")
    print("  CPU: user + system time of the process, as the kernel counts it (the floor's and peers' too)")

    def ratio(x, y):
        return f"{med[x] / med[y]:.2f} (best {best[x] / best[y]:.2f})"

    if "debugsh --trace" in impls:
        print("  debugsh --trace: the same with `--trace t.json` (the trace's default: the first million events, then")
        print(f"  recording stops; the file written at the end; peak memory {max(traced_rss):.0f} MB)")

    print(f"\ndebugsh ÷ floor        = {ratio('debugsh', 'floor binheap-bu')} (wall)")
    pairs = sorted(d["cpu_s"] / f["cpu_s"] for d, f in zip(results["debugsh"], results["floor binheap-bu"]))
    print(f"debugsh ÷ floor (CPU)  = {cpu['debugsh'] / cpu['floor binheap-bu']:.2f}; pairs (each round's "
          f"runs): median {statistics.median(pairs):.2f}, {pairs[0]:.2f}–{pairs[-1]:.2f} (target ≤ 2)")
    if "debugsh --trace" in impls:
        print(f"traced ÷ untraced      = {ratio('debugsh --trace', 'debugsh')} (target ≤ 1.5)")
    if "debugsh engine" in impls:
        print(f"debugsh engine ÷ floor = {ratio('debugsh engine', 'floor binheap-bu')}")
    if "heapq" in impls:
        print(f"heapq ÷ debugsh        = {ratio('heapq', 'debugsh')}")
    if "simpy" in med:
        print(f"simpy ÷ debugsh        = {ratio('simpy', 'debugsh')}")
    if "debugsh engine" in impls:
        eng = results["debugsh engine"][0]
        print(f"same work: vsyncs {eng['vsyncs']} vs {base['vsyncs']}, main fires {eng['main_fires']} vs "
              f"{base['main_fires']}, background fires {eng['gcd_fires']} vs {base['gcd_fires']}")
    if a.callgrind:
        callgrind_report(debugsh, floor, a)

    if not a.skip_scale:
        big = workload(100_000, 60, 60)
        print("\nscale: 100,000 timers (half NSTimer, half GCD, 10 ms–1 s), one simulated minute, the inspector on",
              file=sys.stderr)
        walls, peaks = [], []
        for _ in range(max(1, a.runs // 2)):
            wall, peak, _ = run_binary([debugsh, "--no-rc", big])
            walls.append(wall)
            peaks.append(peak)
        os.unlink(big)
        print(f"\nscale: 100,000 timers, 1 simulated minute: {statistics.median(walls):.2f} s "
              f"(target ≤ 5 s), peak {max(peaks):.0f} MB (target ≤ 200 MB)")


if __name__ == "__main__":
    main()
