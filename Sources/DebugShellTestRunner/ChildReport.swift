import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// The child's half of `debugsh test` (docs/Testing.md): a script run with the hidden
/// `--test-report <file>` goes on after a failed `expect`, and writes to the file, as they
/// happen, one line per failure, then at a normal end the final metrics and an end mark. Each
/// line is written at once, so what a child wrote before a crash or a kill survives it.
///
/// A line is tab-separated fields, `\`, tab, newline and carriage return escaped as `\\`, `\t`,
/// `\n`, `\r` (``ReportLine``):
/// - `F kind file line t_ns message condition values sourced-from`
/// - `M name type text`, one per metric at the end
/// - `L file line`, where the script ended: its `exit`, else its last command (``Session/endPlace``)
/// - `E`, the end mark: the script's run ended and the process left normally.
public final class ChildReport {
    private let fd: Int32

    public init?(path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { return nil }
    }

    deinit { close(fd) }

    /// Makes `session` go on after a failed `expect` and report each failure here; SIGTERM (the
    /// runner's timeout) stops time as SIGINT does, so the child says where it was.
    public func attach(to session: Session, interrupts: Interrupts) {
        session.options.continuesAfterFailedExpectations = true
        session.observeFailures { [self] failure in
            write([
                "F", failure.kind.rawValue, failure.file ?? "", String(failure.line),
                String(failure.time.nanoseconds), failure.message, failure.condition ?? "", failure.values ?? "",
                failure.sourcedFrom.joined(separator: ", "),
            ])
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interrupts.setFlag
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
    }

    /// The final metrics and the end mark.
    public func finish(_ session: Session) {
        for metric in session.finalMetrics() { write(["M", metric.name, metric.type, metric.text]) }
        if let place = session.endPlace { write(["L", place.file ?? "", String(place.line)]) }
        write(["E"])
    }

    private func write(_ fields: [String]) {
        let bytes = Array((fields.map(ReportLine.escape).joined(separator: "\t") + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

/// The report's line format: fields joined by tabs, escaped.
enum ReportLine {
    static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return field
        }
        var out = ""
        for c in field.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The fields of one line.
    static func fields(_ line: Substring) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map { field in
            guard field.contains("\\") else { return String(field) }
            var out = ""
            var escaping = false
            for c in field.unicodeScalars {
                if escaping {
                    switch c {
                    case "t": out += "\t"
                    case "n": out += "\n"
                    case "r": out += "\r"
                    default: out.unicodeScalars.append(c)
                    }
                    escaping = false
                } else if c == "\\" {
                    escaping = true
                } else {
                    out.unicodeScalars.append(c)
                }
            }
            return out
        }
    }
}
