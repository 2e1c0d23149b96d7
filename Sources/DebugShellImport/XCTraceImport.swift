import DebugShellCore

/// Reads what `xcrun xctrace export` wrote — tables (`--xpath
/// '/trace-toc/run[@number="1"]/data/table[@schema="…"]'`, one table per file or several) and a
/// TOC (`--toc`) — into a ``RecordedTimeline``. docs/Import.md, "xctrace", is the user's account:
/// the tables and columns read, how frames are put together, and every error.
///
/// - The hitches are Instruments' own rows, from `hitches` (iOS 26) or `hitches-summary`
///   (iOS 18): one list per run, never summed with the per-stage tables; with both, `hitches`
///   is taken and a note says so. Nothing is filtered: `process` and `is-system` are kept for
///   the session to choose by.
/// - The refresh interval comes from the hitch rows' `refresh-interval`, else the median gap
///   between vsyncs (the rate the display ran at), else `device-display-info` (the main
///   display's `max-refresh-rate`, a maximum), else 60 Hz is assumed and a note says so.
/// - All or nothing: any error, or `interrupted()` (asked at every chunk read, and every 50 ms
///   while a FIFO waits for a writer), and nothing is returned.
public enum XCTraceImport {
    /// The schema names of the tables debugsh reads.
    public static let tables: [String] = XCTraceTable.allCases.map(\.rawValue)

