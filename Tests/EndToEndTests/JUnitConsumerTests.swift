import Foundation
import Testing

/// `debugsh test --junit` read by the JUnit consumers people use (issue 37, 4): junitparser,
/// xunitparser and junit2html each see every failed `expect` of a file, with its line — one
/// element per testcase carries them all (some readers keep only the last of several). Fails,
/// never skips, when a reader is missing: `.ci/run` installs them.
@Suite struct JUnitConsumerTests {
    static let reader = """
        import json, sys
        from junitparser import JUnitXml
        import xunitparser
        from junit2htmlreport import runner
        path = sys.argv[1]
        seen = {}
        for suite in JUnitXml.fromfile(path):
            for case in suite:
                seen.setdefault('junitparser', {})[case.name] = ' '.join((r.message or '') + ' ' + (r.text or '') for r in case.result)
        ts, tr = xunitparser.parse(open(path))
        for tc, trace in tr.failures + tr.errors:
            seen.setdefault('xunitparser', {})[tc.methodname] = (tc.message or '') + ' ' + str(trace)
        runner.run([path, path + '.html'])
        seen['junit2html'] = {'page': open(path + '.html').read()}
        print(json.dumps(seen))
        """

    @Test func everyReaderSeesEveryFailedExpectWithItsLine() throws {
        let dir = try Binary.folder([
            "two.dsh": "stall 300ms\nrun 1s\nexpect main.hangs == 2\nexpect clock.now == 2s\n",
            "err.dsh": "run 1s\nexpect main.hangs == 5\nbogus\n", "ok.dsh": "run 1s\n",
            // An `exit N` carries its line too (issue 37).
            "exit.dsh": "run 1s\nexit 3\n",
        ])
        let run = try Binary.run(
            ["test", "--slowest", "0", "--junit", "j.xml", "."], directory: dir, environment: TestRunnerTests.isolated)
        #expect(run.status == 1, "\(run)")
        let script = dir.appendingPathComponent("read.py")
        try Self.reader.write(to: script, atomically: true, encoding: .utf8)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", script.path, dir.appendingPathComponent("j.xml").path]
        let out = Pipe()
        let err = Pipe()
        python.standardOutput = out
        python.standardError = err
        try python.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        try #require(
            python.terminationStatus == 0, "the readers (pip install junitparser xunitparser junit2html): \(errors)")
        let seen = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: String]])
        for reader in ["junitparser", "xunitparser"] {
            let two = seen[reader]?["two.dsh"] ?? ""
            #expect(two.contains("two.dsh:3: expectation failed: main.hangs == 2"), "\(reader): \(two)")
            #expect(two.contains("two.dsh:4: expectation failed: clock.now == 2s"), "\(reader): \(two)")
            let error = seen[reader]?["err.dsh"] ?? ""
            #expect(
                error.contains("err.dsh:2: expectation failed") && error.contains("err.dsh:3: unknown command"),
                "\(reader): \(error)")
            let exit = seen[reader]?["exit.dsh"] ?? ""
            #expect(exit.contains("exit.dsh:2: exited with status 3"), "\(reader): \(exit)")
        }
        let page = seen["junit2html"]?["page"] ?? ""
        for line in ["two.dsh:3:", "two.dsh:4:", "err.dsh:2:", "err.dsh:3:", "exit.dsh:2:"] {
            #expect(page.contains(line), "junit2html lacks \(line)")
        }
    }
}
