import DebugShellCoreFingerprint
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
                hangs start — Start the watchdog: every --poll it checks what the main thread
                    runs.
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
            "'\(lib)' was built for \(built); this debugsh has plugin API 6, Swift 6.3: rebuild the plugin against this debugsh's DebugShellCore with the same toolchain"
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

    /// A plugin name outside the grammar of names is refused at load, with the grammar (such a
    /// plugin's recording could not be replayed: `plugin require Bad Name!`).
    @Test func aPluginNameOutsideTheGrammar() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = try ExamplePlugin.compile(
            named: "Bad Name!", into: dir.appendingPathComponent("libBad.so"), products: products
        ).get()
        try expectRefused(
            lib,
            "'\(lib)': its plugin name 'Bad Name!' is not valid: a plugin name is [a-z][a-z0-9-]*, a lowercase letter then lowercase letters, digits and '-'"
        )
    }

    /// `plugin require` checks the name it is given before anything, and the name of what is at
    /// `--from` before registering any of it: nothing is loaded, and a later load works.
    @Test func requireChecksNamesBeforeLoading() throws {
        let lib = try library()
        let r = try Binary.run(
            [
                "-k", "-c", "plugin require wrong --from \(lib)", "-c", "plugin list", "-c", "get hangs.count",
                "-c", "plugin require 'Bad Name!' --from \(lib)", "-c", "plugin require 'Bad Name!'",
                "-c", "plugin require hangs --from \(lib)", "-c", "get hangs.count",
            ], environment: isolated)
        let grammar = "a plugin name is [a-z][a-z0-9-]*, a lowercase letter then lowercase letters, digits and '-'"
        let errors = r.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 4, "\(r)")
        #expect(
            errors.first
                == "<command-line>:1: error: '\(lib)' is the plugin 'hangs', not 'wrong' (nothing of it was registered)"
        )
        #expect(errors.dropFirst().first?.hasPrefix("<command-line>:3: error: unknown metric 'hangs.count'") == true)
        #expect(
            errors.dropFirst(2).first == "<command-line>:4: error: plugin name 'Bad Name!' is not valid: \(grammar)")
        #expect(
            errors.dropFirst(3).first == "<command-line>:5: error: plugin name 'Bad Name!' is not valid: \(grammar)")
        #expect(r.stdout.contains("no plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)\n"), "\(r)")
        #expect(r.stdout.hasSuffix("hangs.count = 0\n"), "\(r)")
    }

    /// `~` and `~/…` are the home folder, in `plugin load`, `--plugin` and `plugin require
    /// --from`; `~user` is not expanded, and the error says so. The list shows the path as typed.
    @Test func aPathInTheHomeFolder() throws {
        let lib = try library()
        let home = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createSymbolicLink(
            atPath: home.appendingPathComponent("lib.so").path, withDestinationPath: lib)
        let env = isolated.merging(["HOME": home.path]) { $1 }
        let load = try Binary.run(["-c", "plugin load ~/lib.so", "-c", "plugin list"], environment: env)
        #expect(load.status == 0, "\(load)")
        #expect(
            load.stdout == """
                loaded plugin hangs 1.0.0: hangs
                name      version  path          tools
                built-in  0.2.0    (in debugsh)  fps, layout, timer
                hangs     1.0.0    ~/lib.so      hangs

                """, "\(load)")
        for arguments in [["--plugin", "~/lib.so"], ["-c", "plugin require hangs --from ~/lib.so"]] {
            let r = try Binary.run(arguments + ["-c", "get hangs.count"], environment: env)
            #expect(r.stdout == "hangs.count = 0\n", "\(arguments): \(r)")
        }
        let user = try Binary.run(["-c", "plugin load ~nobody-here/lib.so"], environment: env)
        #expect(
            user.stderr
                == "<command-line>:1: error: cannot load plugin '~nobody-here/lib.so': No such file or directory (debugsh expands '~' and '~/…' only, from $HOME)\n",
            "\(user)")
    }

    /// `plugin list` shows the path as given, not the file it resolved to (the JSON has both);
    /// a recording names the resolved file (aRecordingNamesItsPlugins), so it replays from any
    /// folder.
    @Test func theListShowsThePathAsGiven() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("plugins"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("plugins/libHangDetector.so").path, withDestinationPath: lib)
        let text = try Binary.run(
            ["-c", "plugin load plugins/libHangDetector.so", "-c", "plugin list"], directory: dir, environment: isolated
        )
        #expect(
            text.stdout == """
                loaded plugin hangs 1.0.0: hangs
                name      version  path                        tools
                built-in  0.2.0    (in debugsh)                fps, layout, timer
                hangs     1.0.0    plugins/libHangDetector.so  hangs

                """, "\(text)")
        let json = try Binary.run(
            ["--json", "-c", "plugin load plugins/libHangDetector.so", "-c", "plugin list"], directory: dir,
            environment: isolated)
        let resolved = URL(fileURLWithPath: lib).resolvingSymlinksInPath().path
        let plugin =
            #"{"name": "hangs", "version": "1.0.0", "path": "plugins/libHangDetector.so", "resolved_path": "\#(resolved)", "tools": ["hangs"]}"#
        #expect(
            json.stdout == """
                {"command": "plugin load plugins/libHangDetector.so", "ok": true, "result": \(plugin)}
                {"command": "plugin list", "ok": true, "result": [{"name": "built-in", "version": "0.2.0", "path": null, "resolved_path": null, "tools": ["fps", "layout", "timer"]}, \(plugin)]}

                """, "\(json)")
    }

    // MARK: Build identity

    /// The folder of the debugsh binary, where its DebugShellCore was built.
    var products: URL { URL(fileURLWithPath: Binary.path).deletingLastPathComponent() }

    /// The fingerprint of a checkout's DebugShellCore sources (this one's by default), as its
    /// build computes it.
    static func fingerprint(of checkout: URL = ExamplePlugin.packageRoot) throws -> String {
        let sources = checkout.appendingPathComponent("DebugShellCore/Sources/DebugShellCore")
        return InterfaceFingerprint.hex(InterfaceFingerprint.of(try InterfaceFingerprint.sourceFiles(in: sources)))
    }

    /// A library of this API version and compiler with another DebugShellCore fingerprint, or
    /// none: both fingerprints named, nothing of it run but its version function.
    @Test(arguments: [(0, "none"), (0xdead_beef, "deadbeef")] as [(UInt32, String)])
    func anotherFingerprint(fingerprint: UInt32, shown: String) throws {
        let f = UInt64(fingerprint)
        let stamp = Int64(bitPattern: (f >> 16) << 48 | 6 << 32 | (f & 0xFFFF) << 16 | 603)
        let dir = try Binary.folder([
            "plugin.c": """
            long long debugsh_plugin_api_version(void) { return \(stamp)LL; }
            void *debugsh_plugin_manifest(void) { __builtin_trap(); }
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("libother.so").path
        let (log, status) = try ExamplePlugin.tool(
            ["cc", "-shared", "-fPIC", "-o", lib, dir.appendingPathComponent("plugin.c").path])
        try #require(status == 0, "\(log)")
        try expectRefused(
            lib,
            "'\(lib)' was built against another DebugShellCore: fingerprint \(shown), this debugsh's \(try Self.fingerprint()) (both plugin API 6, Swift 6.3): rebuild the plugin against this debugsh's DebugShellCore"
        )
    }

    /// The example built against a copy of this checkout whose DebugShellCore has one more
    /// stored property in a public struct — the same API version and compiler — is refused
    /// with both fingerprints, where it used to load and crash. Its fingerprint is the one of
    /// the edited sources: computed at build time, not checked in.
    @Test func aPluginBuiltAgainstAnEditedCore() throws {
        let edited = try ExamplePlugin.builtAgainstAnEditedCore.get()
        let theirs = try Self.fingerprint(of: edited.checkout)
        let ours = try Self.fingerprint()
        #expect(theirs != ours)
        try expectRefused(
            edited.library,
            "'\(edited.library)' was built against another DebugShellCore: fingerprint \(theirs), this debugsh's \(ours) (both plugin API 6, Swift 6.3): rebuild the plugin against this debugsh's DebugShellCore"
        )
    }

    // MARK: Reloading

    /// A load that fails, a fix, a rebuild at the same path, and `plugin load` again in the same
    /// session: the dynamic linker would hand back the first build, so debugsh says the file
    /// changed and to restart; restarted, it loads the rebuilt plugin.
    @Test func aPluginRebuiltAfterAFailedLoad() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("libHangDetector.so")
        _ = try ExamplePlugin.compile(named: "Bad Name!", into: lib, products: products).get()
        let session = try Conversation(["-k"], directory: dir, environment: isolated)
        try session.send("plugin load libHangDetector.so")
        try session.waitForErrorLines(1)
        _ = try ExamplePlugin.compile(named: "hangs", into: lib, products: products).get()
        try session.send("plugin load libHangDetector.so")
        try session.send("plugin list")
        let r = try session.finish()
        #expect(
            r.stderr == """
                <stdin>:1: error: 'libHangDetector.so': its plugin name 'Bad Name!' is not valid: a plugin name is [a-z][a-z0-9-]*, a lowercase letter then lowercase letters, digits and '-'
                <stdin>:2: error: 'libHangDetector.so' changed since debugsh opened it; a library cannot be unloaded: restart debugsh to load the rebuilt plugin

                """, "\(r)")
        #expect(r.stdout.hasSuffix("no plugins loaded: 'plugin load <path>' adds one (docs/Plugins.md)\n"), "\(r)")
        let restarted = try Binary.run(
            ["--plugin", "libHangDetector.so", "-c", "get hangs.count"], directory: dir, environment: isolated)
        #expect(restarted.status == 0 && restarted.stdout == "hangs.count = 0\n", "\(restarted)")
    }

    /// A plugin loaded, rebuilt at its path, and loaded again: the file changed, not "already
    /// loaded"; the build loaded first keeps working.
    @Test func aPluginRebuiltAfterALoad() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("libHangDetector.so")
        _ = try ExamplePlugin.compile(named: "hangs", into: lib, products: products).get()
        let session = try Conversation(["-k"], directory: dir, environment: isolated)
        // Standard output reaches a pipe in blocks: a failed expectation on standard error says
        // that the plugin is loaded (its metric exists).
        try session.send("plugin load libHangDetector.so")
        try session.send("expect hangs.count == 1")
        try session.waitForErrorLines(1)
        _ = try ExamplePlugin.compile(named: "hangs", into: lib, products: products).get()
        try session.send("plugin load libHangDetector.so")
        try session.send("get hangs.count")
        let r = try session.finish()
        #expect(r.stdout == "loaded plugin hangs 1.0.0: hangs\nhangs.count = 0\n", "\(r)")
        #expect(
            r.stderr == """
                <stdin>:2: error: expectation failed: hangs.count == 1 (hangs.count = 0)
                <stdin>:3: error: 'libHangDetector.so' changed since debugsh opened it; a library cannot be unloaded: restart debugsh to load the rebuilt plugin

                """, "\(r)")
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
