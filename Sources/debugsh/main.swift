import ArgumentParser
import BuiltInTools
import CTrapSupport
import DebugShell
import DebugShellCore
import DebugShellTestRunner

#if canImport(Glibc)
    import Glibc
#endif

/// debugsh's entry point: parse the command line, then run scripts, commands, stdin or an
/// interactive session (README, Command line). Everything it prints, its own messages included,
/// leaves through one ``OutputRouter``.
func main() -> Int32 {
    // A reader that goes away ends debugsh quietly, as it ends other tools, even when a parent
    // left SIGPIPE ignored.
    signal(SIGPIPE, SIG_DFL)
    let sink = TerminalSink()
    let output = OutputRouter(sink: sink)
    defer { output.flush() }
    // CommandLine.arguments repairs invalid UTF-8; scripts refuse it, and so does the command line.
    if let bad = firstArgumentNotUTF8() {
        output.frontEndMessage("argument \(bad) is not UTF-8 text: debugsh reads UTF-8, as its scripts are")
        return 2
    }
    // `debugsh test …` is the test runner (docs/Testing.md); a script named test runs as ./test.
    if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "test" {
        return TestRunner.main(
            Array(CommandLine.arguments.dropFirst(2)), output: output, interrupts: Signals.forTestRunner())
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    let options: CommandLineOptions
    if let quick = CommandLineOptions(quick: arguments) {
        options = quick
    } else {
        do {
            options = try CommandLineOptions.parsed(arguments)
        } catch {
            let code = DebugshOptions.exitCode(for: error).rawValue
            if code == 0 {
                output.frontEndText(DebugshOptions.fullMessage(for: error) + "\n" + TestRunner.mention)
                return 0
            }
            let message = DebugshOptions.message(for: error)
            output.frontEndMessage("\(message)\nUsage: debugsh [options] [script.dsh ...] (see 'debugsh --help')")
            // ArgumentParser's usage errors exit 64 (EX_USAGE); ours exit 2 (docs/JSON.md).
            return code == 64 ? 2 : code
        }
    }
    if options.version {
        output.frontEndText(DebugShellVersion.full + "\n")
        return 0
    }

    let stdinIsTerminal = isatty(0) == 1
    let stdoutIsTerminal = isatty(1) == 1
    let goInteractive =
        options.interactive
        || (options.scripts.isEmpty && options.commands.isEmpty && stdinIsTerminal && stdoutIsTerminal)

    // A missing script is a usage error, found before anything runs; so is a folder named as one
    // (issue 23: it exited 1, a missing script 2).
    for path in options.scripts where !FileIO.exists(path) || FileIO.isDirectory(path) {
        if FileIO.isDirectory(path) {
            output.frontEndMessage("cannot open '\(path)': it is a directory, not a script")
        } else {
            output.frontEndMessage("cannot open '\(path)': No such file or directory")
        }
        return 2
    }

    // `debugsh test`'s child dies with its runner, even a SIGKILLed one (which can signal no
    // one): the kernel sends SIGKILL when the runner goes. A runner gone before that was asked
    // has left this process to another parent already.
    if let parent = options.testParent {
        _ = debugsh_die_with_parent()
        if getppid() != parent { return 130 }
    }
    let sessionOptions = SessionOptions(json: options.json, echo: options.echo, keepGoing: options.keepGoing)
    let session: Session
    // The watchdog watches the plugins' tools, which come after the built-in ones; the device
    // reads where they start when it is made.
    PluginCallWatch.watchTools(from: BuiltInTools.all.count)
    do {
        session = try Session(tools: BuiltInTools.all, options: sessionOptions, output: output)
    } catch {
        output.frontEndMessage("a built-in tool is declared wrongly: \(error)")
        return 1
    }
    // `debugsh test`'s child: failures and the final metrics go to the runner's report (under
    // `debugsh test --check`, each problem `--check` finds).
    let childReport = options.testReport.flatMap { ChildReport(path: $0) }
    childReport?.attach(to: session, interrupts: Signals.forTestRunner())
    defer { childReport?.finish(session) }
    if options.check { return checkScripts(session, options: options) }
    // From here on a trap — a plugin's, or debugsh's own — keeps what is being recorded; so do
    // a plugin's call that does not return and a plugin's `exit` (docs/Plugins.md).
    TrapRescue.install(for: session)
    Watchdog.start()
    ExitWatch.install()
    // Plugins: the configured folder's libraries (a broken one is skipped with a warning), then
    // those named with --plugin (a broken one is a usage error), before any script runs.
    if !options.noPlugins {
        for path in PluginFolder.libraries(in: StatePaths().pluginFolder) {
            do {
                try session.loadPlugin(path)
            } catch {
                output.frontEndMessage("warning: skipped plugin: \(error.message)")
            }
        }
    }
    for path in options.plugins {
        do {
            try session.loadPlugin(path)
        } catch {
            output.frontEndMessage("--plugin: \(error.message)")
            return 2
        }
    }
    if options.trace == nil,
        let option = [
            options.traceCategories.map { _ in "--trace-categories" }, options.traceLimit.map { _ in "--trace-limit" },
            options.traceKeep.map { _ in "--trace-keep" },
        ].compactMap({ $0 }).first
    {
        output.frontEndMessage("\(option) needs --trace <file.json>")
        return 2
    }
    if let file = options.trace {
        do {
            try session.tracing.start(
                file: file, categories: options.traceCategories, limit: options.traceLimit, keep: options.traceKeep)
        } catch {
            output.frontEndMessage("--trace: \(error.message)")
            return 2
        }
        // The whole run is recorded, however it ends; a trace that cannot be written fails it.
        TrapRescue.tracePath = file
        let status = run(session, options: options, sink: sink, interactive: goInteractive)
        output.flush()
        // A signal that stopped the run is where and why the trace ends.
        if Signals.isInterrupted && status == Signals.stoppedStatus {
            session.tracing.noteSignal(Signals.stoppedSignalName)
        }
        do {
            try session.tracing.save(to: file)
        } catch {
            output.frontEndMessage("--trace: \(error.message)")
            return status == 0 ? 1 : status
        }
        return status
    }
    return run(session, options: options, sink: sink, interactive: goInteractive)
}

/// Runs the scripts, the commands, stdin or the interactive session; returns the exit status.
func run(_ session: Session, options: CommandLineOptions, sink: TerminalSink, interactive goInteractive: Bool) -> Int32
{
    Signals.catchInterrupts()
    if options.testReport == nil { Signals.catchStopRequests() }
    session.isInterrupted = { Signals.isInterrupted }
    defer {
        // A recording is complete however the run ends: `exit`, a failure, Ctrl-C.
        session.recorder.finish()
        sink.flush()
    }

    func finish(_ outcome: ScriptOutcome) -> Int32? {
        switch outcome {
        case .finished: return nil
        case .failed: return 1
        case .exited(let status): return status
        case .interrupted: return Signals.stoppedStatus
        }
    }

    for path in options.scripts {
        let text: String
        do {
            text = try FileIO.readScript(path) { Signals.isInterrupted }
        } catch {
            if Signals.isInterrupted {
                session.output.frontEndMessage("interrupted while reading '\(path)'")
                return Signals.stoppedStatus
            }
            session.output.unreadableScript(error.message, path: path, line: error.line)
            return 1
        }
        let origin = ScriptOrigin(name: path, directory: FileIO.directory(of: path))
        if let status = finish(session.runScript(text, origin: origin)) { return status }
    }
    // Each -c is a script of its own (a trailing backslash does not reach into the next), its
    // lines numbered on from the one before: <command-line>:N.
    var firstLine = 1
    for command in options.commands {
        let origin = ScriptOrigin(name: "<command-line>")
        if let status = finish(session.runScript(command, origin: origin, firstLine: firstLine)) { return status }
        firstLine += max(1, command.split(separator: "\n", omittingEmptySubsequences: false).count)
    }
    if goInteractive {
        sink.flush()
        sink.endsOnWriteFailure = false
        return InteractiveSession(session: session, sink: sink, readRC: !options.noRC).run()
    }
    if options.scripts.isEmpty && options.commands.isEmpty {
        if let status = finish(StdinScript(session: session).run()) { return status }
    }
    return session.failures > 0 ? 1 : 0
}

/// The 1-based position of the first command-line argument that is not valid UTF-8, if any.
func firstArgumentNotUTF8() -> Int? {
    for i in 1..<Int(CommandLine.argc) {
        guard let argument = CommandLine.unsafeArgv[i] else { continue }
        if String(validatingCString: argument) == nil { return i }
    }
    return nil
}

let status = main()
ExitWatch.endsOnItsOwn()
exit(status)
