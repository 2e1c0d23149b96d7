import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Testing

/// The tables and documents the real fixtures lack, written as `xctrace export` writes them (ids
/// and refs, sentinels, `fmt`): `hitches-summary` (its first row is the real iPhone 11 row the
/// research note quotes; the others are made up), a TOC (the research note's iOS 26 TOC),
/// the Hitches tap's frame lifetimes, updates and renders, and Core Animation FPS samples.
@Suite struct XCTraceTableTests {
    static func t(_ ns: Int64) -> SimTime { SimTime(nanoseconds: ns) }
    static func d(_ ns: Int64) -> SimDuration { SimDuration(nanoseconds: ns) }

    static let summaryColumns = [
        "start", "duration", "swap-id", "earliest-time", "presentation-time", "latency-allowed", "narrative",
        "severity",
        "color", "layout-qualifier", "hitch-id", "context-count", "buffer-count", "refresh-interval", "type-label",
    ]
    /// Row 1: vybava's ios18-iphone11 hitches-summary, first row (research note §1.4 (b)).
    static let summaryRows = [
        "<start-time id=\"1\" fmt=\"00:01.382.537\">1382537707</start-time><duration id=\"2\" fmt=\"16.67 ms\">16669668"
            + "</duration><uint32 id=\"3\" fmt=\"2209506\">2209506</uint32><event-time id=\"4\" fmt=\"00:01.349.204\">"
            + "1349204916</event-time><event-time id=\"5\" fmt=\"00:01.399.207\">1399207375</event-time><duration id=\"6\""
            + " fmt=\"33.33 ms\">33332791</duration><formatted-label id=\"7\" fmt=\"1 : Hitch Duration\">1 : Hitch "
            + "Duration</formatted-label><event-concept id=\"8\" fmt=\"Moderate\">Moderate</event-concept>"
            + "<render-buffer-depth id=\"9\" fmt=\"0\">0</render-buffer-depth><layout-id id=\"10\" fmt=\"0\">0</layout-id>"
            + "<uint32 id=\"11\" fmt=\"1\">1</uint32><uint32 id=\"12\" fmt=\"15\">15</uint32><uint32 id=\"13\" fmt=\"2\">2"
            + "</uint32><uint32 id=\"14\" fmt=\"16666125\">16666125</uint32><string id=\"15\" fmt=\"Pre-Commit(s) "
            + "latency\">Pre-Commit(s) latency</string>",
        "<start-time id=\"16\" fmt=\"00:02.000.000\">2000000000</start-time><duration id=\"17\" fmt=\"16.67 ms\">"
            + "16665833</duration><uint32 id=\"18\" fmt=\"2209600\">2209600</uint32><event-time id=\"19\" "
            + "fmt=\"00:01.966.667\">1966667209</event-time><event-time id=\"20\" fmt=\"00:02.016.665\">2016665833"
            + "</event-time><duration ref=\"6\"/><formatted-label id=\"21\" fmt=\"2 : Hitch Duration\">2 : Hitch Duration"
            + "</formatted-label><event-concept id=\"22\" fmt=\"Low\">Low</event-concept><render-buffer-depth id=\"23\" "
            + "fmt=\"1002\">1002</render-buffer-depth><layout-id ref=\"10\"/><uint32 ref=\"13\"/><uint32 ref=\"12\"/>"
            + "<uint32 ref=\"13\"/><uint32 ref=\"14\"/><string id=\"24\" fmt=\"Commit to Render latency\">Commit to "
            + "Render latency</string>",
    ]

    static let summaryHitches = [
        RecordedHitch(
            start: t(1_382_537_707), duration: d(16_669_668), description: "Pre-Commit(s) latency",
            severity: "Moderate",
            refreshInterval: d(16_666_125), acceptableLatency: d(33_332_791), bufferCount: 2, swapID: 2_209_506),
        RecordedHitch(
            start: t(2_000_000_000), duration: d(16_665_833), description: "Commit to Render latency", severity: "Low",
            refreshInterval: d(16_666_125), acceptableLatency: d(33_332_791), bufferCount: 2, swapID: 2_209_600),
    ]

