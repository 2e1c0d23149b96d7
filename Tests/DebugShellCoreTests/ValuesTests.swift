import DebugShellCore
import Testing

@Suite struct FormattingTests {
    /// One exact format for durations and times: the largest unit in which the value is at least
    /// 1, every digit it needs, no trailing zeros — and what it prints parses back to itself.
    @Test(
        arguments: [
            (516_666_666, "516.666666ms"), (500_000_000, "500ms"), (0, "0s"), (2_000_000_000, "2s"), (1, "1ns"),
            (16_666_667, "16.666667ms"), (-1_500_000_000, "-1.5s"), (Int64(1) << 62, "4611686018.427387904s"),
            (20_000_000, "20ms"), (1_000, "1µs"), (12_500, "12.5µs"), (999, "999ns"), (999_999_999, "999.999999ms"),
            (1_000_000_001, "1.000000001s"), (-250, "-250ns"), (1_016_666_667, "1.016666667s"),
        ] as [(Int64, String)])
    func durationsAndTimesAreExactInTheirLargestUnit(_ ns: Int64, _ text: String) {
        #expect(SimDuration(nanoseconds: ns).description == text)
        #expect(SimTime(nanoseconds: ns).description == text)
        #expect(SimFormat.exact(ns) == text)
    }

    @Test func eventStampsHaveThreeDecimals() {
        #expect(SimTime(nanoseconds: 500_000_000).eventStamp == "0.500s")
        #expect(SimTime(nanoseconds: 16_666_667).eventStamp == "0.017s")
        #expect(SimTime(nanoseconds: 1_999_500_000).eventStamp == "2.000s")
        #expect(SimTime.zero.eventStamp == "0.000s")
        #expect(SimDuration(nanoseconds: 16_666_667).millisecondsDescription == "16.667ms")
    }

    @Test func numbersRoundHalfAwayFromZeroToThousandths() {
        #expect(MetricNumber(numerator: 1_483_333_333 * 1000, denominator: 3_000_000_000).description == "494.444")
        #expect(MetricNumber(numerator: 1, denominator: 2000).thousandths == 1)  // 0.0005 → 0.001
        #expect(MetricNumber(numerator: -1, denominator: 2000).thousandths == -1)
        #expect(MetricNumber(numerator: 3, denominator: 10).description == "0.3")
        #expect(MetricNumber(60).description == "60")
        #expect(MetricNumber(numerator: 2, denominator: -3).description == "-0.667")
    }

    @Test func metricValuesPrintAsGetShowsThem() {
        #expect(MetricValue.integer(54).text == "54")
        #expect(MetricValue.duration(.milliseconds(50)).text == "50ms")
        #expect(MetricValue.time(SimTime(nanoseconds: 1_250_000_000)).text == "1.25s")
        #expect(MetricValue.none.text == "none")
        #expect(MetricValue.time(SimTime(nanoseconds: 7)).json == .int(7))
        #expect(MetricValue.none.json == .null)
    }

    @Test func timeArithmeticSaturatesAndAddingChecksTheHorizon() throws {
        #expect((SimTime.never + .seconds(1)) == .never)
        #expect(throws: RangeError.self) { try SimTime.horizon.adding(SimDuration(nanoseconds: 1)) }
        #expect(try SimTime.zero.adding(.seconds(3)) == SimTime(nanoseconds: 3_000_000_000))
        #expect(throws: RangeError.self) { try SimTime(nanoseconds: Int64.max - 1).adding(.seconds(1)) }
    }

    @Test func frames() {
        #expect(FrameRect(x: 0, y: 0.5, width: 390, height: 844).description == "0,0.5,390,844")
    }
}

@Suite struct DeclarationTests {
    @Test func metricFamiliesMatchNamesWithDots() {
        let family = MetricSpec("timer.*.fires", .integer, abstract: "x")
        #expect(family.matches("timer.poll.fires"))
        #expect(family.matches("timer.a.b.fires"))
        #expect(!family.matches("timer.fires"))
        #expect(!family.matches("timer.poll.skipped"))
        #expect(MetricSpec("fps.value", .integer, abstract: "x").matches("fps.value"))
    }

    @Test func examplesSplitIntoSteps() {
        let example = Example("> a\none\ntwo\n> b\n> c\nthree")
        #expect(example.steps.map(\.command) == ["a", "b", "c"])
        #expect(example.steps.map(\.output) == [["one", "two"], [], ["three"]])
    }

    @Test func usageText() {
        #expect(ArgumentSpec("name", .name(NameDomain("view")), abstract: "x").usage == "<name>")
        #expect(ArgumentSpec("words", .word, abstract: "x", optional: true, rest: true).usage == "[<words…>]")
        #expect(OptionSpec("mode", .choice(["a", "b"]), abstract: "x").usage == "--mode a|b")
        #expect(OptionSpec("ui", abstract: "x").usage == "--ui")
    }

    @Test func runLoopModesIncludeCommon() {
        #expect(RunLoopMode.common.includes(.tracking) && RunLoopMode.common.includes(.default))
        #expect(!RunLoopMode.default.includes(.tracking))
    }
}

@Suite struct OutputTests {
    @Test func jsonIsDeterministicAndEscaped() {
        let value = JSONValue.fields([
            "s": "a\"b\\c\nd\u{1}", "n": .number(MetricNumber(thousandths: 494_444)), "i": -3, "b": true, "z": .null,
            "a": .array([1, "x"]),
        ])
        #expect(
            value.serialized
                == #"{"s": "a\"b\\c\nd\u0001", "n": 494.444, "i": -3, "b": true, "z": null, "a": [1, "x"]}"#)
    }

    @Test func eventsRenderAsTextAndJSON() {
        let event = ToolEvent(
            name: "layout.settled", time: SimTime(nanoseconds: 500_000_000), message: "settled (window, 2 views)",
            fields: [("views", 2)])
        #expect(event.text == "[0.500s] layout: settled (window, 2 views)")
        #expect(
            event.json.serialized
                == #"{"event": "layout.settled", "t_ns": 500000000, "message": "settled (window, 2 views)", "views": 2}"#
        )
    }

    @Test func hueColoursMatchUIColor() {
        #expect(RGB.hue(0) == RGB(255, 0, 0))
        #expect(RGB.hue(1.0 / 3) == RGB(0, 255, 0))
        #expect(RGB.hue(0.5) == RGB(0, 255, 255))
        #expect(StyledText([("fps ", .bold), ("58", .color(RGB(0, 255, 0)))]).plain == "fps 58")
    }

    /// Numbers print as input takes them: decimals, never an exponent (issue 15).
    @Test(arguments: [
        (390.0, "390"), (0.5, "0.5"), (12.25, "12.25"), (1e20, "100000000000000000000"),
        (-2.5e16, "-25000000000000000"), (1.5e-7, "0.00000015"), (1e15, "1000000000000000"),
        (123456789012345.6, "123456789012345.6"),
    ])
    func framesFormatWithoutExponents(_ value: Double, _ text: String) {
        #expect(FrameRect.format(value) == text)
    }
}
