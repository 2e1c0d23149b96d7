import DebugShellCore
import DebugShellInterpreter

/// `reset`: a fresh simulation; tools, settings, aliases and the rate stay.
struct ResetCommand: BuiltInCommand {
    static let spec = CommandSpec(
        "reset",
        abstract:
            "A fresh simulation: keeps tools, settings, aliases, the device and the display (rate, buffers); clears time, loads, timers, views and metrics.",
        examples: [Example("> run 1s\n> reset\n> get clock.now\nclock.now = 0s")])

    static let traits: CommandTraits = .controlsSession

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        guard !context.nesting.inScheduledCommand else {
            throw CommandError("reset cannot run from a scheduled command")
        }
        context.shell.resetSimulation()
        context.time.timeDidMove()
        // The settings that shape the device outlive a reset: say those not at their defaults,
        // so a "before" run after an "after" one does not silently keep them (issue 37, 6).
        let store = context.vocabulary.settings
        let rate = context.engine.refreshRate.hertz
        let kept = store.specs.filter {
            $0.name.hasPrefix("app.") || $0.name.hasPrefix("system.") || $0.name.hasPrefix("runloop.")
        }
        .compactMap { spec -> String? in
            guard let value = store.value(spec.name, rate: rate), value != store.defaultValue(spec.name, rate: rate)
            else { return nil }
            return "\(spec.name) = \(value)"
        }
        guard !kept.isEmpty else { return .silent }
        return CommandOutput(
            text: "reset keeps the settings: " + kept.joined(separator: ", ") + " ('set <name> …' to change them)",
            json: .fields(["kept": .array(kept.map { .string($0) })]))
    }
}

/// `quit`: leave debugsh, with status 1 when a command failed.
struct QuitCommand: BuiltInCommand {
    static let spec = CommandSpec("quit", abstract: "Leave debugsh.")

    static let traits: CommandTraits = .controlsSession

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try ExitCommand.leaving(call, in: context)
        throw SessionControl.exit(context.shell.failures > 0 ? 1 : 0)
    }
}

/// `exit`: leave debugsh with a status.
struct ExitCommand: BuiltInCommand {
    static let status = ArgumentSpec.optional(
        "status", .integer(0...255), abstract: "0…255 (default 0).", default: Int64(0))

    static let spec = CommandSpec(
        "exit", abstract: "Leave debugsh with an exit status (from inside 'source' too).",
        arguments: [status])

    static let traits: CommandTraits = .controlsSession

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try leaving(call, in: context)
        throw SessionControl.exit(Int32(call[status]))
    }

    /// Reached through a `source` that a scheduled command runs, leaving cannot happen: like
    /// `run`, it would end the session in the middle of time moving.
    static func leaving(_ call: BuiltInCall, in context: CommandContext) throws(CommandError) {
        guard !context.nesting.inScheduledCommand else {
            throw CommandError(
                "'\(call.command)' cannot run from a scheduled command (it would end the session mid-run)")
        }
    }
}