    @Test func hitchesSummaryIsTheIOS18HitchList() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "summary.xml",
            exportDocument([(schema: "hitches-summary", columns: Self.summaryColumns, rows: Self.summaryRows)]))
        let timeline = try XCTraceImport.read([file])
        #expect(timeline.hitches == Self.summaryHitches)
        #expect(timeline.refreshInterval == Self.d(16_666_125))
        #expect(timeline.refreshSource == .hitchRows)
        #expect(timeline.end == Self.t(2_000_000_000 + 16_665_833))
        // debugsh's grade of each row equals Instruments' own Severity column: 16.669668 ms at
        // 16.666125 ms is Moderate (over one interval), 16.665833 ms is Low.
        let analysis = TimelineAnalysis(timeline)
        #expect(analysis.hitches.map { $0.severity?.rawValue } == ["Moderate", "Low"])
        #expect(analysis.hitches.map(\.severity?.rawValue) == analysis.hitches.map(\.recordedSeverity))
    }

    @Test func rowsThatDisagreeOnTheRateGiveTheirMedianAndSaySo() throws {
        let folder = try TemporaryFolder()
        let third =
            "<start-time id=\"30\">3000000000</start-time><duration ref=\"2\"/><uint32 id=\"31\">2209700</uint32>"
            + "<sentinel/><sentinel/><sentinel/><sentinel/><sentinel/><sentinel/><sentinel/><sentinel/><sentinel/>"
            + "<sentinel/><uint32 id=\"32\">8333000</uint32><string ref=\"15\"/>"
        let file = try folder.write(
            "summary.xml",
            exportDocument([(schema: "hitches-summary", columns: Self.summaryColumns, rows: Self.summaryRows + [third])]
            ))
        let timeline = try XCTraceImport.read([file])
        #expect(
            timeline.hitches.last
                == RecordedHitch(
                    start: Self.t(3_000_000_000), duration: Self.d(16_669_668), description: "Pre-Commit(s) latency",
                    refreshInterval: Self.d(8_333_000), swapID: 2_209_700))
        // 8333000, 16666125, 16666125: the middle one.
        #expect(timeline.refreshInterval == Self.d(16_666_125))
        #expect(
            timeline.notes.contains(
                "the hitch rows' refresh intervals go from 8.333ms to 16.666125ms: their median, 16.666125ms, is used"))
    }

    @Test func withBothHitchListsTheIOS26OneIsTakenAndTheOtherNamed() throws {
        let folder = try TemporaryFolder()
        let summary = try folder.write(
            "summary.xml",
            exportDocument([(schema: "hitches-summary", columns: Self.summaryColumns, rows: Self.summaryRows)]))
        let timeline = try XCTraceImport.read([Fixtures.path("hitches.xml"), summary])
        #expect(timeline.hitches.count == 11)
        #expect(timeline.hitches.first?.start == Self.t(4_961_155_833))
        #expect(
            timeline.notes.first
                == "hitches-summary (2 rows) not used: hitches gives the hitch list (one list per run, never the two "
                + "summed)")
        // The rows' refresh interval is still the recording's.
        #expect(timeline.refreshSource == .hitchRows)
    }

    /// henderson-tech/vybava's ios26-smooth TOC as the research note quotes it (§1.2).
    static let toc = """
        <?xml version="1.0"?>
        <trace-toc>
          <run number="1">
            <info>
              <target>
                <device platform="iOS" model="iPhone Air" name="Lab iPhone" os-version="26.6.2 (23G90)" uuid="A"/>
                <host-device platform="macOS" model="MacBook Pro" name="Lab Mac" os-version="26.6.2 (25G83)" uuid="B"/>
                <process type="attached" return-exit-status="0" name="FixIt" pid="11101" termination-reason="exit(0)"/>
              </target>
              <summary>
                <start-date>2026-10-02T03:30:31.475+02:00</start-date><end-date>2026-10-02T03:32:04.750+02:00</end-date>
                <duration>93.275372</duration><end-reason>User pressed Stop</end-reason>
                <instruments-version>16.0 (17F42)</instruments-version><template-name>Blank</template-name>
                <recording-mode>Deferred</recording-mode><time-limit>1 minute, 50 seconds</time-limit>
              </summary>
            </info>
            <processes><process name="FixIt" pid="11101" path="/var/containers/Bundle/Application/X/FixIt"/></processes>
            <data>
              <table schema="hitches-framewait"/><table schema="hitches-gpu"/><table schema="hitches-updates"/>
              <table schema="hitches-frame-lifetimes"/><table schema="hitches"/><table schema="hitches-renders"/>
              <table sample-rate-micro-seconds="1000" target="SINGLE" schema="time-sample" callstack="user"/>
            </data>
            <tracks/>
          </run>
        </trace-toc>

        """

    @Test func theTOCGivesTheRecordingsDurationAndDevice() throws {
        let folder = try TemporaryFolder()
        let toc = try folder.write("toc.xml", Self.toc)
        let timeline = try XCTraceImport.read([toc, Fixtures.path("hitches.xml")])
        #expect(timeline.sources == [toc, Fixtures.path("hitches.xml")])
        #expect(timeline.start == .zero)
        #expect(timeline.end == Self.t(93_275_372_000))
        #expect(timeline.hitches.count == 11)
        #expect(
            timeline.notes == [
                "recorded on iPhone Air, iOS 26.6.2 (23G90)",
                "nothing in the recording gives its refresh rate (device-display-info, hitches-summary or "
                    + "display-vsyncs-interval): 60 Hz is assumed",
                "the TOC lists hitches-updates, hitches-renders, hitches-frame-lifetimes, not among the files",
            ])
    }

    /// The Hitches tap (iOS 26): frame lifetimes are the frames, and updates, renders and hitches
    /// join them by swap id — several tables in one document, as `--xpath '…[@schema="a" or
    /// @schema="b"]'` writes them.
    @Test func frameLifetimesJoinUpdatesRendersAndHitchesBySwapID() throws {
        let lifetimes = [
            "<start-time id=\"1\">1000000000</start-time><duration id=\"2\">33333333</duration>"
                + "<display-name id=\"3\">Display 1</display-name><uint32 id=\"4\">10</uint32>",
            "<start-time id=\"5\">1016666666</start-time><duration id=\"6\">33333334</duration><display-name ref=\"3\"/>"
                + "<uint32 id=\"7\">11</uint32>",
            "<start-time id=\"8\">1033333333</start-time><duration id=\"9\">50000000</duration><display-name ref=\"3\"/>"
                + "<uint32 id=\"10\">12</uint32>",
        ]
        let passColumns = [
            "start", "duration", "process", "display", "swap-id", "surface-id", "frame-color", "containment-level",
            "label",
        ]
        func pass(_ start: Int, _ duration: Int, _ swap: String, level: Int = 0) -> String {
            "<start-time>\(start)</start-time><duration>\(duration)</duration><sentinel/><display-name ref=\"3\"/>"
                + "\(swap)<sentinel/><event-concept>Blue</event-concept><uint32>\(level)</uint32><string>x</string>"
        }
        let updates = [
            pass(1_001_000_000, 4_000_000, "<uint32 ref=\"4\"/>"),
            pass(1_017_000_000, 30_000_000, "<uint32 ref=\"7\"/>"),
            pass(1_018_000_000, 2_000_000, "<uint32 ref=\"7\"/>"),
            pass(1_020_000_000, 1_000_000, "<uint32>99</uint32>"),
        ]
        let renders = [
            pass(1_010_000_000, 5_000_000, "<uint32 ref=\"4\"/>"),
            pass(1_011_000_000, 1_000_000, "<uint32 ref=\"4\"/>", level: 1),
            pass(1_050_000_000, 6_000_000, "<uint32 ref=\"10\"/>"),
        ]
        let hitchColumns = [
            "start", "duration", "process", "is-system", "swap-id", "label", "display", "narrative-description",
        ]
        let hitch =
            "<start-time>1066666667</start-time><duration>16666666</duration><process fmt=\"FixIt (11101)\"><pid>11101"
            + "</pid></process><boolean fmt=\"No\">0</boolean><uint32 ref=\"10\"/><string>0xc</string><display-name "
            + "ref=\"3\"/><string>Potentially expensive render, 60 offscreen passes)</string>"
        let surface =
            "<start-time>1033333333</start-time><duration>16666667</duration><sentinel/><display-name ref=\"3\"/>"
        let document = exportDocument([
            (schema: "hitches-frame-lifetimes", columns: ["start", "duration", "display", "swap-id"], rows: lifetimes),
            (schema: "hitches-updates", columns: passColumns, rows: updates),
            (schema: "hitches-renders", columns: passColumns, rows: renders),
            (schema: "hitches", columns: hitchColumns, rows: [hitch]),
            (
                schema: "displayed-surfaces-interval",
                columns: ["start", "duration", "cpu-to-display-latency", "display-name"],
                rows: [surface]
            ),
        ])
        let folder = try TemporaryFolder()
        let timeline = try XCTraceImport.read([try folder.write("tap.xml", document)])
        #expect(
            timeline.frames == [
                RecordedFrame(
                    present: Self.t(1_033_333_333), vsync: Self.t(1_000_000_000), commitStart: Self.t(1_001_000_000),
                    commitEnd: Self.t(1_005_000_000), renderStart: Self.t(1_010_000_000),
                    renderEnd: Self.t(1_015_000_000), swapID: 10),
                RecordedFrame(
                    present: Self.t(1_050_000_000), vsync: Self.t(1_016_666_666), commitStart: Self.t(1_017_000_000),
                    commitEnd: Self.t(1_047_000_000), swapID: 11),
                RecordedFrame(
                    present: Self.t(1_083_333_333), vsync: Self.t(1_033_333_333), renderStart: Self.t(1_050_000_000),
                    renderEnd: Self.t(1_056_000_000), cause: "Potentially expensive render, 60 offscreen passes)",
                    swapID: 12),
            ])
        #expect(
            timeline.hitches == [
                RecordedHitch(
                    start: Self.t(1_066_666_667), duration: Self.d(16_666_666),
                    description: "Potentially expensive render, 60 offscreen passes)", swapID: 12, isSystem: false,
                    process: "FixIt (11101)")
            ])
        #expect(
            timeline.notes.prefix(2) == [
                "displayed-surfaces-interval (1 rows) not joined: hitches-frame-lifetimes gives the frames",
                "hitches-updates: 1 of 4 rows match no frame (no frame lifetime has their swap id)",
            ])
    }

    @Test func coreAnimationFPSSamples() throws {
        let rows = [
            "<start-time id=\"1\">1000000000</start-time><duration id=\"2\">1000000000</duration>"
                + "<fps id=\"3\" fmt=\"59.8\">59.8</fps><percentage id=\"4\" fmt=\"12.5 %\">12.5</percentage>",
            "<start-time id=\"5\">2000000000</start-time><duration ref=\"2\"/><fps>1</fps><sentinel/>",
        ]
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "fps.xml",
            exportDocument([
                (
                    schema: "core-animation-fps-estimate",
                    columns: ["interval", "period", "fps", "device-utilization"],
                    rows: rows
                )
            ]))
        let timeline = try XCTraceImport.read([file])
        #expect(
            timeline.fpsSamples == [
                RecordedFPSSample(
                    start: Self.t(1_000_000_000), period: Self.d(1_000_000_000), fps: 59.8, deviceUtilization: 12.5),
                RecordedFPSSample(start: Self.t(2_000_000_000), period: Self.d(1_000_000_000), fps: 1),
            ])
        #expect(timeline.end == Self.t(3_000_000_000))
    }

    /// Nothing is filtered silently: repeated hitch rows and several displays are kept, and said.
    @Test func repeatedRowsAndSeveralDisplaysAreKeptAndSaid() throws {
        let hitchColumns = ["start", "duration", "narrative-description"]
        let hitchRows = [
            "<start-time id=\"1\">5</start-time><duration id=\"2\">16666666</duration><string id=\"3\">a</string>",
            "<start-time ref=\"1\"/><duration ref=\"2\"/><string ref=\"3\"/>",
        ]
        let vsyncRows = [
            "<start-time>100</start-time><display-name id=\"10\">Display 1</display-name>",
            "<start-time>150</start-time><display-name id=\"11\">Display 2</display-name>",
            "<start-time>200</start-time><display-name ref=\"10\"/>",
            "<start-time>230</start-time><display-name ref=\"11\"/>",
        ]
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "two.xml",
            exportDocument([
                (schema: "hitches", columns: hitchColumns, rows: hitchRows),
                (schema: "display-vsyncs-interval", columns: ["timestamp", "display-name"], rows: vsyncRows),
            ]))
        let timeline = try XCTraceImport.read([file])
        #expect(timeline.hitches.count == 2)
        #expect(timeline.vsyncs == [100, 150, 200, 230].map(Self.t))
        // Gaps per display: 100 (Display 1) and 80 (Display 2); the lower middle is 80.
        #expect(timeline.refreshInterval == Self.d(80))
        #expect(
            timeline.notes.prefix(2) == [
                "1 hitch rows repeat the start and duration of the row before (all kept)",
                "display-vsyncs-interval has the vsyncs of 2 displays (Display 1, Display 2): all kept",
            ])
    }

    /// The median vsync gap is the lower middle gap (found without sorting): checked against
    /// sorting, on random gaps with repeats.
    @Test func theMedianGapIsTheSortedMiddle() throws {
        var random = SplitMix(state: 31)
        let folder = try TemporaryFolder()
        for count in 2..<60 {
            let gaps = (1..<count).map { _ in Int64.random(in: 1...Int64(count / 3 + 1), using: &random) }
            var time: Int64 = 1_000
            var rows = ["<start-time>\(time)</start-time>"]
            for gap in gaps {
                time += gap
                rows.append("<start-time>\(time)</start-time>")
            }
            let file = try folder.write(
                "v\(count).xml",
                exportDocument([(schema: "display-vsyncs-interval", columns: ["timestamp"], rows: rows)]))
            let timeline = try XCTraceImport.read([file])
            #expect(timeline.refreshInterval == Self.d(gaps.sorted()[(gaps.count - 1) / 2]), "\(gaps)")
        }
    }
}
