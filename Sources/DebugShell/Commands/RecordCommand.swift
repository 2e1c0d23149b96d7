import DebugShellCore
import DebugShellInterpreter

/// `record`: write the session's commands, each at its virtual time, so that the file replays
/// the session.
struct RecordCommand: BuiltInCommand {
    static let target = ArgumentSpec.words("target", .path, abstract: "The file to write, or 'stop'.", optional: true)

    static let spec = CommandSpec(
        "record",
        abstract:
            "Write the session's commands, each at its virtual time, so that the file replays it; 'record stop' ends.",
        arguments: [
            target
        ],
        examples: [Example("> record\nnot recording\n> record stop\nerror: not recording")])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let recorder = context.recorder
        let words = call[target]
        guard let first = words.first else {
            if let path = recorder.path {
                return CommandOutput(text: "recording to \(path)", json: .fields(["file": .string(path)]))
            }
            return CommandOutput(text: "not recording", json: .fields(["file": .null]))
        }
        if first.text == "stop" && !first.quoted && words.count == 1 {
            let path = try recorder.stop()
            let commands = recorder.recording.commands
            return CommandOutput(
                text: "recorded \(commands == 1 ? "1 command" : "\(commands) commands") to \(path)",
                json: .fields(["file": .string(path), "commands": .int(Int64(commands))]))
        }
        guard words.count == 1 else { throw CommandError("usage: record <file.dsh> | record stop") }
        try recorder.start(first.text)
        let commands = recorder.recording.commands
        return CommandOutput(
            text: "recording to \(first.text) (\(commands == 1 ? "1 command" : "\(commands) commands") so far)",
            json: .fields(["file": .string(first.text), "commands": .int(Int64(commands))]))
    }
}
