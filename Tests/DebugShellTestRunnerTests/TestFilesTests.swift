import Testing

@testable import DebugShellTestRunner

/// Which files a run takes (docs/Testing.md, "What is a file, and in what order" and
/// "Sharding, listing, filtering").
@Suite struct TestFilesTests {
    @Test(arguments: [
        ("./a//b/", "a/b"), (".", "."), ("./", "."), ("", "."), ("a/./b", "a/b"), ("/x/./y/", "/x/y"), ("/", "/"),
        ("../up", "../up"),
    ])
    func pathsAreNormalized(given: String, normalized: String) {
        #expect(TestFiles.normalized(given) == normalized)
    }

    @Test func aFolderIsSearchedInByteOrderWithoutHiddenFoldersOrBuild() throws {
        try withScratchFolder { root in
            for path in [
                "b.dsh", "B.dsh", "sub/c.dsh", "sub/deeper/d.dsh", ".hidden/e.dsh", ".f.dsh", ".build/g.dsh",
                "sub/.build/h.dsh", "notes.txt", "sub/i.dsh.bak", "a.dsh",
            ] {
                try write("run 1s\n", to: root + "/" + path)
            }
            let files = try TestFiles.find([root + "/./"])
            #expect(files.map(\.key) == ["B.dsh", "a.dsh", "b.dsh", "sub/c.dsh", "sub/deeper/d.dsh"])
            #expect(files.map(\.path) == files.map { root + "/" + $0.key })
        }
    }

    @Test func filesAndFoldersGivenTogetherAreEachTakenOnce() throws {
        try withScratchFolder { root in
            try write("", to: root + "/suite/one.dsh")
            try write("", to: root + "/suite/two.dsh")
            // A file named is taken whatever its name.
            try write("", to: root + "/script.txt")
            let files = try TestFiles.find([root + "/suite/two.dsh", root + "/script.txt", root + "/suite"])
            #expect(files.map(\.path) == [root + "/script.txt", root + "/suite/one.dsh", root + "/suite/two.dsh"])
            // A file named alone is keyed by its path as given; inside a folder, by the path in it.
            #expect(files.map(\.key) == [root + "/script.txt", "one.dsh", root + "/suite/two.dsh"])
        }
    }

    @Test func aPathThatIsNotThereIsAUsageError() {
        let error = #expect(throws: TestFiles.UsageError.self) {
            try TestFiles.find(["/nonexistent/runner-tests"])
        }
        #expect(error?.message == "cannot open '/nonexistent/runner-tests': No such file or directory")
    }

    @Test func shardsAreIOfNWithOneBasedI() throws {
        #expect(try TestFiles.parseShard("2/3") == (2, 3))
        #expect(try TestFiles.parseShard("1/1") == (1, 1))
        for bad in ["0/3", "4/3", "1/0", "a/b", "1/2/3", "2", "", "/3", "-1/3", " 1/3"] {
            let error = #expect(throws: TestFiles.UsageError.self) { try TestFiles.parseShard(bad) }
            #expect(error?.message == "--shard takes i/n with 1 ≤ i ≤ n (as 2/3), not '\(bad)'")
        }
    }

    /// The published FNV-1a 64-bit test vectors: the hash must not depend on the process.
    @Test func theHashIsFNV1a() {
        #expect(TestFiles.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(TestFiles.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(TestFiles.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    /// The shards of a count together take every file exactly once, by the key, not the path.
    @Test func theShardsPartitionTheFilesByKey() {
        let files = (0..<200).map { TestFile(path: "/checkout-\($0 % 3)/scenarios/s\($0).dsh", key: "s\($0).dsh") }
        for count in [1, 2, 3, 7] {
            var taken = [Int](repeating: 0, count: files.count)
            var sizes: [Int] = []
            for index in 1...count {
                let shard = files.indices.filter { TestFiles.inShard(files[$0], index: index, count: count) }
                for i in shard { taken[i] += 1 }
                sizes.append(shard.count)
            }
            #expect(taken.allSatisfy { $0 == 1 }, "count \(count)")
            // Not balanced by time, but not all in one shard either.
            if count > 1 { #expect(sizes.allSatisfy { $0 > 0 }, "count \(count): \(sizes)") }
        }
        let moved = TestFile(path: "elsewhere/s5.dsh", key: "s5.dsh")
        #expect(TestFiles.inShard(moved, index: 2, count: 3) == TestFiles.inShard(files[5], index: 2, count: 3))
        #expect(TestFiles.inShard(files[5], index: Int(TestFiles.fnv1a("s5.dsh") % 3) + 1, count: 3))
    }

    @Test func aFilterIsTextOrAGlob() {
        let file = TestFile(path: "Examples/fps/stall.dsh", key: "fps/stall.dsh")
        #expect(TestFiles.matches(file, "stall"))
        #expect(TestFiles.matches(file, "fps/st"))
        #expect(!TestFiles.matches(file, "Stall"))
        // Text is not a glob: a dot is a dot.
        #expect(!TestFiles.matches(TestFile(path: "a-dsh", key: "a-dsh"), ".dsh"))
        // A glob matches the whole path shown, or the path inside the folder; `*` crosses `/`.
        #expect(TestFiles.matches(file, "*stall.dsh"))
        #expect(TestFiles.matches(file, "Examples/*.dsh"))
        #expect(TestFiles.matches(file, "fps/*"))
        #expect(!TestFiles.matches(file, "stall*"))
        #expect(TestFiles.matches(file, "*/st?ll.dsh"))
        #expect(TestFiles.matches(file, "*[ab]ll.dsh"))
        #expect(!TestFiles.matches(file, "*[xy]ll.dsh"))
    }

    @Test func aSkipLineAmongTheFirstComments() {
        #expect(TestFiles.skipReason("# test: skip not ready\nrun 1s\n") == "not ready")
        #expect(TestFiles.skipReason("# A scenario\n\n  #   test: skip   flaky on CI\n") == "flaky on CI")
        #expect(TestFiles.skipReason("#test: skip\n") == "skipped")
        #expect(TestFiles.skipReason("\t# test: skip because\n") == "because")
        // After the first command it is not read.
        #expect(TestFiles.skipReason("run 1s\n# test: skip late\n") == nil)
        // Only the first 20 lines.
        let late = String(repeating: "# comment\n", count: 20) + "# test: skip late\n"
        #expect(TestFiles.skipReason(late) == nil)
        let inTime = String(repeating: "# comment\n", count: 19) + "# test: skip in time\n"
        #expect(TestFiles.skipReason(inTime) == "in time")
        #expect(TestFiles.skipReason("# tests: skip\n") == nil)
        #expect(TestFiles.skipReason("") == nil)
    }

    @Test func headAndTailReadWhatTheyAreAskedFor() throws {
        try withScratchFolder { root in
            let path = root + "/out"
            try write("0123456789", to: path)
            #expect(RunnerFiles.head(path, limit: 4) == "0123")
            #expect(RunnerFiles.head(root, limit: 4) == nil)
            #expect(RunnerFiles.head(root + "/none", limit: 4) == nil)
            let tail = try #require(RunnerFiles.tail(path, limit: 3))
            #expect(String(decoding: tail.bytes, as: UTF8.self) == "789")
            #expect(tail.dropped == 7)
            #expect(RunnerFiles.text(path, limit: 4) == "[… 6 bytes before this left out]\n6789")
            #expect(RunnerFiles.text(path) == "0123456789")
            #expect(RunnerFiles.text(root + "/none") == "")
            try write("", to: path)
            #expect(RunnerFiles.head(path, limit: 4) == nil)
        }
    }
}
