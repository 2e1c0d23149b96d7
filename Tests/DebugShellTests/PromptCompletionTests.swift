import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellInterpreter

/// A tool with a chart, as the FPS meter's and the timer inspector's: `chart plot [<file>]`.
final class ChartTool: DebugTool {
    static let file = ArgumentSpec.optional(
        "file", .path, abstract: "Write the chart to this SVG file instead.", as: String.self)
    static let scale = SettingSpec(
        "chart.scale", .choice(["linear", "log"]), default: "linear", abstract: "The scale.")
    static let descriptor = ToolDescriptor(
        name: "chart", abstract: "Charts, to test completion.",
        commands: [
            CommandSpec(
                "chart", abstract: "Chart things.",
                verbs: [
                    VerbSpec("plot", abstract: "Plot.", arguments: [file], examples: [Example("> chart plot")])
                ], defaultVerb: "plot")
        ],
        metrics: [MetricSpec("chart.points", .integer, abstract: "Points.")],
        settings: [scale])

    init(host: any ToolHost) {}
    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput { .silent }
    func metric(_ name: String) -> MetricValue? { .integer(0) }
}

/// Completion at the prompt (issue 23): a setting's values after `settings set <name>` (and
/// after `=`), metric names after `metrics`, and only charts and folders after `plot`.
@Suite struct PromptCompletionTests {
    @Test func settingValuesAfterSettingsSetAndAfterEquals() throws {
        let session = try Session(tools: [ChartTool.self], sink: MemorySink())
        #expect(session.complete("settings set chart.scale ").candidates == ["linear", "log"])
        #expect(session.complete("settings set chart.scale l").candidates == ["linear", "log"])
        #expect(session.complete("settings set chart.scale = ").candidates == ["linear", "log"])
        #expect(session.complete("set chart.scale = lo").candidates == ["log"])
        #expect(session.complete("set runloop.coalescing ").candidates == ["on", "off"])
        #expect(session.complete("settings set runloop.coalescing o").candidates == ["on", "off"])
        #expect(session.complete("settings set chart.scale log ").candidates == [])
        #expect(session.complete("settings clear chart.").candidates == ["chart.scale"])
    }

    @Test func metricNamesAfterMetrics() throws {
        let session = try Session(tools: [ChartTool.self], sink: MemorySink())
        #expect(session.complete("metrics chart.").candidates == ["chart.points"])
        #expect(session.complete("metrics clock.n").candidates == ["clock.now"])
    }

    @Test func plotOffersChartsAndFoldersOnly() throws {
        let session = try Session(tools: [ChartTool.self], sink: MemorySink())
        let plot = session.complete("chart plot ")
        #expect(plot.filePaths && plot.fileExtensions == ["svg"])
        #expect(plot.offers(file: "frames.svg", isDirectory: false))
        #expect(plot.offers(file: "OUT.SVG", isDirectory: false))
        #expect(plot.offers(file: "charts", isDirectory: true))
        #expect(!plot.offers(file: "tour.dsh", isDirectory: false))
        #expect(!plot.offers(file: ".svg", isDirectory: false))
        // `source` takes any file.
        let source = session.complete("source ")
        #expect(source.filePaths && source.fileExtensions.isEmpty)
        #expect(source.offers(file: "tour.dsh", isDirectory: false))
    }

    @Test func lldbCommandFamilyAndExamplesComplete() throws {
        let session = try Session(tools: [], sink: MemorySink())
        #expect(session.complete("command ").candidates == ["alias", "unalias", "source", "history"])
        #expect(session.complete("example to").candidates == ["tour"])
    }
}
