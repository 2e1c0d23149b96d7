import DebugShell

/// `debugsh --check`: the scripts, the `-c` commands, or stdin, checked without running
/// (``ScriptChecker``): 0 when clean, 1 when any problem, 2 when a `--plugin` names no file. No
/// plugin is loaded: with `--plugin` or a plugins folder to load from, an unknown command or
/// metric is a note.
func checkScripts(_ session: Session, options: CommandLineOptions) -> Int32 {
    // A `--plugin` that names no file is the usage error a run would give, though nothing loads.
    for path in options.plugins where !FileIO.exists(path) || FileIO.isDirectory(path) {
        let reason = FileIO.isDirectory(path) ? "not a regular file" : "No such file or directory"
        session.output.frontEndMessage("--plugin: cannot load plugin '\(path)': \(reason)")
        return 2
    }
    let folderHasPlugins = !options.noPlugins && !PluginFolder.libraries(in: StatePaths().pluginFolder).isEmpty
    var checker = ScriptChecker(session: session, pluginsMayAdd: folderHasPlugins || !options.plugins.isEmpty)
    // Ctrl-C stops a long check, as it stops a run (a test runner's child has its own handlers).
    Signals.catchInterrupts()
    if options.testReport == nil { Signals.catchStopRequests() }
    checker.isInterrupted = { Signals.isInterrupted }
    for path in options.scripts where !checker.wasInterrupted { checker.checkFile(path) }
    var firstLine = 1
    for command in options.commands where !checker.wasInterrupted {
        checker.check(command, origin: ScriptOrigin(name: "<command-line>"), firstLine: firstLine)
        firstLine += max(1, command.split(separator: "\n", omittingEmptySubsequences: false).count)
    }
    if options.scripts.isEmpty && options.commands.isEmpty && !checker.wasInterrupted {
        checker.checkStandardInput()
    }
    checker.report()
    session.output.flush()
    if checker.wasInterrupted { return Signals.stoppedStatus }
    return checker.failed ? 1 : 0
}
