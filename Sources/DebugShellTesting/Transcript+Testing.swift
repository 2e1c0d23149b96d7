import DebugShellCore
import Testing

extension Transcript {
    /// Replays one example in a fresh session with `tools` registered, and records a test issue
    /// — the example's place and the transcript's difference, line by line — unless every
    /// command prints exactly what the example says.
    ///
    /// With ``examples(of:)`` it makes every example a tool declares a test, as `help` shows
    /// them:
    ///
    /// ```swift
    /// import DebugShellTesting
    /// import Testing
    ///
    /// @Test(arguments: Transcript.examples(of: HangDetector.self))
    /// func example(_ example: LabeledExample) throws {
    ///     try Transcript.expectMatch(example, tools: [HangDetector.self])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - example: The example to replay, from ``examples(of:)`` or ``allExamples(tools:)``.
    ///   - tools: The tools to register: the example's own and any other its commands use.
    ///   - sourceLocation: Where the issue is reported; the caller's line by default.
    /// - Throws: When the session cannot be made, as when the tools' declarations are refused.
    public static func expectMatch(
        _ example: LabeledExample, tools: [any DebugTool.Type], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try replay(example.example.transcript, tools: tools)
        #expect(result.matches, "\(example)\n\(result)", sourceLocation: sourceLocation)
    }
}
