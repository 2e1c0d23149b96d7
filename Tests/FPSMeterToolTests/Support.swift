import DebugShell
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import FPSMeterTool

/// A session with the FPS meter alone (or with `tools`), after typing each line of `script`.
func meterSession(_ script: String, json: Bool = false, tools: [any DebugTool.Type] = [FPSMeter.self]) throws
    -> MeterRun
{
    let run = try MeterRun(json: json, tools: tools)
    for line in script.split(separator: "\n") { run.type(String(line)) }
    return run
}

/// A session with the meter and the sink it writes to.
final class MeterRun {
    let session: Session
    let sink = MemorySink()

    init(json: Bool, tools: [any DebugTool.Type] = [FPSMeter.self]) throws {
        session = try Session(
            tools: tools, options: SessionOptions(json: json), sink: sink)
    }

    var engine: any SimulatedDevice { session.engine }

    /// The session's FPS meter.
    var meter: FPSMeter {
        get throws { try #require(session.tool(named: "fps") as? FPSMeter) }
    }

    /// Types a line, as at the prompt.
    func type(_ line: String) { _ = session.runLine(line) }

    /// Types a line and returns what it printed.
    func output(_ line: String) -> String {
        sink.clear()
        type(line)
        return sink.combined
    }

    /// A metric exactly as `get` prints it (the shell's or the meter's).
    func value(_ name: String) throws -> String {
        let line = output("get \(name)").trimmingCharacters(in: .newlines)
        let prefix = "\(name) = "
        try #require(line.hasPrefix(prefix), "get \(name) printed '\(line)'")
        return String(line.dropFirst(prefix.count))
    }
}

/// Replays a transcript with the meter and expects it to match exactly.
func expectTranscript(_ transcript: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try Transcript.replay(transcript, tools: [FPSMeter.self])
    #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
}

/// The `result` of each JSON line of a command, by the command as typed.
func jsonResults(_ sink: MemorySink) throws -> [(command: String, result: [String: Any])] {
    var out: [(String, [String: Any])] = []
    for line in sink.standardOutput.split(separator: "\n") {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        if let command = object["command"] as? String, let result = object["result"] as? [String: Any] {
            out.append((command, result))
        }
    }
    return out
}

/// The JSON events printed, in order.
func jsonEvents(_ sink: MemorySink) throws -> [[String: Any]] {
    try sink.standardOutput.split(separator: "\n").compactMap { line in
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return object["event"] != nil ? object : nil
    }
}

/// Keys of a JSON object, in any order.
func keys(_ object: Any?) -> Set<String> {
    Set((object as? [String: Any])?.keys.map { $0 } ?? [])
}

let ms: Int64 = 1_000_000
