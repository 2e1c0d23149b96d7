// Generated from docs/Semantics.md by SemanticsDocument.ruleBookSource (DebugShellTesting):
// edit the document, then run `DEBUGSH_UPDATE_DOCS=1 swift test --filter SemanticsDocumentTests`.
// A test fails when this file and the document differ.

extension RuleBook {
    public static let groups: [RuleGroup] = [
        RuleGroup(id: "S", title: "time and ordering"),
        RuleGroup(id: "RL", title: "the main thread and its run loop"),
        RuleGroup(id: "DL", title: "display links (CADisplayLink)"),
        RuleGroup(id: "T", title: "NSTimer (CFRunLoopTimer)"),
        RuleGroup(id: "D", title: "GCD dispatch source timers"),
        RuleGroup(id: "A", title: "the simulated app"),
        RuleGroup(id: "R", title: "commits, the render server and hitches"),
        RuleGroup(id: "F", title: "the FPS meter"),
        RuleGroup(id: "L", title: "the layout-settle checker"),
        RuleGroup(id: "K", title: "timers' owners and lateness"),
    ]

    public static let rules: [DeviceRule] = [
        DeviceRule(
            id: "S1",
            title: "Virtual time",
            group: "S",
            parent: nil,
            text:
                "Virtual time is an Int64 count of nanoseconds from 0, and nothing in the simulation reads the wall clock. Arithmetic never traps: products such as k · 1e9 are computed without overflow (128-bit, or (k / R) · 1e9 + (k mod R) · 1e9 / R), and a result beyond the horizon of 2^62 ns (about 146 years) is an error, not a crash.",
            sources: ["model"],
            why:
                "[model] Integer nanoseconds make every run exact and repeatable on any machine and at any speed; no real clock is involved, so a script's output is the same byte for byte.",
            touches: [
                "run",
                "step",
                "clock.now",
            ]
        ),
        DeviceRule(
            id: "S2",
            title: "The display and its vsync grid",
            group: "S",
            parent: nil,
            text:
                "The display has one refresh rate R (default 60 Hz, 1…1000 Hz). Vsync k is at `anchor + floor(k · 1e9 / R)`. A rate change takes effect at the first vsync at or after the command's time; that vsync becomes the new anchor, with k = 0.",
            sources: ["model"],
            why:
                "[model] The grid is computed from its anchor, never by adding a rounded period, so it does not drift over an hour of simulated time. A real display changes rate only at a frame boundary (ProMotion picks rates the system allows); here the change is scripted and takes effect at the next vsync.",
            touches: [
                "display",
                "display rate",
                "clock.rate",
                "clock.vsyncs",
            ]
        ),
        DeviceRule(
            id: "S3",
            title: "Commands come first",
            group: "S",
            parent: nil,
            text:
                "A command issued at time t — typed or from a script — takes effect before any simulated event at t. `run d` processes the events with time < now + d and leaves now at now + d. A recording (`record`) keeps each command at its own instant and in its own place in that instant's order, so that replaying it as a script reaches the same state.",
            sources: ["model"],
            why:
                "[model] On a device, nothing is ever exactly simultaneous with a touch or a debugger command; a fixed order makes \"do this at t\" mean the same thing every time. The half-open interval lets `run 1s; run 1s` equal `run 2s`.",
            touches: [
                "run",
                "run until",
                "step",
                "record",
                "clock.now",
            ]
        ),
        DeviceRule(
            id: "S4",
            title: "One instant's order",
            group: "S",
            parent: nil,
            text:
                "Everything that happens at one instant t happens in this order:\n\n1. **S4.1** Commands issued at t (S3), then commands scheduled for t (`after`, `at`, `every`) in the order they were scheduled — so a command scheduled for exactly the end of a `run` runs at the start of the next one.\n2. **S4.2** Mode changes due at t: a scroll starting or ending.\n3. **S4.3** The vsync at t: the render server presents the frame due at t (R2), then starts a new render if a frame waits (R1), then each display link fills its slot (DL7), in the order the links were added.\n4. **S4.4** Run-loop timers whose fire date is t become ready (T2).\n5. **S4.5** Dispatch timers due at t fire (D3): those on background queues first, then those on the main queue (their handlers are enqueued); then background handlers that returned at t run again if data is pending (D4).\n6. **S4.6** The main thread, if it is free at t, runs run-loop iterations (RL4). A main-thread item that ends at t sees everything of steps 1–5 at t as having happened before it ended.\n\nWithin a step, things happen in the order they were created.",
            sources: ["model"],
            why:
                "[model] Real time is never exactly tied, so the device does not say what comes first. The order chosen puts the system's side — the display, the timer deadlines, libdispatch's timer manager — before the main thread picks its next work at the same instant, which is how a deadline that passes during a callout looks from the main thread: already passed when the callout returns.",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.1",
            title: "One instant's order, step 1",
            group: "S",
            parent: "S4",
            text:
                "Commands issued at t (S3), then commands scheduled for t (`after`, `at`, `every`) in the order they were scheduled — so a command scheduled for exactly the end of a `run` runs at the start of the next one.",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.2",
            title: "One instant's order, step 2",
            group: "S",
            parent: "S4",
            text:
                "Mode changes due at t: a scroll starting or ending.",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.3",
            title: "One instant's order, step 3",
            group: "S",
            parent: "S4",
            text:
                "The vsync at t: the render server presents the frame due at t (R2), then starts a new render if a frame waits (R1), then each display link fills its slot (DL7), in the order the links were added.",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.4",
            title: "One instant's order, step 4",
            group: "S",
            parent: "S4",
            text:
                "Run-loop timers whose fire date is t become ready (T2).",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.5",
            title: "One instant's order, step 5",
            group: "S",
            parent: "S4",
            text:
                "Dispatch timers due at t fire (D3): those on background queues first, then those on the main queue (their handlers are enqueued); then background handlers that returned at t run again if data is pending (D4).",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "S4.6",
            title: "One instant's order, step 6",
            group: "S",
            parent: "S4",
            text:
                "The main thread, if it is free at t, runs run-loop iterations (RL4). A main-thread item that ends at t sees everything of steps 1–5 at t as having happened before it ended.",
            sources: ["model"],
            why:
                "",
            touches: [
                "after",
                "at",
                "every",
                "scroll",
                "run",
            ]
        ),
        DeviceRule(
            id: "RL1",
            title: "One mode at a time",
            group: "RL",
            parent: nil,
            text:
                "The run loop runs in one mode at a time: `default`, or `tracking` during a scroll. `common` is the set {default, tracking}: an item added to `common` is serviced in both.",
            sources: ["src", "doc"],
            why:
                "[src] `CFRunLoopRunSpecific` runs one named mode and services only the sources, timers and observers of that mode; adding an item to `kCFRunLoopCommonModes` adds it to every mode of the common set. [doc] `RunLoop.Mode.common`: \"the runloop monitors the object when running in any of the common modes\"; UIKit's main run loop has {default, `UITrackingRunLoopMode`} as its common modes and runs tracking while the user scrolls.",
            touches: [
                "scroll",
                "clock.mode",
                "timer nstimer",
                "timer displaylink",
                "fps start",
            ]
        ),
        DeviceRule(
            id: "RL2",
            title: "One item at a time",
            group: "RL",
            parent: nil,
            text:
                "The main thread runs one item at a time; an item costs a duration during which the thread is busy. Nothing pre-empts an item. Costs are 0 unless a command gives one.",
            sources: ["src", "doc"],
            why:
                "[src] `__CFRunLoopRun` calls out to a timer, source, observer or block and waits for it to return; everything that comes due meanwhile waits for a later iteration. [doc] `Timer`: \"If a timer's firing time occurs during a long run loop callout … the timer doesn't fire until the next time the run loop checks the timer.\"",
            touches: [
                "stall",
                "load frame",
                "load commit",
                "main.busy_until",
            ]
        ),
        DeviceRule(
            id: "RL3",
            title: "The main queue runs in the common modes",
            group: "RL",
            parent: nil,
            text:
                "The main queue is serviced in the common modes, so during tracking too.",
            sources: ["src"],
            why:
                "[src] `__CFRunLoopRun` puts libdispatch's main-queue port in the set it waits on only when the run loop is the main one and the current mode belongs to the common modes. So `DispatchQueue.main.async` blocks, `asyncAfter` and main-queue GCD timers run while scrolling.",
            touches: [
                "stall",
                "timer gcd",
                "timer after",
            ]
        ),
        DeviceRule(
            id: "RL4",
            title: "A run-loop iteration",
            group: "RL",
            parent: nil,
            text:
                "While the main thread is free and there is work — the main queue has blocks, the UI is dirty, or a source of the current mode is ready — it runs iterations:\n\n1. **RL4.1** If the main queue has blocks and the previous iteration did not drain it: drain a snapshot — the blocks present now, back to back; blocks added meanwhile wait — and the iteration ends. Every iteration records whether it drained the main queue (here or in step 3); at the start of the simulation the previous iteration counts as not having drained; the record keeps its value while the thread sleeps.\n2. **RL4.2** If the UI is dirty: commit (an item of cost `load commit`). The frame is what was dirty when the commit started; at its end c it goes to the render server (R1).\n3. **RL4.3** Service the ready source of the current mode that became ready earliest — timers (ready at their fire date), display links (ready when their slot filled, even if that was while their mode was not running), the main queue (ready when its oldest block was enqueued); ties: timers, then display links, then the main queue. Timers: T3. Display links: DL8. Main queue: drain a snapshot (this counts as a drain for step 1).",
            sources: ["src", "model"],
            why:
                "[src] The structure is `__CFRunLoopRun`'s: it drains the main queue first, without sleeping, only if it did not do so in the previous iteration (`didDispatchPortLastTime`); Core Animation commits in a `kCFRunLoopBeforeWaiting` observer, just before the run loop would sleep; then one wake-up reason is handled per iteration. libdispatch's `_dispatch_main_queue_drain` runs a captured snapshot of the queue. [model] Which of several ready ports the kernel reports first is unspecified, hence earliest-ready first with a fixed tie order; the start state lets a block queued before the first iteration run first (worked example DL-A depends on it).",
            touches: [
                "stall",
                "load commit",
                "render.commits",
                "main.busy_until",
            ]
        ),
        DeviceRule(
            id: "RL4.1",
            title: "A run-loop iteration, step 1",
            group: "RL",
            parent: "RL4",
            text:
                "If the main queue has blocks and the previous iteration did not drain it: drain a snapshot — the blocks present now, back to back; blocks added meanwhile wait — and the iteration ends. Every iteration records whether it drained the main queue (here or in step 3); at the start of the simulation the previous iteration counts as not having drained; the record keeps its value while the thread sleeps.",
            sources: ["src", "model"],
            why:
                "",
            touches: [
                "stall",
                "load commit",
                "render.commits",
                "main.busy_until",
            ]
        ),
        DeviceRule(
            id: "RL4.2",
            title: "A run-loop iteration, step 2",
            group: "RL",
            parent: "RL4",
            text:
                "If the UI is dirty: commit (an item of cost `load commit`). The frame is what was dirty when the commit started; at its end c it goes to the render server (R1).",
            sources: ["src", "model"],
            why:
                "",
            touches: [
                "stall",
                "load commit",
                "render.commits",
                "main.busy_until",
            ]
        ),
        DeviceRule(
            id: "RL4.3",
            title: "A run-loop iteration, step 3",
            group: "RL",
            parent: "RL4",
            text:
                "Service the ready source of the current mode that became ready earliest — timers (ready at their fire date), display links (ready when their slot filled, even if that was while their mode was not running), the main queue (ready when its oldest block was enqueued); ties: timers, then display links, then the main queue. Timers: T3. Display links: DL8. Main queue: drain a snapshot (this counts as a drain for step 1).",
            sources: ["src", "model"],
            why:
                "",
            touches: [
                "stall",
                "load commit",
                "render.commits",
                "main.busy_until",
            ]
        ),
        DeviceRule(
            id: "RL5",
            title: "What dirties the UI",
            group: "RL",
            parent: nil,
            text:
                "The UI becomes dirty from an animation tick (A1), a view change (L1), the FPS meter's label (F3), and a timer firing or block created with `--ui`. A dirty UI is committed in the next iteration (RL4.2).",
            sources: ["doc", "model"],
            why:
                "[doc] Core Animation collects changes to layers in an implicit transaction and commits it once per run-loop turn; an app's code, an animation tick and a label's new text all end up there. [model] Which commands dirty the UI is fixed by these sources.",
            touches: [
                "animate",
                "scroll",
                "stall",
                "timer nstimer",
                "timer gcd",
                "timer displaylink",
                "view set",
                "fps start",
                "render.commits",
            ]
        ),
        DeviceRule(
            id: "RL6",
            title: "Hangs and busy time",
            group: "RL",
            parent: nil,
            text:
                "`main.hangs` counts main-thread items of 250 ms or more (Apple's hang threshold); `main.busy_ratio` is the main thread's busy time over the last whole second.",
            sources: ["doc", "model"],
            why:
                "[doc] Apple calls a main run loop that is unresponsive for 250 ms or more a hang (Xcode's hang detection and MetricKit use that threshold). [model] The busy ratio's window, the last whole second of virtual time, is chosen here.",
            touches: [
                "stall",
                "main.hangs",
                "main.busy_ratio",
            ]
        ),
        DeviceRule(
            id: "DL1",
            title: "Modes",
            group: "DL",
            parent: nil,
            text:
                "A display link fires only while the run loop runs a mode it was added to.",
            sources: ["doc"],
            why:
                "[doc] `CADisplayLink.add(to:forMode:)`: \"While the run loop is executing in a mode you specify, the display link notifies the target when the system requires new frames.\" A link in `default` is silent during a scroll; one in `common` is not.",
            touches: [
                "timer displaylink",
                "fps start",
                "scroll",
            ]
        ),
        DeviceRule(
            id: "DL2",
            title: "timestamp, targetTimestamp, duration",
            group: "DL",
            parent: nil,
            text:
                "A callback's `timestamp` is the vsync of its slot; `targetTimestamp` is the link's next grid vsync after `timestamp`; `duration` is the refresh period.",
            sources: ["doc", "model"],
            why:
                "[doc] `timestamp` is \"when the last frame displayed\", `targetTimestamp` \"when the next frame displays\", and `duration` \"the time interval between screen refresh updates\" (not multiplied by a reduced rate). [model] For a callback delivered late (DL7) both timestamps stay those of its slot, even if already past.",
            touches: [
                "timer displaylink",
                "fps start",
            ]
        ),
        DeviceRule(
            id: "DL3",
            title: "Reduced rates",
            group: "DL",
            parent: nil,
            text:
                "With `preferredFramesPerSecond = f` (0 means R), the link's grid is the vsyncs k with `k mod n == 0`, where n = max(1, round(R / f)) (halves round up), counted from the anchor (S2).",
            sources: ["doc", "model"],
            why:
                "[doc] The display link makes \"a best attempt\" at the rate asked for and \"typically provides a consistent frame rate by choosing one that's a factor of the display's maximum refresh rate\". [model] A fixed grid of every n-th vsync is that factor, deterministic.",
            touches: ["timer displaylink"]
        ),
        DeviceRule(
            id: "DL4",
            title: "Pause",
            group: "DL",
            parent: nil,
            text:
                "A paused link (`timer pause`, `isPaused`) fills no slot; on resume its next callback is at its next grid vsync, with a fresh timestamp.",
            sources: ["doc", "model"],
            why:
                "[doc] While `isPaused` is true \"the display link doesn't send notifications to the target\". [model] What happens on unpause is undocumented; no catch-up callback is the simplest answer.",
            touches: [
                "timer pause",
                "timer resume",
            ]
        ),
        DeviceRule(
            id: "DL5",
            title: "The first slot",
            group: "DL",
            parent: nil,
            text:
                "A new link's first slot is its first grid vsync at or after the time it was added. The default mode of `timer displaylink` and `fps start` is `common`.",
            sources: ["model"],
            why:
                "[model] A link added at a vsync's instant takes that vsync (commands come first, S3); `common` is what the FPS labels of the classic articles use.",
            touches: [
                "timer displaylink",
                "fps start",
                "layout watch",
            ]
        ),
        DeviceRule(
            id: "DL6",
            title: "Invalidate",
            group: "DL",
            parent: nil,
            text:
                "Invalidating or removing a link empties its slot; no callback follows.",
            sources: ["doc", "model"],
            why:
                "[doc] `invalidate()` removes the display link from all run-loop modes and releases its target. [model] A pending slot dies with it.",
            touches: [
                "timer invalidate",
                "fps stop",
            ]
        ),
        DeviceRule(
            id: "DL7",
            title: "A busy main thread drops vsyncs",
            group: "DL",
            parent: nil,
            text:
                "A busy main thread drops vsyncs; it does not queue them. Each link has one pending slot. At each of its grid vsyncs: if the slot is empty the vsync goes in it; otherwise the vsync is skipped (and counted). A link outside its mode keeps filling its slot the same way, and fires once when its mode returns, with the stale timestamp of the vsync in its slot.",
            sources: ["doc", "obs", "model"],
            why:
                "[obs] On a device, a callback that blocks for 20 ms is followed by one callback right after the thread frees, carrying the timestamp of a vsync during the block, and then by callbacks at the normal vsyncs: at most one callback is ever pending. [doc] Apple: a late frame \"often causes the system to skip one or more subsequent frames\". [model] The stale timestamp is the first vsync missed.",
            touches: [
                "fps start",
                "fps.skipped",
                "timer displaylink",
                "timer.<name>.skipped",
            ]
        ),
        DeviceRule(
            id: "DL8",
            title: "One wake-up for all links",
            group: "DL",
            parent: nil,
            text:
                "All links of the current mode with a pending callback are serviced by one run-loop wake-up: their slots empty when it starts, then their callbacks run back to back in the order the links were added.",
            sources: ["model"],
            why:
                "[model] A display link is a run-loop source woken by the display; the links of one run loop share that wake-up. The order of their callbacks is not documented; creation order is fixed here.",
            touches: [
                "fps start",
                "timer displaylink",
            ]
        ),
        DeviceRule(
            id: "DL-A",
            title: "Worked example: the FPS meter under a stall",
            group: "DL",
            parent: nil,
            text:
                "60 Hz; `fps start; stall 100ms; run 2s`. The stall is a main-queue block, drained first at t = 0 (RL4.1). v0 (t = 0) fills the meter's slot; v1…v6 are skipped (v6 = 100 comes before the main thread frees, S4). At 100 the callback runs with timestamp 0. Then callbacks come at v7 = 116.667, v8, … The meter (F1) takes the stale callback as its start, counts v7…v60 = 54 callbacks, and closes its first window at v60 (timestamp 1000): `fps.value = 54`, `fps.skipped = 6`.",
            sources: [],
            why:
                "",
            touches: [
                "fps start",
                "stall",
                "fps.value",
                "fps.skipped",
            ]
        ),
        DeviceRule(
            id: "T1",
            title: "Scheduling",
            group: "T",
            parent: nil,
            text:
                "`timer nstimer` is `scheduledTimer`: its first fire date is now + interval; its mode is `default` unless one is given.",
            sources: ["src"],
            why:
                "[src] Foundation's `Timer.scheduledTimer(withTimeInterval:…)` creates the timer with fire date now + interval and adds it to the current run loop in the default mode only.",
            touches: ["timer nstimer"]
        ),
        DeviceRule(
            id: "T2",
            title: "Never early",
            group: "T",
            parent: nil,
            text:
                "A timer never fires early, and fires only when the run loop services timers in one of its modes (RL4.3) with its fire date ≤ now.",
            sources: ["src", "doc"],
            why:
                "[src] `__CFRunLoopDoTimer` fires a timer only if its fire date is not after now. [doc] `tolerance`: \"The timer will not fire before the scheduled fire date.\"",
            touches: [
                "timer nstimer",
                "timer.<name>.max_late",
            ]
        ),
        DeviceRule(
            id: "T3",
            title: "One wake-up fires a batch",
            group: "T",
            parent: nil,
            text:
                "A timer wake-up fires every due timer of the current mode, in fire-date order (ties in creation order); a timer that becomes due during the batch waits for a later iteration.",
            sources: ["src"],
            why:
                "[src] `__CFRunLoopDoTimers` first collects every timer of the mode that is due, then fires them one after another in the mode's order (by fire date, a new timer placed after equal ones).",
            touches: [
                "timer nstimer",
                "timer.wakeups",
            ]
        ),
        DeviceRule(
            id: "T4",
            title: "A late repeating timer fires once",
            group: "T",
            parent: nil,
            text:
                "A repeating timer fires once however late it is. Its next fire date is the first point of its grid (first fire date + k · interval) strictly after the moment its callback returned. Grid points passed without a callback count as `skipped`. The next fire date — and with it the grid points skipped — is decided when the callback returns: while a callback still runs, `timer.<name>.skipped` and the next fire date do not count or show them yet, and `timer show` says the callback is running.",
            sources: ["src", "doc", "model"],
            why:
                "[src] After the callout returns, `__CFRunLoopDoTimer` reads the clock and steps the old fire date along the interval `while (nextFireTSR <= currentTSR)`: missed ticks are dropped and a grid point equal to now is skipped. [doc] `Timer`: \"If the firing time is delayed so far that it passes one or more of the scheduled firing times, the timer is fired only once for that time period; the timer is then rescheduled, after firing, for the next scheduled firing time in the future.\" [model] A metric never shows the future: what is decided when the callback returns is not shown before.",
            touches: [
                "timer nstimer",
                "timer show",
                "timer list",
                "timer.<name>.skipped",
                "timer.<name>.fires",
            ]
        ),
        DeviceRule(
            id: "T5",
            title: "Tolerance and coalescing",
            group: "T",
            parent: nil,
            text:
                "Tolerance is 0 by default; above the interval it is an error; for repeating timers above interval/2 it is clamped (with a warning). With `runloop.coalescing off` (the default) it does not change fire times. With `runloop.coalescing on`, the run loop's timer wake-up for a mode is at the smallest (fire date + tolerance) of its pending timers, and fires every timer due by then. The grid never drifts either way.",
            sources: ["src", "doc", "model"],
            why:
                "[doc] `Timer.tolerance`: \"The timer may fire at any time between its scheduled fire date and the scheduled fire date plus the tolerance\", and for repeating timers \"the next fire date is calculated from the original fire date regardless of tolerance … to avoid drift\". [src] `CFRunLoopTimerSetTolerance` clamps a repeating timer's tolerance to interval/2; `__CFArmNextTimerInMode` arms the mode's wake-up at the earliest fire date plus tolerance and then fires every timer already due (T3) — that is how tolerance coalesces timers. [model] Whether the system uses the window is up to it, hence a setting; off keeps fire times exact.",
            touches: [
                "timer nstimer",
                "runloop.coalescing",
                "timer.wakeups",
            ]
        ),
        DeviceRule(
            id: "T6",
            title: "One-shot timers",
            group: "T",
            parent: nil,
            text:
                "A non-repeating timer is done after it fires.",
            sources: ["src"],
            why:
                "[src] `__CFRunLoopDoTimer` invalidates a timer whose interval is 0 right after its callout.",
            touches: [
                "timer nstimer",
                "timer.<name>.state",
            ]
        ),
        DeviceRule(
            id: "T7",
            title: "Default-mode timers and scrolling",
            group: "T",
            parent: nil,
            text:
                "A timer in `default` mode does not fire during tracking; when tracking ends it fires once (T4) and resumes its grid.",
            sources: ["src", "obs"],
            why:
                "[src] The timer is registered in the default mode only, which the run loop does not run while tracking (RL1). [obs] A default-mode timer held off by another mode until 170 ms fired at about 171, then 200, 250, … on its original grid.",
            touches: [
                "timer nstimer",
                "scroll",
            ]
        ),
        DeviceRule(
            id: "T8",
            title: "Pause and resume",
            group: "T",
            parent: nil,
            text:
                "`timer pause`: no firing. `timer resume`: the next fire date is the first grid point after now; the points passed count as skipped.",
            sources: ["model"],
            why:
                "[model] NSTimer has no pause; apps pause by invalidating and recreating or by moving the fire date far out. Resuming on the original grid keeps T4's no-drift rule.",
            touches: [
                "timer pause",
                "timer resume",
                "timer.<name>.skipped",
            ]
        ),
        DeviceRule(
            id: "T-A",
            title: "Worked example: an NSTimer under a stall",
            group: "T",
            parent: nil,
            text:
                "`timer nstimer poll --interval 50ms --repeats; stall 100ms; run 300ms`: the timer fires at 100 (fire date 50: late 50 ms, cause `busy`), 150, 200 and 250: `timer.poll.fires = 4`, `timer.poll.skipped = 1` — the grid point 100, which equals the time the late callback returned (T4 skips a point equal to now).",
            sources: [],
            why:
                "",
            touches: [
                "timer nstimer",
                "stall",
                "timer show",
                "timer.<name>.fires",
                "timer.<name>.skipped",
            ]
        ),
        DeviceRule(
            id: "D1",
            title: "Schedule",
            group: "D",
            parent: nil,
            text:
                "A dispatch timer fires first at now + start (default: the interval), then every interval on a fixed grid.",
            sources: ["src", "doc"],
            why:
                "[doc][src] `dispatch_source_set_timer`: \"the next fire of the timer will occur at 'start', and every 'interval' nanoseconds thereafter until the timer source is canceled\"; libdispatch computes each target as start + N · interval.",
            touches: ["timer gcd"]
        ),
        DeviceRule(
            id: "D2",
            title: "Leeway",
            group: "D",
            parent: nil,
            text:
                "Leeway is clamped to interval/2 for repeating timers. With `runloop.coalescing off` it does not change fire times; with it on, T5's rule applies to the dispatch timers of one queue kind.",
            sources: ["src", "doc", "model"],
            why:
                "[doc] `dispatch/source.h`: any fire \"may be delayed by the system\"; for the fires after the first \"the upper limit is MIN('leeway','interval'/2)\". [src] `_dispatch_timer_config_create` clamps the leeway once, for every fire of a repeating timer. [model] On Linux libdispatch ignores leeway (the timerfd is armed at the target); coalescing is a setting, as for T5.",
            touches: [
                "timer gcd",
                "runloop.coalescing",
                "layout watch",
                "timer.wakeups",
            ]
        ),
        DeviceRule(
            id: "D3",
            title: "Missed targets are counted, not replayed",
            group: "D",
            parent: nil,
            text:
                "When a timer's target time passes, the grid points passed are added to its pending `data` and its next target becomes the first grid point after now. A handler invocation takes all pending `data` (≥ 1); `fires` counts handler invocations.",
            sources: ["src", "doc"],
            why:
                "[src] libdispatch computes `missed = (now − target) / interval + 1`, adds it to the pending data and moves the target by `missed · interval`. [doc] `dispatch_source_get_data` on a timer is \"the number of times the timer has fired since the last handler invocation\".",
            touches: [
                "timer gcd",
                "timer show",
                "timer.<name>.fires",
                "timer.<name>.last_data",
            ]
        ),
        DeviceRule(
            id: "D4",
            title: "Never concurrent with itself",
            group: "D",
            parent: nil,
            text:
                "A handler never runs concurrently with itself: targets passed while it runs or waits to run add to the pending `data`, and it runs again as soon as it returns if data is pending. `timer pause` suspends the source: targets passed add to `data`; `timer resume` delivers them in one invocation.",
            sources: ["src", "doc"],
            why:
                "[doc] `dispatch/source.h`: \"Dispatch sources are not reentrant. Any events received while the dispatch source is suspended or while the event handler block is currently executing will be coalesced and delivered after the dispatch source is resumed or the event handler block has returned.\" [src] The timer manager disarms a timer whose count was not consumed and re-arms it after the handler.",
            touches: [
                "timer gcd",
                "timer pause",
                "timer resume",
                "timer.<name>.last_data",
            ]
        ),
        DeviceRule(
            id: "D5",
            title: "Where the handler runs",
            group: "D",
            parent: nil,
            text:
                "`--queue background` (each timer its own serial queue): the handler runs at its target time (or when its previous invocation returns, D4), costs no main-thread time, and ignores the main thread and modes. `--queue main` (the default): at its target time the handler is enqueued on the main queue (RL3, RL4) — once: while it waits, further targets only add to `data`.",
            sources: ["src"],
            why:
                "[src] A handler runs on its target queue: a serial queue runs it when free; the main queue only when the main run loop drains it (RL3, RL4), so not while the main thread is busy.",
            touches: ["timer gcd"]
        ),
        DeviceRule(
            id: "D6",
            title: "asyncAfter",
            group: "D",
            parent: nil,
            text:
                "`timer after` is a one-shot main-queue timer with leeway 10% of the delay, clamped to 1 ms…60 s.",
            sources: ["src"],
            why:
                "[src] libdispatch's `_dispatch_after` makes a one-shot timer source with leeway = delay / 10, clamped to [1 ms, 60 s].",
            touches: ["timer after"]
        ),
        DeviceRule(
            id: "D-A",
            title: "Worked example: a GCD timer under a stall",
            group: "D",
            parent: nil,
            text:
                "`timer gcd poll --interval 50ms --queue main; stall 100ms; run 300ms`: handlers at 100 (data 2), 150 (1), 200 (1) and 250 (1): `timer.poll.fires = 4`, data 5 in all, `timer.poll.last_data = 1`, `timer.poll.max_late = 50ms` (lateness counts from the oldest grid point a handler covers, K2). The same on `--queue background`: handlers at 50, 100, 150, 200 and 250, each with data 1, none late. Beside T-A: the NSTimer loses the tick at 100, the GCD timer counts it.",
            sources: [],
            why:
                "",
            touches: [
                "timer gcd",
                "stall",
                "timer show",
                "timer.<name>.fires",
                "timer.<name>.last_data",
                "timer.<name>.max_late",
            ]
        ),
        DeviceRule(
            id: "A1",
            title: "Animation ticks",
            group: "A",
            parent: nil,
            text:
                "`animate d` at time t0: the app's UI display link (common modes, the first link, added at the start) ticks at every vsync in [t0, t0 + d) — the vsync at t0 included (S3) — each tick costing `load frame` and dirtying the UI. Overlapping animations form one union. A tick that runs after its own animation has ended (a stale slot, DL7) does nothing, even if a later, separate animation is running when it runs: its own animation is the stretch of animating time (A2) that contains the tick's timestamp, and the tick does something only if that stretch still covers the moment the tick runs. `scroll d`: the mode is `tracking` over [t0, t0 + d) (mode changes at both ends, S4.2), and the app animates as with `animate d`.",
            sources: ["doc", "model"],
            why:
                "[doc] UIKit drives animations from the display's frames and commits their changes each frame; a scroll runs the run loop in tracking mode while it lasts. [model] A tick late enough to miss its animation belongs to no frame of it; letting it draw for a later animation would give that animation a frame from before it started.",
            touches: [
                "animate",
                "scroll",
                "load frame",
                "clock.mode",
                "render.commits",
            ]
        ),
        DeviceRule(
            id: "A2",
            title: "Animating time",
            group: "A",
            parent: nil,
            text:
                "Animating time is the union of the `animate`, `scroll`, `view animate` (L1) and `view spin` intervals. Hitch metrics count the presents of frames whose commit started during animating time; a frame into which older waiting frames were merged (R1) counts if any of the commits merged into it started during animating time (the older tick is on screen late).",
            sources: ["doc"],
            why:
                "[doc] MetricKit's hitch time ratio is \"the ratio of the total time spent hitching to the total time spent animating\": an idle screen has no hitches.",
            touches: [
                "animate",
                "scroll",
                "view animate",
                "view spin",
                "fps.hitches",
                "fps.hitch_ratio",
                "fps frames",
            ]
        ),
        DeviceRule(
            id: "R1",
            title: "The render server takes the newest frame",
            group: "R",
            parent: nil,
            text:
                "A commit ending at c hands the render server a frame. The render server starts only at a vsync s that is after c (strictly) and not before the end of its previous render; at s it takes the newest frame handed to it (older waiting ones are merged into it); rendering takes `load gpu`, ending at e.",
            sources: ["doc", "model"],
            why:
                "[doc] Apple's render loop (tech talk \"Explore UI animation hitches and the render loop\"): the app commits in one frame, the render server renders in the next, each stage starting at a vsync. [model] A serial render server that takes the newest commit is the simplest model of what is not documented.",
            touches: [
                "load gpu",
                "load commit",
                "fps frames",
            ]
        ),
        DeviceRule(
            id: "R2",
            title: "Present",
            group: "R",
            parent: nil,
            text:
                "The frame is presented at the first vsync that is at or after e and after s (strictly); at most one present per vsync.",
            sources: ["doc", "model"],
            why:
                "[doc] A frame goes on screen at a vsync, never in the one where its rendering began. [model] One present per vsync.",
            touches: [
                "load gpu",
                "render.presents",
                "fps.render",
            ]
        ),
        DeviceRule(
            id: "R3",
            title: "Expected present",
            group: "R",
            parent: nil,
            text:
                "The expected present x of a frame that contains an animation tick is the second vsync after the timestamp v of the newest tick in it (double buffering: commit in v's frame, render in the next, show at the one after); otherwise it is the vsync after the vsync after c.",
            sources: ["doc", "model"],
            why:
                "[doc] Double buffering as Apple describes it: the frame whose commit happens in frame N is rendered in frame N + 1 and shown at the start of frame N + 2. [model] Triple buffering, which the system may switch to, is not modelled.",
            touches: ["fps frames"]
        ),
        DeviceRule(
            id: "R4",
            title: "Hitches",
            group: "R",
            parent: nil,
            text:
                "Over the counted presents p_1, p_2, … (A2), the hitch of p_i is `max(0, p_i − max(x_i, the vsync after p_{i−1}))` (only x_1 for the first since `fps start` or `fps reset`). The hitch ratio is the total hitch time in ms over the animating seconds since then. A hitch is a *commit* hitch when the frame's commit ended at or after the vsync after v (it missed its render vsync), a *render* hitch when e is after the vsync after s, or both.",
            sources: ["doc", "model"],
            why:
                "[doc] \"A hitch is any time a frame appears on screen later than expected\"; the hitch time ratio is in ms per second; commit hitches and render hitches are Apple's two kinds. [model] The `p_{i−1}` term keeps one long stall from being counted again for every later frame.",
            touches: [
                "fps.hitches",
                "fps.hitch_time",
                "fps.hitch_ratio",
                "fps.tier",
                "fps frames",
                "fps watch",
            ]
        ),
        DeviceRule(
            id: "R5",
            title: "Render fps",
            group: "R",
            parent: nil,
            text:
                "`fps.render` counts presents in the last whole second [k s, (k + 1) s) of virtual time that began at or after `fps start`; it has no value before one such second has passed.",
            sources: ["model"],
            why:
                "[model] What the display showed, counted over whole seconds so that the number does not depend on when you ask.",
            touches: [
                "fps.render",
                "fps show",
            ]
        ),
        DeviceRule(
            id: "R-A",
            title: "Worked example: GPU-bound frames",
            group: "R",
            parent: nil,
            text:
                "`fps start; animate 10s; load gpu 20ms; run 3s`: the meter's link fires at every vsync (the main thread is idle), so `fps.value = 60`; the render server presents every other vsync (50, 83.333, 116.667, …): `fps.render = 30`, every present is a 16.667 ms render hitch (`fps.hitches = 89`), and `fps.hitch_ratio` is 89 × 16.667 ms / 3 s = 494.444 after 3 s (tending to 500) — the FPS label that reads 60 while Instruments shows far fewer frames.",
            sources: [],
            why:
                "",
            touches: [
                "fps start",
                "animate",
                "load gpu",
                "fps.value",
                "fps.render",
                "fps.hitches",
                "fps.hitch_ratio",
            ]
        ),
        DeviceRule(
            id: "F1",
            title: "The reading",
            group: "F",
            parent: nil,
            text:
                "Per callback of the meter's link with timestamp ts: the first callback only records `last = ts`; each later one adds 1 to `count`; when `ts − last ≥ window`, the reading becomes `min(round(count / (ts − last) in s), R)` (half away from zero), then `count = 0` and `last = ts`. After a scroll, a meter in `default` mode gets one stale callback (DL7), so its next window spans the scroll and reads about 0.",
            sources: ["src", "model"],
            why:
                "[src] This is the `tick:` of the FPS labels in the classic articles (YYFPSLabel and its descendants): count display-link callbacks, divide by the timestamps' span once a second has passed. The reading near 0 after a scroll is the articles' complaint about default-mode links. [model] The clamp to the refresh rate (HyFPSLabel clamps to 60) keeps the rounding of vsync times from ever reading above the display.",
            touches: [
                "fps start",
                "fps.value",
                "fps history",
                "fps compare",
            ]
        ),
        DeviceRule(
            id: "F2",
            title: "The meter's link",
            group: "F",
            parent: nil,
            text:
                "The meter's link is added when `fps start` runs (after the app's UI link, DL8); its callback costs `--cost`. `fps stop` removes it (DL6); `fps reset` clears the readings and statistics, keeping the link.",
            sources: ["model"],
            why:
                "[model] The meter is an ordinary display link added by the app after its own UI link, as a label added to a running app would be.",
            touches: [
                "fps start",
                "fps stop",
                "fps reset",
                "fps.callbacks",
            ]
        ),
        DeviceRule(
            id: "F3",
            title: "The label dirties the UI",
            group: "F",
            parent: nil,
            text:
                "With the label on, the meter sets its label's text at the end of every window (as YYFPSLabel does), which dirties the UI: on a static screen, about one render per window.",
            sources: ["src"],
            why:
                "[src] YYFPSLabel sets its text once per window; a label's new text is a change Core Animation commits and renders (RL5).",
            touches: [
                "fps start",
                "render.commits",
                "render.presents",
            ]
        ),
        DeviceRule(
            id: "L1",
            title: "Views and changes",
            group: "L",
            parent: nil,
            text:
                "A view has a frame relative to its parent (x, y, w, h), alpha, hidden and rotation. A change is a view added or removed (a removed subtree counts each view) or a property taking a different value; setting a property to its current value is no change, and moving a parent changes only the parent. `view animate` is time-based: at each animation tick, progress = min(1, (tick timestamp − start) / duration), linear, with the exact end values at progress 1; a view animation is active from its start through the first tick that reaches progress 1 (so a duration of whole periods ends with a tick exactly at start + duration). `view spin` changes the rotation at every tick; spinning a view that already spins replaces the earlier spin (its end is the new one's).",
            sources: ["doc", "model"],
            why:
                "[doc] UIKit animations are time-based (a property's value is interpolated from the frame's time, not advanced per frame), and setting a property to the value it has changes nothing. [model] Linear timing and the activity indicator's rotation per tick are chosen here.",
            touches: [
                "view add",
                "view set",
                "view remove",
                "view animate",
                "view spin",
                "view grow",
                "layout.changes",
                "layout.last_change",
            ]
        ),
        DeviceRule(
            id: "L2",
            title: "Seed mode",
            group: "L",
            parent: nil,
            text:
                "`--mode seed` reproduces the layout-complete checker of the seed article: a display link (common modes) takes a snapshot at each callback; if it equals the previous snapshot a sticky flag is set, otherwise the snapshot is stored. A main-queue dispatch timer started at `layout watch` (first fire at that instant, interval `--poll` 200ms, leeway `--leeway` 50ms) checks the flag; when it is set, the checker reports settled at that handler's start and stops. Snapshots are compared by digest, never by building strings; only their modelled cost (L3) is charged.",
            sources: ["src"],
            why:
                "[src] The article's code: a CADisplayLink compares the view tree's description string with the previous frame's, and a main-queue `dispatch_source` timer started at once with interval 0.2 s checks the result — so one unchanged frame in a row is enough to answer \"done\".",
            touches: [
                "layout watch",
                "layout.settled_at",
                "layout.state",
            ]
        ),
        DeviceRule(
            id: "L3",
            title: "The checker's cost",
            group: "L",
            parent: nil,
            text:
                "The observer's cost is charged to the checker's callback: in seed mode 0.5 µs per view in the subtree (the measured cost of the original's string snapshot); in quiet mode 0.2 µs plus 0.05 µs per changed view. `--cost-per-view <d>` replaces the per-view figure.",
            sources: ["obs", "model"],
            why:
                "[obs] The string snapshot of the original costs about 0.5 µs per view per frame when measured in Swift. [model] The quiet mode's figures are those of a change-tracking checker.",
            touches: [
                "layout watch",
                "main.busy_ratio",
            ]
        ),
        DeviceRule(
            id: "L4",
            title: "Quiet mode",
            group: "L",
            parent: nil,
            text:
                "At each checker callback starting at t, the subtree is settled when `t − last change ≥ quiet` (the last change starts at the watch time); then `layout.settled_at = t`, the checker stops and prints its event. If instead `t − watch time ≥ timeout`, the state is `timeout`, with the diagnosis. `layout.changes` counts the checker callbacks that saw a change; `layout.views` counts the subtree's views now, its root included. As in the seed article, start watching when the content has arrived: a tree that is already still settles `quiet` after the watch starts.",
            sources: ["model"],
            why:
                "[model] \"Nothing changed for a while\" is the question the article asks; asking it with a quiet period instead of one equal frame does not answer too early on a one-frame pause.",
            touches: [
                "layout watch",
                "layout show",
                "layout.state",
                "layout.settled_at",
                "layout.last_change",
                "layout.changes",
                "layout.views",
            ]
        ),
        DeviceRule(
            id: "L-A",
            title: "Worked example: an animation settles",
            group: "L",
            parent: nil,
            text:
                "`view add a --frame 0,0,100,100; view animate a --frame 0,0,200,100 --over 300ms; layout watch --quiet 200ms; run 2s`: the last change is at v18 = 300; the checker's callback at v30 = 500 reports settled: `layout.settled_at = 0.5s`.",
            sources: [],
            why:
                "",
            touches: [
                "view add",
                "view animate",
                "layout watch",
                "layout.settled_at",
                "layout.last_change",
            ]
        ),
        DeviceRule(
            id: "K1",
            title: "Owners and leaks",
            group: "K",
            parent: nil,
            text:
                "A timer with `--target o` retains o unless `--weak`. `object release o` drops the shell's reference: if a live timer retains o, o stays alive and is a leak; otherwise o is deallocated and every `--weak` timer targeting it is invalidated (the owner's deinit).",
            sources: ["doc"],
            why:
                "[doc] A scheduled `Timer` \"maintains a strong reference to target until it is invalidated\", and a CADisplayLink retains its target the same way: an owner that holds the timer and is its target is a retain cycle, the leak the weak-proxy pattern fixes.",
            touches: [
                "object new",
                "object release",
                "timer leaks",
                "timer.leaks",
            ]
        ),
        DeviceRule(
            id: "K2",
            title: "Lateness and its cause",
            group: "K",
            parent: nil,
            text:
                "A firing's lateness is its start minus the scheduled time of the oldest grid point it covers (NSTimer: its fire date; GCD: the oldest point in its data; display link: its timestamp). It is *late* above `timer.late-threshold` (default 1 ms). Its cause, first match: the timer's mode was not running at the scheduled time (`mode`), the main thread was busy (`busy`), coalescing or tolerance (`coalesced`); a dispatch source resumed after `timer pause` delivers the targets that passed meanwhile with the cause `paused` (D4). Lateness is known when the callback starts, and from that moment it counts: `timer.<name>.max_late`, `timer.late` and the firing in `timer show` include it while the callback still runs. What is decided only when the callback returns (T4's skipped grid points and next fire date) is shown only from then: a metric never shows the future.",
            sources: ["model"],
            why:
                "[model] Lateness as Instruments and the articles measure it: when the callback ran against when it was due. The cause is the first thing in the way, checked in that order.",
            touches: [
                "timer show",
                "timer list",
                "timer watch",
                "timer.late",
                "timer.<name>.max_late",
                "timer.late-threshold",
            ]
        ),
    ]
}
