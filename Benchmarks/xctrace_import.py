#!/usr/bin/env python3
"""Measures debugsh's xctrace reader on a large export against Python's ElementTree.iterparse
reading the same file, side by side in one run (issue 31's targets: faster than iterparse, under
200 MB resident).

    python3 Benchmarks/xctrace_import.py [--rows 1000000] [--runs 3] [--keep FILE]

- The file: a synthetic `display-vsyncs-interval` export of --rows rows, written as Instruments
  writes that table (Tests/Fixtures/xctrace/display-vsyncs-interval.xml): each row's timestamp
  and narrative defined with a new `id`, the duration, display, depth, narrative text and event
  repeated by `ref`, `fmt` on every value. A million rows is 299 MB.
- debugsh: `xctracebench FILE` (Benchmarks/Sources/xctracebench, release), which runs
  XCTraceImport.read — what `import xctrace FILE` runs — and prints the seconds it took. When the
  release build of debugsh has the `import` command, `debugsh -c 'import xctrace FILE'` is timed
  too (start-up and the session included).
- Python: iterparse with the same job — each row's timestamp, ids and refs resolved — clearing
  what it has read, so its memory stays bounded too.

Wall times are medians of --runs runs, interleaved; peak RSS is each child's, from wait4.
Ctrl-C: `xctracebench --interrupt-after T` makes `interrupted()` say yes at T (10 %, 50 % and
90 % into the read) and prints how long the import took to stop; the worst is printed (target
100 ms).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "Benchmarks")
READER = os.path.join(BENCH, ".build", "release", "xctracebench")
DEBUGSH = os.path.join(ROOT, ".build", "release", "debugsh")
FIRST = 481_099_833

HEAD = (
    '<?xml version="1.0"?>\n<trace-query-result>\n<node xpath=\'//trace-toc[1]/run[1]/data[1]/table[55]\'>'
    '<schema name="display-vsyncs-interval" documentation="Marks display vsyncs">'
    + "".join(
        f"<col><mnemonic>{m}</mnemonic><name>{n}</name><engineering-type>{t}</engineering-type></col>"
        for m, n, t in [
            ("timestamp", "Timestamp", "start-time"), ("duration", "Duration", "duration"),
            ("display-name", "Display Name", "display-name"), ("color", "Color", "render-buffer-depth"),
            ("event-label", "Label", "narrative"), ("event", "Event", "vsync-event")])
    + "</schema>\n")


def timestamp(k):
    """Vsync k: 16.666667 ms apart, as a 60 Hz display's are."""
    return FIRST + k * 16_666_667


