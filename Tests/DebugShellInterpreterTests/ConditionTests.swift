import DebugShellCore
import Testing

@testable import DebugShellInterpreter

@Suite struct ConditionTests {
    let types: [String: MetricType] = ["i": .integer, "n": .number, "d": .duration, "t": .time, "w": .word]

    func condition(_ text: String) throws -> Condition {
        let words = try #require(Lexer.lex(text).commands.first?.words)
        return try Condition.parse(words, rate: 60) { name throws(CommandError) in
            guard let t = types[name] else { throw CommandError("unknown metric '\(name)'") }
            return t
        }
    }

    func holds(_ text: String, _ values: [String: MetricValue]) throws -> Bool {
        try condition(text).evaluate { values[$0] ?? .none }.holds
    }

    @Test func andBindsTighterThanOr() throws {
        let v: [String: MetricValue] = ["i": .integer(1), "w": .word("x")]
        #expect(try holds("i == 2 and w == y or i == 1", v))
        #expect(try holds("i == 1 or i == 2 and w == y", v))
        #expect(try !holds("i == 2 or i == 3 and w == x", v))
    }

    /// `± t` and `+- t`: `==` holds within the tolerance, inclusive, `!=` outside it.
    @Test func tolerancesBoundEqualityBothWays() throws {
        let v: [String: MetricValue] = [
            "t": .time(SimTime(nanoseconds: 616_666_666)), "d": .duration(.milliseconds(20)), "i": .integer(60),
            "n": .number(MetricNumber(thousandths: 494_444)),
        ]
        #expect(try holds("t == 0.617s ± 1ms", v))
        #expect(try holds("t==0.617s±1ms", v))
        #expect(try holds("t == 0.617s +- 333334ns and t != 0.617s +- 333333ns", v))
        #expect(try !holds("t == 0.617s ± 0.1ms", v))
        #expect(try holds("d == 21ms ± 1ms and d != 22ms ± 1ms", v))
        #expect(try holds("i == 58 ± 2 and i != 57 ± 2", v))
        #expect(try holds("n == 494.4 ± 0.044 and n != 494.4 ± 0.0439", v))
        // Numbers too long to scale are near nothing, and nothing traps.
        #expect(try !holds("n == 99999999999999999999999999 ± 0.000000000000000001", v))
        #expect(try holds("n != 99999999999999999999999999 ± 0.000000000000000001", v))
        #expect(try holds("i == 9223372036854775807 ± 9223372036854775807", v))
        for bad in ["w == x ± 1", "i < 3 ± 1", "i == none ± 1", "i == 3 ±", "d == 1ms ± -1ms", "d == 1ms ± 1"] {
            #expect(throws: CommandError.self, "\(bad)") { try condition(bad) }
        }
    }

    @Test func operatorsMayBeGlued() throws {
        #expect(try holds("i>=1", ["i": .integer(1)]))
        #expect(try holds("i!=2 and i<2", ["i": .integer(1)]))
    }

    @Test func valuesAreTyped() throws {
        #expect(try holds("n == 494.444", ["n": .number(MetricNumber(thousandths: 494_444))]))
        #expect(try holds("n > 494.4439", ["n": .number(MetricNumber(thousandths: 494_444))]))
        #expect(
            try holds(
                "d == 30f and t == 0.5s",
                ["d": .duration(.milliseconds(500)), "t": .time(SimTime(nanoseconds: 500_000_000))]))
        #expect(throws: CommandError.self) { try condition("i == 1s") }
        #expect(throws: CommandError.self) { try condition("d == 5") }
        #expect(throws: CommandError.self) { try condition("w < x") }
        #expect(throws: CommandError.self) { try condition("nope == 1") }
        #expect(throws: CommandError.self) { try condition("i ==") }
        #expect(throws: CommandError.self) { try condition("i == 1 i == 2") }
    }

    @Test func noneIsAValueAndAMissingValueFails() throws {
        #expect(try holds("i == none", [:]))
        #expect(try !holds("i != none", [:]))
        let c = try condition("i == 1 or w == x")
        let r = c.evaluate { $0 == "w" ? .word("x") : .none }
        #expect(r.holds)
        let r2 = try condition("i > 0").evaluate { _ in .none }
        #expect(!r2.holds && r2.missing == "i")
    }
}
