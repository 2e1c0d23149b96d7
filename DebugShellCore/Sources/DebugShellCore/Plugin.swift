/// A plugin: a shared library of tools that debugsh loads at run time (`plugin load`).
///
/// A plugin library exports two C entry points, which the shell looks up by name:
///
/// ```swift
/// import DebugShellCore
///
/// @_cdecl("debugsh_plugin_api_version")
/// public func debugshPluginAPIVersion() -> Int64 { DebugShellPlugin.buildStamp }
///
/// @_cdecl("debugsh_plugin_manifest")
/// public func debugshPluginManifest() -> UnsafeMutableRawPointer {
///     DebugShellPlugin(name: "hangs", version: "1.0.0", tools: [HangDetector.self]).retainedPointer()
/// }
/// ```
///
/// `debugsh_plugin_api_version` returns ``buildStamp``: the plugin API version, the Swift
/// compiler and the fingerprint of the DebugShellCore sources (``interfaceFingerprint``) the
/// plugin was compiled with. The shell calls it first and goes no further unless all three equal
/// its own (Swift has no stable ABI on Linux: a plugin built against an edited DebugShellCore,
/// even of the same API version, could read a type's fields where they are not), then calls
/// `debugsh_plugin_manifest` once, taking ownership of the manifest. One library may hold
/// several tools; each is registered as the built-in tools are.
public final class DebugShellPlugin {
    /// The version of the plugin API. It changes whenever a declaration a plugin can use changes.
    @_alwaysEmitIntoClient public static var apiVersion: Int32 { 6 }

    /// The Swift compiler this code was compiled with, as major × 100 + minor (6.3 → 603).
    ///
    /// Emitted into the client, like ``apiVersion``: a plugin reports its own compiler, not the
    /// shell's.
    @_alwaysEmitIntoClient public static var compilerVersion: Int32 {
        #if compiler(>=7.0)
            return 700
        #elseif compiler(>=6.5)
            return 605
        #elseif compiler(>=6.4)
            return 604
        #elseif compiler(>=6.3)
            return 603
        #elseif compiler(>=6.2)
            return 602
        #elseif compiler(>=6.1)
            return 601
        #else
            return 600
        #endif
    }

    /// What `debugsh_plugin_api_version` returns, as the code calling it was compiled: the API
    /// version in bits 32–47, the compiler version in bits 0–15, and ``interfaceFingerprint`` in
    /// bits 16–31 (its low half) and 48–63 (its high half).
    ///
    /// A stamp of API 4 and before (the API version in the high 32 bits, the compiler in the low
    /// 32) reads the same way, with no fingerprint (0): the shell still names its API version
    /// and compiler.
    @_alwaysEmitIntoClient public static var buildStamp: Int64 {
        let fingerprint = UInt64(interfaceFingerprint)
        let api = UInt64(UInt16(truncatingIfNeeded: apiVersion))
        let compiler = UInt64(UInt16(truncatingIfNeeded: compilerVersion))
        return Int64(bitPattern: (fingerprint >> 16) << 48 | api << 32 | (fingerprint & 0xFFFF) << 16 | compiler)
    }

    /// The fingerprint of the DebugShellCore library loaded in this process, as that library
    /// was compiled — not inlined into the caller, as ``interfaceFingerprint`` is. The shell
    /// compares a plugin's stamp with this: the library the shell, its tools and every plugin
    /// share is the truth, whatever an incremental build left compiled into the shell's own code
    /// (an inlined body does not always make its callers recompile).
    public static var libraryFingerprint: UInt32 { interfaceFingerprint }

    /// The C names of the entry points.
    public static let versionSymbol = "debugsh_plugin_api_version"
    public static let manifestSymbol = "debugsh_plugin_manifest"

    /// The plugin's name, shown by `plugin list` and named in recordings that need it.
    public let name: String
    /// The plugin's own version, for people.
    public let version: String
    /// The tools it adds, in the order they register.
    public let tools: [any DebugTool.Type]

    public init(name: String, version: String, tools: [any DebugTool.Type]) {
        self.name = name
        self.version = version
        self.tools = tools
    }

    /// The manifest as `debugsh_plugin_manifest` returns it: retained once, for the shell to
    /// take.
    public func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// Takes what `debugsh_plugin_manifest` returned, and the reference it holds: the host's
    /// side of ``retainedPointer()``, so that both ends of the hand-off live here.
    ///
    /// - Returns: the object, a ``DebugShellPlugin`` unless the library is not a plugin of this
    ///   API.
    public static func adopt(manifest pointer: UnsafeMutableRawPointer) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
    }
}
