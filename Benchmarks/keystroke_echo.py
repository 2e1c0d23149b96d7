"""How long a typed key takes to show at the prompt while `play` runs (issue 23: input stays live
whatever the simulation's weight; target: 50 ms at the 95th percentile with 5,000 1 ms GCD
timers playing).

    swift build -c release --product debugsh
    python3 Benchmarks/keystroke_echo.py [path/to/debugsh] [--keys 40] [--timers 5000]

debugsh runs in an 80x24 pane of a private tmux server (as the interactive tests drive it). For
each scenario it types one character at a time at random intervals (80–200 ms) and polls
`capture-pane` (about every 2 ms) until the prompt's line ends with everything typed so far:
that wait is the key's echo latency. Keys and polls go through one tmux control-mode client
(`tmux -C`), not a tmux process each, whose start-up would count in the latency on a busy
machine. Scenarios:

- idle: the prompt with time stopped — what the machine and tmux take by themselves (the floor);
- normal: `fps start`, `animate`, `play` — a light simulation that keeps up with the wall clock;
- heavy: the same plus N GCD timers firing every 1 ms on the main queue (5,000 by default: five
  million handler invocations per simulated second).

Printed per scenario: p50, p95 and max of the echo latency, and the play speed factor — the
virtual time the prompt's clock moved over the wall time the typing took (×1 keeps up).
"""
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def arguments():
    binary = os.path.join(ROOT, ".build/release/debugsh")
    keys, timers = 40, 5000
    args = sys.argv[1:]
    i = 0
    while i < len(args):
        if args[i] == "--keys":
            keys = int(args[i + 1]); i += 2
        elif args[i] == "--timers":
            timers = int(args[i + 1]); i += 2
        else:
            binary = args[i]; i += 1
    if not os.access(binary, os.X_OK):
        sys.exit(f"no debugsh at {binary}: swift build -c release --product debugsh")
    if shutil.which("tmux") is None:
        sys.exit("tmux is not installed")
    return os.path.abspath(binary), keys, timers


class Pane:
    """debugsh in a private tmux server, its HOME in a temporary folder."""

    def __init__(self, binary, folder):
        self.control = None
        self.socket = f"debugsh-bench-{os.getpid()}"
        self.folder = folder
        env = {"HOME": folder, "XDG_STATE_HOME": folder + "/state", "XDG_CONFIG_HOME": folder + "/config",
               "TERM": "xterm-256color", "LANG": "C.UTF-8", "INPUTRC": "/dev/null", "NO_COLOR": "1",
               "PATH": "/usr/bin:/bin"}
        script = "".join(f"export {k}='{v}'\n" for k, v in sorted(env.items()))
        script += f"trap true INT\n'{binary}' --no-rc --no-plugins; sleep 30\n"
        path = os.path.join(folder, "pane.sh")
        with open(path, "w") as f:
            f.write(script)
        self.tmux("start-server", ";", "set-option", "-g", "status", "off", ";",
                  "new-session", "-d", "-s", "pane", "-x", "80", "-y", "24", f"/bin/sh {path}")
        self.wait(lambda lines: last(lines).startswith("debugsh "), 10)
        self.control = subprocess.Popen(
            ["tmux", "-L", self.socket, "-f", "/dev/null", "-C", "attach-session", "-t", "pane"],
            env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.ask("refresh-client -C 80,24")

    def ask(self, command):
        """Runs a tmux command through the control-mode client; returns its output lines."""
        self.control.stdin.write(command.encode() + b"\n")
        self.control.stdin.flush()
        out, inside = [], False
        while True:
            line = self.control.stdout.readline()
            if not line:
                sys.exit("the tmux control client went away")
            line = line.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("%begin"):
                inside = True
            elif line.startswith("%end") or line.startswith("%error"):
                if inside:
                    return out
            elif inside:
                out.append(line)

    @property
    def env(self):
        return {"TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TMUX_TMPDIR": self.folder}

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True, text=True).stdout

    def lines(self):
        if getattr(self, "control", None) is None:
            text = self.tmux("capture-pane", "-p", "-J", "-t", "pane").split("\n")
        else:
            text = self.ask("capture-pane -p -J -t pane")
        return [line.rstrip() for line in text if line.rstrip()]

    def type(self, text):
        self.ask("send-keys -t pane -l " + quoted(text))

    def press(self, *keys):
        self.ask("send-keys -t pane " + " ".join(keys))

    def wait(self, condition, seconds):
        deadline = time.monotonic() + seconds
        while True:
            lines = self.lines()
            if condition(lines):
                return lines
            if time.monotonic() > deadline:
                sys.exit("timed out; the pane shows:\n" + "\n".join(lines))
            time.sleep(0.02)

    def run(self, command, seconds=120):
        self.type(command)
        self.press("Enter")
        self.wait(lambda lines: len(lines) >= 2 and prompt_text(last(lines)) == ""
                  and any(prompt_text(l) == command for l in lines), seconds)

    def close(self):
        if self.control is not None:
            self.control.stdin.close()
            self.control.wait()
        try:
            self.tmux("kill-server")
        except subprocess.CalledProcessError:
            pass


