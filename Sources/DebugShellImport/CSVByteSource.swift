import DebugShellCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file read a chunk at a time with the C library's `read`, byte by byte for the readers
/// (the CSV and the Chrome trace's JSON), with the place of each byte: its line and column,
/// as `file:line:column:` errors name it. Memory is one chunk, whatever the file's size.
///
/// Only a regular file is read: a FIFO, a directory or a device is refused before any byte is
/// (a FIFO is opened without waiting for a writer, so that refusing it never blocks).
struct CSVByteSource: ~Copyable {
    /// The path as given, for errors.
    let path: String
    private let fd: Int32
    private var buffer: [UInt8]
    private var position = 0
    private var count = 0
    private var ended = false
    /// A chunk was read: a byte-order mark can only come first.
    private var started = false
    /// Bytes handed out so far.
    private(set) var offset: Int64 = 0
    /// The place of the next byte: its line (from 1) and column (from 1, in characters: a UTF-8
    /// continuation byte does not start one).
    private(set) var line = 1
    private(set) var column = 1
    /// The last byte was a CR: an LF right after it ends the same line.
    private var afterCR = false

    /// The size of one `read`.
    static let chunk = 1 << 16

    init(path: String) throws(ImportError) {
        self.path = path
        // O_NONBLOCK: opening a FIFO must not wait for a writer before its type is known.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ImportError("cannot open: \(CSVByteSource.errorText())", file: path) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let text = CSVByteSource.errorText()
            close(fd)
            throw ImportError("cannot read: \(text)", file: path)
        }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            switch kind {
            case S_IFIFO:
                throw ImportError(
                    "a FIFO, not a regular file: an import reads a file whole, all or nothing; save the data to a file first",
                    file: path)
            case S_IFDIR: throw ImportError("a directory, not a file", file: path)
            default: throw ImportError("not a regular file (a device or a socket)", file: path)
            }
        }
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: CSVByteSource.chunk)
    }

    deinit { close(fd) }

    /// The C library's text for `errno`.
    static func errorText() -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }

    /// The next byte, or nil at the end of the file; its place is ``line``:``column`` as they
    /// were before the call.
    @inline(__always)
    mutating func next() throws(ImportError) -> UInt8? {
        if position == count {
            guard try refill() else { return nil }
        }
        let byte = buffer[position]
        position += 1
        offset += 1
        if byte == 0x0A {
            if !afterCR { line += 1 }
            column = 1
            afterCR = false
        } else if byte == 0x0D {
            line += 1
            column = 1
            afterCR = true
        } else {
            afterCR = false
            if byte & 0xC0 != 0x80 { column += 1 }
        }
        return byte
    }

    /// The next byte without taking it, or nil at the end of the file.
    @inline(__always)
    mutating func peek() throws(ImportError) -> UInt8? {
        if position == count {
            guard try refill() else { return nil }
        }
        return buffer[position]
    }

    /// Reads the next chunk; false at the end of the file.
    private mutating func refill() throws(ImportError) -> Bool {
        guard !ended else { return false }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError("cannot read: \(CSVByteSource.errorText())", file: path)
            }
            if n == 0 {
                ended = true
                return false
            }
            position = 0
            count = n
            // A UTF-8 byte-order mark (as spreadsheets write one) is not part of the text.
            if !started && n >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
                started = true
                position = 3
                if n == 3 { continue }
            }
            started = true
            return true
        }
    }
}
