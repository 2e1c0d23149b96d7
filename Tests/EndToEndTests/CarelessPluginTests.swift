import DebugShellTesting
import Foundation
import Testing

/// The host's checks of what a plugin hands it (docs/Plugins.md, "What the host checks"), on
/// the built binary with a plugin that misbehaves on demand: Tests/Fixtures/CarelessPlugin,
/// built once per test run in a temporary folder against this checkout.
@Suite(.serialized) struct CarelessPluginTests {
    func library() throws -> String { try CarelessPlugin.library.get() }

    /// An empty config folder, so that no plugin of the machine's loads by itself.
    let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// Runs `commands` as `-c` arguments with the careless plugin loaded, going on after errors.
    func run(_ commands: [String], json: Bool = false) throws -> Binary.Run {
        try Binary.run(
            (json ? ["--json"] : []) + ["-k", "--plugin", try library()] + commands.flatMap { ["-c", $0] },
            environment: isolated)
    }

    /// Nothing but text, newlines and tabs: no CR, ESC, BEL, NUL or any other control character.
    func expectNoControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F..<0xA0).contains($0.value)
        }
        #expect(raw.isEmpty, "raw controls \(raw.map { $0.value }) in \(text)", sourceLocation: sourceLocation)
    }

    /// A word metric's words (issue 24): a word outside them is refused naming the tool, and a
    /// condition with a word the metric cannot take fails naming the words, before reading it.
    @Test func wordsOutsideTheDeclaredOnesAreRefused() throws {
        let r = try run(["get careless.tone", "expect careless.tone == calm", "expect careless.tone != lowd"])
        let refused =
            "tool 'careless' answered metric 'careless.tone' with 'shouty', which is not one of its words: calm, loud"
        #expect(r.stdout == "", "\(r)")
        #expect(
            r.stderr == """
                <command-line>:1: error: \(refused)
                <command-line>:2: error: \(refused)
                <command-line>:3: error: 'lowd' is not a value of careless.tone; it is one of calm, loud (did you mean 'loud'?)

                """, "\(r)")
        #expect(r.status == 1)
    }

    /// Events: only the tool's declared ones, stamped now; an event in another tool's name, in
    /// the future or never declared is dropped with a warning that names the tool, once.
    @Test func eventsAreItsOwnAndNow() throws {
        let r = try run([
            "careless emit-foreign", "careless emit-foreign", "careless emit-future", "careless emit-undeclared",
            "run 10ms", "careless emit",
        ])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "[0.010s] careless: a good event\n", "\(r)")
        #expect(
            r.stderr == """
                warning: tool 'careless' emitted an event 'fps.hitch' outside its namespace; dropped
                warning: tool 'careless' emitted the event 'careless.said' stamped 1s at 0s (events are stamped now); dropped
                warning: tool 'careless' emitted an event 'careless.secret' it does not declare; dropped

                """, "\(r)")
    }

    /// Settings: only its own, only with a value of the declared kind. A choice arrives through
    /// the string-keyed `setting(_:)` as the word of its case; the typed key reads the case.
    @Test func settingsAreItsOwnAndTyped() throws {
        let r = try run([
            "careless set-foreign", "settings show fps.autohide", "careless set-wrong-type", "careless",
            "careless set-good", "careless",
        ])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                fps.autohide = off
                count 0, limit 5, mode quiet (as a value: word quiet)
                count 0, limit 7, mode loud (as a value: word loud)

                """, "\(r)")
        #expect(
            r.stderr == """
                warning: tool 'careless' set the setting 'fps.autohide', which is not its own; dropped
                warning: tool 'careless' set its setting 'careless.limit' to the word 'lots', but it declares an integer in 1…10; dropped

                """, "\(r)")
    }

    /// Metrics: a declared one answered nil is `none`; one of another type than declared is
    /// refused, by `get`, `expect` and `metrics`; a name never declared is not shown.
    @Test func metricsAreChecked() throws {
        let refused = "tool 'careless' answered metric 'careless.kind' with a duration, but it declares an integer"
        let r = try run([
            "get careless.nil", "expect careless.nil == none", "get careless.kind", "expect careless.kind == 5ms",
            "expect careless.kind == 5", "metrics careless", "get careless.ghost", "metrics fps.v",
        ])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout == """
                careless.nil = none
                careless.count = 0
                careless.nil = none
                careless.kind = none
                careless.word = esc\\x1b[2Jbell\\x07
                fps.value = none

                """, "\(r)")
        #expect(
            r.stderr == """
                <command-line>:3: error: \(refused)
                <command-line>:4: error: \(refused)
                <command-line>:5: error: \(refused)
                <command-line>:6: warning: tool 'careless' lists the metric 'careless.ghost' but does not declare it; not shown
                <command-line>:6: warning: \(refused)
                <command-line>:7: error: unknown metric 'careless.ghost': tool 'careless' lists it but does not declare it
                <command-line>:8: warning: tool 'careless' lists the metric 'fps.value' but does not declare it; not shown

                """, "\(r)")
    }

    /// Text: CR, ESC, BEL, NUL and the other controls never reach the terminal raw — not in a
    /// command's text, an event, a metric's word, an error or `status`. JSON carries the text
    /// as it is, escaped the JSON way.
    @Test func controlCharactersNeverReachTheTerminal() throws {
        let r = try run([
            "careless print-controls", "careless emit-controls", "get careless.word", "careless fail-controls",
            "status",
        ])
        #expect(r.status == 1, "\(r)")
        expectNoControls(r.stdout)
        expectNoControls(r.stderr)
        #expect(
            r.stdout == """
                before\\x0dafter \\x1b[31mred\\x1b[0m \\x1b]0;title\\x07 bell\\x07 nul\\x00\ttab
                line two
                [0.000s] careless: over\\x0dwritten\\n[0.000s] fps: forged\\x1b[2J\\x07
                careless.word = esc\\x1b[2Jbell\\x07
                fps —
                layout —
                timer —
                careless 0  bell
                traps 0

                """, "\(r)")
        #expect(r.stderr == "<command-line>:4: error: failed\\x0d \\x1b[2J\\x07\n", "\(r)")
        let json = try run(["careless print-controls"], json: true)
        #expect(
            json.stdout
                == #"{"command": "careless print-controls", "ok": true, "result": {"text": "bell\u0007"}}"# + "\n",
            "\(json)")
    }

    /// What the careless tool does right works as any tool's: a scenario of `expect` lines on
    /// its display link, its good event and its settings.
    @Test func itsGoodPartsPassAScenario() throws {
        let dir = try Binary.folder([
            "scenario.dsh": """
            plugin require careless --from '\(try library())'
            careless tick
            run 100ms
            expect careless.count == 6
            expect careless.nil == none
            careless set-good
            expect clock.now == 100ms
            settings show careless
            careless emit
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["scenario.dsh"], directory: dir, environment: isolated)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        #expect(
            r.stdout == "careless.limit = 7\ncareless.mode = loud\n[0.100s] careless: a good event\n", "\(r)")
    }
}
