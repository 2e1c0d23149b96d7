import DebugShellCore
import DebugShellInterpreter
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plugin library loaded into the process, as `plugin list` shows it.
public struct LoadedPlugin: Sendable {
    /// The plugin's own name and version, from its manifest.
    public var name: String
    public var version: String
    /// The path as given (`plugin list` shows it), and the file it resolved to (recordings name
    /// it, so that they replay from any folder).
    public var path: String
    public var resolvedPath: String
    /// The names of the tools it added.
    public var tools: [String]
    /// The file's identity, so the same library under another path is recognised.
    var device: UInt64
    var inode: UInt64
}

/// What a plugin was built with, as its build stamp says (`DebugShellPlugin.buildStamp`).
struct BuildIdentity: Equatable, Sendable {
    var api: Int32
    /// The Swift compiler, as major × 100 + minor.
    var compiler: Int32
    /// The fingerprint of the DebugShellCore sources it was compiled against; 0 when the stamp
    /// carries none (API 4 and before, and API 5 before the fingerprint).
    var fingerprint: UInt32

    init(api: Int32, compiler: Int32, fingerprint: UInt32) {
        self.api = api
        self.compiler = compiler
        self.fingerprint = fingerprint
    }

    /// Reads a stamp: the API version in bits 32–47, the compiler in bits 0–15, the fingerprint
    /// in bits 16–31 (low half) and 48–63 (high half). An older stamp — API version in the high
    /// 32 bits, compiler in the low 32, both small — reads as the same versions without a
    /// fingerprint.
    init(stamp: Int64) {
        let bits = UInt64(bitPattern: stamp)
        api = Int32(truncatingIfNeeded: (bits >> 32) & 0xFFFF)
        compiler = Int32(truncatingIfNeeded: bits & 0xFFFF)
        fingerprint = UInt32(truncatingIfNeeded: bits >> 48) << 16 | UInt32(truncatingIfNeeded: (bits >> 16) & 0xFFFF)
    }

    /// This debugsh's: its API version and compiler, and the fingerprint of the DebugShellCore
    /// library it has loaded (which a plugin links too).
    static var host: BuildIdentity {
        BuildIdentity(
            api: DebugShellPlugin.apiVersion, compiler: DebugShellPlugin.compilerVersion,
            fingerprint: DebugShellPlugin.libraryFingerprint)
    }

    /// `6.3` from 603.
    var swift: String { "\(compiler / 100).\(compiler % 100)" }

