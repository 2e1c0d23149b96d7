#!/usr/bin/env python3
"""Times `replay` of a 10-minute recording at 120 Hz (72,000 frames) with the release binary.

docs/Replay.md, "Speed": the aim is under 2 s for the whole replay (import, start, run,
compare). Usage: swift build -c release && python3 Benchmarks/replay.py [minutes]
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "debugsh")


def frame_log(path, minutes):
    """A frame log in the shape `fps frames --csv` writes: 120 Hz, a 4 ms update and a 1 ms
    commit a frame, a 2 ms render, every 97th frame's update 20 ms; the hitch column is left
    empty (a speed workload, not a calibration: ReplayTests calibrates)."""
    period = 1_000_000_000 / 120
    frames = minutes * 60 * 120
    with open(path, "w") as f:
        f.write("frame,vsync,commit_start,commit_end,render_start,render_end,present,"
                "expected_present,hitch,cause,refresh_interval\n")
        present_floor = 0
        for k in range(frames):
            v = int(k * period)
            update = 20_000_000 if k % 97 == 96 else 4_000_000
            cs = v + update
            ce = cs + 1_000_000
            n = k + 1
            while int(n * period) <= ce:
                n += 1
            rs = int(n * period)
            re = rs + 2_000_000
            p = int((n + 1) * period)
            p = max(p, present_floor)
            x = int((k + 2) * period)
            present_floor = p + 1
            f.write(f"{k + 1},{v},{cs},{ce},{rs},{re},{p},{x},,,8333333\n")
    return frames


def main():
    minutes = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    if not os.path.exists(BINARY):
        sys.exit("build the release binary first: swift build -c release")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "scroll.csv")
        frames = frame_log(log, minutes)
        script = os.path.join(tmp, "replay.dsh")
        with open(script, "w") as f:
            f.write(f"import csv {log}\nreplay start\nreplay run\nreplay compare\n"
                    "get replay.hitches rec.hitches replay.unreproduced\n")
        best = None
        for _ in range(3):
            start = time.perf_counter()
            out = subprocess.run([BINARY, "--no-rc", script], capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            if out.returncode != 0:
                sys.exit(out.stderr)
            best = elapsed if best is None else min(best, elapsed)
        print(out.stdout.strip().splitlines()[-3:])
        print(f"replay of {minutes} min at 120 Hz ({frames:,} frames): best of 3 {best:.2f} s wall")


if __name__ == "__main__":
    main()
