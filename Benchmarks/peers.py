"""What the benchmark scripts share: where the peer models are, and the floor's release build.

The peers live in this folder: Peers/ holds the Python models (simmodel.py, the workload; sim_heapq.py
and sim_simpy.py, two event loops; workload_dsh.py, the workload as a debugsh script;
layout_bench.py, the layout snapshot), Floor/ the Swift package with the bare event loop (simbench)
and the seed's layout snapshot (layoutbench).
"""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARKS = os.path.join(ROOT, "Benchmarks")
PEERS = os.path.join(BENCHMARKS, "Peers")
FLOOR = os.path.join(BENCHMARKS, "Floor")


def build_floor():
    """Builds Floor/ in release (into Benchmarks/.build-floor, which git ignores); returns the folder
    of its executables."""
    scratch = os.path.join(BENCHMARKS, ".build-floor")
    print("building the floor (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--package-path", FLOOR, "--scratch-path", scratch],
                   check=True, capture_output=True)
    return os.path.join(scratch, "release")
