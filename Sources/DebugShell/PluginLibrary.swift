import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

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
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
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

extension Session {
    /// `plugin load <path>`: loads a plugin library and registers its tools, all or none.
    @discardableResult
    public func loadPlugin(_ path: String) throws(CommandError) -> LoadedPlugin {
        let file = try PluginLibrary.identify(path)
        if let loaded = plugins.first(where: { $0.device == file.device && $0.inode == file.inode }) {
            throw CommandError("'\(path)' is already loaded (plugin '\(loaded.name)' from \(loaded.path))")
        }
        let opened = try PluginLibrary.open(path)
        let manifest = opened.manifest
        if let loaded = plugins.first(where: { $0.name == manifest.name }) {
            throw CommandError("'\(path)': a plugin named '\(manifest.name)' is already loaded, from \(loaded.path)")
        }
        guard !manifest.tools.isEmpty else { throw CommandError("'\(path)': plugin '\(manifest.name)' has no tools") }
        do {
            try addTools(manifest.tools)
        } catch {
            throw CommandError("'\(path)': plugin '\(manifest.name)' cannot be registered: \(error)")
        }
        let plugin = LoadedPlugin(
            name: manifest.name, version: manifest.version, path: path, resolvedPath: opened.resolvedPath,
            tools: manifest.tools.map { $0.descriptor.name }, device: opened.device, inode: opened.inode)
        plugins.append(plugin)
        return plugin
    }

    /// The `plugin` command.
    func pluginCommand(_ inv: Invocation) throws(CommandError) -> CommandOutput {
        switch inv.verb {
        case "load":
            let plugin = try loadPlugin(inv.word("path") ?? "")
            return CommandOutput(
                text: "loaded plugin \(plugin.name) \(plugin.version): \(plugin.tools.joined(separator: ", "))",
                json: self.pluginJSON(plugin))
        case "require":
            let name = inv.word("name") ?? ""
            if let loaded = plugins.first(where: { $0.name == name }) {
                return CommandOutput(json: self.pluginJSON(loaded))
            }
            guard let path = inv.word("from") else {
                throw CommandError(
                    "this needs the plugin '\(name)': load it with 'plugin load <path>' or 'debugsh --plugin <path>'")
            }
            let plugin = try loadPlugin(path)
            guard plugin.name == name else {
                throw CommandError("'\(path)' is the plugin '\(plugin.name)', not '\(name)' (its tools are loaded)")
            }
            return CommandOutput(json: self.pluginJSON(plugin))
        default:
            return pluginList()
        }
    }

    private func pluginJSON(_ p: LoadedPlugin) -> JSONValue {
        .fields([
            "name": .string(p.name), "version": .string(p.version), "path": .string(p.path),
            "resolved_path": .string(p.resolvedPath), "tools": .array(p.tools.map { .string($0) }),
        ])
    }

    /// `plugin list`: the built-in tools, then each loaded library.
    private func pluginList() -> CommandOutput {
        let loadedTools = Set(plugins.flatMap(\.tools))
        let builtIn = registry.toolDescriptors.map(\.name).filter { !loadedTools.contains($0) }
        var rows = [["name", "version", "path", "tools"]]
        rows.append(["built-in", DebugShellVersion.text, "(in debugsh)", builtIn.joined(separator: ", ")])
        for p in plugins { rows.append([p.name, p.version, p.resolvedPath, p.tools.joined(separator: ", ")]) }
        let widths = (0..<4).map { k in rows.map { $0[k].count }.max() ?? 0 }
        let text = rows.map { row in
            row.enumerated().map { k, cell in k == 3 ? cell : cell.padding(widths[k]) }.joined(separator: "  ")
        }.joined(separator: "\n")
        var json: [JSONValue] = [
            .fields([
                "name": .string("built-in"), "version": .string(DebugShellVersion.text), "path": .null,
                "resolved_path": .null, "tools": .array(builtIn.map { .string($0) }),
            ])
        ]
        json += plugins.map(pluginJSON)
        let footer = plugins.isEmpty ? "\nno plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)" : ""
        return CommandOutput(text: text + footer, json: .array(json))
    }
}

/// debugsh's version, for `--version` and `plugin list`.
public enum DebugShellVersion {
    public static let text = "0.2.0"
}
