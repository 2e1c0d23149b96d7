#!/usr/bin/env python3
"""Times what issue 36 bounds: 10,000 breakpoints defined, and 10,000 nested blocks, each in
one script run by the release binary (the aim: each under 1 s). docs/Limits.md has the figures.

Usage: swift build -c release && python3 Benchmarks/limits_scale.py [n]
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "debugsh")


def best_of(script, rounds=3):
    best = None
    for _ in range(rounds):
        start = time.perf_counter()
        out = subprocess.run([BINARY, "--no-rc", script], capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if out.returncode != 0:
            sys.exit(f"{script}: {out.stderr[:300]}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    if not os.path.exists(BINARY):
        sys.exit("build the release binary first: swift build -c release")
    with tempfile.TemporaryDirectory() as tmp:
        breaks = os.path.join(tmp, "breaks.dsh")
        with open(breaks, "w") as f:
            f.write("".join(f"break when clock.now >= {i + 1}ms\n" for i in range(n)))
            f.write("run 1ms\n")
        nested = os.path.join(tmp, "nested.dsh")
        with open(nested, "w") as f:
            f.write("after 1ms { " * n + "echo deep" + " }" * n + "\nrun 2s\n")
        print(f"{n:,} breakpoints defined, then a run: best of 3 {best_of(breaks):.2f} s wall")
        print(f"{n:,} nested blocks parsed and scheduled: best of 3 {best_of(nested):.2f} s wall")


if __name__ == "__main__":
    main()
