#!/usr/bin/env python3
"""Measures what an armed breakpoint costs, in instructions (callgrind), against the plain run.

    python3 Benchmarks/breakpoint_cost.py [--binary .build/release/debugsh] [--timers 1000]
                                          [--seconds 60] [--keep DIR] [--only NAME,...]

The workload is Peers/workload_dsh.py's (K timers, the FPS meter, S simulated seconds); each
variant inserts its breakpoint lines just before the script's `run`, so that they are armed for
the whole run. Every variant runs under
`SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind` and its total instructions (Ir) are
printed beside the plain script's, with the ratio. Issue 38's aims: `break when main.hangs > 1000`
≤ 1.3× and `break on fps.hitch` ≈ 1.0× (an event breakpoint costs nothing while its event does
not happen). Callgrind counts instructions, so the figures do not depend on the machine's load.

Each variant's output must be the plain script's (none of these breakpoints stops the run): the
script says so and exits 1 otherwise.
"""
import argparse, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name → the lines put before `run`.
VARIANTS = [
    ("plain", []),
    ("break when main.hangs > 1000", ["break when main.hangs > 1000"]),
    # The workload hitches every 2 s (its stalls): the ignore count lets the run go on, each hitch
    # a hit that passes.
    ("break on fps.hitch --ignore 1000000000", ["break on fps.hitch --ignore 1000000000"]),
    ("break when fps.hitches > 1000", ["break when fps.hitches > 1000"]),
    ("break when timer.t0.fires > 100000", ["break when timer.t0.fires > 100000"]),
    ("break when clock.vsyncs > 100000", ["break when clock.vsyncs > 100000"]),
]


def workload(timers, seconds):
    script = subprocess.run(
        [sys.executable, os.path.join(ROOT, "Benchmarks", "Peers", "workload_dsh.py"), str(timers),
         str(seconds), "60"], check=True, capture_output=True, text=True).stdout
    lines = script.splitlines()
    run = next(i for i, line in enumerate(lines) if line.startswith("run "))
    return lines, run


def instructions(binary, path, out):
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "--no-rc", path],
        env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{path}: debugsh exited {result.returncode}:\n{result.stderr}")
    match = re.search(r"Collected : (\d+)", result.stderr)
    if not match:
        sys.exit(f"no callgrind total for {path}:\n{result.stderr}")
    # debugsh's own output (valgrind writes its report on standard error).
    return int(match.group(1)), result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "debugsh"))
    parser.add_argument("--timers", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--keep", help="write the scripts and callgrind files here")
    parser.add_argument("--only", help="comma-separated variant names (plain is always run)")
    args = parser.parse_args()

    lines, run = workload(args.timers, args.seconds)
    folder = args.keep or tempfile.mkdtemp(prefix="bpcost-")
    os.makedirs(folder, exist_ok=True)
    wanted = None if not args.only else {"plain"} | set(args.only.split(","))
    plain = None
    plain_output = None
    failed = False
    print(f"{args.timers} timers, {args.seconds} s, {args.binary}")
    print(f"{'variant':40} {'instructions':>14} {'× plain':>8}")
    for k, (name, extra) in enumerate(VARIANTS):
        if wanted is not None and name not in wanted:
            continue
        path = os.path.join(folder, f"bp-{k}.dsh")
        with open(path, "w") as f:
            f.write("\n".join(lines[:run] + extra + lines[run:]) + "\n")
        total, output = instructions(args.binary, path, os.path.join(folder, f"cg-bp-{k}.out"))
        if plain is None:
            plain, plain_output = total, output
        # `break` prints its confirmation; the rest must be the plain run's.
        said = [line for line in output.splitlines() if not line.startswith("breakpoint ")]
        same = said == plain_output.splitlines()
        failed |= not same
        print(f"{name:40} {total:>14,} {total / plain:>8.3f}" + ("" if same else "  (output differs!)"))
    if args.keep is None:
        print(f"(scripts and callgrind files in {folder})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
