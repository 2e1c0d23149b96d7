#!/usr/bin/env python3
"""The layout checker's per-frame cost against the tree's size, and against the seed's string
snapshot (the README's target: per-frame cost with 3 changed views independent of tree size, at
most 5 µs at 100,000 views, at least 10,000x cheaper than the string snapshot of
Peers/layout_bench.py, measured in Swift by Floor's layoutbench).

    python3 Benchmarks/layout_scale.py [--sizes 100,100000] [--seconds 3600] [--runs 5]

For each size N it runs the release debugsh on a script: `view grow window N-1` (fan-out 8), three
generated views spinning (a change at every frame), `layout watch` in quiet mode, `run <seconds>`;
the same script without the watch gives the cost of the app itself, so the difference divided by
the frames is the checker's cost per frame (its callback plus the tracking of the 3 changes).
The floor's `layoutbench N naive 3` gives the seed's per-frame string snapshot for the ratio.
"""
import argparse, json, os, resource, statistics, subprocess, sys, tempfile, time

from peers import ROOT, build_floor


def build():
    print("building debugsh (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "debugsh"], cwd=ROOT, check=True,
                   capture_output=True)
    return (os.path.join(ROOT, ".build", "release", "debugsh"), os.path.join(build_floor(), "layoutbench"))

def script(n, seconds, watch):
    # Three spinning views spread over the generated tree: deep ones when the tree is deep.
    picks = sorted({max(1, n - 1), max(1, (n - 1) // 2), max(1, (n - 1) // 3)})
    lines = [f"view grow window {n - 1}"] + [f"view spin window.{k}" for k in picks]
    if watch:
        lines.append(f"layout watch --timeout {seconds * 2}s")
    lines += [f"run {seconds}s", "get layout.changes", "get layout.views"]
    return "\n".join(lines) + "\n"


def cpu_time(binary, text):
    with tempfile.NamedTemporaryFile("w", suffix=".dsh", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([binary, path], check=True, capture_output=True, text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out
    finally:
        os.unlink(path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="100,100000")
    p.add_argument("--seconds", type=int, default=3600)
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    debugsh, layoutbench = build()
    frames = a.seconds * 60
    per_frame = {}
    for n in [int(x) for x in a.sizes.split(",")]:
        watched = [cpu_time(debugsh, script(n, a.seconds, True)) for _ in range(a.runs)]
        bare = [cpu_time(debugsh, script(n, a.seconds, False))[0] for _ in range(a.runs)]
        w = statistics.median(t for t, _ in watched)
        b = statistics.median(bare)
        checker_us = (w - b) / frames * 1e6
        per_frame[n] = checker_us
        print(json.dumps({"views": n, "sim_s": a.seconds, "frames": frames, "with_watch_s": round(w, 4),
                          "without_watch_s": round(b, 4), "checker_us_per_frame": round(checker_us, 3),
                          "output": watched[0][1].strip().splitlines()}), flush=True)
    biggest = max(per_frame)
    naive = json.loads(subprocess.run([layoutbench, str(biggest), "naive", "3"], check=True, capture_output=True,
                                      text=True).stdout.strip().splitlines()[-1])
    ratio = naive["us_per_frame"] / max(per_frame[biggest], 1e-9)
    print(json.dumps({"views": biggest, "string_snapshot_us_per_frame": round(naive["us_per_frame"], 1),
                      "checker_us_per_frame": round(per_frame[biggest], 3), "ratio": round(ratio)}), flush=True)


if __name__ == "__main__":
    main()
