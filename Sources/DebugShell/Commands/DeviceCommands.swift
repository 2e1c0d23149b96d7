import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// `clock`: now, the vsync count, the rate, the run loop's mode and the main thread.
struct ClockCommand: BuiltInCommand {
    static let spec = CommandSpec(
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
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        let busy = engine.busyUntil > engine.now
        let main = busy ? "busy until \(engine.busyUntil)" : "idle"
        var lines = [
            "now     \(engine.now)",
            "vsyncs  \(engine.vsyncCount)",
            "rate    \(DisplayCommand.describe(engine))",
            "mode    \(engine.mode.rawValue)",
            "main    \(main)",
        ]
        var json: [(String, JSONValue)] = [
            ("now_ns", .int(engine.now.nanoseconds)), ("vsyncs", .int(engine.vsyncCount)),
            ("rate_hz", .int(Int64(engine.refreshRate.hertz))), ("mode", .string(engine.mode.rawValue)),
            ("busy_until_ns", .int(engine.busyUntil.nanoseconds)), ("busy", .bool(busy)),
        ]
        if engine.deviceKind != .iphone {
            // V12: the device, said when it is not the default iPhone.
            lines.insert("device  \(engine.deviceKind.name)", at: 0)
            json.append(("device", .string(engine.deviceKind.rawValue)))
        }
        let refresh = engine.displayRefresh
        if refresh.isAdaptive {
            // V6: an adaptive display's refreshes beside the panel's vsyncs.
            // The keys widen to `refreshes` so that the values stay one column.
            lines = lines.map { line in
                let key = line.prefix { $0 != " " }
                return key + String(repeating: " ", count: max(1, 10 - key.count)) + line.dropFirst(8)
            }
            lines.insert("refreshes \(engine.refreshCount)", at: engine.deviceKind == .iphone ? 2 : 3)
            json += DisplayCommand.adaptiveJSON(refresh) + [("refreshes", .int(engine.refreshCount))]
        }
        return CommandOutput(text: lines.joined(separator: "\n"), json: .object(json))
    }
}

/// `device`: the simulated device, an iPhone (the default) or an iPad (V12).
struct DeviceCommand: BuiltInCommand {
    static let kind = ArgumentSpec.choice(
        "kind", abstract: "iphone (the default) or ipad.", optional: true, as: DeviceKind.self)

    static let spec = CommandSpec(
        "device",
        abstract:
            "Show or set the device: an iPhone (the default) or an iPad, with no 60 Hz cap on its app and a 24–120 Hz ProMotion display (V12).",
        arguments: [kind],
        examples: [
            Example(
                """
                > device ipad
                > display adaptive
                > timer displaylink g --range 80,120,120
                > run 1s
                > get clock.rate timer.g.fires
                clock.rate = 120
                timer.g.fires = 120
                > device
                iPad
                """)
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        if let kind = call[Self.kind] {
            engine.setDeviceKind(kind)
            return CommandOutput(json: .fields(["device": .string(kind.rawValue)]))
        }
        return CommandOutput(
            text: engine.deviceKind.name, json: .fields(["device": .string(engine.deviceKind.rawValue)]))
    }
}

/// `display`: the refresh rate (S2), fixed or adaptive (V1).
struct DisplayCommand: BuiltInCommand {
    static let rate = ArgumentSpec.rate("rate", abstract: "1…1000 Hz, as 120Hz or 120.")
    static let minimum = OptionSpec.rate(
        "min", abstract: "The lowest rate (V1).", defaultText: "10Hz; 24Hz on an iPad (V12)")
    static let maximum = OptionSpec.rate(
        "max", abstract: "The highest rate, the grid of vsyncs (V1).", defaultText: "120Hz")
    static let bufferCount = ArgumentSpec.integer("count", in: 2...3, abstract: "2 or 3.")

