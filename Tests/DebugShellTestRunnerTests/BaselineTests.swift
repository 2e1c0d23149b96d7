import DebugShell
import Testing

@testable import DebugShellTestRunner

/// Baselines (docs/Testing.md, "Baselines"): reading the file, which tolerance applies, what
/// moved, the table, and the text `--update-baseline` writes.
@Suite struct BaselineTests {
    static func baseline(_ text: String) throws -> Baseline {
        try Baseline(json: try MiniJSON.parse(Array(text.utf8)))
    }

    static let stored = """
        {"debugsh-baseline": 1,
         "tolerances": {"fps.hitch_ratio": "2%", "fps.frame_*": "1ms", "render.presents": "3", "fps.*": "0.5"},
         "files": {"a.dsh": {"render.presents": "60", "main.hangs": "2", "fps.frame_p95": "16.667ms",
                             "fps.value": "60", "fps.hitch_ratio": "100", "screen.state": "idle",
                             "old.metric": "1", "main.ratio": "0.5"}}}
        """

    @Test func readsTolerancesAndFilesInTheirOrder() throws {
        let baseline = try Self.baseline(
            #"{"files": {"b.dsh": {"x": "1", "n": 2.5, "on": true, "gone": null}, "a.dsh": {}}, "#
                + #""tolerances": {"z": "1", "a": "2%"}, "debugsh-baseline": 1, "extra": [1]}"#)
        #expect(baseline.tolerances.map { "\($0.0)=\($0.1)" } == ["z=1", "a=2%"])
        #expect(baseline.files.map(\.0) == ["b.dsh", "a.dsh"])
        // A value that is not a string is taken as its text: `none` for null, as `get` prints it.
        #expect(baseline.files[0].1.map { "\($0.0)=\($0.1)" } == ["x=1", "n=2.5", "on=true", "gone=none"])
        #expect(baseline.files[1].1.isEmpty)
    }

    @Test(arguments: [
        ("[]", "the top is not an object"),
        (#"{"tolerances": []}"#, "tolerances is not an object"),
        (#"{"tolerances": {"fps.*": 2}}"#, "the tolerance of 'fps.*' is not a string"),
        (#"{"files": "a.dsh"}"#, "files is not an object"),
        (#"{"files": {"a.dsh": ["fps.value"]}}"#, "the metrics of 'a.dsh' are not an object"),
    ])
    func refusesAFileOfAnotherShape(text: String, message: String) throws {
        let error = #expect(throws: MiniJSON.Failure.self) { try Self.baseline(text) }
        #expect(error?.message == message)
    }

    @Test func theExactNameWinsThenTheLongestGlobThenTheDefault() throws {
        let baseline = try Self.baseline(Self.stored)
        #expect(baseline.tolerance(for: "fps.hitch_ratio", type: "number") == "2%")
        #expect(baseline.tolerance(for: "fps.frame_p95", type: "duration") == "1ms")
        #expect(baseline.tolerance(for: "fps.value", type: "number") == "0.5")
        #expect(baseline.tolerance(for: "render.presents", type: "integer") == "3")
        // Without a declared one: decimal numbers within their last printed digit, the rest exact.
        #expect(baseline.tolerance(for: "main.ratio", type: "number") == "0.001")
        #expect(baseline.tolerance(for: "main.hangs", type: "integer") == nil)
        #expect(baseline.tolerance(for: "clock.now", type: "time") == nil)
        #expect(baseline.tolerance(for: "screen.state", type: "word") == nil)
    }

    static func describe(_ moves: [Baseline.Move]) -> [String] {
        moves.map { "\($0.metric): \($0.from) → \($0.to), \($0.delta), \($0.tolerance)" }
    }

    @Test func whatMovedBeyondItsTolerance() throws {
        let baseline = try Self.baseline(Self.stored)
        let moves = baseline.compare(
            "a.dsh",
            [
                ("render.presents", "integer", "62"),  // 2, within 3
                ("main.hangs", "integer", "3"),  // exact
                ("fps.frame_p95", "duration", "17.5ms"),  // 0.833ms, within 1ms
                ("fps.value", "number", "59.6"),  // 0.4, within 0.5
                ("fps.hitch_ratio", "number", "103"),  // 3%, beyond 2%
                ("screen.state", "word", "busy"),
                ("main.ratio", "number", "0.501"),  // within the default 0.001
                ("new.metric", "integer", "7"),  // not stored: not compared
            ])
        #expect(
            Self.describe(moves) == [
                "main.hangs: 2 → 3, +1 (+50%), exact",
                "fps.hitch_ratio: 100 → 103, +3 (+3%), 2%",
                "screen.state: idle → busy, -, exact",
                "old.metric: 1 → (gone), -, -",
            ])
    }

    @Test func deltasHaveTheirSignTheirUnitAndAPercentage() throws {
        let baseline = try Self.baseline(
            #"{"files": {"a.dsh": {"frame": "16.667ms", "ratio": "0.5", "zero": "0", "count": "-4"}}}"#)
        let moves = baseline.compare(
            "a.dsh",
            [
                ("frame", "duration", "15ms"), ("ratio", "number", "0.502"), ("zero", "number", "0.002"),
                ("count", "integer", "-6"),
            ])
        #expect(
            Self.describe(moves) == [
                "frame: 16.667ms → 15ms, -1.667ms (-10.002%), exact",
                "ratio: 0.5 → 0.502, +0.002 (+0.4%), 0.001",
                // From zero there is no percentage.
                "zero: 0 → 0.002, +0.002, 0.001",
                "count: -4 → -6, -2 (-50%), exact",
            ])
    }

    @Test func theDefaultToleranceIsInclusive() throws {
        let baseline = try Self.baseline(#"{"files": {"a.dsh": {"r": "0", "s": "59.999"}}}"#)
        #expect(baseline.compare("a.dsh", [("r", "number", "0.001"), ("s", "number", "60")]).isEmpty)
        #expect(
            Self.describe(baseline.compare("a.dsh", [("r", "number", "-0.002"), ("s", "number", "60")])) == [
                "r: 0 → -0.002, -0.002, 0.001"
            ])
    }

    /// A tolerance that is not a tolerance is refused when the baseline is read (it used to read
    /// as exact, silently); a stored value that is not a number moves, with no delta.
    @Test func badValuesMoveRatherThanPass() throws {
        for bad in ["lots", "x%", "-2%", "-1ms", "nan", "inf%", ""] {
            #expect(throws: MiniJSON.Failure.self, "\(bad)") {
                try Self.baseline(#"{"tolerances": {"hangs": ""# + bad + #""}, "files": {}}"#)
            }
        }
        for good in ["2%", "0.01", "3", "1ms", "0"] {
            #expect(throws: Never.self, "\(good)") {
                try Self.baseline(#"{"tolerances": {"hangs": ""# + good + #""}, "files": {}}"#)
            }
        }
        let baseline = try Self.baseline(#"{"files": {"a.dsh": {"hangs": "2", "n": "n/a", "x": "1e999"}}}"#)
        let moves = baseline.compare("a.dsh", [("hangs", "integer", "3"), ("n", "integer", "3"), ("x", "number", "1")])
        #expect(
            Self.describe(moves) == [
                "hangs: 2 → 3, +1 (+50%), exact",
                "n: n/a → 3, -, exact",
                "x: 1e999 → 1, -, 0.001",
            ])
    }

    @Test func aFileWithNoEntryIsNotCompared() throws {
        let baseline = try Self.baseline(Self.stored)
        #expect(baseline.compare("b.dsh", [("main.hangs", "integer", "9")]).isEmpty)
        #expect(baseline.compare("a.dsh", []).count == 8)
    }

    @Test func percentagesAreOfTheStoredValue() {
        #expect(Baseline.within(2, of: 100, tolerance: "2%", type: "number"))
        #expect(!Baseline.within(2.5, of: 100, tolerance: "2%", type: "number"))
        #expect(Baseline.within(-2, of: -100, tolerance: "2%", type: "number"))
        #expect(Baseline.within(1_000_000, of: 5e9, tolerance: "1ms", type: "duration"))
        #expect(!Baseline.within(1_000_001, of: 5e9, tolerance: "1ms", type: "duration"))
        #expect(!Baseline.within(0, of: 1, tolerance: "1 ms", type: "duration"))
    }

    @Test func magnitudesReadDurationsAndTimesInNanoseconds() {
        #expect(Baseline.magnitude("1.5s", type: "time") == 1.5e9)
        #expect(Baseline.magnitude("250us", type: "duration") == 250_000)
        #expect(Baseline.magnitude("12", type: "integer") == 12)
        #expect(Baseline.magnitude("0.25", type: "number") == 0.25)
        #expect(Baseline.magnitude("idle", type: "word") == nil)
        #expect(Baseline.magnitude("soon", type: "duration") == nil)
        #expect(Baseline.format(-1_500_000, type: "duration", sign: true) == "-1.5ms")
        #expect(Baseline.format(0, type: "duration", sign: true) == "+0s")
        #expect(Baseline.format(2.6, type: "integer", sign: false) == "3")
        #expect(Baseline.format(1.0 / 3.0, type: "number", sign: true) == "+0.333")
    }

    @Test func theTableLinesUpItsColumns() {
        var moved = result("scenarios/a.dsh", .failed)
        moved.moved = [
            Baseline.Move(metric: "main.hangs", from: "2", to: "3", delta: "+1 (+50%)", tolerance: "exact"),
            Baseline.Move(metric: "fps.hitch_ratio", from: "100", to: "103", delta: "+3 (+3%)", tolerance: "2%"),
        ]
        #expect(
            Baseline.table(moved) == """
                  scenarios/a.dsh
                    metric           from   to   Δ          tolerance
                    main.hangs       2    → 3    +1 (+50%)  exact
                    fps.hitch_ratio  100  → 103  +3 (+3%)   2%

                """)
    }

    @Test func theTextIsStable() throws {
        #expect(
            Baseline().serialized == """
                {
                  "debugsh-baseline": 1,
                  "tolerances": {},
                  "files": {}
                }

                """)
        var baseline = Baseline()
        baseline.tolerances = [("fps.*", "2%"), ("q\"uote", "1")]
        baseline.files = [("a.dsh", [("clock.now", "3s"), ("fps.value", "60")]), ("b.dsh", [("x", "a\nb")])]
        let text = baseline.serialized
        #expect(
            text == """
                {
                  "debugsh-baseline": 1,
                  "tolerances": {
                    "fps.*": "2%",
                    "q\\"uote": "1"
                  },
                  "files": {
                    "a.dsh": {
                      "clock.now": "3s",
                      "fps.value": "60"
                    },
                    "b.dsh": {
                      "x": "a\\nb"
                    }
                  }
                }

                """)
        // It reads back as what wrote it.
        let back = try Self.baseline(text)
        #expect(back.serialized == text)
        #expect(back.files[1].1[0].1 == "a\nb")
    }

    /// `--update-baseline`: the files that ran to their end, with metrics; the others' entries
    /// and the tolerances kept; keys in byte order.
    @Test func updateStoresWhatRanAndKeepsTheRest() throws {
        try withScratchFolder { folder in
            let path = folder + "/baseline.json"
            try write(
                #"{"debugsh-baseline": 1, "tolerances": {"fps.*": "2%"}, "#
                    + #""files": {"z.dsh": {"k": "1"}, "a.dsh": {"k": "old"}}}"#, to: path)
            let results = [
                result("dir/a.dsh", .passed, metrics: [("k", "integer", "2")], key: "a.dsh"),
                result("m.dsh", .failed, metrics: [("k", "integer", "3")]),
                result("B.dsh", .passed, metrics: [("k", "word", "up"), ("j", "integer", "4")]),
                result("e.dsh", .error, metrics: [("k", "integer", "5")]),
                result("s.dsh", .skipped),
                result("n.dsh", .passed),
            ]
            #expect(try Baseline.update(path, with: results) == 3)
            #expect(
                try read(path) == """
                    {
                      "debugsh-baseline": 1,
                      "tolerances": {
                        "fps.*": "2%"
                      },
                      "files": {
                        "B.dsh": {
                          "k": "up",
                          "j": "4"
                        },
                        "a.dsh": {
                          "k": "2"
                        },
                        "m.dsh": {
                          "k": "3"
                        },
                        "z.dsh": {
                          "k": "1"
                        }
                      }
                    }

                    """)
        }
    }

    @Test func updateRefusesAFileThatIsNotABaseline() throws {
        try withScratchFolder { folder in
            let path = folder + "/baseline.json"
            try write("[1, 2]", to: path)
            let error = #expect(throws: FileIO.Failure.self) {
                try Baseline.update(path, with: [result("a.dsh", .passed, metrics: [("k", "integer", "1")])])
            }
            #expect(error?.message == "'\(path)' is not a debugsh baseline: the top is not an object")
            #expect(try read(path) == "[1, 2]")
        }
    }