    /// Eight lowercase hexadecimal digits, or `none`.
    var fingerprintText: String {
        guard fingerprint != 0 else { return "none" }
        let digits = String(fingerprint, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// A file as the system describes it: which file it is, and its size and modification time, so
/// that a library rebuilt at the same path — a new file, or the same one rewritten — is told
/// from the one opened.
struct FileState: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
}

/// Opens plugin libraries with the dynamic linker and checks them before anything of theirs runs
/// but the version function.
///
/// A library is never closed: a Swift library registers its types with the runtime as it is
/// loaded, and unloading it would leave the runtime pointing into freed memory (LLDB keeps its
/// plugins for the same reason). So the dynamic linker hands back the library it opened first
/// whenever the same path (or file) is opened again, even once the file was rebuilt: what was
/// opened is remembered, and a changed file is refused with that reason.
enum PluginLibrary {
    /// Loads a plugin library into the session and registers its tools, all or none; with
    /// `expected`, only if the library's plugin has that name (`plugin require <name> --from
    /// <path>`), checked before anything of it is registered.
    static func load(_ path: String, named expected: String?, into session: Session) throws(CommandError)
        -> LoadedPlugin
    {
        let tools = session.tools
        let file = try identify(path)
        if hasChanged(file.resolved, file.state) {
            throw CommandError(
                "'\(path)' changed since debugsh opened it; a library cannot be unloaded: restart debugsh to load the rebuilt plugin"
            )
        }
        if let loaded = tools.plugins.first(where: { $0.device == file.state.device && $0.inode == file.state.inode }) {
            throw CommandError("'\(path)' is already loaded (plugin '\(loaded.name)' from \(loaded.path))")
        }
        // From here the plugin's code runs: a trap names it, and the rescue's recording has the
        // load (``PluginLoad``).
        tools.loading = PluginLoad(
            path: path, resolvedPath: file.resolved, issuedAt: session.recorder.loadPosition)
        defer { tools.loading = nil }
        let manifest = try open(path, resolved: file.resolved, state: file.state, tools: tools)
        guard ToolRegistry.isIdentifier(manifest.name) else {
            throw CommandError("'\(path)': its plugin name '\(manifest.name)' is not valid: \(PluginCommand.nameRule)")
        }
        tools.loading?.name = manifest.name
        if let expected, manifest.name != expected {
            throw CommandError(
                "'\(path)' is the plugin '\(manifest.name)', not '\(expected)' (nothing of it was registered)")
        }
        if let loaded = tools.plugins.first(where: { $0.name == manifest.name }) {
            throw CommandError("'\(path)': a plugin named '\(manifest.name)' is already loaded, from \(loaded.path)")
        }
        guard !manifest.tools.isEmpty else { throw CommandError("'\(path)': plugin '\(manifest.name)' has no tools") }
        let first = session.registry.toolDescriptors.count
        do {
            try session.addTools(manifest.tools, plugin: manifest.name)
        } catch {
            throw CommandError("'\(path)': plugin '\(manifest.name)' cannot be registered: \(error)")
        }
        // The names as registered: a plugin's `descriptor` is read once.
        let plugin = LoadedPlugin(
            name: manifest.name, version: manifest.version, path: path, resolvedPath: file.resolved,
            tools: session.registry.toolDescriptors[first...].map(\.name), device: file.state.device,
            inode: file.state.inode)
        tools.plugins.append(plugin)
        return plugin
    }

    /// Every library the process has opened, by resolved path, with its file as it was then.
    /// The process's, not a session's: the dynamic linker's mappings are the process's.
    static let opened = Mutex<[String: FileState]>([:])

    /// `~` and `~/…` with the home folder (`$HOME`) in place of `~`; anything else — `~user`
    /// included — as written.
    static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        guard let raw = getenv("HOME") else { return path }
        let home = String(cString: raw)
        return home.isEmpty ? path : home + path.dropFirst()
    }

    /// The file `path` names (`~` expanded), resolved, with its state; an error if it is not a
    /// file.
    static func identify(_ path: String) throws(CommandError) -> (resolved: String, state: FileState) {
        let expanded = expandingHome(path)
        guard let resolved = realpath(expanded, nil) else {
            let reason = String(cString: strerror(errno))
            let hint =
                path.hasPrefix("~") && expanded == path ? " (debugsh expands '~' and '~/…' only, from $HOME)" : ""
            throw CommandError("cannot load plugin '\(path)': \(reason)\(hint)")
        }
        defer { free(resolved) }
        var st = stat()
        guard stat(resolved, &st) == 0 else {
            throw CommandError("cannot load plugin '\(path)': \(String(cString: strerror(errno)))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw CommandError("cannot load plugin '\(path)': not a regular file")
        }
        let state = FileState(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
            modifiedSeconds: Int(st.st_mtim.tv_sec), modifiedNanoseconds: Int(st.st_mtim.tv_nsec))
        return (String(cString: resolved), state)
    }

    /// Whether the process opened this path, or this file under another path, and the file has
    /// changed since: the dynamic linker would hand back what it opened then.
    static func hasChanged(_ resolved: String, _ state: FileState) -> Bool {
        opened.withLock { table in
            table.contains { path, then in
                (path == resolved || (then.device == state.device && then.inode == state.inode)) && then != state
            }
        }
    }

    /// Loads the library, checks its API version, compiler and DebugShellCore fingerprint, and
    /// takes its manifest. `path` is the path as given, for messages.
    /// Each call into the library — the dynamic linker running its initializers, its two entry
    /// points — is noted as the plugin's code (``ToolSet/calling(_:tool:label:at:_:)``).
    static func open(_ path: String, resolved: String, state: FileState, tools: ToolSet) throws(CommandError)
        -> DebugShellPlugin
    {
        guard let handle = tools.calling(.libraryLoad, tool: -1, { dlopen(resolved, RTLD_NOW | RTLD_LOCAL) }) else {
            let reason = dlerror().map { String(cString: $0) } ?? "the dynamic linker refused it"
            throw CommandError("'\(path)' is not a shared library that can be loaded: \(reason)")
        }
        // Mapped now, for as long as the process lives, whatever follows.
        opened.withLock { table in
            if table[resolved] == nil { table[resolved] = state }
        }
        typealias VersionFunction = @convention(c) () -> Int64
        typealias ManifestFunction = @convention(c) () -> UnsafeMutableRawPointer?
        guard let versionSymbol = dlsym(handle, DebugShellPlugin.versionSymbol) else {
            throw CommandError(
                "'\(path)' is not a debugsh plugin: it does not export \(DebugShellPlugin.versionSymbol) (see docs/Plugins.md)"
            )
        }
        // The only call into the library before its build is known to match.
        let version = unsafeBitCast(versionSymbol, to: VersionFunction.self)
        let built = BuildIdentity(stamp: tools.calling(.versionEntryPoint, tool: -1) { version() })
        let host = BuildIdentity.host
        if built.api != host.api || built.compiler != host.compiler {
            throw CommandError(
                "'\(path)' was built for plugin API \(built.api) with Swift \(built.swift); this debugsh has plugin API \(host.api), Swift \(host.swift): rebuild the plugin against this debugsh's DebugShellCore with the same toolchain"
            )
        }
        if built.fingerprint != host.fingerprint {
            throw CommandError(
                "'\(path)' was built against another DebugShellCore: fingerprint \(built.fingerprintText), this debugsh's \(host.fingerprintText) (both plugin API \(host.api), Swift \(host.swift)): rebuild the plugin against this debugsh's DebugShellCore"
            )
        }
        guard let manifestSymbol = dlsym(handle, DebugShellPlugin.manifestSymbol) else {
            throw CommandError(
                "'\(path)' is not a debugsh plugin: it does not export \(DebugShellPlugin.manifestSymbol) (see docs/Plugins.md)"
            )
        }
        let manifestFunction = unsafeBitCast(manifestSymbol, to: ManifestFunction.self)
        guard let pointer = tools.calling(.manifestEntryPoint, tool: -1, { manifestFunction() }) else {
            throw CommandError("'\(path)': \(DebugShellPlugin.manifestSymbol) returned no manifest")
        }
        let object = DebugShellPlugin.adopt(manifest: pointer)
        guard let manifest = object as? DebugShellPlugin else {
            throw CommandError(
                "'\(path)': its manifest is a \(type(of: object)), not a DebugShellPlugin of this debugsh's DebugShellCore"
            )
        }
        return manifest
    }
}

/// debugsh's version, for `--version` and `plugin list`.
public enum DebugShellVersion {
    public static let text = "0.2.0"

    /// What `debugsh --version` prints: the version, and what a plugin must be built with — the
    /// plugin API version, the Swift compiler and the fingerprint of DebugShellCore's sources.
    public static var full: String {
        let host = BuildIdentity.host
        return
            "debugsh \(text) (plugin API \(host.api), Swift \(host.swift), DebugShellCore fingerprint \(host.fingerprintText))"
    }
}