    enum Verb: String, ToolVerbs {
        case show = ""
        case rate
        case adaptive
        case buffers

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "", abstract: "Show the refresh rate, and a change waiting for its vsync.",
                    examples: [Example("> display\n60 Hz")])
            case .rate:
                return VerbSpec(
                    "rate", abstract: "Set the refresh rate from the first vsync at or after now.",
                    arguments: [DisplayCommand.rate],
                    examples: [
                        Example(
                            """
                            > run 5ms
                            > display rate 120Hz
                            > display
                            60 Hz (120 Hz from 16.666666ms)
                            """)
                    ])
            case .adaptive:
                return VerbSpec(
                    "adaptive",
                    abstract:
                        "Make the display adaptive (ProMotion): max/n for whole n, down to --min, as requests need (V1–V3).",
                    discussion:
                        "A request is seen at the next refresh, except a scroll's touch, which raises the display at once (V15). With nothing to ask for, the display falls to its minimum at once; 'set display.ramp n' makes it step down one rate at a time, holding each n refreshes (V16).",
                    options: [DisplayCommand.minimum, DisplayCommand.maximum],
                    examples: [
                        Example(
                            """
                            > display adaptive
                            > run 100ms
                            > display
                            adaptive 10–120 Hz, now 10 Hz
                            > fps start
                            > run 200ms
                            > display
                            adaptive 10–120 Hz, now 60 Hz
                            """),
                        Example(
                            """
                            > display adaptive --min 24Hz
                            > run 1s
                            > get clock.rate
                            clock.rate = 24
                            """),
                        Example(
                            """
                            > display adaptive
                            > set display.ramp 1
                            > scroll 100ms
                            > run 150ms
                            > display
                            adaptive 10–120 Hz, now 40 Hz, ramp 1
                            """),
                    ])
            case .buffers:
                return VerbSpec(
                    "buffers",
                    abstract:
                        "The render server's buffers, 2 (the default) or 3: a third gives a render two refresh intervals and every frame one more of latency (R7).",
                    arguments: [DisplayCommand.bufferCount],
                    examples: [
                        Example(
                            """
                            > display buffers 3
                            > display
                            60 Hz · 3 buffers
                            """)
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "display", abstract: "Show or set the refresh rate (default 60 Hz, S2).", verbs: Verb.declarations,
        defaultVerb: Verb.show.rawValue)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        switch try call.verb(Verb.self) {
        case .show:
            var json: [(String, JSONValue)] = [
                ("rate_hz", .int(Int64(engine.refreshRate.hertz))), ("buffers", .int(Int64(engine.bufferCount))),
            ]
            if engine.displayRefresh.isAdaptive { json += adaptiveJSON(engine.displayRefresh) }
            if engine.displayRefresh.isAdaptive && engine.displayRamp > 0 {
                json.append(("ramp", .int(Int64(engine.displayRamp))))
            }
            if let pending = engine.pendingRate {
                json += [
                    ("pending_rate_hz", .int(Int64(pending.rate.hertz))),
                    ("pending_from_ns", .int(pending.at.nanoseconds)),
                ]
            }
            return CommandOutput(text: describe(engine), json: .object(json))
        case .rate:
            let rate = call[Self.rate]
            engine.setRefreshRate(rate)
            return CommandOutput(json: .fields(["rate_hz": .int(Int64(rate.hertz))]))
        case .adaptive:
            let maximum = call[Self.maximum] ?? (try? RefreshRate(hertz: 120)) ?? .sixty
            // V12: an iPad's ProMotion display goes down to 24 Hz, an iPhone's to 10.
            let minimum =
                call[Self.minimum] ?? (try? RefreshRate(hertz: engine.deviceKind.promotionMinimum)) ?? .sixty
            guard minimum.hertz <= maximum.hertz else {
                throw CommandError(
                    "display adaptive: --min \(minimum) is above --max \(maximum)")
            }
            engine.setAdaptive(minimum: minimum, maximum: maximum)
            return CommandOutput(
                json: .fields(["min_hz": .int(Int64(minimum.hertz)), "max_hz": .int(Int64(maximum.hertz))]))
        case .buffers:
            engine.bufferCount = Int(call[bufferCount])
            return CommandOutput(json: .fields(["buffers": .int(Int64(engine.bufferCount))]))
        }
    }

