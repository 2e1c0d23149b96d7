import DebugShellCore
import DebugShellInterpreter

extension Session {
    /// Runs one command — typed, from a script, or scheduled — through the one path: echo,
    /// history, aliases, parsing, help, the command itself, its files, the recording, its output,
    /// and its error if it fails.
    ///
    /// - Parameters:
    ///   - words: The command's words as typed.
    ///   - text: The command's text, made only when something shows or keeps it.
    ///   - issue: Who issued it.
    /// - Returns: `.failed` when it failed (reported already).
    func execute(_ words: ArraySlice<Word>, text: @autoclosure () -> String, as issue: CommandIssue) -> ScriptOutcome {
        let location = issue.location
        // The script's own commands, not a sourced file's, a scheduled one or a breakpoint's.
        if !issue.isScheduled && nesting.isTopLevel { nesting.lastPlace = location }
        if vocabulary.value(ShellSettings.echo) {
            if issue.isScheduled {
                output.echo("> [\(engine.now.eventStamp)] \(text())")
            } else if !nesting.inScheduledCommand {
                output.echo("> \(text())")
            }
        }
        if !issue.isScheduled && nesting.isTopLevel { commandHistory.remember(text()) }
        // A stop's commands not run (its time command failed) are not run later.
        if !nesting.inBreakpointCommands { _ = time.breakpoints.takeDue() }
        // A scheduled command's JSON lines say when it ran and where it was scheduled (docs/JSON.md).
        let stamp: [(String, JSONValue)] =
            issue.isScheduled
            ? [("t_ns", .int(engine.now.nanoseconds)), ("scheduled_at", JSONValue(location.text))] : []
        nesting.running.append(RunningCommand(words: words, location: location, scheduled: issue.isScheduled))
        defer { nesting.running.removeLast() }
        do {
            let expanded = try vocabulary.expand(words)
            if expanded.isEmpty { return .finished }
            // A scheduled command's text is made for tools only: a nested `after` would otherwise
            // copy the whole rest of its line once per level.
            var parsed = try vocabulary.parser.parse(expanded, text: issue.isScheduled ? "" : text())
            if issue.isScheduled, !parsed.command.owner.isBuiltIn { parsed.invocation.text = text() }
            let issuedAt = recorder.position
            let recorded =
                !issue.isScheduled && !nesting.inScheduledCommand && !nesting.inBreakpointCommands
                && parsed.command.traits.isRecorded
            // As the replay must read it: names resolved, aliases expanded inside scheduled
            // commands too, paths made absolute (``SessionRecorder/recordedWords(_:parsed:at:)``).
            let recordedWords = recorded ? recorder.recordedWords(expanded, parsed: parsed, at: location) : expanded
            if recorded && recorder.isWriting {
                nesting.running[nesting.running.count - 1].recorded = (recordedWords, issuedAt)
            }
            let result = try run(parsed, at: location)
            try writeFiles(result.files)
            if recorded {
                recorder.log(recordedWords, at: issuedAt)
                // Logged: a trap in its output (below) must not log it again.
                nesting.running[nesting.running.count - 1].recorded = nil
                if recorder.isWriting { recorder.writeIfDue(typed: location.origin.name == nil) }
            }
            tools.showing(result, of: parsed.command.owner, json: options.json) {
                output.result(
                    result, command: text(), location: location, extra: stamp,
                    fromTool: !parsed.command.owner.isBuiltIn)
            }
            if !issue.isScheduled && isInterrupted() {
                // Ctrl-C while the command ran or wrote: what it wrote stays, the rest stops.
                output.interrupted(at: engine.now, command: text(), location: location)
                return .interrupted
            }
            // A breakpoint stopped time: its commands run now, after the stop was said.
            if let due = time.breakpoints.takeDue() { return runBreakpointCommands(due) }
            return .finished
        } catch SessionControl.exit(let status) {
            // The innermost place: a sourced file's `exit`, not the `source` line around it.
            if nesting.exitPlace == nil { nesting.exitPlace = location }
            return .exited(status)
        } catch SessionControl.interrupted(let reported) {
            // A scheduled `source` stopped by Ctrl-C: the `run` around it reports where time stopped.
            if !reported && !issue.isScheduled {
                output.interrupted(at: engine.now, command: text(), location: location)
            }
            return .interrupted
        } catch SessionControl.failedAndReported {
            failures += 1
            if issue.isScheduled { scheduler.failuresDuringAdvance += 1 }
            return .failed
        } catch {
            let expectation = error as? ExpectationFailure
            let message = expectation?.message ?? (error as? CommandError)?.message ?? "\(error)"
            failures += 1
            // `debugsh test`'s child goes on after a failed `expect` (docs/Testing.md).
            let goesOn = options.continuesAfterFailedExpectations && expectation != nil
            if issue.isScheduled && !goesOn { scheduler.failuresDuringAdvance += 1 }
            // Inside a scheduled command (or a file it sources), say when (SPEC §8).
            output.error(
                nesting.inScheduledCommand ? "at \(engine.now): \(message)" : message, command: text(),
                location: location, extra: stamp, expectation: expectation)
            return goesOn ? .finished : .failed
        }
    }

    /// The commands of a breakpoint's stop (`break command add`), in order, each through the one
    /// execute path: the first that fails (or exits) ends them and is the stop's outcome.
    func runBreakpointCommands(_ due: Breakpoints.Due) -> ScriptOutcome {
        let outer = nesting.inBreakpointCommands
        nesting.inBreakpointCommands = true
        defer { nesting.inBreakpointCommands = outer }
        for command in due.commands {
            let outcome = execute(command[...], text: command[...].commandText, as: .issued(at: due.location))
            if outcome != .finished { return outcome }
        }
        return .finished
    }

    /// Runs a parsed command: its help, a built-in, or a tool's.
    private func run(_ parsed: ParsedCommand, at location: SourceLocation) throws -> CommandOutput {
        if parsed.asksForHelp {
            output.pagesNextResult = true
            return context.helpTopics.asked(by: parsed)
        }
        switch parsed.command.owner {
        case .builtIn(let index):
            return try BuiltInCommands.all[index].run(BuiltInCall(parsed, at: location), in: context)
        case .tool(let index):
            let before = engine.now
            let tool = tools.instances[index]
            let output = try tools.calling(.command, tool: index) { () throws(CommandError) in
                try tool.run(parsed.invocation)
            }
            if engine.now != before { time.timeDidMove() }
            return output
        }
    }

    /// Writes the files a command returned, atomically and in order (``OutputFile``).
    ///
    /// - Throws: ``CommandError`` `cannot write '<path>': <reason>` for the first that fails.
    private func writeFiles(_ files: [OutputFile]) throws(CommandError) {
        for file in files {
            do {
                try FileIO.writeAtomically(file.contents, to: file.path)
            } catch {
                throw CommandError(error.message)
            }
        }
    }

    /// Runs a script's text as `source` does, one level deeper.
    func runNested(_ text: String, origin: ScriptOrigin, resolved: String) throws -> CommandOutput {
        nesting.depth += 1
        let outcome = runScript(text, origin: origin)
        nesting.depth -= 1
        if nesting.abandoning {
            if nesting.depth <= nesting.baseDepth { nesting.abandoning = false }
            throw SessionControl.failedAndReported
        }
        switch outcome {
        case .finished: return CommandOutput(json: .fields(["file": .string(resolved)]))
        case .failed: throw SessionControl.failedAndReported
        case .exited(let status): throw SessionControl.exit(status)
        case .interrupted: throw SessionControl.interrupted(reported: true)
        }
    }
}
