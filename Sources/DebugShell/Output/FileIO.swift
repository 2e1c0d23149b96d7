import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads and writes whole files without Foundation (start-up time; README, Performance).
public enum FileIO {
    /// A file that cannot be read, or is not a script; `line` where the content is at fault.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var line: Int?
        public init(_ message: String, line: Int? = nil) {
            self.message = message
            self.line = line
        }
        public var description: String { message }
    }

    /// The largest script read (a 100,000-line script is a few MB).
    public static let maxScriptBytes = 256 << 20

    /// Reads a file as bytes: a regular file or a pipe, nothing else (a device such as
    /// `/dev/zero` could be read forever). A regular file above the limit is refused before it
    /// is read; a pipe is read up to the limit, and for text only up to its first NUL byte or
    /// its first line longer than 1 MiB, where it could never become a script.
    ///
    /// - Parameters:
    ///   - limit: the most bytes read.
    ///   - text: stop at the first NUL byte, which makes it no script, rather than read on.
    ///   - interrupted: polled when a signal interrupts a wait for a pipe: true gives up.
    public static func read(
        _ path: String, limit: Int = maxScriptBytes, text: Bool = false, interrupted: () -> Bool = { false }
    ) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before its type is known.
        var fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure("cannot open '\(path)': \(errorText())") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure("cannot read '\(path)': \(errorText())") }
        var isPipe = false
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            if Int(st.st_size) > limit { throw Failure("'\(path)' is larger than \(limit >> 20) MiB") }
        case S_IFIFO:
            isPipe = true
            // A pipe is read to its end once a writer has it open: open it again, waiting.
            var blocking: Int32
            repeat {
                blocking = open(path, O_RDONLY | O_CLOEXEC)
            } while blocking < 0 && errno == EINTR && !interrupted()
            guard blocking >= 0 else { throw Failure("cannot open '\(path)': \(errorText())") }
            close(fd)
            fd = blocking
        case S_IFDIR: throw Failure("'\(path)' is a directory")
        default: throw Failure("'\(path)' is not a regular file or a pipe: debugsh reads scripts from files and pipes")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // For a pipe of text: the line being read, and its length so far.
        var line = 1
        var lineLength = 0
        while true {
            // An interrupt that came before this read would not end a wait for a pipe's writer.
            if isPipe && interrupted() { throw Failure("cannot read '\(path)': interrupted") }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR && !interrupted() { continue }
                throw Failure("cannot read '\(path)': \(errorText())")
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if text && buffer.withUnsafeBytes({ memchr($0.baseAddress!, 0, n) }) != nil { break }
            if text && isPipe {
                for byte in buffer[0..<n] {
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        lineLength = 0
                    } else {
                        lineLength += 1
                    }
                }
                if lineLength > Lexer.maxLineBytes {
                    throw Failure("line longer than 1 MiB (the limit): reading the pipe stopped there", line: line)
                }
            }
            if bytes.count > limit { throw Failure("'\(path)' is larger than \(limit >> 20) MiB") }
        }
        return bytes
    }

    /// Reads a script: UTF-8 text without NUL bytes.
    public static func readScript(_ path: String, interrupted: () -> Bool = { false }) throws(Failure) -> String {
        let bytes = try read(path, text: true, interrupted: interrupted)
        return try decodeScript(bytes, name: path)
    }

    /// Decodes script bytes, refusing binary files and invalid UTF-8 with the line at fault.
    public static func decodeScript(_ bytes: [UInt8], name: String) throws(Failure) -> String {
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
            throw Failure("binary file (a NUL byte): debugsh scripts are text", line: line)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // Invalid: find the line of the first bad sequence.
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): if s == "\n" { line += 1 }
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw Failure(
                    "not UTF-8 text: \(FileIO.quotedLine(line, of: bytes)) (debugsh scripts are UTF-8)", line: line)
            }
        }
    }

    /// Line `number` (from 1) of `bytes`, quoted and escaped (`'run\xff'`), cut after 80 bytes.
    static func quotedLine(_ number: Int, of bytes: [UInt8]) -> String {
        var start = 0
        var line = 1
        while line < number, let newline = bytes[start...].firstIndex(of: 10) {
            start = newline + 1
            line += 1
        }
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        let shown = bytes[start..<min(end, start + 80)]
        return "'" + VisibleText.escaped(bytes: shown) + (end - start > 80 ? "…" : "") + "'"
    }

    /// Writes a file atomically: a temporary file beside it, then rename.
    ///
    /// A symbolic link is followed: the file it points to is replaced and the link stays. A path
    /// that names something other than a regular file (a directory, a device, a FIFO) is refused,
    /// so a write never replaces one, and so is a read-only file (``AtomicFile``). An existing
    /// file keeps its permissions.
    public static func writeAtomically(_ text: String, to path: String, mode: mode_t = 0o644) throws(Failure) {
        try writeAtomically(bytes: Array(text.utf8), to: path, mode: mode)
    }

    /// Writes bytes to a file atomically, as ``writeAtomically(_:to:mode:)`` does text.
    public static func writeAtomically(bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(Failure) {
        let file = try AtomicFile(path, mode: mode)
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            do throws(Failure) {
                try file.write(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        try file.commit()
    }

    /// A file written atomically a piece at a time: a temporary file in the target's folder,
    /// renamed over it by ``commit()``; dropped, with the target untouched, if the writer goes
    /// away first.
    ///
    /// A symbolic link is followed: the file it points to is replaced and the link stays. A path
    /// that names something other than a regular file (a directory, a device, a FIFO) is refused,
    /// so a write never replaces one; so is a file its user may not write, or that nobody may
    /// (mode 0444, root included: as `vim` and `emacs` refuse it, not as `cp` run by root). An
    /// existing file keeps its permissions.
    ///
    /// The temporary file has no name while it is written (`O_TMPFILE`): a process killed in the
    /// middle (SIGKILL, the OOM killer) leaves nothing behind. It gets a random name only for the
    /// instant between being linked into the folder and renamed over the target. Where the
    /// file system has no `O_TMPFILE`, it is made as `mkstemp` does — a random name, created
    /// exclusively (`O_EXCL`, which never follows a symbolic link) — and removed on any failure
    /// or interrupt; a SIGKILL can then leave it (docs/Limits.md).
    public final class AtomicFile {
        let path: String
        let target: String
        let mode: mode_t
        /// The temporary file's name while it has one (the `mkstemp` way), else nil.
        private var temp: String?
        private var fd: Int32

        public init(_ path: String, mode: mode_t = 0o644) throws(Failure) {
            self.path = path
            target = try FileIO.resolvingLinks(path)
            var mode = mode
            var st = stat()
            if stat(target, &st) == 0 {
                guard (st.st_mode & S_IFMT) == S_IFREG else {
                    throw Failure("cannot write '\(path)': not a regular file")
                }
                if st.st_mode & 0o222 == 0 || faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 {
                    throw Failure(
                        "cannot write '\(path)': it is read-only (mode \(FileIO.octal(st.st_mode & 0o7777))): debugsh does not replace a file its user may not write"
                    )
                }
                mode = st.st_mode & 0o7777
            }
            self.mode = mode
            let folder = FileIO.directory(of: target)
            fd = open(folder, FileIO.oTmpFile | O_WRONLY | O_CLOEXEC, mode)
            if fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) {
                // No O_TMPFILE here: a fresh random name, created exclusively, never through a link.
                for _ in 0..<100 {
                    let name = FileIO.temporaryName(in: folder)
                    fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
                    if fd >= 0 {
                        temp = name
                        break
                    }
                    if errno != EEXIST { break }
                }
            }
            guard fd >= 0 else { throw Failure("cannot write '\(path)': \(errorText())") }
        }

        deinit {
            if fd >= 0 {
                close(fd)
                if let temp { unlink(temp) }
            }
        }

        /// Appends bytes.
        public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            guard fd >= 0 else { throw Failure("cannot write '\(path)': already closed") }
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, base + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw abandon()
                }
                offset += n
            }
        }

        /// Puts the file in place of the target.
        public func commit() throws(Failure) {
            guard fd >= 0 else { throw Failure("cannot write '\(path)': already closed") }
            fchmod(fd, mode)
            if temp == nil {
                // Name the unnamed file, under a name nobody else can have made first.
                let folder = FileIO.directory(of: target)
                var linked = false
                for _ in 0..<100 {
                    let name = FileIO.temporaryName(in: folder)
                    if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0
                        || (errno == ENOENT && linkat(fd, "", AT_FDCWD, name, FileIO.atEmptyPath) == 0)
                    {
                        temp = name
                        linked = true
                        break
                    }
                    if errno != EEXIST { break }
                }
                guard linked else { throw abandon() }
            }
            let closed = close(fd)
            fd = -1
            guard let temp else { throw Failure("cannot write '\(path)': no temporary file") }
            guard closed == 0 else {
                let failure = Failure("cannot write '\(path)': \(errorText())")
                unlink(temp)
                throw failure
            }
            guard rename(temp, target) == 0 else {
                let failure = Failure("cannot write '\(path)': \(errorText())")
                unlink(temp)
                throw failure
            }
        }

        /// Gives up: the temporary file goes; returns the failure that made it give up.
        private func abandon() -> Failure {
            let failure = Failure("cannot write '\(path)': \(errorText())")
            close(fd)
            fd = -1
            if let temp { unlink(temp) }
            return failure
        }

        /// Gives up without an error of the system's (an interrupt): the temporary file goes and
        /// the target stays as it was.
        public func discard() {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
            if let temp { unlink(temp) }
        }
    }

    /// `O_TMPFILE` (Linux 3.11): an unnamed regular file in the folder opened. Glibc's macro is
    /// not imported into Swift.
    static let oTmpFile: Int32 = 0o20000000 | O_DIRECTORY

    /// `AT_EMPTY_PATH`: `linkat` of the descriptor itself (where /proc is not mounted).
    static let atEmptyPath: Int32 = 0x1000

    /// A name for a temporary file in `folder` that nobody can predict: 16 random hex digits.
    static func temporaryName(in folder: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        return join(folder, ".debugsh-\(String(repeating: "0", count: 16 - random.count))\(random).tmp")
    }

    /// A mode as `ls` and `chmod` write it: `0444`.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The path a chain of symbolic links ends at (the path itself when it is no link), whether or
    /// not that file exists.
    static func resolvingLinks(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { throw Failure("cannot write '\(path)': \(errorText())") }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : join(directory(of: current), target)
        }
        throw Failure("cannot write '\(path)': too many levels of symbolic links")
    }

    /// Creates a directory and its parents.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, mode)
        }
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` names a directory (a symbolic link to one included).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The folder part of a path (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// `relative` resolved against `directory`, kept relative when both are.
    public static func join(_ directory: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || directory == "." || directory.isEmpty { return relative }
        return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }

    /// A path as absolute: as it is when it starts with `/` or `~`, else joined to the current
    /// folder (as it is when that cannot be read).
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), let cwd = currentDirectory() else { return path }
        return join(cwd, path)
    }

    /// The process's current folder, or nil when it cannot be named.
    static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