    /// `60 Hz`, or `60 Hz (120 Hz from 16.666666ms)` while a change waits for its vsync; an
    /// adaptive display: `adaptive 10–120 Hz, now 60 Hz` (V6), `…, ramp 1` with the ramp on (V16).
    static func describe(_ engine: DeviceEngine) -> String {
        let refresh = engine.displayRefresh
        var text = refresh.isAdaptive ? "\(refresh)" : "\(engine.refreshRate)"
        // V16: the ramp, said when it is on.
        if refresh.isAdaptive && engine.displayRamp > 0 { text += ", ramp \(engine.displayRamp)" }
        if let pending = engine.pendingRefresh {
            let next = pending.refresh.isAdaptive ? "\(pending.refresh)" : pending.refresh.rateText
            text += " (\(next) from \(pending.at))"
        }
        if engine.bufferCount != 2 { text += " · \(engine.bufferCount) buffers" }
        return text
    }

    /// An adaptive display's fields in JSON (V6).
    static func adaptiveJSON(_ refresh: DisplayRefresh) -> [(String, JSONValue)] {
        [
            ("adaptive", .bool(true)), ("min_hz", .int(Int64(refresh.minimum ?? 0))),
            ("max_hz", .int(Int64(refresh.maximum))), ("divisor", .int(Int64(refresh.divisor))),
            ("rate_millihz", .int(refresh.millihertz)),
        ]
    }
}

/// `load`: what a frame's stages cost — the app's update, the commit's phases, the render
/// server's (R6).
struct LoadCommand: BuiltInCommand {
    static let cost = ArgumentSpec.duration("duration", abstract: "The cost.")
    static let passes = ArgumentSpec.integer("count", in: 0...1000, abstract: "Offscreen passes per frame, 0…1000.")
    static let passCost = ArgumentSpec.optional(
        "each", .duration, abstract: "What each pass costs the GPU (default 500us).", as: SimDuration.self)

    enum Verb: String, ToolVerbs {
        case show = ""
        case frame, layout, display, prepare, commit
        case renderPrepare = "render-prepare"
        case gpu, offscreen, off

