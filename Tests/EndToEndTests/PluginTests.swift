import DebugShellTesting
import Foundation
import Testing

/// Tools from outside the repository (`plugin load`, `--plugin`, the plugin folder) on the built
/// binary, with the example plugin built in a temporary folder against this checkout's API.
@Suite(.serialized) struct PluginTests {
    func library() throws -> String { try ExamplePlugin.library.get() }

    /// An empty config folder, so that no plugin of the machine's loads by itself.
    let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// A loaded tool is a tool like the built-in ones: commands, events, metrics, `expect`, the
    /// status line, help, apropos, JSON, `reset`.
    @Test func aLoadedToolIsAToolLikeTheOthers() throws {
        let lib = try library()
        let r = try Binary.run(
            [
                "--plugin", lib, "-c", "hangs start --over 100ms", "-c", "stall 300ms",
                "-c", "timer nstimer slow --interval 500ms --cost 180ms", "-c", "run 1s", "-c", "get hangs.count",
                "-c", "expect hangs.count == 2 and hangs.longest == 300ms", "-c", "hangs", "-c", "status hangs on",
                "-c", "status", "-c", "apropos watchdog", "-c", "reset", "-c", "get hangs.count",
            ], environment: isolated)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                [0.100s] hangs: main thread blocked 100ms by a main-queue block 'stall 300ms' (since 0s)
                [0.600s] hangs: main thread blocked 100ms by the NSTimer 'slow' (since 500ms)
                hangs.count = 2
                #  start     length     seen at   blocked by
                1  0s        300ms      100ms     a main-queue block 'stall 300ms'
                2  500ms     180ms      600ms     the NSTimer 'slow'
                fps —
                layout —
                timers 0 · late 0 · leaks 0 · wakeups 1
                hangs 2 · longest 300ms (stall 300ms) · over 100ms
                hangs start — Start the watchdog: every --poll it checks what the main thread runs.
                option --poll of hangs start — How often the watchdog looks.
                hangs stop — Stop the watchdog; what it found stays.
                metric hangs.count — Hangs the watchdog has seen.
                event hangs.detected — The watchdog saw a block over the threshold.
                hangs.count = 0

                """, "\(r)")
        let json = try Binary.run(["--json", "--plugin", lib, "-c", "get hangs.count"], environment: isolated)
        #expect(
            json.stdout
                == #"{"command": "get hangs.count", "ok": true, "result": {"metric": "hangs.count", "type": "integer", "value": 0}}"#
                + "\n", "\(json)")
        let help = try Binary.run(["--plugin", lib, "-c", "help hangs start"], environment: isolated)
        #expect(help.stdout.hasPrefix("hangs start — Start the watchdog"), "\(help)")
    }

    /// `plugin load` in a script, then `plugin list`; its examples replay as written.
    @Test func loadedFromAScriptAndListed() throws {
        let lib = try library()
        let dir = try Binary.folder([
            "s.dsh":
                "plugin load '\(lib)'\nplugin list\nhangs start --over 100ms\nstall 300ms\nrun 1s\nget hangs.count\n"
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["--no-rc", "s.dsh"], directory: dir, environment: isolated)
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "loaded plugin hangs 1.0.0: hangs")
        #expect(lines.dropFirst().first?.hasPrefix("name      version  path") == true)
        #expect(lines.contains { $0.hasPrefix("hangs     1.0.0    /") && $0.hasSuffix("libHangDetector.so  hangs") })
        #expect(lines.last == "hangs.count = 1")
    }

    /// Every library in $XDG_CONFIG_HOME/debugsh/plugins/ loads at start, unless --no-plugins.
    @Test func thePluginFolderLoadsAtStart() throws {
        let lib = try library()
        let config = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: config) }
        let plugins = config.appendingPathComponent("debugsh/plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: plugins.appendingPathComponent("libHangDetector.so").path, withDestinationPath: lib)
        let env = ["XDG_CONFIG_HOME": config.path]
        let on = try Binary.run(["-c", "get hangs.count"], environment: env)
        #expect(on.stdout == "hangs.count = 0\n", "\(on)")
        let off = try Binary.run(["--no-plugins", "-c", "get hangs.count"], environment: env)
        #expect(off.status == 1)
        #expect(off.stderr.contains("unknown metric 'hangs.count'"), "\(off)")
        // A broken library in the folder is skipped with a warning; the rest go on.
        try "not a library".write(to: plugins.appendingPathComponent("broken.so"), atomically: true, encoding: .utf8)
        let warned = try Binary.run(["-c", "get hangs.count"], environment: env)
        #expect(warned.stdout == "hangs.count = 0\n", "\(warned)")
        #expect(
            warned.stderr.hasPrefix(
                "debugsh: warning: skipped plugin: '\(plugins.path)/broken.so' is not a shared library"))
    }

    /// A recording names the plugins it needs; it replays with the plugin loaded or not.
    @Test func aRecordingNamesItsPlugins() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            [
                "--plugin", lib, "-c", "record r.dsh", "-c", "hangs start --over 100ms", "-c", "stall 300ms",
                "-c", "run 1s", "-c", "record stop",
            ], directory: dir, environment: isolated)
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let resolved = URL(fileURLWithPath: lib).resolvingSymlinksInPath().path
        #expect(text.contains("\nplugin require hangs --from \(resolved)\n"), "\(text)")
        for arguments in [["r.dsh"], ["--plugin", lib, "r.dsh"]] {
            let replay = try Binary.run(arguments + ["-c", "get hangs.count"], directory: dir, environment: isolated)
            #expect(replay.stdout.hasSuffix("hangs.count = 1\n"), "\(arguments): \(replay)")
        }
    }

    // MARK: Errors: each clear, nothing half-registered

    /// Runs `plugin load <path>` then `plugin list`: the error, and the list unchanged.
    func expectRefused(_ path: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try Binary.run(["-k", "-c", "plugin load \(path)", "-c", "plugin list"], environment: isolated)
        #expect(r.status == 1, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr == "<command-line>:1: error: \(message)\n", "\(r)", sourceLocation: sourceLocation)
        #expect(
            r.stdout.hasSuffix("no plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)\n"),
            sourceLocation: sourceLocation)
        let option = try Binary.run(["--plugin", path, "-c", "echo not reached"], environment: isolated)
        #expect(option.status == 2 && option.stdout.isEmpty, "\(option)", sourceLocation: sourceLocation)
        #expect(option.stderr == "debugsh: --plugin: \(message)\n", sourceLocation: sourceLocation)
    }

    @Test func aMissingFile() throws {
        try expectRefused(
            "/no/such/libPlugin.so", "cannot load plugin '/no/such/libPlugin.so': No such file or directory")
    }

    @Test func aFileThatIsNotASharedLibrary() throws {
        let dir = try Binary.folder(["text.so": String(repeating: "not a shared library\n", count: 20)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("text.so").path
        try expectRefused(
            path, "'\(path)' is not a shared library that can be loaded: \(path): invalid ELF header")
    }

    /// A system library: a shared library, but not a plugin.
    @Test func aLibraryWithoutTheEntryPoints() throws {
        let candidates = ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib64/libz.so.1"]
        let libz = try #require(candidates.first { FileManager.default.fileExists(atPath: $0) })
        try expectRefused(
            libz,
            "'\(libz)' is not a debugsh plugin: it does not export debugsh_plugin_api_version (see docs/Plugins.md)")
    }

    /// A library built for another API version or compiler: both versions named, nothing of it
    /// run but its version function.
    @Test(arguments: [(4, 603, "plugin API 4 with Swift 6.3"), (1, 509, "plugin API 1 with Swift 5.9")])
    func aWrongVersion(api: Int, compiler: Int, built: String) throws {
        let dir = try Binary.folder([
            "plugin.c": """
            long long debugsh_plugin_api_version(void) { return ((long long)\(api) << 32) | \(compiler); }
            void *debugsh_plugin_manifest(void) { __builtin_trap(); }
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("libold.so").path
        let (log, status) = try ExamplePlugin.tool(
            ["cc", "-shared", "-fPIC", "-o", lib, dir.appendingPathComponent("plugin.c").path])
        try #require(status == 0, "\(log)")
        try expectRefused(
            lib,
            "'\(lib)' was built for \(built); this debugsh has plugin API 5, Swift 6.3: rebuild the plugin against this debugsh's DebugShellCore with the same toolchain"
        )
    }