    @Test func loadSaysWhatIsWrongWithTheFile() throws {
        try withScratchFolder { folder in
            let missing = folder + "/none.json"
            let error = #expect(throws: TestFiles.UsageError.self) { try Baseline.load(missing) }
            #expect(error?.message == "--baseline: cannot open '\(missing)': No such file or directory")
            let bad = folder + "/bad.json"
            try write(#"{"files": {"a.dsh": {"k": "1"}"#, to: bad)
            let badError = #expect(throws: TestFiles.UsageError.self) { try Baseline.load(bad) }
            #expect(badError?.message == "--baseline: '\(bad)' is not a debugsh baseline: unexpected end")
            let good = folder + "/good.json"
            try write(#"{"files": {"a.dsh": {"k": "1"}}}"#, to: good)
            #expect(try Baseline.load(good).files.map(\.0) == ["a.dsh"])
        }
    }
}

/// The little JSON reader behind baselines: objects keep their order, strings their escapes.
@Suite struct MiniJSONTests {
    static func parse(_ text: String) throws -> MiniJSON.Value {
        try MiniJSON.parse(Array(text.utf8))
    }

    @Test func keepsTheOrderOfKeys() throws {
        guard case .object(let pairs) = try Self.parse(#" { "b": 1, "a": [true, null, "x"], "c": {} } "#) else {
            Issue.record("not an object")
            return
        }
        #expect(pairs.map(\.0) == ["b", "a", "c"])
        guard case .array(let items) = pairs[1].1 else {
            Issue.record("not an array")
            return
        }
        #expect(items.map(\.text) == ["true", "none", "x"])
        #expect(pairs[2].1.text == "?")
    }

    @Test func readsEscapes() throws {
        let value = try Self.parse(#""tab\tline\nq\"back\\slash\/ \u00e9 \ud83d\ude00 \ud83d""#)
        #expect(value.text == "tab\tline\nq\"back\\slash/ é 😀 \u{FFFD}")
    }

    @Test(arguments: [
        ("", "unexpected end"),
        ("{} x", "text after the end at byte 3"),
        (#"{"a" 1}"#, "':' expected at byte 5"),
        (#"{"a": 1 "b": 2}"#, "',' or '}' expected at byte 8"),
        ("[1 2]", "',' or ']' expected at byte 3"),
        ("{1: 2}", "a key expected at byte 1"),
        (#""open"#, "a string that does not end"),
        (#""\u12""#, "a bad \\u escape at byte 3"),
        ("nope", "'nope' at byte 0 is not a value"),
        ("[1,", "unexpected end"),
    ])
    func saysWhereItFailed(text: String, message: String) {
        let error = #expect(throws: MiniJSON.Failure.self) { try Self.parse(text) }
        #expect(error?.message == message)
    }
}
