import DebugShellTrace

/// The trace of the simulated timeline the session records (`trace start`, `--trace`).
struct TraceSession {
    /// The trace, recording or stopped.
    var recorder: TraceRecorder?
    /// Whether the session said that the trace reached its limit.
    var limitReported = false
}
