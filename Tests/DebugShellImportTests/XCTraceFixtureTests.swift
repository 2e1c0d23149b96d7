import DebugShellCore
import DebugShellImport
import Testing

/// What debugsh reads from each real xctrace export of Tests/Fixtures/xctrace, against values
/// written by hand from the XML (never from debugsh's output): every row, with its `ref`s
/// followed by eye to the `id` that defines them.
@Suite struct XCTraceFixtureTests {
    static func t(_ ns: Int64) -> SimTime { SimTime(nanoseconds: ns) }
    static func d(_ ns: Int64) -> SimDuration { SimDuration(nanoseconds: ns) }

    static func noTOC(_ end: String) -> String {
        "no TOC: the recording ends at its last event, \(end) (`xctrace export --toc` gives Instruments' duration)"
    }
    static let assumed =
        "nothing in the recording gives its refresh rate (device-display-info, hitches-summary or "
        + "display-vsyncs-interval): 60 Hz is assumed"
    static let noHitchList = "no hitch list (hitches or hitches-summary): the recording's hitches are unknown"

    /// hitches.xml: (start, duration, swap id, description) of its 11 rows. Row 6's description
    /// is `<string id="28" fmt=""></string>`, empty; the others `ref="10"`, the first row's text.
    static let hitchRows: [(Int64, Int64, Int64, String)] = [
        (4_961_155_833, 216_666_666, 769_456, "Potentially expensive app update(s)"),
        (13_961_169_916, 16_666_666, 770_153, "Potentially expensive app update(s)"),
        (18_694_511_166, 200_000_000, 770_561, "Potentially expensive app update(s)"),
        (18_911_177_875, 16_666_666, 770_563, "Potentially expensive app update(s)"),
        (25_861_189_583, 16_666_666, 771_066, "Potentially expensive app update(s)"),
        (28_094_526_583, 16_666_666, 771_198, ""),
        (28_127_859_958, 16_666_666, 771_200, "Potentially expensive app update(s)"),
        (28_444_527_083, 16_666_791, 771_219, "Potentially expensive app update(s)"),
        (28_544_527_291, 33_333_333, 771_226, "Potentially expensive app update(s)"),
        (32_377_866_750, 16_666_708, 771_517, "Potentially expensive app update(s)"),
        (36_794_539_583, 50_000_000, 771_906, "Potentially expensive app update(s)"),
    ]

