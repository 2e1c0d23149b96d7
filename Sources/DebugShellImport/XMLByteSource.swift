#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The bytes of one file, read in chunks with the C library's `read` — never the whole file in
/// memory (a 10 GB export is read as a 10 KB one is, a chunk at a time).
///
/// A regular file is read as it is. A FIFO (`import xctrace <(xcrun xctrace export …)`, a named
/// pipe) is opened without waiting for a writer and read when `poll` says it has bytes, waking
/// every 50 ms to ask `interrupted()`, so Ctrl-C stops a wait for a writer that never comes.
/// Anything else — a device such as `/dev/zero` that could be read forever, a socket, a terminal
/// — is refused before a byte of it is read.
struct XMLByteSource: ~Copyable {
    let path: String
    private let fd: Int32
    private let isFIFO: Bool

    /// What a path names: a file to read, a folder of them, or something debugsh refuses.
    enum Kind { case file, fifo, folder }

    /// What `path` names, without opening it for reading (a FIFO's `stat` does not wait).
    static func kind(of path: String) throws(ImportError) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { throw ImportError("cannot open: \(errorText())", file: path) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFIFO: return .fifo
        case S_IFDIR: return .folder
        default: throw ImportError("not a regular file, a folder or a FIFO: debugsh reads none of those", file: path)
        }
    }

    /// Opens a regular file or a FIFO for reading; the type is checked on the open file, so a
    /// path replaced between `kind(of:)` and here is checked again.
    init(_ path: String) throws(ImportError) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before its type is known.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ImportError("cannot open: \(errorText())", file: path) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let text = errorText()
            close(fd)
            throw ImportError("cannot read: \(text)", file: path)
        }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO else {
            close(fd)
            if type == S_IFDIR { throw ImportError("a folder inside the folder: debugsh reads files only", file: path) }
            throw ImportError("not a regular file, a folder or a FIFO: debugsh reads none of those", file: path)
        }
        self.path = path
        self.fd = fd
        self.isFIFO = type == S_IFIFO
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes into `buffer`: the number read, 0 at the end of the file.
    /// `interrupted()` is asked before each read and while a FIFO waits for bytes.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int, interrupted: () -> Bool) throws(ImportError)
        -> Int
    {
        while true {
            if interrupted() { throw ImportError.interrupted }
            if isFIFO {
                var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, 50)
                if ready < 0 && errno != EINTR { throw ImportError("cannot read: \(errorText())", file: path) }
                // Nothing yet (no writer, or a writer that has not written): ask again.
                if ready <= 0 { continue }
            }
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR || errno == EAGAIN { continue }
            throw ImportError("cannot read: \(errorText())", file: path)
        }
    }

    /// The `*.xml` files of a folder (not of its subfolders), sorted by name as bytes.
    static func xmlFiles(in folder: String) throws(ImportError) -> [String] {
        guard let dir = opendir(folder) else { throw ImportError("cannot open: \(errorText())", file: folder) }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name.count > 4 && name.suffix(4).elementsEqual(".xml".utf8) && name.first != UInt8(ascii: ".") {
                names.append(name)
            }
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return names.map { prefix + String(decoding: $0, as: UTF8.self) }
    }
}

/// The C library's text for `errno`.
func errorText() -> String {
    guard let text = strerror(errno) else { return "error \(errno)" }
    return String(cString: text)
}

extension ImportError {
    /// What an import stopped by Ctrl-C says: nothing of it was kept.
    static let interrupted = ImportError("interrupted: nothing was imported")
}
