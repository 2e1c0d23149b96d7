@preconcurrency import CReadline
import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// The interactive session: GNU readline with history and completion.
struct InteractiveSession {
    let session: Session
    let sink: TerminalSink
    let readRC: Bool

    func run() -> Int32 {
        session.options.interactive = true
        while true {
            sink.flush()
            guard let raw = readline("debugsh> ") else {
                print("")
                return session.failures > 0 ? 1 : 0
            }
            let line = String(cString: raw)
            free(raw)
            if !line.isEmpty { add_history(line) }
            _ = Signals.takeInterrupt()
            switch session.runLine(line) {
            case .exited(let status):
                sink.flush()
                return status
            default:
                continue
            }
        }
    }
}