        var declaration: VerbSpec {
            switch self {
            case .show:
                return VerbSpec(
                    "", abstract: "Show the costs: the classic three, then each other phase that costs something.",
                    examples: [
                        Example("> load gpu 20ms\n> load\nframe 0s · commit 0s · gpu 20ms"),
                        Example(
                            "> load layout 4ms\n> load offscreen 3 1ms\n> load\nframe 0s · commit 0s · gpu 0s · layout 4ms · offscreen 3 × 1ms"
                        ),
                    ])
            case .frame:
                return VerbSpec(
                    "frame", abstract: "Main-thread work per animation tick: the app's update (A1, R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load frame 4ms")])
            case .layout:
                return VerbSpec(
                    "layout", abstract: "The commit's layout phase, per commit (R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load layout 4ms")])
            case .display:
                return VerbSpec(
                    "display", abstract: "The commit's display (drawing) phase, per commit (R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load display 2ms")])
            case .prepare:
                return VerbSpec(
                    "prepare", abstract: "The commit's prepare (image decoding) phase, per commit (R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load prepare 1ms")])
            case .commit:
                return VerbSpec(
                    "commit",
                    abstract:
                        "The commit phase proper, per Core Animation commit; the commit costs all four (RL4.2, R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load commit 2ms")])
            case .renderPrepare:
                return VerbSpec(
                    "render-prepare", abstract: "The render server's CPU work per frame before the GPU (R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load render-prepare 3ms")])
            case .gpu:
                return VerbSpec(
                    "gpu", abstract: "The render's GPU work per frame (R1, R6).",
                    arguments: [LoadCommand.cost],
                    examples: [Example("> load gpu 20ms")])
            case .offscreen:
                return VerbSpec(
                    "offscreen", abstract: "Offscreen passes per frame on the GPU, each a cost (R6).",
                    arguments: [LoadCommand.passes, LoadCommand.passCost],
                    examples: [Example("> load offscreen 12 1ms")])
            case .off:
                return VerbSpec(
                    "off", abstract: "Set every cost back to 0.",
                    examples: [Example("> load gpu 20ms\n> load off\n> load\nframe 0s · commit 0s · gpu 0s")])
            }
        }
    }

    static let spec = CommandSpec(
        "load",
        abstract: "Show or set what a frame's stages cost: the app's update, the commit's phases, the render's.",
        discussion: """
            A frame's life (R6): an animation tick runs the app's update ('load frame'); the commit \
            runs layout, display, prepare and commit, and costs their sum; the render server then \
            prepares the frame ('load render-prepare') and the GPU renders it ('load gpu') with its \
            offscreen passes ('load offscreen'). 'load commit' alone and 'load gpu' alone are the \
            commit's and the render's whole cost. Which phase overran names a hitch's type (R8, \
            'fps hitches').
            """,
        verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)

    /// The default cost of an offscreen pass.
    static let defaultPassCost = SimDuration(nanoseconds: 500_000)

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let engine = context.engine
        switch try call.verb(Verb.self) {
        case .show:
            let phases = engine.framePhases
            var text = "frame \(engine.frameCost) · commit \(engine.commitCost) · gpu \(engine.gpuCost)"
            for (name, value) in [
                ("layout", phases.layout), ("display", phases.display), ("prepare", phases.prepare),
                ("render-prepare", phases.renderPrepare),
            ] where value > .zero {
                text += " · \(name) \(value)"
            }
            if phases.offscreenPasses > 0 { text += " · offscreen \(phases.offscreenPasses) × \(phases.offscreenPass)" }
            return CommandOutput(
                text: text,
                json: .fields([
                    "frame_ns": .int(engine.frameCost.nanoseconds), "commit_ns": .int(engine.commitCost.nanoseconds),
                    "gpu_ns": .int(engine.gpuCost.nanoseconds), "layout_ns": .int(phases.layout.nanoseconds),
                    "display_ns": .int(phases.display.nanoseconds), "prepare_ns": .int(phases.prepare.nanoseconds),
                    "render_prepare_ns": .int(phases.renderPrepare.nanoseconds),
                    "offscreen_passes": .int(Int64(phases.offscreenPasses)),
                    "offscreen_pass_ns": .int(phases.offscreenPass.nanoseconds),
                ]))
        case .frame: engine.frameCost = call[cost]
        case .layout: engine.layoutCost = call[cost]
        case .display: engine.displayCost = call[cost]
        case .prepare: engine.prepareCost = call[cost]
        case .commit: engine.commitCost = call[cost]
        case .renderPrepare: engine.renderPrepareCost = call[cost]
        case .gpu: engine.gpuCost = call[cost]
        case .offscreen:
            let count = call[passes]
            let each = call[passCost] ?? defaultPassCost
            // The passes together must stay a duration (S1's horizon).
            let (total, overflow) = each.nanoseconds.multipliedReportingOverflow(by: count)
            guard !overflow, total < SimTime.horizon.nanoseconds else {
                throw CommandError("load offscreen: \(count) passes of \(each) go past the 2^62 ns horizon (S1)")
            }
            engine.setOffscreen(passes: Int(count), each: each)
        case .off:
            engine.frameCost = .zero
            engine.commitCost = .zero
            engine.gpuCost = .zero
            engine.layoutCost = .zero
            engine.displayCost = .zero
            engine.prepareCost = .zero
            engine.renderPrepareCost = .zero
            engine.setOffscreen(passes: 0, each: .zero)
        }
        return .silent
    }
}

