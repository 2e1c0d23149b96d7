import DebugShell
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// A file a test run takes.
struct TestFile: Equatable {
    /// As reports name it: the path given, or the folder given joined with the path inside it.
    var path: String
    /// What `--shard` hashes: the path inside the folder given (or the file's path as given),
    /// so a file lands in the same shard wherever the checkout is.
    var key: String
}

/// Finding, sharding and filtering the files of a run (docs/Testing.md).
enum TestFiles {
    struct UsageError: Error {
        var message: String
    }

    /// The files under `paths`: a file as it is, a folder's `*.dsh` recursively (hidden entries
    /// and `.build` left out), in byte order of their paths, each once.
    static func find(_ paths: [String]) throws(UsageError) -> [TestFile] {
        var files: [TestFile] = []
        for given in paths.isEmpty ? ["."] : paths {
            let root = normalized(given)
            guard FileIO.exists(given) else {
                throw UsageError(message: "cannot open '\(given)': No such file or directory")
            }
            if FileIO.isDirectory(given) {
                var walker = Walker()
                try walker.walk(given, relative: "", depth: 0)
                for relative in walker.files {
                    files.append(TestFile(path: root == "." ? relative : root + "/" + relative, key: relative))
                }
            } else {
                if let kind = notRegular(given) {
                    throw UsageError(message: "'\(given)' is \(kind), not a regular file: a test is a script file")
                }
                files.append(TestFile(path: root, key: root))
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0.path).inserted }.sorted {
            Array($0.path.utf8).lexicographicallyPrecedes($1.path.utf8)
        }
    }

    /// `./a//b/` → `a/b`; `.` stays.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The deepest folder a run walks into below a folder given (docs/Limits.md).
    static let maxDepth = 128

    /// A folder walk: each folder once, whatever links lead to it (a link to a parent would
    /// otherwise run the same files again and again, two of them for ever); names in byte order,
    /// so which of two links to one folder names its files is the same on every machine.
    struct Walker {
        private(set) var files: [String] = []
        /// The folders walked, by device and inode.
        private var seen = Set<[UInt64]>()

        mutating func walk(_ directory: String, relative: String, depth: Int) throws(UsageError) {
            var st = stat()
            guard stat(directory, &st) == 0 else { return }
            guard seen.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
            guard depth <= TestFiles.maxDepth else {
                throw UsageError(
                    message:
                        "'\(directory)': folders nested deeper than \(TestFiles.maxDepth) levels: not a test folder")
            }
            guard let dir = opendir(directory) else { return }
            var names: [String] = []
            var bad: [String] = []
            while let entry = readdir(dir) {
                let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                if bytes.first == UInt8(ascii: ".") { continue }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    bad.append(VisibleText.escaped(bytes: bytes))
                    continue
                }
                if name == ".build" { continue }
                names.append(name)
            }
            closedir(dir)
            if let first = bad.sorted().first {
                throw UsageError(
                    message:
                        "'\(directory)/\(first)': a name that is not UTF-8 (its bytes escaped): rename it — tests and reports name files as text"
                )
            }
            names.sort { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
            for name in names {
                let path = directory + "/" + name
                let inside = relative.isEmpty ? name : relative + "/" + name
                if FileIO.isDirectory(path) {
                    try walk(path, relative: inside, depth: depth + 1)
                } else if name.hasSuffix(".dsh") {
                    if let kind = TestFiles.notRegular(path) {
                        throw UsageError(
                            message: "'\(path)' is \(kind), not a regular file: a test is a script file")
                    }
                    files.append(inside)
                }
            }
        }
    }

    /// What a path is when it is not a regular file (`a FIFO`); nil for a regular file or one that
    /// does not exist (which the run reports as it opens it).
    static func notRegular(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        default: return "not a file"
        }
    }

    /// `i/n` with 1 ≤ i ≤ n.
    static func parseShard(_ text: String) throws(UsageError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else {
            throw UsageError(message: "--shard takes i/n with 1 ≤ i ≤ n (as 2/3), not '\(text)'")
        }
        return (i, n)
    }

    /// FNV-1a (64 bits) of the key's UTF-8 bytes: the same on every machine and every run, unlike
    /// Swift's seeded `Hasher`.
    static func fnv1a(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    /// Whether the file is in shard `index` of `count` (1-based).
    static func inShard(_ file: TestFile, index: Int, count: Int) -> Bool {
        fnv1a(file.key) % UInt64(count) == UInt64(index - 1)
    }

    /// Whether the path contains `filter`, or matches it as a glob when it has `*`, `?` or `[`
    /// (`*` crosses `/`).
    static func matches(_ file: TestFile, _ filter: String) -> Bool {
        if filter.contains(where: { "*?[".contains($0) }) {
            return fnmatch(filter, file.path, 0) == 0 || fnmatch(filter, file.key, 0) == 0
        }
        return file.path.contains(filter)
    }

    /// The reason in a `# test: skip <reason>` line among the file's first comment lines, if any.
    static func skipReason(_ text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(20) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            guard trimmed.hasPrefix("#") else { return nil }
            let comment = trimmed.dropFirst().drop { $0 == " " }
            if comment.hasPrefix("test: skip") {
                let reason = comment.dropFirst("test: skip".count).drop { $0 == " " }
                return reason.isEmpty ? "skipped" : String(reason)
            }
        }
        return nil
    }
}

/// Small file helpers of the runner (raw bytes, no limit but the one given).
enum RunnerFiles {
    /// The last `limit` bytes of a file (all of it when shorter), or nil when it cannot be read.
    static func tail(_ path: String, limit: Int) -> (bytes: [UInt8], dropped: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
        let start = max(0, size - limit)
        lseek(fd, off_t(start), SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: size - start)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base + offset, raw.count - offset)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        return (Array(bytes.prefix(offset)), start)
    }

    /// The first `limit` bytes of a file as text, or nil when it cannot be read.
    static func head(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit)
        let n = bytes.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return read(fd, base, raw.count)
        }
        return n > 0 ? String(decoding: bytes.prefix(n), as: UTF8.self) : nil
    }

    static func text(_ path: String, limit: Int = 1 << 20) -> String {
        guard let (bytes, dropped) = tail(path, limit: limit) else { return "" }
        let text = String(decoding: bytes, as: UTF8.self)
        return dropped > 0 ? "[… \(dropped) bytes before this left out]\n" + text : text
    }

    static func remove(_ path: String) { unlink(path) }
}
