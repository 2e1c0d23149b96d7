import PackagePlugin

/// Adds `DebugShellPlugin.interfaceFingerprint` to DebugShellCore at build time: a hash of the
/// module's Swift sources (`debugshcore-fingerprint`), so that every binary built against these
/// sources carries their fingerprint, and a plugin built against an edited copy carries another.
@main
struct DebugShellCoreFingerprintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("InterfaceFingerprint.swift")
        return [
            .buildCommand(
                displayName: "Fingerprinting \(target.name)'s interface",
                executable: try context.tool(named: "debugshcore-fingerprint").url,
                arguments: ["--output", output.path, "--root", module.directoryURL.path] + sources.map(\.path),
                inputFiles: sources, outputFiles: [output])
        ]
    }
}