/// `animate`: the app's UI link ticks at every vsync for a while (A1).
struct AnimateCommand: BuiltInCommand {
    static let duration = ArgumentSpec.duration("duration", abstract: "How long.")
    static let range = OptionSpec.frameRateRange(
        "range",
        abstract:
            "The CAFrameRateRange the animation requests on an adaptive display, in Hz (V2).",
        defaultText: "the system default, 60 Hz")

    static let spec = CommandSpec(
        "animate", abstract: "The app animates: its UI link ticks at every vsync for this long (A1).",
        arguments: [duration],
        options: [range],
        examples: [
            Example("> animate 1s\n> run 1s\n> get render.presents\nrender.presents = 58"),
            Example(
                """
                > display adaptive
                > set app.high_frame_rates on
                > animate 1s --range 80,120,120
                > run 500ms
                > get clock.rate
                clock.rate = 120
                """),
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let d = try positive(call[duration], for: call.command, in: context)
        context.engine.animate(for: d, range: call[Self.range])
        let end = context.engine.now + d
        return CommandOutput(json: .fields(["until_ns": .int(end.nanoseconds)]))
    }

    /// A positive duration whose end is before the horizon (S1).
    static func positive(_ d: SimDuration, for command: String, in context: CommandContext) throws(CommandError)
        -> SimDuration
    {
        guard d > .zero else { throw CommandError("\(command) needs a positive duration") }
        _ = try context.simulation.later(by: d)
        return d
    }
}

/// `scroll`: tracking mode and an animation for a while (A1).
struct ScrollCommand: BuiltInCommand {
    static let duration = ArgumentSpec.duration("duration", abstract: "How long.")

    static let spec = CommandSpec(
        "scroll", abstract: "The user scrolls: tracking mode and an animation for this long (A1).",
        discussion:
            "On an adaptive display the scroll asks for the display's maximum (V2), and so do its frames until shown (V17). Its touch raises a display running slower at once, from the next vsync of its maximum's grid, without waiting for a refresh at the old rate (V15).",
        arguments: [duration],
        examples: [
            Example(
                "> scroll 1s\n> get clock.mode\nclock.mode = default\n> run 1ms\n> get clock.mode\nclock.mode = tracking"
            ),
            Example(
                """
                > display adaptive
                > run 1045ms
                > scroll 200ms
                > display
                adaptive 10–120 Hz, now 10 Hz (adaptive 10–120 Hz, now 120 Hz from 1.05s)
                """),
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let d = try AnimateCommand.positive(call[duration], for: call.command, in: context)
        context.engine.scroll(for: d)
        let end = context.engine.now + d
        return CommandOutput(json: .fields(["until_ns": .int(end.nanoseconds)]))
    }
}

/// `stall`: one main-queue block of a given cost.
struct StallCommand: BuiltInCommand {
    static let cost = ArgumentSpec.duration("duration", abstract: "The block's cost.")
    static let ui = OptionSpec.flag("ui", abstract: "The block changes the UI, so a commit follows.")

    static let spec = CommandSpec(
        "stall", abstract: "Enqueue one main-queue block of this cost: heavy work on the main thread.",
        discussion: "The queued blocks must end before the 2^62 ns horizon (S1).",
        arguments: [cost],
        options: [ui],
        examples: [Example("> stall 300ms\n> run 1s\n> get main.hangs\nmain.hangs = 1")])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let d = call[cost]
        let dirtiesUI = call[ui]
        try context.simulation.stall(d, dirtiesUI: dirtiesUI)
        return CommandOutput(json: .fields(["cost_ns": .int(d.nanoseconds), "ui": .bool(dirtiesUI)]))
    }
}
