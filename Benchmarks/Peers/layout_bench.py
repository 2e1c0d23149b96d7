"""The layout-settle checker's per-frame cost in Python, for the approaches a checker can take.
A tree of N views with fan-out 8 (view i's parent is (i-1)//8); each frame applies m mutations,
takes a snapshot, compares it with the previous frame's and updates the settle timer.

  naive        the seed article's layoutCompleteChecker: the whole tree's recursive
               "<Class: 0xADDR; frame = (x y; w h)>" description, built by string concatenation
               and compared as a string
  naive-join   the same text appended to one list and joined once (the best a string can do)
  flat         an O(N) walk into a list of tuples (no strings), compared as a list
  incremental  a dirty flag propagated to the ancestors on mutation and a cached hash per
               subtree: only the dirty path is recomputed, and the root digests are compared

    python3 layout_bench.py [Ns] [approaches] [mutations]    # e.g. 1000,100000 naive,incremental 0,3

../Floor's `layoutbench` is the same in Swift.
"""
import sys, time, json, random, statistics

NS = 1_000_000_000
CLASSES = ["UIView", "UILabel", "UIImageView", "UIButton", "UIScrollView", "UIStackView"]

class View:
    __slots__ = ("id", "cls", "addr", "x", "y", "w", "h", "children", "parent", "dirty", "hash")
    def __init__(self, i, parent):
        self.id = i; self.cls = CLASSES[i % len(CLASSES)]; self.addr = 0x600000c00000 + i * 0x40
        self.x = float((i % 37) * 8); self.y = (i // 37 % 50) * 4.5
        self.w = 100.0 + i % 13; self.h = 44.0
        self.children = []; self.parent = parent; self.dirty = True; self.hash = 0

def build(N):
    views = [View(0, None)]
    for i in range(1, N):
        p = views[(i - 1) // 8]
        v = View(i, p); p.children.append(v); views.append(v)
    return views

def describe(v):   # literal recursive concatenation (the blog's algorithm)
    s = f"<{v.cls}: 0x{v.addr:x}; frame = ({v.x:g} {v.y:g}; {v.w:g} {v.h:g})>"
    for c in v.children:
        s += describe(c)
    return s

def describe_join(root):
    out = []; ap = out.append
    def rec(v):
        ap(f"<{v.cls}: 0x{v.addr:x}; frame = ({v.x:g} {v.y:g}; {v.w:g} {v.h:g})>")
        for c in v.children: rec(c)
    rec(root)
    return "".join(out)

def flat(root):
    out = []; ap = out.append; stack = [root]; pop = stack.pop; ext = stack.extend
    while stack:
        v = pop(); ch = v.children
        ap((v.id, v.x, v.y, v.w, v.h, len(ch))); ext(ch)
    return out

def digest(v):
    if not v.dirty: return v.hash
    h = hash((v.id, v.x, v.y, v.w, v.h, tuple([digest(c) for c in v.children])))
    v.hash = h; v.dirty = False
    return h

def mark_dirty(v):
    while v is not None and not v.dirty:
        v.dirty = True; v = v.parent

class Checker:
    def __init__(self, views, approach, m, seed=42):
        self.views = views; self.root = views[0]; self.approach = approach; self.m = m
        rnd = random.Random(seed); self.picks = [rnd.randrange(len(views)) for _ in range(4096)]
        self.pi = 0; self.t = 0; self.last_change = 0; self.changed_frames = 0; self.frames = 0
        self.sign = 1.0
        self.prev = self.snapshot()
    def snapshot(self):
        a = self.approach
        if a == "naive": return describe(self.root)
        if a == "naive-join": return describe_join(self.root)
        if a == "flat": return flat(self.root)
        return digest(self.root)
    def frame(self):
        inc = self.approach == "incremental"
        for _ in range(self.m):
            v = self.views[self.picks[self.pi]]; self.pi = (self.pi + 1) & 4095
            v.x += 1.0
            if inc: mark_dirty(v)
        cur = self.snapshot()
        self.t += NS // 60; self.frames += 1
        if cur != self.prev:
            self.changed_frames += 1; self.last_change = self.t
        self.prev = cur
        return self.t - self.last_change >= NS // 5   # settled?

def bench(fn, min_batch=0.05, reps=7):
    B = 1
    while True:
        t = time.perf_counter()
        for _ in range(B): fn()
        dt = time.perf_counter() - t
        if dt >= min_batch or B >= 1 << 22: break
        B = max(B * 2, int(B * min_batch / max(dt, 1e-9) * 1.2))
    samples = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(B): fn()
        samples.append((time.perf_counter() - t) / B)
    return statistics.median(samples), B, samples

if __name__ == "__main__":
    Ns = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [1000, 10000, 100000]
    approaches = sys.argv[2].split(",") if len(sys.argv) > 2 else ["naive", "naive-join", "flat", "incremental"]
    ms = [int(x) for x in sys.argv[3].split(",")] if len(sys.argv) > 3 else [0, 3]
    for N in Ns:
        for a in approaches:
            for m in ms:
                views = build(N)
                t0 = time.perf_counter(); ck = Checker(views, a, m); first = time.perf_counter() - t0
                med, B, samples = bench(ck.frame)
                expect_changed = ck.frames if m > 0 else 0
                print(json.dumps(dict(lang="python", N=N, approach=a, m=m, us_per_frame=med * 1e6,
                                      batch=B, reps=len(samples), first_snapshot_us=first * 1e6,
                                      snapshot_bytes=len(ck.prev) if isinstance(ck.prev, str) else None,
                                      ok=ck.changed_frames == expect_changed)), flush=True)
