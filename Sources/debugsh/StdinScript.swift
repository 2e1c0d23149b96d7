import DebugShell
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// Reads commands from a pipe as a script named `<stdin>`: no prompt, no readline, no escape
/// codes. Lines run as they arrive, so a long pipe streams.
struct StdinScript {
    let session: Session

    func run() -> ScriptOutcome {
        var pending: [UInt8] = []
        var logical = ""
        var lineNumber = 0
        var logicalStart = 1
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var skippingLongLine = false
        var sawFailure = false
        let origin = ScriptOrigin(name: "<stdin>")

        func runLine(_ bytes: ArraySlice<UInt8>) -> ScriptOutcome? {
            lineNumber += 1
            if skippingLongLine {
                skippingLongLine = false
                return nil
            }
            var text: String
            do {
                text = try FileIO.decodeScript(Array(bytes), name: "<stdin>")
            } catch {
                return report(error.message, line: lineNumber)
            }
            if text.hasSuffix("\r") { text.removeLast() }
            if logical.isEmpty { logicalStart = lineNumber }
            if Lexer.endsWithContinuation(Substring(text)) {
                logical += text.dropLast()
                if logical.utf8.count > Lexer.maxLineBytes {
                    return report("line longer than 1 MiB (the limit)", line: logicalStart)
                }
                return nil
            }
            logical += text
            let line = logical
            logical = ""
            let outcome = session.runScript(line, origin: origin, firstLine: logicalStart)
            if outcome == .failed { sawFailure = true }
            return outcome == .finished ? nil : outcome
        }

        /// Ctrl-C between lines: the next one does not run.
        func interrupted(beforeLine line: Int) -> ScriptOutcome {
            session.reportInterrupt(origin: origin, line: logical.isEmpty ? line : logicalStart)
            return .interrupted
        }

        func report(_ message: String, line: Int) -> ScriptOutcome? {
            session.reportScriptError(message, origin: origin, line: line)
            logical = ""
            sawFailure = true
            return session.stopsOnError ? .failed : nil
        }

        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR {
                    if Signals.isInterrupted { return interrupted(beforeLine: lineNumber + 1) }
                    continue
                }
                break
            }
            if n == 0 { break }
            var start = pending.count
            pending.append(contentsOf: buffer[0..<n])
            var lineStart = 0
            while let newline = pending[start...].firstIndex(of: 10) {
                if let outcome = runLine(pending[lineStart..<newline]) { return outcome }
                if Signals.isInterrupted { return interrupted(beforeLine: lineNumber + 1) }
                lineStart = newline + 1
                start = lineStart
            }
            pending.removeFirst(lineStart)
            if pending.count > Lexer.maxLineBytes + 1 {
                if let outcome = report("line longer than 1 MiB (the limit)", line: lineNumber + 1) { return outcome }
                pending.removeAll()
                skippingLongLine = true
            }
        }
        if !pending.isEmpty, let outcome = runLine(pending[...]) { return outcome }
        if !logical.isEmpty {
            let line = logical
            logical = ""
            let outcome = session.runScript(line, origin: origin, firstLine: logicalStart)
            if outcome != .finished { return outcome }
        }
        return sawFailure && session.stopsOnError ? .failed : .finished
    }
}
