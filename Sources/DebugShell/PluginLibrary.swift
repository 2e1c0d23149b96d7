import DebugShellCore

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
    /// The path as given, and the file it resolved to.
    public var path: String
    public var resolvedPath: String
    /// The names of the tools it added.
    public var tools: [String]
    /// The file's identity, so the same library under another path is recognised.
    var device: UInt64
    var inode: UInt64
}

/// Opens plugin libraries with the dynamic linker and checks them before anything of theirs runs
/// but the version function.
///
/// A library is never closed: a Swift library registers its types with the runtime as it is
/// loaded, and unloading it would leave the runtime pointing into freed memory (LLDB keeps its
/// plugins for the same reason).
enum PluginLibrary {
    /// What an open library holds: its manifest, and where it is.
    struct Opened {
        var manifest: DebugShellPlugin
        var resolvedPath: String
        var device: UInt64
        var inode: UInt64
    }

    /// The file `path` names, resolved, with its identity; an error if it is not a file.
    static func identify(_ path: String) throws(CommandError) -> (resolved: String, device: UInt64, inode: UInt64) {
        guard let resolved = realpath(path, nil) else {
            throw CommandError("cannot load plugin '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        var st = stat()
        guard stat(resolved, &st) == 0 else {
            throw CommandError("cannot load plugin '\(path)': \(String(cString: strerror(errno)))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw CommandError("cannot load plugin '\(path)': not a regular file")
        }
        return (String(cString: resolved), UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// Loads the library, checks its API version and compiler, and takes its manifest.
    static func open(_ path: String) throws(CommandError) -> Opened {
        let file = try identify(path)
        guard let handle = dlopen(file.resolved, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "the dynamic linker refused it"
            throw CommandError("'\(path)' is not a shared library that can be loaded: \(reason)")
        }
        typealias VersionFunction = @convention(c) () -> Int64
        typealias ManifestFunction = @convention(c) () -> UnsafeMutableRawPointer?
        guard let versionSymbol = dlsym(handle, DebugShellPlugin.versionSymbol) else {
            throw CommandError(
                "'\(path)' is not a debugsh plugin: it does not export \(DebugShellPlugin.versionSymbol) (see docs/Plugins.md)"
            )
        }
        // The only call into the library before its versions are known to match.
        let stamp = unsafeBitCast(versionSymbol, to: VersionFunction.self)()
        let api = Int32(truncatingIfNeeded: stamp >> 32)
        let compiler = Int32(truncatingIfNeeded: stamp)
        if api != DebugShellPlugin.apiVersion || compiler != DebugShellPlugin.compilerVersion {
            throw CommandError(
                "'\(path)' was built for plugin API \(api) with Swift \(swiftVersion(compiler)); this debugsh has plugin API \(DebugShellPlugin.apiVersion), Swift \(swiftVersion(DebugShellPlugin.compilerVersion)): rebuild the plugin against this debugsh's DebugShellCore with the same toolchain"
            )
        }
        guard let manifestSymbol = dlsym(handle, DebugShellPlugin.manifestSymbol) else {
            throw CommandError(
                "'\(path)' is not a debugsh plugin: it does not export \(DebugShellPlugin.manifestSymbol) (see docs/Plugins.md)"
            )
        }
        guard let pointer = unsafeBitCast(manifestSymbol, to: ManifestFunction.self)() else {
            throw CommandError("'\(path)': \(DebugShellPlugin.manifestSymbol) returned no manifest")
        }
        let object = DebugShellPlugin.adopt(manifest: pointer)
        guard let manifest = object as? DebugShellPlugin else {
            throw CommandError(
                "'\(path)': its manifest is a \(type(of: object)), not a DebugShellPlugin of this debugsh's DebugShellCore"
            )
        }
        return Opened(manifest: manifest, resolvedPath: file.resolved, device: file.device, inode: file.inode)
    }

    /// `6.3` from 603.
    static func swiftVersion(_ code: Int32) -> String { "\(code / 100).\(code % 100)" }
}

/// debugsh's version, for `--version` and `plugin list`.
public enum DebugShellVersion {
    public static let text = "0.2.0"
}