def quoted(text):
    return "'" + text.replace("'", "'\\''") + "'"


def last(lines):
    return lines[-1] if lines else ""


PROMPT = re.compile(r"^debugsh (\d+)\.(\d{3})s> ?(.*)$")


def prompt_text(line):
    """What is typed after the prompt, or None for a line that is not a prompt."""
    m = PROMPT.match(line)
    return m.group(3) if m else None


def prompt_clock(line):
    """The prompt's virtual time in seconds, or None."""
    m = PROMPT.match(line)
    return int(m.group(1)) + int(m.group(2)) / 1000 if m else None


def measure(pane, keys):
    """Types `keys` characters, one at a time; returns the latencies (s) and the play speed factor."""
    rng = random.Random(23)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    typed = "echo "
    pane.type(typed)
    pane.wait(lambda lines: prompt_text(last(lines)) == typed.rstrip(), 30)
    clock0, wall0 = prompt_clock(last(pane.lines())), time.monotonic()
    latencies = []
    for _ in range(keys):
        time.sleep(rng.uniform(0.08, 0.2))
        key = rng.choice(alphabet)
        typed += key
        sent = time.monotonic()
        pane.type(key)
        while True:
            line = last(pane.lines())
            if prompt_text(line) == typed:
                latencies.append(time.monotonic() - sent)
                break
            if time.monotonic() - sent > 30:
                sys.exit(f"'{typed}' never showed; last line: {line}")
            time.sleep(0.002)
    # The clock moves on the block's redraws (about 20 a second): wait for the next one.
    time.sleep(0.2)
    lines = pane.wait(lambda lines: prompt_clock(last(lines)) is not None, 30)
    clock1, wall1 = prompt_clock(last(lines)), time.monotonic()
    pane.press("C-u")
    pane.wait(lambda lines: prompt_text(last(lines)) == "", 30)
    speed = (clock1 - clock0) / (wall1 - wall0) if clock0 is not None and clock1 is not None else float("nan")
    return latencies, speed


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def report(name, latencies, speed):
    ms = [v * 1000 for v in latencies]
    print(f"{name:<28} p50 {percentile(ms, 50):7.1f} ms   p95 {percentile(ms, 95):7.1f} ms   "
          f"max {max(ms):7.1f} ms   mean {statistics.mean(ms):6.1f} ms   play ×{speed:.3g}")


def main():
    binary, keys, timers = arguments()
    print(f"{binary}: {keys} keys typed 80–200 ms apart per scenario, echo seen by polling capture-pane")
    folder = tempfile.mkdtemp(prefix="debugsh-keys.")
    try:
        setup = os.path.join(folder, "timers.dsh")
        with open(setup, "w") as f:
            for i in range(timers):
                f.write(f"timer gcd g{i} --interval 1ms\n")
        pane = Pane(binary, folder)
        try:
            report("idle prompt (the floor)", *measure(pane, keys))
            pane.run("fps start")
            pane.run("animate 100000s")
            pane.run("play")
            report("normal play", *measure(pane, keys))
            pane.run("pause")
            pane.run(f"source {setup}")
            pane.run("play")
            report(f"heavy play ({timers} timers)", *measure(pane, keys))
            pane.run("pause")
        finally:
            pane.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
