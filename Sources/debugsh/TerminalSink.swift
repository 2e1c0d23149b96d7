import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to file descriptors 1 and 2, buffering standard output.
///
/// Standard output is flushed before anything goes to standard error, so the two stay in order
/// on a terminal; the front end flushes before it waits for input.
final class TerminalSink: OutputSink {
    private var buffer: [UInt8] = []
    /// Called before anything is written (the interactive front end clears its status block).
    var willWrite: () -> Void = {}

    init() { buffer.reserveCapacity(1 << 16) }

    func write(_ text: String, to stream: OutputStreamKind) {
        willWrite()
        switch stream {
        case .standardOutput:
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 16 { flush() }
        case .standardError:
            flush()
            TerminalSink.writeAll(fd: 2, Array(text.utf8))
        }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        TerminalSink.writeAll(fd: 1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func writeAll(fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
