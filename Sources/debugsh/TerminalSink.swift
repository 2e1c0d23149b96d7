import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to file descriptors 1 and 2, buffering standard output.
///
/// Standard output is flushed before anything goes to standard error, so the two stay in order
/// on a terminal; the front end flushes before it waits for input.
///
/// Output that cannot be written ends a script run (SPEC §8: nothing fails silently): a reader
/// that went away (a closed pipe, `debugsh … | head`) ends it quietly, as other Unix tools end;
/// any other failure (`> /dev/full`) with a message on standard error and status 1. A write
/// that waits for a reader that does not read (`debugsh … | less`, paused) gives up at Ctrl-C,
/// and standard output is dropped from then on, so the interrupt can end the run.
final class TerminalSink: OutputSink {
    private var buffer: [UInt8] = []
    /// Called before anything is written (the interactive front end clears its status block).
    var willWrite: () -> Void = {}
    /// Whether a failed write to standard output ends the process (scripts); the interactive
    /// session goes on, so that it can still save its history after its terminal went away.
    var endsOnWriteFailure = true
    /// An interrupt stopped a write that waited: what is left for standard output is dropped.
    private var droppingOutput = false
    /// The terminal's colour depth: charts' 24-bit colour codes are rewritten to it.
    var colorDepth = ColorDepth.trueColor
    /// Pages help taller than the screen (the interactive session's ``Pager``); nil never pages.
    var pager: ((String) -> Bool)?

    init() { buffer.reserveCapacity(1 << 16) }

    func write(_ text: String, to stream: OutputStreamKind) {
        willWrite()
        switch stream {
        case .standardOutput:
            buffer.append(contentsOf: colorDepth.adapting(text).utf8)
            if buffer.count >= 1 << 16 { flush() }
        case .standardError:
            flush()
            TerminalSink.writeAll(fd: 2, Array(text.utf8))
        }
    }

    func page(_ text: String) -> Bool {
        guard let pager else { return false }
        willWrite()
        flush()
        return pager(text)
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        let failure =
            droppingOutput ? nil : TerminalSink.writeAll(fd: 1, buffer, untilInterrupted: endsOnWriteFailure)
        buffer.removeAll(keepingCapacity: true)
        if failure == EINTR {
            droppingOutput = true
        } else if let failure, endsOnWriteFailure {
            TerminalSink.endAfterWriteFailure(failure)
        }
    }

    /// Ends the process after standard output failed with `code` (an errno).
    static func endAfterWriteFailure(_ code: Int32) -> Never {
        ExitWatch.endsOnItsOwn()
        if code == EPIPE {
            // As a tool killed by SIGPIPE: quietly, with the status a shell expects of it.
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            exit(128 + SIGPIPE)
        }
        writeAll(fd: 2, Array("debugsh: cannot write to standard output: \(String(cString: strerror(code)))\n".utf8))
        exit(1)
    }

    /// Writes every byte, retrying after signals.
    ///
    /// - Parameter untilInterrupted: give up (EINTR) when a write was interrupted by Ctrl-C.
    /// - Returns: the errno of a failed write, or nil when everything was written.
    @discardableResult
    static func writeAll(fd: Int32, _ bytes: [UInt8], untilInterrupted: Bool = false) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR {
                    if untilInterrupted && Signals.isInterrupted { return EINTR }
                    continue
                }
                return errno
            }
            offset += n
            // A signal ends a write that waited once part of it went out: Ctrl-C came.
            if untilInterrupted && offset < bytes.count && Signals.isInterrupted {
                finishLine(fd: fd, bytes, from: offset)
                return EINTR
            }
        }
        return nil
    }

    /// After Ctrl-C stopped a write partway through a line: the rest of that line, if the reader
    /// takes it within a moment, so what was written stays whole lines. A reader that does not
    /// read (a paused pager) gets the part that went out; the interrupt does not wait for it.
    private static func finishLine(fd: Int32, _ bytes: [UInt8], from start: Int) {
        guard start > 0, bytes[start - 1] != UInt8(ascii: "\n"),
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
        else { return }
        let end = newline + 1
        var offset = start
        // Up to 200 ms in all of waiting for room: 20 waits of 10 ms.
        var waits = 0
        while offset < end && waits < 20 {
            // Writable means room for at least PIPE_BUF bytes, which a pipe takes without waiting.
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, 10)
            if polled < 0 && errno != EINTR { return }
            guard polled > 0, ready.revents & Int16(POLLOUT) != 0 else {
                waits += 1
                continue
            }
            let chunk = min(end - offset, Int(PIPE_BUF))
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, chunk) }
            if n < 0 && errno != EINTR && errno != EAGAIN { return }
            if n > 0 { offset += n }
        }
    }
}
