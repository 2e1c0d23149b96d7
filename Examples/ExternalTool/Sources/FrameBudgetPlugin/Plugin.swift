import DebugShellCore
import FrameBudget

// The plugin's two entry points (docs/Plugins.md, "The API"): the build stamp, which the shell
// checks before anything else, and the manifest — one plugin, `budget`, with two tools.
//
// They are a target of their own, apart from the tools: every test target of a package is linked
// into one test program, and the hang detector's entry points, under the same C names, are in it
// already. The tests depend on `FrameBudget`, the tools; the library `libFrameBudget.so` is this
// target and them.

@_cdecl("debugsh_plugin_api_version")
public func debugshPluginAPIVersion() -> Int64 { DebugShellPlugin.buildStamp }

@_cdecl("debugsh_plugin_manifest")
public func debugshPluginManifest() -> UnsafeMutableRawPointer {
    DebugShellPlugin(name: "budget", version: "1.0.0", tools: [BudgetWatcher.self, LongSpans.self]).retainedPointer()
}
