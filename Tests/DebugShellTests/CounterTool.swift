import DebugShellCore

/// A tiny tool that exercises the plugin API in tests: commands with verbs, options and
/// arguments, metrics, a setting, an event, a status line, completion names and a display link.
final class CounterTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "counter", abstract: "Counts things, to test the plugin API.",
        commands: [
            CommandSpec(
                "counter", aliases: ["ctr"], abstract: "Count things.",
                verbs: [
                    VerbSpec(
                        "add", abstract: "Add to the count.",
                        arguments: [amount], options: [label],
                        examples: [Example("> counter add 2 --label two\n> get counter.total\ncounter.total = 2")]),
                    VerbSpec("show", abstract: "Show the count.", examples: [Example("> counter\ncount 0")]),
                    VerbSpec(
                        "tick", abstract: "Count vsync callbacks of a display link; emit an event at a target.",
                        options: [until, mode],
                        examples: [Example("> counter tick --until 3\n> run 100ms\n[0.033s] counter: reached 3 ticks")]),
                ], defaultVerb: "show")
        ],
        metrics: [
            MetricSpec("counter.total", .integer, abstract: "The count."),
            MetricSpec("counter.last", .anyWord, abstract: "The last label."),
            MetricSpec("counter.*.hits", .integer, abstract: "Adds with that label."),
        ],
        settings: [step],
        events: [EventSpec("counter.reached", abstract: "The tick count reached its target.")])

    static let amount = ArgumentSpec.integer("amount", in: 0...1000, abstract: "How much.")
    static let label = OptionSpec.name("label", NameDomain("counter-label"), abstract: "A label for this add.")
    static let until = OptionSpec.integer(
        "until", in: 1...1_000_000, abstract: "Emit counter.reached at this many callbacks.", default: 10)
    static let mode = OptionSpec.choice(
        "mode", among: [RunLoopMode.common, .default, .tracking], abstract: "The link's mode.", default: .common)
    static let step = SettingSpec.integer("counter.step", in: 1...10, abstract: "Added per tick.", default: 1)

    let host: any ToolHost
    var total: Int64 = 0
    var labels: [String: Int64] = [:]
    var last: String?

    init(host: any ToolHost) { self.host = host }

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch invocation.verb {
        case "add":
            total += invocation[Self.amount]
            if let label = invocation[Self.label] {
                labels[label, default: 0] += 1
                last = label
            }
            return CommandOutput(json: .fields(["total": .int(self.total)]))
        case "tick":
            let target = invocation[Self.until]
            let mode = invocation[Self.mode]
            var ticks: Int64 = 0
            _ = host.device.addDisplayLink(DisplayLinkConfig(mode: mode, owner: .tool("counter"), label: "counter")) {
                [unowned self] callback in
                ticks += 1
                total += host.setting(Self.step)
                if ticks == target {
                    host.emit(
                        ToolEvent(name: "counter.reached", time: callback.start, message: "reached \(ticks) ticks"))
                }
                return .zero
            }
            return .silent
        default:
            return CommandOutput(text: "count \(total)", json: .fields(["total": .int(self.total)]))
        }
    }

    func metric(_ name: String) -> MetricValue? {
        switch name {
        case "counter.total": return .integer(total)
        case "counter.last": return last.map { .word($0) } ?? MetricValue.none
        default:
            let parts = name.split(separator: ".")
            if parts.count == 3, parts[2] == "hits", let n = labels[String(parts[1])] { return .integer(n) }
            return nil
        }
    }

    func metricNames() -> [String] {
        ["counter.total", "counter.last"] + labels.keys.sorted().map { "counter.\($0).hits" }
    }

    func statusLine() -> StyledText? { StyledText([("counter ", .bold), ("\(total)", .plain)]) }

    func candidates(for domain: NameDomain) -> [String] {
        domain.rawValue == "counter-label" ? labels.keys.sorted() : []
    }
}
