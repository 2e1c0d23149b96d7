#!/usr/bin/env python3
"""Measures `debugsh test`'s parallelism: 200 generated scenario files run with -j 1 and -j 2.

    python3 Benchmarks/test_runner.py [--files 200] [--runs 3] [--binary PATH]

The scenarios are realistic: NSTimers and GCD timers under stalls with the timer inspector, the
FPS meter under a GPU load and a scroll, the layout-settle checker over an animated subtree, each
ending in `expect` lines that hold — a few tens of milliseconds each. Prints the median wall time
of each (interleaved runs) and the ratio -j 2 / -j 1 (target ≤ 0.6 on 2 cores). Uses the release
build of debugsh (`swift build -c release --product debugsh`) unless --binary names another.
Not a timed unit test: the machine's load moves wall time.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KINDS = [
    # timers under a stall, inspected
    """timer watch on
timer nstimer poll{i} --interval {ms}ms --repeats
timer gcd tick{i} --interval {ms2}ms
after 200ms stall {stall}ms
run {secs}s
expect main.hangs == {hangs}
expect clock.now == {secs}s
""",
    # the FPS meter under a GPU load and a scroll
    """fps start
animate {secs}s
load gpu {gpu}ms
scroll 1s
run {secs}s
expect fps.value >= 0
expect clock.vsyncs == {vsyncs}
""",
    # the layout checker over an animated subtree
    """view add root{i} --frame 0,0,320,480
view grow root{i} {views}
view add a{i} --frame 0,0,100,100
view animate a{i} --frame 0,0,200,100 --over {ms}0ms
layout watch
run {secs}s
expect clock.now == {secs}s
""",
]


def generate(folder, count):
    for i in range(count):
        secs = 2 + i % 5
        stall = 50 + (i * 37) % 400
        text = KINDS[i % 3].format(
            i=i, ms=10 + i % 40, ms2=5 + i % 20, stall=stall, secs=secs, hangs=1 if stall >= 250 else 0,
            gpu=10 + i % 25, vsyncs=secs * 60, views=100 + (i * 13) % 900)
        sub = os.path.join(folder, f"group{i % 7}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"scenario{i:03}.dsh"), "w") as f:
            f.write(f"# generated scenario {i}\n" + text)


def timed(binary, folder, jobs):
    start = time.perf_counter()
    r = subprocess.run([binary, "test", "-j", str(jobs), "--slowest", "0", folder], capture_output=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"debugsh test -j {jobs} failed ({r.returncode}):\n{r.stdout.decode()[-3000:]}{r.stderr.decode()[-2000:]}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "debugsh"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="debugsh-suite-") as folder:
        generate(folder, args.files)
        timed(args.binary, folder, 2)  # warm the page cache
        one, two = [], []
        for _ in range(args.runs):
            one.append(timed(args.binary, folder, 1))
            two.append(timed(args.binary, folder, 2))
        m1, m2 = statistics.median(one), statistics.median(two)
        print(f"{args.files} files, {os.cpu_count()} cores, {args.runs} interleaved runs each")
        print(f"-j 1: median {m1:.2f} s ({', '.join(f'{t:.2f}' for t in one)})")
        print(f"-j 2: median {m2:.2f} s ({', '.join(f'{t:.2f}' for t in two)})")
        print(f"-j 2 / -j 1 = {m2 / m1:.2f} (target <= 0.60)")


if __name__ == "__main__":
    main()
