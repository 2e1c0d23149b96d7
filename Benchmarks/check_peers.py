#!/usr/bin/env python3
"""Checks that the peer models do the same work, so that a benchmark ratio means something.

    python3 Benchmarks/check_peers.py [--cases 1000:60,100:600] [--hz 60] [--skip-simpy]
                                      [--reference DIR]

For each case (K timers, seconds simulated) it runs every implementation of the peers' workload —
Peers/sim_heapq.py in both variants, Peers/sim_simpy.py and Floor's simbench in all four
variants — and requires:
- the same event counts from all of them (events, vsyncs, main-thread and background timer
  firings), equal to what simmodel.py derives from the workload's definition without simulating;
- the same counts of everything else (callbacks, dropped vsyncs, lateness, the FPS windows) from
  the heap-based loops (heapq and simbench), which order events at one instant by id. SimPy orders
  them by when they were scheduled, so a timer and a vsync at the same nanosecond can run the
  other way round there; its callbacks, drops and lateness are shown, not required to match.

--reference DIR also runs another copy of the peer models (a folder with sim_heapq.py,
sim_simpy.py, workload_dsh.py and floor/, the layout this repository's models were written
after) and requires identical counts, all of them, from each of its implementations and the
same script from its workload_dsh.py. Exits 1 on any difference. Timing is not compared.
"""
import argparse, json, os, shutil, subprocess, sys

from peers import BENCHMARKS, PEERS, build_floor

# The fields every implementation reports that must agree.
COUNTS = ["events", "vsyncs", "callbacks", "dropped", "main_fires", "gcd_fires", "lateness_ns",
          "fps_windows", "fps_min", "fps_mean"]
FLOOR_VARIANTS = ["binheap-bu", "binheap", "heap", "heap-poppush"]


def run_json(cmd, cwd):
    out = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def counts(result):
    c = {k: result[k] for k in COUNTS}
    # Swift prints the mean with all its digits, Python rounds it to three.
    c["fps_mean"] = round(float(c["fps_mean"]), 3)
    return c


def expected(peers, k, seconds, hz):
    """The counts simmodel.py derives without simulating: vsyncs and timer firings."""
    code = ("import json, simmodel as m; ns = int(%r * m.NS); "
            "v = m.expected_vsync_events(%d, ns); t = m.expected_timer_events(%d, ns); "
            "print(json.dumps({'vsyncs': v, 'events': v + t}))") % (float(seconds), hz, k)
    return run_json([sys.executable, "-c", code], cwd=peers)


def build_reference_floor(reference):
    """Builds the reference floor in release from a writable copy (the reference may be read-only)."""
    src = os.path.join(BENCHMARKS, ".build-floor-reference", "src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(os.path.join(reference, "floor"), src)
    subprocess.run(["chmod", "-R", "u+w", src], check=True)
    print("building the reference floor (release)…", file=sys.stderr)
    scratch = os.path.join(BENCHMARKS, ".build-floor-reference", "build")
    subprocess.run(["swift", "build", "-c", "release", "--package-path", src, "--scratch-path", scratch],
                   check=True, capture_output=True)
    return os.path.join(scratch, "release")


def implementations(peers, floor, label, simpy):
    impls = {
        f"{label} heapq poppush": ([sys.executable, "sim_heapq.py"], ["poppush"], peers),
        f"{label} heapq replace": ([sys.executable, "sim_heapq.py"], ["replace"], peers),
    }
    if simpy:
        impls[f"{label} simpy"] = ([sys.executable, "sim_simpy.py"], [], peers)
    for variant in FLOOR_VARIANTS:
        impls[f"{label} floor {variant}"] = ([os.path.join(floor, "simbench"), variant], [], peers)
    return impls


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cases", default="1000:60,100:600", help="K:seconds pairs, comma-separated")
    p.add_argument("--hz", type=int, default=60)
    p.add_argument("--skip-simpy", action="store_true")
    p.add_argument("--reference", help="another copy of the peer models to compare with")
    a = p.parse_args()

    simpy = not a.skip_simpy
    if simpy:
        try:
            import simpy as _  # noqa: F401
        except ImportError:
            print("SimPy is not installed (pip install simpy): skipping it", file=sys.stderr)
            simpy = False

    impls = implementations(PEERS, build_floor(), "repo", simpy)
    if a.reference:
        reference = os.path.abspath(a.reference)
        impls.update(implementations(reference, build_reference_floor(reference), "reference", simpy))

    failed = False
    for case in a.cases.split(","):
        k, seconds = (int(x) for x in case.split(":"))
        want = expected(PEERS, k, seconds, a.hz)
        print(f"\nK = {k}, {seconds} s at {a.hz} Hz: expected {want['events']} events ({want['vsyncs']} vsyncs)")
        print(f"{'implementation':<30} " + " ".join(f"{c:>12}" for c in COUNTS))
        results = {}
        for name, (cmd, extra, cwd) in impls.items():
            # simbench takes its variant before K; the Python peers take theirs after HZ.
            args = cmd + [str(k), str(seconds), str(a.hz)] + extra
            results[name] = counts(run_json(args, cwd))
            print(f"{name:<30} " + " ".join(f"{str(results[name][c]):>12}" for c in COUNTS))
        events = ["events", "vsyncs", "main_fires", "gcd_fires"]
        for name, c in results.items():
            if any(c[f] != want.get(f, c[f]) for f in events) or any(
                    c[f] != next(iter(results.values()))[f] for f in events):
                print(f"MISMATCH: {name} counts other events: {c}")
                failed = True
        heaps = [n for n in results if "simpy" not in n]
        for name in heaps:
            if results[name] != results[heaps[0]]:
                print(f"MISMATCH: {name} differs from {heaps[0]}: {results[name]} vs {results[heaps[0]]}")
                failed = True
        for name in results:
            twin = name.replace("reference ", "repo ", 1)
            if name.startswith("reference ") and results[name] != results[twin]:
                print(f"MISMATCH: {name} differs from {twin}")
                failed = True

    if a.reference:
        for k, seconds in [(1000, 3600), (7, 60)]:
            mine = subprocess.run([sys.executable, os.path.join(PEERS, "workload_dsh.py"), str(k), str(seconds)],
                                  check=True, capture_output=True, text=True).stdout
            theirs = subprocess.run([sys.executable, os.path.join(reference, "workload_dsh.py"), str(k), str(seconds)],
                                    check=True, capture_output=True, text=True).stdout
            same = mine == theirs
            print(f"\nworkload_dsh.py {k} {seconds}: {'the same script' if same else 'MISMATCH'} "
                  f"({len(mine.splitlines())} lines)")
            failed |= not same

    print("\nFAILED: the peers do not do the same work" if failed else "\nok: every peer counts the same events")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