def clock(t):
    ms = t // 1_000_000
    return "%02d:%02d.%03d.%03d" % (ms // 60000, (ms // 1000) % 60, ms % 1000, (t // 1000) % 1000)


def generate(path, rows):
    with open(path, "w") as out:
        out.write(HEAD)
        t = timestamp(0)
        out.write(
            f'<row><start-time id="1" fmt="{clock(t)}">{t}</start-time><duration id="2" fmt="1 ns">1</duration>'
            '<display-name id="3" fmt="Display 1">Display 1</display-name><render-buffer-depth id="4" fmt="2">2'
            f'</render-buffer-depth><narrative id="5" fmt="VSync Request {clock(t)}"><narrative-text id="6" '
            'fmt="VSync Request ">VSync Request </narrative-text><start-time ref="1"/></narrative>'
            '<vsync-event id="7" fmt="VSYNC">VSYNC</vsync-event></row>\n')
        next_id = 8
        for k in range(1, rows):
            t = timestamp(k)
            a, b = next_id, next_id + 1
            next_id += 2
            out.write(
                f'<row><start-time id="{a}" fmt="{clock(t)}">{t}</start-time><duration ref="2"/>'
                '<display-name ref="3"/><render-buffer-depth ref="4"/>'
                f'<narrative id="{b}" fmt="VSync Request {clock(t)}"><narrative-text ref="6"/>'
                f'<start-time ref="{a}"/></narrative><vsync-event ref="7"/></row>\n')
        out.write("</node></trace-query-result>\n")


ITERPARSE = r"""
import sys, time, xml.etree.ElementTree as ET
start = time.perf_counter()
ids, vsyncs, node = {}, [], None
for event, el in ET.iterparse(sys.argv[1], events=("start", "end")):
    if event == "start":
        if el.tag == "node":
            node = el
        continue
    if el.tag != "row":
        continue
    for cell in el.iter():
        if cell.get("id") is not None and len(cell) == 0:
            ids[cell.get("id")] = cell.text
    cell = el[0]
    vsyncs.append(int(cell.text if cell.get("ref") is None else ids[cell.get("ref")]))
    del node[:]
print('{"seconds": %f, "vsyncs": %d, "last_vsync_ns": %d}' % (time.perf_counter() - start, len(vsyncs), vsyncs[-1]))
"""


def run(args):
    """Wall seconds, peak RSS in MB and standard output of one child."""
    start = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(args)} failed: {(out + err).decode()[:500]}")
    return wall, usage.ru_maxrss / 1024, out.decode()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keep", help="write the export here and keep it (default: a temporary file)")
    a = p.parse_args()

    print("building xctracebench (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "xctracebench"], cwd=BENCH, check=True,
                   capture_output=True)
    folder = None if a.keep else tempfile.TemporaryDirectory()
    path = a.keep or os.path.join(folder.name, "display-vsyncs-interval.xml")
    print(f"writing {a.rows:,} rows to {path}…", file=sys.stderr)
    generate(path, a.rows)
    size = os.path.getsize(path)

    tools = {
        "debugsh's reader (xctracebench)": [READER, path],
        "Python iterparse": [sys.executable, "-c", ITERPARSE, path],
    }
    fixture = os.path.join(ROOT, "Tests", "Fixtures", "xctrace", "display-vsyncs-interval.xml")
    if os.path.exists(DEBUGSH) and subprocess.run(
            [DEBUGSH, "-c", f"import xctrace {fixture}"], capture_output=True).returncode == 0:
        tools["debugsh -c 'import xctrace FILE'"] = [DEBUGSH, "-c", f"import xctrace {path}"]
    else:
        print("(no release debugsh with `import xctrace` yet: timing the reader alone)", file=sys.stderr)

    walls = {name: [] for name in tools}
    rss = {name: 0.0 for name in tools}
    for _ in range(a.runs):
        for name, args in tools.items():
            wall, peak, out = run(args)
            walls[name].append(wall)
            rss[name] = max(rss[name], peak)
            if name != "debugsh -c 'import xctrace FILE'" and f'"last_vsync_ns": {timestamp(a.rows - 1)}' not in out:
                sys.exit(f"{name} read the file wrong: {out[:300]}")

    python = statistics.median(walls["Python iterparse"])
    print(f"{a.rows:,} rows of display-vsyncs-interval, {size / 1e6:.0f} MB; median of {a.runs} runs")
    print(f"{'':34} {'wall':>8} {'÷ iterparse':>12} {'peak RSS':>10}")
    for name in tools:
        wall = statistics.median(walls[name])
        print(f"{name:34} {wall:7.2f}s {wall / python:11.2f}× {rss[name]:8.0f} MB")
    reader = statistics.median(walls["debugsh's reader (xctracebench)"])
    ok_speed = reader < python
    ok_memory = rss["debugsh's reader (xctracebench)"] < 200
    latencies = []
    for fraction in (0.1, 0.5, 0.9):
        # On a busy machine a read can end before its interrupt comes: try earlier, at most thrice.
        for _ in range(3):
            _, _, out = run([READER, "--interrupt-after", str(reader * fraction), path])
            result = json.loads(out)
            if "latency_ms" in result:
                latencies.append(result["latency_ms"])
                break
            fraction *= 0.7
    ok_interrupt = bool(latencies) and max(latencies) < 100
    print(f"Ctrl-C 10/50/90 % into the read: stopped after "
          f"{', '.join(f'{ms:.1f}' for ms in latencies)} ms")
    print(f"faster than iterparse: {'yes' if ok_speed else 'NO'} ({python / reader:.1f}× as fast); "
          f"under 200 MB: {'yes' if ok_memory else 'NO'}; Ctrl-C within 100 ms: {'yes' if ok_interrupt else 'NO'}")
    if folder:
        folder.cleanup()
    sys.exit(0 if ok_speed and ok_memory and ok_interrupt else 1)


if __name__ == "__main__":
    main()