    /// Reads the files (a folder: every `*.xml` in it, by name) into one timeline.
    public static func read(_ paths: [String], interrupted: () -> Bool = { false }) throws(ImportError)
        -> RecordedTimeline
    {
        guard !paths.isEmpty else { throw ImportError("no file to import") }
        var files: [String] = []
        for path in paths {
            switch try XMLByteSource.kind(of: path) {
            case .folder:
                let inside = try XMLByteSource.xmlFiles(in: path)
                guard !inside.isEmpty else { throw ImportError("no .xml file in the folder", file: path) }
                files += inside
            case .file, .fifo: files.append(path)
            }
        }
        var collection = XCTraceCollection()
        let outcome: Result<RecordedTimeline, ImportError> = withoutActuallyEscaping(interrupted) { check in
            do throws(ImportError) {
                for file in files {
                    let source = try XMLByteSource(file)
                    var document = XCTraceDocument(XMLTokenizer(source: source, interrupted: check))
                    try document.read(into: &collection)
                }
                return .success(try collection.timeline(sources: files, interrupted: check))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension XCTraceCollection {
    /// The timeline the tables make (XCTraceImport's rules), with notes on what they could not give.
    /// The collection's rows are moved into the timeline, not copied: it is left empty.
    mutating func timeline(sources: [String], interrupted: () -> Bool) throws(ImportError) -> RecordedTimeline {
        guard !files.isEmpty else {
            throw ImportError("no table: the files hold only a TOC (export tables with --xpath too)")
        }
        let run = self.run ?? 1
        if tocFile != nil && toc[run] == nil {
            throw ImportError("the TOC has no run \(run), which the tables are of", file: tocFile)
        }
        var timeline = RecordedTimeline(format: .xctrace, sources: sources)
        var notes: [String] = []
        if let device = toc[run]?.device, !device.isEmpty { notes.append("recorded on \(device)") }

        // The hitch list: one per run.
        if files[.hitches] != nil {
            timeline.hitches = hitches
            timeline.hasHitchList = true
            if files[.hitchesSummary] != nil {
                notes.append(
                    "hitches-summary (\(summaryHitches.count) rows) not used: hitches gives the hitch list "
                        + "(one list per run, never the two summed)")
            }
        } else if files[.hitchesSummary] != nil {
            timeline.hitches = summaryHitches
            timeline.hasHitchList = true
        } else {
            notes.append("no hitch list (hitches or hitches-summary): the recording's hitches are unknown")
        }
        let repeated = Self.repeatedRows(timeline.hitches)
        if repeated > 0 {
            notes.append("\(repeated) hitch rows repeat the start and duration of the row before (all kept)")
        }
        if interrupted() { throw ImportError.interrupted }

        timeline.vsyncs = vsyncs
        vsyncs = []
        if vsyncDisplays.count > 1 {
            notes.append(
                "display-vsyncs-interval has the vsyncs of \(vsyncDisplays.count) displays "
                    + "(\(vsyncDisplays.joined(separator: ", "))): all kept")
        }
        timeline.fpsSamples = fpsSamples
        let (frames, frameNotes) = try assembleFrames(hitchList: timeline.hitches, interrupted: interrupted)
        timeline.frames = frames
        notes += frameNotes
        if interrupted() { throw ImportError.interrupted }

        let (interval, source, refreshNotes) = refresh()
        timeline.refreshInterval = interval
        timeline.refreshSource = source
        notes += refreshNotes

        if let duration = toc[run]?.duration {
            timeline.end = SimTime(nanoseconds: duration.nanoseconds)
        } else {
            timeline.end = lastEvent(timeline)
            notes.append(
                "no TOC: the recording ends at its last event, \(timeline.end) (`xctrace export --toc` gives "
                    + "Instruments' duration)")
        }
        if let listed = toc[run]?.tables {
            let missing = XCTraceTable.allCases.filter { listed.contains($0.rawValue) && files[$0] == nil }
            if !missing.isEmpty {
                notes.append(
                    "the TOC lists \(missing.map(\.rawValue).joined(separator: ", ")), not among the files")
            }
        }
        timeline.notes = notes
        return timeline
    }

    /// How many rows have the start and duration of the row before (Instruments can list a
    /// hitch once per containment level).
    private static func repeatedRows(_ rows: [RecordedHitch]) -> Int {
        var count = 0
        for k in rows.indices.dropFirst()
        where rows[k].start == rows[k - 1].start && rows[k].duration == rows[k - 1].duration {
            count += 1
        }
        return count
    }

    /// The refresh interval and where it was read.
    private func refresh() -> (SimDuration, RecordedTimeline.RefreshSource, [String]) {
        var notes: [String] = []
        // Instruments' own interval, on the hitch rows that carry one (hitches-summary).
        let rowIntervals = (hitches + summaryHitches).compactMap(\.refreshInterval).filter { $0 > .zero }
        if let median = Self.lowerMedian(rowIntervals.map(\.nanoseconds)) {
            if let low = rowIntervals.min(), let high = rowIntervals.max(), low != high {
                notes.append(
                    "the hitch rows' refresh intervals go from \(low) to \(high): their median, "
                        + "\(SimDuration(nanoseconds: median)), is used")
            }
            return (SimDuration(nanoseconds: median), .hitchRows, notes)
        }
        // The cadence the display kept: a ProMotion panel's maximum is not the rate it ran at.
        if let median = Self.lowerMedian(vsyncGaps), median > 0 {
            if let chosen = mainDisplay(&notes), chosen.hertz > 0, chosen.hertz <= 1_000_000,
                1_000_000_000 / chosen.hertz != median
            {
                notes.append(
                    "the vsyncs came every \(SimDuration(nanoseconds: median)) (their median): that is the "
                        + "refresh interval, not device-display-info's maximum of \(chosen.hertz) Hz")
            }
            return (SimDuration(nanoseconds: median), .vsyncMedian, notes)
        }
        if let chosen = mainDisplay(&notes) {
            if chosen.hertz > 0 && chosen.hertz <= 1_000_000 {
                return (
                    SimDuration(nanoseconds: 1_000_000_000 / chosen.hertz), .displayInfo(hertz: Int(chosen.hertz)),
                    notes
                )
            }
            notes.append("device-display-info's max-refresh-rate is \(chosen.hertz) Hz: not used")
        }
        notes.append(
            "nothing in the recording gives its refresh rate (device-display-info, hitches-summary or "
                + "display-vsyncs-interval): 60 Hz is assumed")
        return (CSVImport.assumedRefresh, .assumed, notes)
    }

    /// The display `device-display-info` names main (else the built-in one, else its first
    /// row), saying which when it has to choose; nil without the table.
    private func mainDisplay(_ notes: inout [String]) -> Display? {
        guard !displays.isEmpty else { return nil }
        let mains = displays.filter(\.isMain)
        if let main = mains.first {
            if mains.count > 1 {
                notes.append("device-display-info has \(mains.count) main displays: the first is used")
            }
            return main
        }
        if let builtIn = displays.first(where: { $0.builtIn == true }) {
            notes.append("device-display-info has no main display: the built-in one's rate is used")
            return builtIn
        }
        notes.append("device-display-info has no main display: the first row's rate is used")
        return displays[0]
    }

    /// The middle value (the lower of the two middle ones for an even count); nil for none.
    /// Found by selection, in linear time: a million vsync gaps are not sorted for it.
    static func lowerMedian(_ values: [Int64]) -> Int64? {
        guard !values.isEmpty else { return nil }
        var v = values
        let k = (values.count - 1) / 2
        var low = 0
        var high = v.count - 1
        var rounds = 0
        while low < high {
            // Inputs made to defeat the middle of three would take quadratic time: sort what is
            // left instead.
            rounds += 1
            if rounds > 64 { return v[low...high].sorted()[k - low] }
            // Hoare's partition around the middle of three.
            let mid = low + (high - low) / 2
            let pivot = max(min(v[low], v[mid]), min(max(v[low], v[mid]), v[high]))
            var i = low
            var j = high
            while i <= j {
                while v[i] < pivot { i += 1 }
                while v[j] > pivot { j -= 1 }
                if i <= j {
                    v.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return v[k]
            }
        }
        return v[k]
    }

    /// The last moment anything in the timeline reaches.
    private func lastEvent(_ timeline: RecordedTimeline) -> SimTime {
        var last = SimTime.zero
        if let v = timeline.vsyncs.last { last = max(last, v) }
        for k in timeline.frames.indices {
            last = max(last, timeline.frames[k].present + (timeline.frames[k].onGlass ?? .zero))
        }
        for k in timeline.hitches.indices { last = max(last, timeline.hitches[k].start + timeline.hitches[k].duration) }
        for s in timeline.fpsSamples { last = max(last, s.start + s.period) }
        for p in updates { last = max(last, p.end) }
        for p in renders { last = max(last, p.end) }
        for s in swaps { last = max(last, s.time) }
        return last
    }
}
