import DebugShellCore
import Testing

@testable import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// The host's reading of a plugin's build stamp, and of the paths it is given.
@Suite struct PluginLoadingTests {
    /// A stamp of this build reads back as this build's API version, compiler and fingerprint.
    @Test func theHostReadsItsOwnStamp() {
        let own = BuildIdentity(stamp: DebugShellPlugin.buildStamp)
        #expect(own == BuildIdentity.host)
        #expect(own.api == 6 && own.compiler == DebugShellPlugin.compilerVersion)
        #expect(own.fingerprint == DebugShellPlugin.libraryFingerprint && own.fingerprint != 0)
    }

    /// Stamps of API 4 and before (API version << 32 | compiler) read as those versions, without
    /// a fingerprint, so an old plugin's message names its API version and compiler.
    @Test(arguments: [(3, 603), (4, 602), (1, 509)] as [(Int64, Int64)])
    func oldStampsKeepTheirVersions(api: Int64, compiler: Int64) {
        let old = BuildIdentity(stamp: api << 32 | compiler)
        #expect(old == BuildIdentity(api: Int32(api), compiler: Int32(compiler), fingerprint: 0))
        #expect(old.fingerprintText == "none")
        #expect(old.swift == "\(compiler / 100).\(compiler % 100)")
    }

    /// Each half of the fingerprint has its place; any bits read as something, never a trap.
    @Test func theFingerprintsHalves() {
        let stamp = Int64(bitPattern: 0xdead_0005_beef_0263)
        #expect(BuildIdentity(stamp: stamp) == BuildIdentity(api: 5, compiler: 0x263, fingerprint: 0xdead_beef))
        #expect(BuildIdentity(stamp: stamp).fingerprintText == "deadbeef")
        #expect(BuildIdentity(stamp: -1) == BuildIdentity(api: 0xFFFF, compiler: 0xFFFF, fingerprint: .max))
        #expect(BuildIdentity(api: 5, compiler: 603, fingerprint: 0xab).fingerprintText == "000000ab")
    }

    /// `~` and `~/…` are the home folder; `~user` and a `~` elsewhere stay as written.
    @Test func theHomeFolder() throws {
        let home = try #require(getenv("HOME").map { String(cString: $0) })
        try #require(!home.isEmpty)
        #expect(PluginLibrary.expandingHome("~") == home)
        #expect(PluginLibrary.expandingHome("~/x.so") == home + "/x.so")
        #expect(PluginLibrary.expandingHome("~bob/x.so") == "~bob/x.so")
        #expect(PluginLibrary.expandingHome("a/~/x.so") == "a/~/x.so")
        #expect(PluginLibrary.expandingHome("/x.so") == "/x.so")
    }
}