    @Test func hitchesAreInstrumentsRowsToTheNanosecond() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("hitches.xml")])
        #expect(timeline.format == .xctrace)
        #expect(timeline.sources == [Fixtures.path("hitches.xml")])
        let expected = Self.hitchRows.map { start, duration, swap, description in
            RecordedHitch(
                start: Self.t(start), duration: Self.d(duration), description: description, swapID: swap,
                isSystem: false, process: "TestApp (12345)")
        }
        #expect(timeline.hitches == expected)
        // 216.666666 + 200 + 6 × 16.666666 + 16.666791 + 33.333333 + 16.666708 + 50 ms, by hand.
        #expect(timeline.hitches.map(\.duration.nanoseconds).reduce(0, +) == 616_666_828)
        // Nothing in a hitches table gives the rate: 60 Hz, said.
        #expect(timeline.refreshInterval == Self.d(16_666_667))
        #expect(timeline.refreshSource == .assumed)
        #expect(timeline.start == .zero)
        #expect(timeline.end == Self.t(36_794_539_583 + 50_000_000))
        #expect(timeline.notes == [Self.assumed, Self.noTOC("36.844539583s")])
        #expect(timeline.vsyncs.isEmpty && timeline.frames.isEmpty && timeline.fpsSamples.isEmpty)
    }

    @Test func theMainDisplaysMaximumRateIsTheRefreshRate() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("device-display-info.xml")])
        // Row 1: the built-in 2532x1170 display, max-refresh-rate 120, is-main-display 1;
        // row 2: the external one at 60, not main.
        #expect(timeline.refreshSource == .displayInfo(hertz: 120))
        #expect(timeline.refreshInterval == Self.d(8_333_333))
        #expect(timeline.notes == [Self.noHitchList, Self.noTOC("0s")])
    }

    /// display-vsyncs-interval.xml's timestamps; its `duration` (`1 ns`) is a marker, unread.
    static let vsyncs: [Int64] = [
        481_099_833, 497_766_541, 514_433_166, 531_099_833, 547_766_500, 564_433_166, 581_099_833, 597_766_458,
        614_433_208, 631_099_833,
    ]

    @Test func vsyncsAndTheirMedianGap() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("display-vsyncs-interval.xml")])
        #expect(timeline.vsyncs == Self.vsyncs.map(Self.t))
        // Gaps 16666708, 16666625, 16666667, 16666667, 16666666, 16666667, 16666625, 16666750,
        // 16666625; sorted, the fifth of nine is 16666667.
        #expect(timeline.refreshInterval == Self.d(16_666_667))
        #expect(timeline.refreshSource == .vsyncMedian)
        #expect(timeline.end == Self.t(631_099_833))
        #expect(timeline.notes == [Self.noHitchList, Self.noTOC("631.099833ms")])
    }

    /// displayed-surfaces-interval.xml: (swap time, time on glass, surface id) of its 12 rows.
    static let surfaces: [(Int64, Int64, Int64)] = [
        (481_099_833, 16_666_708, 9), (497_766_541, 16_666_625, 42), (514_433_166, 16_666_667, 19),
        (531_099_833, 16_666_667, 9), (547_766_500, 16_666_666, 42), (564_433_166, 16_666_667, 19),
        (581_099_833, 16_666_625, 9), (597_766_458, 16_666_750, 42), (614_433_208, 16_666_625, 19),
        (631_099_833, 16_666_667, 9), (647_766_500, 16_666_625, 42), (664_433_125, 16_666_666, 19),
    ]

    /// display-surface-swap.xml: (timestamp, surface id, swap id) of its 12 rows.
    static let swaps: [(Int64, Int64, Int64)] = [
        (481_099_833, 9, 4_685_385), (497_766_541, 42, 4_685_386), (514_433_166, 19, 4_685_387),
        (531_099_833, 9, 4_685_388), (547_766_500, 42, 4_685_389), (564_433_166, 19, 4_685_390),
        (581_099_833, 9, 4_685_391), (597_766_458, 42, 4_685_392), (614_433_208, 19, 4_685_393),
        (631_099_833, 9, 4_685_394), (647_766_500, 42, 4_685_395), (664_433_125, 19, 4_685_396),
    ]

    /// hitches-renders.xml: (start, duration, swap id, surface id) of its 12 rows.
    static let renders: [(Int64, Int64, Int64, Int64)] = [
        (498_301_791, 5_967_958, 4_685_388, 9), (514_980_291, 6_088_958, 4_685_389, 42),
        (531_637_208, 5_717_083, 4_685_390, 19), (548_301_791, 5_346_250, 4_685_391, 9),
        (564_972_500, 6_449_291, 4_685_392, 42), (581_645_166, 6_092_458, 4_685_393, 19),
        (598_303_541, 4_982_458, 4_685_394, 9), (614_970_000, 4_682_833, 4_685_395, 42),
        (631_638_208, 6_500_166, 4_685_396, 19), (648_303_666, 7_150_000, 4_685_397, 9),
        (664_968_458, 5_849_083, 4_685_398, 42), (681_630_041, 5_139_250, 4_685_399, 19),
    ]

    @Test func displayedSurfacesAreTheFrames() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("displayed-surfaces-interval.xml")])
        #expect(
            timeline.frames
                == Self.surfaces.map { RecordedFrame(present: Self.t($0.0), onGlass: Self.d($0.1), surfaceID: $0.2) })
        #expect(timeline.end == Self.t(664_433_125 + 16_666_666))
        #expect(timeline.refreshSource == .assumed)
        #expect(timeline.notes == [Self.noHitchList, Self.assumed, Self.noTOC("681.099791ms")])
    }

    @Test func surfaceSwapsAloneAreTheFrames() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("display-surface-swap.xml")])
        #expect(
            timeline.frames
                == Self.swaps.map { RecordedFrame(present: Self.t($0.0), swapID: $0.2, surfaceID: $0.1) })
        #expect(timeline.end == Self.t(664_433_125))
    }

    @Test func rendersAloneHaveNoFrameToJoin() throws {
        let timeline = try XCTraceImport.read([Fixtures.path("hitches-renders.xml")])
        #expect(timeline.frames.isEmpty)
        #expect(timeline.end == Self.t(681_630_041 + 5_139_250))
        #expect(
            timeline.notes == [
                Self.noHitchList,
                "hitches-renders (12 rows) not used: no frames to join them to (hitches-frame-lifetimes, "
                    + "displayed-surfaces-interval or display-surface-swap)",
                Self.assumed, Self.noTOC("686.769291ms"),
            ])
    }

    /// The whole folder: a swap gives each displayed surface its swap id (same time, same
    /// surface), and a render goes to the next display of its surface after it ends. On these
    /// files that is the frame whose swap id is the render's own: render 1 (surface 9, swap
    /// 4685388, ends 504269749) → the frame at 531099833, swap 4685388. Renders 10–12 end after
    /// their surface's last display.
    @Test func theFolderJoinsSwapsAndRendersToTheFrames() throws {
        let timeline = try XCTraceImport.read([Fixtures.folder])
        #expect(timeline.sources == Fixtures.names.map(Fixtures.path))
        var expected = (0..<12).map { k in
            RecordedFrame(
                present: Self.t(Self.surfaces[k].0), onGlass: Self.d(Self.surfaces[k].1), swapID: Self.swaps[k].2,
                surfaceID: Self.surfaces[k].2)
        }
        for (k, render) in Self.renders.prefix(9).enumerated() {
            expected[k + 3].renderStart = Self.t(render.0)
            expected[k + 3].renderEnd = Self.t(render.0 + render.1)
            #expect(expected[k + 3].swapID == render.2)
        }
        #expect(timeline.frames == expected)
        #expect(timeline.vsyncs == Self.vsyncs.map(Self.t))
        #expect(timeline.hitches.count == 11)
        // The vsyncs (Display 1) came every 16.666667 ms: the rate the display ran at, not the
        // built-in panel's 120 Hz maximum (device-display-info).
        #expect(timeline.refreshSource == .vsyncMedian)
        #expect(timeline.refreshInterval == Self.d(16_666_667))
        #expect(timeline.end == Self.t(36_844_539_583))
        #expect(
            timeline.notes == [
                "hitches-renders: 3 of 12 rows match no frame (their surface is not displayed at or after they "
                    + "end, or they have no surface id)",
                "the vsyncs came every 16.666667ms (their median): that is the refresh interval, not "
                    + "device-display-info's maximum of 120 Hz",
                Self.noTOC("36.844539583s"),
            ])
    }

    /// Files given one by one are read in the order given; the result is the folder's.
    @Test func filesInAnyOrderMakeTheSameTimeline() throws {
        let folder = try XCTraceImport.read([Fixtures.folder])
        var files = try XCTraceImport.read(Fixtures.names.reversed().map(Fixtures.path))
        #expect(files.sources == Fixtures.names.reversed().map(Fixtures.path))
        files.sources = folder.sources
        #expect(files == folder)
    }
}
