import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

extension Session {
    /// The shell's own metrics (docs/Commands.md lists them).
    public static let coreMetrics: [MetricSpec] = [
        MetricSpec("clock.now", .time, abstract: "Virtual time now."),
        MetricSpec("clock.vsyncs", .integer, abstract: "Vsyncs since the start."),
        MetricSpec("clock.rate", .integer, abstract: "The refresh rate in force, in Hz."),
        MetricSpec("clock.mode", .word, abstract: "The run loop's mode: default or tracking."),
        MetricSpec("main.busy_until", .time, abstract: "The end of the main thread's current or last item."),
        MetricSpec("main.hangs", .integer, abstract: "Main-thread items of 250 ms or more (RL6)."),
        MetricSpec("main.busy_ratio", .number, abstract: "Main-thread busy time over the last whole second (RL6)."),
        MetricSpec("render.commits", .integer, abstract: "Core Animation commits since the start."),
        MetricSpec("render.presents", .integer, abstract: "Frames presented since the start."),
    ]

    /// The built-in commands, declared like any tool's (docs/Commands.md is generated from them).
    public static let builtInSpecs: [CommandSpec] = [
        CommandSpec(
            "help",
            abstract:
                "Show help for a command, a verb, a metric, a setting or a rule of the simulated device, or list them.",
            discussion:
                "A rule is named by its id in docs/Semantics.md, in any case: 'help RL6', 'help s4.1', 'help DL-A' (a worked example). It prints the rule, the kinds of source it rests on and why, and the commands, metrics and settings it touches. Help texts that cite rules end in a RULES line naming them.",
            arguments: [
                ArgumentSpec(
                    "topic", .word, abstract: "A command, optionally with a verb; a metric; a setting; or a rule id.",
                    optional: true, rest: true)
            ],
            examples: [
                Example(
                    """
                    > help echo
                    echo — Print the words.

                    Control characters other than newline and tab are printed escaped (ESC as \\x1b),
                    so that an echo never sends the terminal an escape sequence by accident; --raw
                    prints them as they are.

                    USAGE: echo [<words…>] [--raw]

                    ARGUMENTS:
                      <words…>  The words to print, separated by one space.

                    OPTIONS:
                      --raw  Print control characters as they are.

                    EXAMPLES:
                      > echo hello,   world
                      hello, world
                    """),
                Example(
                    """
                    > help s4.2
                    S4.2 — One instant's order, step 2 (a step of S4)

                    Mode changes due at t: a scroll starting or ending.

                    SOURCE: model

                    WHY: see 'help S4' (One instant's order).

                    TOUCHES:
                      after, at, every, scroll, run

                    In docs/Semantics.md under S4.
                    > help main.hangs
                    main.hangs (metric, integer) — Main-thread items of 250 ms or more (RL6).
                    RULES: RL6 (type 'help RL6')
                    """),
            ]),
        CommandSpec(
            "apropos", abstract: "Search the help of every command, option, metric, setting and rule for a word.",
            discussion:
                "Best matches first: the word as a whole word of a name (main.hangs for 'hangs'), starting a word of "
                + "a name (main.hangs for 'hang'), a whole word of the help text, starting a word of it, then anywhere. "
                + "Several words, or a quoted phrase, are searched as one phrase.",
            arguments: [
                ArgumentSpec(
                    "word", .word, abstract: "The word or phrase to look for (case-insensitive).", rest: true)
            ],
            examples: [
                Example(
                    """
                    > apropos coalesc
                    setting runloop.coalescing — Coalesce timer wake-ups within tolerance and leeway (T5, D2).
                    rule T5 — Tolerance and coalescing
                    timer plot — Chart a timer's lateness per firing over time, late firings by cause (K2).
                    rule D2 — Leeway
                    rule K2 — Lateness and its cause
                    """)
            ]),
        CommandSpec("tools", abstract: "List the registered tools, one line each."),
        CommandSpec(
            "status",
            abstract:
                "Print every tool's status line; 'status on|off' and 'status <tool> on|off' choose what the live block shows.",
            arguments: [
                ArgumentSpec(
                    "target", .word, abstract: "on|off, or a tool's name followed by on|off.", optional: true,
                    rest: true)
            ],
            examples: [Example("> status off\n> status on")]),
        CommandSpec(
            "clock", abstract: "Show now, the vsync count, the refresh rate, the run-loop mode and the main thread.",
            examples: [
                Example(
                    """
                    > stall 40ms
                    > run 25ms
                    > clock
                    now     25ms
                    vsyncs  2
                    rate    60 Hz
                    mode    default
                    main    busy until 40ms
                    """)
            ]),
        CommandSpec(
            "display", abstract: "Show or set the refresh rate (default 60 Hz, S2).",
            verbs: [
                VerbSpec(
                    "", abstract: "Show the refresh rate, and a change waiting for its vsync.",
                    examples: [Example("> display\n60 Hz")]),
                VerbSpec(
                    "rate", abstract: "Set the refresh rate from the first vsync at or after now.",
                    arguments: [ArgumentSpec("rate", .rate, abstract: "1…1000 Hz, as 120Hz or 120.")],
                    examples: [
                        Example(
                            """
                            > run 5ms
                            > display rate 120Hz
                            > display
                            60 Hz (120 Hz from 16.666666ms)
                            """)
                    ]),
            ], defaultVerb: ""),
        CommandSpec(
            "run", abstract: "Advance virtual time, processing what happens (S3–S4).",
            verbs: [
                VerbSpec(
                    "", abstract: "Process the events before now + duration, then set now to it.",
                    arguments: [ArgumentSpec("duration", .duration, abstract: "How long to run, e.g. 2s, 16ms, 30f.")],
                    examples: [Example("> run 1s\n> get clock.now\nclock.now = 1s")]),
                VerbSpec(
                    "until", abstract: "Run until a condition holds after an instant, or fail at the timeout.",
                    arguments: [
                        ArgumentSpec(
                            "condition", .word, abstract: "<metric> <op> <value>, joined by and/or.", rest: true,
                            restAllowsOptions: true)
                    ],
                    options: [OptionSpec("timeout", .duration, abstract: "Give up after this long.", default: "60s")],
                    examples: [
                        Example(
                            """
                            > stall 100ms
                            > run until main.hangs > 0 or main.busy_until > 1s --timeout 2s
                            error: timed out after 2s: main.hangs > 0 or main.busy_until > 1s (main.hangs = 0, main.busy_until = 100ms)
                            """),
                        Example(
                            "> every 250ms echo tick\n> run until clock.now >= 0.5s\ntick\ntick\n> get clock.now\nclock.now = 500ms"
                        ),
                    ]),
                VerbSpec(
                    "to", abstract: "Process the events before a time, then set now to it (run for the time between).",
                    arguments: [ArgumentSpec("time", .time, abstract: "The time to stop at, from t = 0.")],
                    examples: [Example("> run 1s\n> run to 2.5s\n> get clock.now\nclock.now = 2.5s")]),
                VerbSpec(
                    "through",
                    abstract: "Process the events up to and including a time's: now is then that instant, done.",
                    discussion:
                        "As 'step' does at a vsync: commands issued afterwards take effect after that instant's events. Recordings use it to stand for a 'step' or a 'run until'.",
                    arguments: [ArgumentSpec("time", .time, abstract: "The last instant to process, from t = 0.")],
                    examples: [Example("> run through 50ms\n> get clock.vsyncs\nclock.vsyncs = 4")]),
            ], defaultVerb: ""),
        CommandSpec(
            "step", abstract: "Run through the n-th vsync after now (a vsync at now counts as the first).",
            arguments: [
                ArgumentSpec("n", .integer(1...1_000_000_000), abstract: "How many vsyncs (default 1).", optional: true)
            ],
            examples: [Example("> step 3\n> get clock.now\nclock.now = 33.333333ms")]),
        CommandSpec(
            "load", abstract: "Show or set the app's costs per animation tick, per commit and per frame on the GPU.",
            verbs: [
                VerbSpec(
                    "", abstract: "Show the costs.",
                    examples: [Example("> load gpu 20ms\n> load\nframe 0s · commit 0s · gpu 20ms")]),
                VerbSpec(
                    "frame", abstract: "Main-thread work per animation tick (A1).",
                    arguments: [ArgumentSpec("duration", .duration, abstract: "The cost.")],
                    examples: [Example("> load frame 4ms")]),
                VerbSpec(
                    "commit", abstract: "Main-thread work per Core Animation commit (RL4.2).",
                    arguments: [ArgumentSpec("duration", .duration, abstract: "The cost.")],
                    examples: [Example("> load commit 2ms")]),
                VerbSpec(
                    "gpu", abstract: "Render-server time per frame (R1).",
                    arguments: [ArgumentSpec("duration", .duration, abstract: "The cost.")],
                    examples: [Example("> load gpu 20ms")]),
                VerbSpec(
                    "off", abstract: "Set every cost back to 0.",
                    examples: [Example("> load gpu 20ms\n> load off\n> load\nframe 0s · commit 0s · gpu 0s")]),
            ], defaultVerb: ""),
        CommandSpec(
            "animate", abstract: "The app animates: its UI link ticks at every vsync for this long (A1).",
            arguments: [ArgumentSpec("duration", .duration, abstract: "How long.")],
            examples: [Example("> animate 1s\n> run 1s\n> get render.presents\nrender.presents = 58")]),
        CommandSpec(
            "scroll", abstract: "The user scrolls: tracking mode and an animation for this long (A1).",
            arguments: [ArgumentSpec("duration", .duration, abstract: "How long.")],
            examples: [
                Example(
                    "> scroll 1s\n> get clock.mode\nclock.mode = default\n> run 1ms\n> get clock.mode\nclock.mode = tracking"
                )
            ]),
        CommandSpec(
            "stall", abstract: "Enqueue one main-queue block of this cost: heavy work on the main thread.",
            discussion: "The queued blocks must end before the 2^62 ns horizon (S1).",
            arguments: [ArgumentSpec("duration", .duration, abstract: "The block's cost.")],
            options: [OptionSpec("ui", abstract: "The block changes the UI, so a commit follows.")],
            examples: [Example("> stall 300ms\n> run 1s\n> get main.hangs\nmain.hangs = 1")]),
        CommandSpec(
            "after", abstract: "Run a command after a delay (S4.1); ';' ends it.",
            discussion:
                "Scheduled commands may schedule more, for later or for the instant they run in; an instant takes "
                + "at most 10,000 of the latter (a command that schedules itself for its own instant never lets "
                + "time move), and at most 1,000,000 commands wait at once. The same holds for 'at' and 'every'.",
            arguments: [
                ArgumentSpec("duration", .duration, abstract: "The delay."),
                ArgumentSpec("command", .word, abstract: "The command, with its own options.", rest: true),
            ],
            examples: [Example("> after 1s echo later; echo now\nnow\n> run 2s\nlater")]),
        CommandSpec(
            "at", abstract: "Run a command at a time measured from t = 0 (S4.1).",
            arguments: [
                ArgumentSpec("time", .time, abstract: "When; not in the past."),
                ArgumentSpec("command", .word, abstract: "The command, with its own options.", rest: true),
            ],
            examples: [Example("> at 0.5s echo half\n> run 1s\nhalf")]),
        CommandSpec(
            "every", abstract: "Run a command every interval, first after one interval (S4.1).",
            arguments: [
                ArgumentSpec("duration", .duration, abstract: "The interval, at least 1us."),
                ArgumentSpec("command", .word, abstract: "The command, with its own options.", rest: true),
            ],
            options: [
                OptionSpec("times", .integer(1...Int64.max), abstract: "Stop after this many runs.", default: "forever")
            ],
            examples: [Example("> every 100ms --times 2 echo tick\n> run 1s\ntick\ntick")]),
        CommandSpec(
            "get", abstract: "Print one metric as 'name = value', exactly as 'expect' compares it.",
            arguments: [ArgumentSpec("metric", .name(.metric), abstract: "The metric's name.")],
            examples: [Example("> get clock.rate\nclock.rate = 60")]),
        CommandSpec(
            "metrics", abstract: "Print every metric, or those starting with a prefix.",
            arguments: [
                ArgumentSpec("prefix", .word, abstract: "Only metrics whose names start with it.", optional: true)
            ],
            examples: [Example("> metrics render\nrender.commits = 0\nrender.presents = 0")]),
        CommandSpec(
            "expect", abstract: "Fail unless a condition holds: <metric> <op> <value>, joined by and/or.",
            discussion:
                "Values are written as 'get' prints them, so a printed value pastes back. == and != take a tolerance, "
                + "'± <value>' or '+- <value>': an event's time stamp has three decimals, so 'expect "
                + "layout.settled_at == 0.617s ± 1ms' holds for the stamp [0.617s].",
            arguments: [ArgumentSpec("condition", .word, abstract: "The condition.", rest: true)],
            examples: [
                Example(
                    """
                    > expect clock.rate == 60 and clock.mode == default
                    > expect clock.vsyncs > 0
                    error: expectation failed: clock.vsyncs > 0 (clock.vsyncs = 0)
                    > expect main.busy_ratio >= 0.5
                    error: expectation failed: main.busy_ratio has no value yet
                    """),
                Example(
                    """
                    > step 37
                    > get clock.now
                    clock.now = 600ms
                    > step
                    > get clock.now
                    clock.now = 616.666666ms
                    > expect clock.now == 0.617s ± 1ms and clock.now != 0.6s +- 10ms
                    > expect clock.now == 0.617s
                    error: expectation failed: clock.now == 0.617s (clock.now = 616.666666ms)
                    """),
            ]),
        CommandSpec(
            "echo", abstract: "Print the words.",
            discussion:
                "Control characters other than newline and tab are printed escaped (ESC as \\x1b), so that an echo "
                + "never sends the terminal an escape sequence by accident; --raw prints them as they are.",
            arguments: [
                ArgumentSpec(
                    "words", .word, abstract: "The words to print, separated by one space.", optional: true, rest: true)
            ],
            options: [OptionSpec("raw", abstract: "Print control characters as they are.")],
            examples: [Example("> echo hello,   world\nhello, world")]),
        CommandSpec(
            "source", abstract: "Run a script; relative paths resolve against the including script's folder.",
            discussion:
                "A script is a regular file or a pipe of UTF-8 text, at most 256 MiB; sources nest at most 64 deep, "
                + "and a script that sources itself stops at that depth, once.",
            arguments: [ArgumentSpec("file", .path, abstract: "The script.")],
            examples: [
                Example("> source no-such-file.dsh\nerror: cannot open 'no-such-file.dsh': No such file or directory")
            ]),
        CommandSpec(
            "alias", abstract: "Define an alias ('alias name = expansion', %1…%9 and %*), or list them.",
            discussion:
                "debugsh starts with LLDB's one-letter aliases: c (play, as continue), p (get, as print), q (quit), "
                + "r (run) and s (step). 'alias' lists them beside yours; 'alias r = …' replaces one and 'unalias r' "
                + "removes it. A command's own name wins over an alias.",
            arguments: [
                ArgumentSpec(
                    "definition", .word, abstract: "<name> = <expansion…>, or a name to show.", optional: true,
                    rest: true)
            ],
            examples: [
                Example(
                    """
                    > alias twice = echo %1 %1
                    > twice hey
                    hey hey
                    > alias
                    built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):
                      c = play  LLDB's continue: time runs on, with the wall clock, until 'pause' or Ctrl-C
                      p = get   LLDB's print: one metric, as 'name = value'
                      q = quit  LLDB's quit
                      r = run   LLDB's run
                      s = step  LLDB's step: to the next vsync
                    yours:
                      twice = echo %1 %1
                    """)
            ]),
        CommandSpec(
            "unalias", abstract: "Remove an alias.",
            arguments: [ArgumentSpec("name", .name(.alias), abstract: "The alias.")],
            examples: [
                Example(
                    """
                    > alias greet = echo hi
                    > greet
                    hi
                    > unalias greet
                    > greet
                    error: unknown command 'greet'; did you mean 'get'?
                    > unalias greet
                    error: unknown alias 'greet'
                    """),
                Example(
                    """
                    > unalias s
                    > s
                    error: ambiguous command 's': status, step, scroll, stall, source, set, settings
                    """),
            ]),
        CommandSpec(
            "history", abstract: "Show the session's commands (the last 10,000 are kept), the last n of them.",
            arguments: [ArgumentSpec("n", .integer(1...Int64.max), abstract: "How many.", optional: true)],
            examples: [Example("> echo a\na\n> history 2\n    1  echo a\n    2  history 2")]),
        CommandSpec(
            "set", abstract: "Change a setting (the same as 'settings set').",
            arguments: [
                ArgumentSpec("setting", .name(.setting), abstract: "The setting's name."),
                ArgumentSpec("value", .word, abstract: "Its new value, of the setting's type."),
            ],
            examples: [
                Example(
                    "> set runloop.coalescing on\n> settings runloop\nrunloop.coalescing = on  Coalesce timer wake-ups within tolerance and leeway (T5, D2)."
                )
            ]),
        CommandSpec(
            "settings", abstract: "Show, list and change settings, as LLDB's 'settings' does.",
            discussion:
                "'settings' alone, or with a prefix, lists settings with their values and descriptions ('settings list'). "
                + "'settings show' prints values only, as 'name = value'; 'settings set' is 'set'.",
            verbs: [
                VerbSpec(
                    "list", abstract: "Every setting with its value and description, or those starting with a prefix.",
                    arguments: [
                        ArgumentSpec(
                            "prefix", .word, abstract: "Only settings whose names start with it.", optional: true)
                    ],
                    examples: [
                        Example(
                            "> settings shell.echo\nshell.echo = off  Print each script command, as '> command', before running it (like --echo)."
                        )
                    ]),
                VerbSpec(
                    "show", abstract: "A setting's value as 'name = value', or every value starting with a prefix.",
                    arguments: [
                        ArgumentSpec(
                            "name", .name(.setting), abstract: "The setting, or a prefix of names.", optional: true)
                    ],
                    examples: [
                        Example(
                            """
                            > settings show timer.late-threshold
                            timer.late-threshold = 1ms
                            > settings show runloop
                            runloop.coalescing = off
                            """)
                    ]),
                VerbSpec(
                    "set", abstract: "Change a setting (the same as 'set').",
                    arguments: [
                        ArgumentSpec("name", .name(.setting), abstract: "The setting's name."),
                        ArgumentSpec("value", .word, abstract: "Its new value, of the setting's type."),
                    ],
                    examples: [
                        Example(
                            """
                            > settings set timer.late-threshold 5ms
                            > settings show timer.late-threshold
                            timer.late-threshold = 5ms
                            """)
                    ]),
            ], defaultVerb: "list"),
        CommandSpec(
            "reset",
            abstract:
                "A fresh simulation: keeps tools, settings, aliases and the rate; clears time, loads, timers, views and metrics.",
            examples: [Example("> run 1s\n> reset\n> get clock.now\nclock.now = 0s")]),
        CommandSpec(
            "play",
            abstract:
                "Let virtual time follow the wall clock, at speed × real time, while the prompt stays usable (interactive).",
            arguments: [ArgumentSpec("speed", .decimal, abstract: "× real time, above 0 (default 1).", optional: true)],
            examples: [
                Example(
                    "> play 2\nerror: play needs the interactive session, where time can follow the wall clock; use 'run' here"
                )
            ]),
        CommandSpec(
            "pause", abstract: "Stop virtual time following the wall clock.",
            examples: [Example("> pause\nnot playing (now 0s)")]),
        CommandSpec(
            "record",
            abstract:
                "Write the session's commands, each at its virtual time, so that the file replays it; 'record stop' ends.",
            arguments: [
                ArgumentSpec("target", .path, abstract: "The file to write, or 'stop'.", optional: true, rest: true)
            ],
            examples: [Example("> record\nnot recording\n> record stop\nerror: not recording")]),
        CommandSpec(
            "trace", abstract: "Record the simulated timeline as a Chrome trace for Perfetto's UI or chrome://tracing.",
            discussion:
                "Tracks: the display (vsyncs, presents, hitches with their cause), the main thread (run-loop iterations and each item by name: timer and display-link callbacks, blocks, stalls, commits), the render server, each background queue, run-loop modes, counters (presented FPS, main-thread busy, tools' own such as the FPS label's reading) and every tool event. A trace keeps its newest events up to its limit and drops the oldest beyond it. docs/Trace.md says how to open one.",
            verbs: [
                VerbSpec(
                    "show", abstract: "What is recorded: state, categories, events kept and dropped, memory.",
                    examples: [Example("> trace\nno trace ('trace start' records the simulated timeline)")]),
                VerbSpec(
                    "start", abstract: "Start recording from now.",
                    options: [
                        OptionSpec(
                            "categories", .word,
                            abstract:
                                "What to record, comma-separated: display, main, render, queues, modes, counters, tools.",
                            default: "all"),
                        OptionSpec(
                            "limit", .integer(1...100_000_000),
                            abstract: "The most events kept; beyond it the oldest are dropped.", default: "1000000"),
                    ],
                    examples: [
                        Example(
                            """
                            > trace start --categories display,main
                            > stall 20ms
                            > run 50ms
                            > trace
                            trace: recording since 0s
                            categories: display, main
                            events: 4 kept of 4 recorded (limit 1000000, oldest dropped beyond it)
                            memory: 3072 KiB
                            """)
                    ]),
                VerbSpec("stop", abstract: "Stop recording; the events stay to be saved."),
                VerbSpec(
                    "save", aliases: ["export"], abstract: "Write the trace as Chrome trace JSON (atomically).",
                    arguments: [ArgumentSpec("file", .path, abstract: "The file, e.g. timeline.json.")],
                    examples: [Example("> trace save t.json\nerror: no trace to save: 'trace start' records one")]),
            ], defaultVerb: "show"),
        CommandSpec(
            "plugin", abstract: "Load tools from a plugin library built outside debugsh, and list what is loaded.",
            discussion:
                "A plugin is a shared library built against debugsh's DebugShellCore package with the same Swift toolchain (docs/Plugins.md). Its tools are tools like the built-in ones. Libraries in $XDG_CONFIG_HOME/debugsh/plugins/ load at start unless --no-plugins; --plugin <path> loads one from the command line.",
            verbs: [
                VerbSpec(
                    "list", abstract: "The built-in tools and each loaded plugin: name, version, path, tools.",
                    examples: [
                        Example(
                            "> plugin list\nname      version  path          tools\nbuilt-in  0.2.0    (in debugsh)  fps, layout, timer\nno plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)"
                        )
                    ]),
                VerbSpec(
                    "load", abstract: "Load a plugin library and register its tools (all or none).",
                    arguments: [ArgumentSpec("path", .path, abstract: "The library (a .so file).")],
                    examples: [
                        Example(
                            "> plugin load no-such-plugin.so\nerror: cannot load plugin 'no-such-plugin.so': No such file or directory"
                        )
                    ]),
                VerbSpec(
                    "require", abstract: "Need a plugin by name: nothing if it is loaded, else load it from --from.",
                    discussion:
                        "Recordings start with it for every plugin loaded, so that a replay works whether or not the plugin was loaded at start.",
                    arguments: [ArgumentSpec("name", .word, abstract: "The plugin's name (see 'plugin list').")],
                    options: [OptionSpec("from", .path, abstract: "The library to load when it is not loaded.")],
                    examples: [
                        Example(
                            "> plugin require hangs\nerror: this needs the plugin 'hangs': load it with 'plugin load <path>' or 'debugsh --plugin <path>'"
                        )
                    ]),
            ], defaultVerb: "list"),
        CommandSpec("quit", abstract: "Leave debugsh."),
        CommandSpec(
            "exit", abstract: "Leave debugsh with an exit status (from inside 'source' too).",
            arguments: [ArgumentSpec("status", .integer(0...255), abstract: "0…255 (default 0).", optional: true)]),
    ]
}
