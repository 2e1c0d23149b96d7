import DebugShellCore
import Testing

@testable import FPSMeterTool

/// Issue 30: the meter declares its verbs as an enum (`FPSMeter.Verb`, ``ToolVerbs``) and `run`
/// switches over it, so a declared verb without behaviour does not compile.
@Suite struct FPSVerbEnumTests {
    /// The descriptor's verbs are the enum's, in its order, each named as its case's raw value,
    /// and each name reads back as its case.
    @Test func theVerbsAreTheEnumsAndRoundTrip() throws {
        let command = try #require(FPSMeter.descriptor.commands.first)
        #expect(FPSMeter.descriptor.commands.map(\.name) == ["fps"])
        #expect(command.verbs.map(\.name) == FPSMeter.Verb.allCases.map(\.rawValue))
        #expect(
            command.verbs.map(\.name) == [
                "show", "start", "stop", "reset", "frames", "hitches", "history", "plot", "compare", "tiers",
                "autohide",
                "watch",
            ])
        #expect(command.defaultVerb == FPSMeter.Verb.show.rawValue)
        for verb in FPSMeter.Verb.allCases {
            #expect(verb.declaration.name == verb.rawValue)
            let invocation = Invocation(command: "fps", verb: verb.rawValue, text: "", values: [:], flags: [])
            #expect(try invocation.verb(FPSMeter.Verb.self) == verb)
        }
    }

    /// An invocation built by hand with a verb the meter does not declare is refused, not run as
    /// `fps show` (the old string switch's fallback).
    @Test func anUndeclaredVerbIsRefused() throws {
        let meter = try meterSession("").meter
        let invocation = Invocation(command: "fps", verb: "launch", text: "fps launch", values: [:], flags: [])
        do {
            _ = try meter.run(invocation)
            Issue.record("'fps launch' ran")
        } catch {
            #expect(error.message == "'fps' has no verb 'launch'")
        }
    }

    /// `--range` is a typed range: the meter's link requests what was given.
    @Test func theRangeArrivesParsed() throws {
        let run = try meterSession("display adaptive\nset app.high_frame_rates on\nfps start --range 80,120,120")
        #expect(try run.meter.configuration.range == FrameRateRange(minimum: 80, maximum: 120, preferred: 120))
        #expect(
            run.output("fps start --range 200,10") == "error: frame rate range: minimum 200 Hz is above maximum 10 Hz\n"
        )
    }
}
