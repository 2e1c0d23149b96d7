/// The process's interrupt flag, as the runner and a file's child use it. The front end owns it
/// (its `Signals`: the flag its SIGINT handler sets, which the session and the terminal's writes
/// poll); the runner is handed it, so that a Ctrl-C, a SIGTERM or a SIGHUP stops a run and the
/// terminal's writes alike.
public struct Interrupts {
    /// Catches SIGINT into the flag, unblocking it first.
    public var catchInterrupts: () -> Void
    /// Whether the flag is set.
    public var isInterrupted: () -> Bool
    /// A signal handler that only sets the flag (async-signal-safe): the runner's SIGTERM and
    /// SIGHUP, the child's SIGTERM (the runner's timeout).
    public var setFlag: @convention(c) (Int32) -> Void

    public init(
        catchInterrupts: @escaping () -> Void, isInterrupted: @escaping () -> Bool,
        setFlag: @convention(c) (Int32) -> Void
    ) {
        self.catchInterrupts = catchInterrupts
        self.isInterrupted = isInterrupted
        self.setFlag = setFlag
    }
}