    /// A tool whose names clash with a loaded one's: refused, and the first one still works.
    @Test func aToolThatClashes() throws {
        let first = try library()
        let second = try ExamplePlugin.clashing.get()
        let r = try Binary.run(
            ["-k", "--plugin", first, "-c", "plugin load \(second)", "-c", "plugin list", "-c", "get hangs.count"],
            environment: isolated)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "<command-line>:1: error: '\(second)': plugin 'hangs-again' cannot be registered: tool 'hangs': tool name 'hangs' is taken by the tool 'hangs' (plugin 'hangs')\n",
            "\(r)")
        #expect(!r.stdout.contains("hangs-again"))
        #expect(r.stdout.hasSuffix("hangs.count = 0\n"))
    }

    /// The same library twice — by its path or through a link — is refused.
    @Test func aLibraryAlreadyLoaded() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("link.so").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: lib)
        for path in [lib, link] {
            let r = try Binary.run(["-k", "--plugin", lib, "-c", "plugin load \(path)"], environment: isolated)
            #expect(r.status == 1)
            #expect(
                r.stderr == "<command-line>:1: error: '\(path)' is already loaded (plugin 'hangs' from \(lib))\n",
                "\(r)")
        }
    }

    // MARK: One copy of the API

    /// debugsh and the plugin both link the one shared DebugShellCore and define none of its
    /// symbols themselves; at run time the library loads once.
    @Test func oneSharedDebugShellCore() throws {
        let lib = try library()
        for binary in [Binary.path, lib] {
            let (ldd, _) = try ExamplePlugin.tool(["ldd", binary])
            #expect(ldd.contains("libDebugShellCore.so => "), "\(binary): \(ldd)")
        }
        let core = URL(fileURLWithPath: Binary.path).deletingLastPathComponent()
            .appendingPathComponent("libDebugShellCore.so").path
        func exported(_ path: String) throws -> Set<String> {
            let (out, _) = try ExamplePlugin.tool(["nm", "--defined-only", "--extern-only", "-j", path])
            // Swift symbols only: every ELF file defines the linker's own (`_end`).
            return Set(out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("$s") })
        }
        let api = try exported(core)
        #expect(api.contains { $0.hasPrefix("$s14DebugShellCore0A4ToolMp") }, "the protocol is in the library")
        for binary in [Binary.path, lib] {
            #expect(try exported(binary).intersection(api).isEmpty, "\(binary) defines DebugShellCore symbols")
        }
        let (trace, _) = try ExamplePlugin.tool(
            [Binary.path, "--plugin", lib, "-c", "quit"], environment: isolated.merging(["LD_DEBUG": "libs"]) { $1 })
        let inits = trace.split(separator: "\n").filter {
            $0.contains("calling init:") && $0.contains("libDebugShellCore")
        }
        #expect(inits.count == 1, "\(inits)")
    }

    /// The example plugin's own tests pass — its examples replayed through DebugShellTesting, its
    /// watchdog checked — run as its author runs them: `swift test` in Examples/ExternalTool,
    /// against this checkout. They build in the example's own `.build`, so a second run only
    /// rebuilds what changed. SwiftPM keeps a package's build plan until its own manifest
    /// changes, not when a file of the checkout it depends on is added or renamed (it then
    /// reports "missing inputs"): the plan is made afresh each time, which costs well under a
    /// second.
    @Test func theExamplePluginsOwnTestsPass() throws {
        let package = ExamplePlugin.packageRoot.appendingPathComponent("Examples/ExternalTool").path
        let (log, status) = try ExamplePlugin.tool([
            "swift", "test", "--package-path", package, "--disable-build-manifest-caching",
        ])
        #expect(status == 0, "\(log)")
        #expect(log.contains("Suite HangDetectorTests passed"), "\(log)")
        #expect(log.contains("Suite FrameBudgetTests passed"), "\(log)")
        #expect(!log.contains("✘"), "\(log)")
    }

    /// The API's documentation comments and its DocC catalog build, with warnings as errors.
    @Test func theAPIDocumentationBuilds() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = ExamplePlugin.packageRoot.appendingPathComponent("scripts/build-api-docs").path
        let (log, status) = try ExamplePlugin.tool([script, out.path])
        #expect(status == 0, "\(log)")
        #expect(
            FileManager.default.fileExists(
                atPath: out.appendingPathComponent("data/documentation/debugshellcore/writingaplugin.json").path))
    }
}
