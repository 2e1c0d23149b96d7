#!/usr/bin/env python3
"""Measures the command line against the README's performance targets: start-up, a long script,
and memory.

    python3 Benchmarks/cli.py [--runs 30]

- start-up: median wall time of `debugsh -c quit` (target ≤ 20 ms);
- a 100,000-line script of simple commands (`echo`, `set`, `get`) piped in (target ≤ 1 s);
- peak RSS of 100,000 timers (NSTimers and GCD timers, half each) plus 100,000 views running
  10 s of virtual time (target < 200 MB).

Uses the release build of debugsh (`swift build -c release --product debugsh`).
"""
import argparse, os, resource, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "debugsh")


def timed(args, stdin=b""):
    start = time.perf_counter()
    r = subprocess.run([BINARY] + args, input=stdin, capture_output=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"debugsh {' '.join(args)} failed ({r.returncode}): {r.stderr.decode()[:500]}")
    return elapsed


def peak_rss_mb(script):
    """Peak RSS of one child, from wait4's rusage (kilobytes on Linux)."""
    p = subprocess.Popen([BINARY], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    p.stdin.write(script)
    p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"the memory script failed: {p.stderr.read().decode()[:500]}")
    return usage.ru_maxrss / 1024


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=30)
    a = p.parse_args()
    print("building debugsh (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "debugsh"], cwd=ROOT, check=True,
                   capture_output=True)

    startup = statistics.median(timed(["-c", "quit"]) for _ in range(a.runs))

    kinds = ["echo line {i}", "set shell.echo off", "get clock.now"]
    script = "".join(kinds[i % 3].format(i=i) + "\n" for i in range(100_000)).encode()
    long_script = statistics.median(timed([], script) for _ in range(max(1, a.runs // 10)))

    lines = []
    for i in range(100_000):
        if i % 2 == 0:
            lines.append(f"timer nstimer t{i} --interval {10 + i % 991}ms --repeats")
        else:
            lines.append(f"timer gcd t{i} --interval {10 + i % 991}ms")
    lines += ["view grow window 100000", "run 10s"]
    rss = peak_rss_mb(("\n".join(lines) + "\n").encode())

    print(f"{'measure':<44} {'value':>10} {'target':>10}")
    print(f"{'start-up: debugsh -c quit (median)':<44} {startup * 1000:>8.1f}ms {'≤ 20ms':>10}")
    print(f"{'100,000-line script (median)':<44} {long_script:>9.2f}s {'≤ 1s':>10}")
    print(f"{'100,000 timers + 100,000 views, run 10s: RSS':<44} {rss:>8.0f}MB {'< 200MB':>10}")


if __name__ == "__main__":
    main()
