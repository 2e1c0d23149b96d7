import DebugShellCore

/// Reads a CSV log into a ``RecordedTimeline``: a display-link log (one row per CADisplayLink
/// callback: `timestamp`, `targetTimestamp`, `duration`) or a frame log (one row per frame:
/// `frame`, `vsync`, `commit_start` … `present`, `expected_present`, `hitch`, `cause`,
/// `refresh_interval`: what `fps frames --csv` writes). The header's names say which, and each
/// column's meaning; docs/Import.md ("CSV") has both shapes with examples, the units, and every
/// rule below.
///
/// Streaming: the file is read a chunk at a time and each row becomes what the timeline keeps of
/// it, so memory is the rows kept. All or nothing: the first fault throws an ``ImportError`` at
/// its `file:line:column`, and nothing of the file is kept. `interrupted` is polled every 4,096
/// rows and every megabyte read; when it says so, the import stops with an error.
public enum CSVImport {
    /// The refresh interval assumed where a log says none: 60 Hz, as a display link's `duration`
    /// writes it (one second over 60, to the nearest nanosecond).
    public static let assumedRefresh = SimDuration(nanoseconds: 16_666_667)

    public static func read(_ path: String, interrupted: () -> Bool) throws(ImportError) -> RecordedTimeline {
        var reader = try CSVRecordReader(path: path)
        guard try reader.next(interrupted: interrupted) else {
            if reader.source.offset == 0 {
                throw ImportError(
                    "the file is empty: a CSV log is a header line and a row per callback or frame", file: path)
            }
            throw ImportError("no header: the file has only comments and blank lines", file: path)
        }
        let header = try CSVHeader(reader)
        let headerLine = reader.line
        var rows = CSVRows(header: header, path: path)
        var count = 0
        while try reader.next(interrupted: interrupted) {
            count += 1
            try rows.check(fieldCount: reader)
            switch header.shape {
            case .displayLink: try rows.callback(reader)
            case .frames: try rows.frame(reader)
            }
        }
        guard count > 0 else {
            throw ImportError("a header and no rows: nothing to import", file: path, line: headerLine)
        }
        return header.shape == .displayLink ? rows.linkTimeline() : rows.framesTimeline()
    }

    /// The lower median of `values` (the ⌈n/2⌉-th smallest), or nil when there are none.
    static func median(_ values: [Int64]) -> Int64? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[(values.count - 1) / 2]
    }
}

/// What a CSV log's rows add up to, row by row.
struct CSVRows {
    let header: CSVHeader
    let path: String
    private let scale: Int

    // A display-link log.
    private var callbacks: [RecordedLinkCallback] = []
    /// The first timestamp, on the log's clock: the recording's t = 0.
    private var origin: Int64?
    private var durations: [Int64] = []

    // A frame log.
    private var frames: [RecordedFrame] = []
    private var hitches: [RecordedHitch] = []
    private var refreshes: [Int64] = []
    private var earliest: Int64?
    private var unmeasured = 0

    /// The previous row's time that must not go back (its timestamp, its present) as written,
    /// and its line.
    private var previous: (ns: Int64, line: Int)?
    private var previousText: [UInt8] = []

    init(header: CSVHeader, path: String) {
        self.header = header
        self.path = path
        scale = header.unit.scale
    }

    /// A row has as many fields as the header.
    func check(fieldCount reader: borrowing CSVRecordReader) throws(ImportError) {
        let n = reader.fields.count
        guard n != header.count else { return }
        let fields = "\(n) \(n == 1 ? "field" : "fields") where the header has \(header.count)"
        if n < header.count {
            throw reader.error(fields, line: reader.endLine, column: reader.endColumn)
        }
        let extra = reader.fields[header.count]
        throw reader.error(fields, line: extra.line, column: extra.column)
    }

    // MARK: Fields

    private func field(_ column: CSVColumn, _ reader: borrowing CSVRecordReader) -> CSVRecordReader.Field? {
        header.fields[column].map { reader.fields[$0] }
    }

    /// A time or a duration in nanoseconds; nil when the column is absent or the field empty.
    /// Never negative.
    private func time(_ column: CSVColumn, _ reader: borrowing CSVRecordReader) throws(ImportError) -> Int64? {
        guard let field = field(column, reader), field.end > field.start else { return nil }
        let unit = header.unit.rawValue
        switch CSVDecimal.scaled(reader.slice(field), by: scale) {
        case .success(let ns):
            guard ns >= 0 else {
                throw reader.error(
                    "\(column.name) \(reader.quoted(field)) is negative: times count from an origin, durations up from 0",
                    line: field.line, column: field.column)
            }
            return ns
        case .failure(.outOfRange):
            throw reader.error(
                "\(column.name) \(reader.quoted(field)) is out of range (in \(unit)): at most 2^62 ns, about 146 years",
                line: field.line, column: field.column)
        case .failure:
            throw reader.error(
                "\(column.name) \(reader.quoted(field)) is not a number (in \(unit))", line: field.line,
                column: field.column)
        }
    }

    /// A time that must be there.
    private func required(_ column: CSVColumn, _ reader: borrowing CSVRecordReader) throws(ImportError) -> Int64 {
        if let ns = try time(column, reader) { return ns }
        let place = field(column, reader)
        throw reader.error("\(column.name) is empty", line: place?.line ?? reader.line, column: place?.column ?? 1)
    }

    /// The row's time that must not go back from the previous row's.
    private mutating func forward(
        _ ns: Int64, _ column: CSVColumn, _ reader: borrowing CSVRecordReader
    ) throws(ImportError) {
        guard let field = field(column, reader) else { return }
        if let previous, ns < previous.ns {
            throw reader.error(
                "\(column.name) \(reader.quoted(field)) is before the previous row's \(CSVRecordReader.quoted(previousText)) (line \(previous.line)): \(column == .timestamp ? "timestamps" : "presents") go forward",
                line: field.line, column: field.column)
        }
        previous = (ns, reader.line)
        previousText.removeAll(keepingCapacity: true)
        previousText.append(contentsOf: reader.slice(field))
    }

    /// `later` is not before `earlier` within a row.
    private func ordered(
        _ earlier: (CSVColumn, Int64?), _ later: (CSVColumn, Int64?), _ reader: borrowing CSVRecordReader
    ) throws(ImportError) {
        guard let a = earlier.1, let b = later.1, b < a, let first = field(earlier.0, reader),
            let second = field(later.0, reader)
        else { return }
        throw reader.error(
            "\(later.0.name) \(reader.quoted(second)) is before \(earlier.0.name) \(reader.quoted(first))",
            line: second.line, column: second.column)
    }

    // MARK: A display-link log

    mutating func callback(_ reader: borrowing CSVRecordReader) throws(ImportError) {
        let timestamp = try required(.timestamp, reader)
        try forward(timestamp, .timestamp, reader)
        let target = try time(.targetTimestamp, reader)
        try ordered((.timestamp, timestamp), (.targetTimestamp, target), reader)
        let duration = try time(.duration, reader)
        if let duration, duration == 0, let field = field(.duration, reader) {
            throw reader.error(
                "duration \(reader.quoted(field)) is not positive: it is the link's frame interval", line: field.line,
                column: field.column)
        }
        let origin = self.origin ?? timestamp
        self.origin = origin
        if let duration { durations.append(duration) }
        callbacks.append(
            RecordedLinkCallback(
                timestamp: SimTime(nanoseconds: timestamp - origin),
                targetTimestamp: target.map { SimTime(nanoseconds: $0 - origin) },
                duration: duration.map { SimDuration(nanoseconds: $0) }))
    }

    func linkTimeline() -> RecordedTimeline {
        var notes: [String] = []
        let origin = origin ?? 0
        notes.append(
            "times are since the first timestamp, \(CSVDecimal.seconds(origin)) s on the log's clock (CACurrentMediaTime for a CADisplayLink)"
        )
        var refresh: SimDuration
        var source: RecordedTimeline.RefreshSource
        if let median = CSVImport.median(durations) {
            refresh = SimDuration(nanoseconds: median)
            source = .declared
        } else {
            var gaps: [Int64] = []
            gaps.reserveCapacity(max(0, callbacks.count - 1))
            for i in callbacks.indices.dropFirst() {
                let gap = (callbacks[i].timestamp - callbacks[i - 1].timestamp).nanoseconds
                if gap > 0 { gaps.append(gap) }
            }
            if let median = CSVImport.median(gaps) {
                refresh = SimDuration(nanoseconds: median)
                source = .vsyncMedian
            } else {
                refresh = CSVImport.assumedRefresh
                source = .assumed
                notes.append("no duration and no two timestamps apart: the refresh interval is assumed, 60 Hz")
            }
        }
        notes.append("a display-link log has no frames and no hitch list: it shows what an FPS label counted")
        var end = SimTime.zero
        if let last = callbacks.last { end = max(last.timestamp, last.targetTimestamp ?? last.timestamp) }
        return RecordedTimeline(
            format: .displayLinkCSV, sources: [path], start: .zero, end: end, refreshInterval: refresh,
            refreshSource: source, linkCallbacks: callbacks, notes: notes)
    }

    // MARK: A frame log

    mutating func frame(_ reader: borrowing CSVRecordReader) throws(ImportError) {
        var number: Int64?
        if let field = field(.frame, reader), field.end > field.start {
            switch CSVDecimal.scaled(reader.slice(field), by: 0, whole: true, limit: Int64.max) {
            case .success(let n): number = n
            case .failure(.notWhole):
                throw reader.error(
                    "frame \(reader.quoted(field)) is not a whole number", line: field.line, column: field.column)
            case .failure(.outOfRange):
                throw reader.error(
                    "frame \(reader.quoted(field)) is out of range", line: field.line, column: field.column)
            case .failure(.notANumber):
                throw reader.error(
                    "frame \(reader.quoted(field)) is not a number", line: field.line, column: field.column)
            }
        }
        let vsync = try time(.vsync, reader)
        let commitStart = try time(.commitStart, reader)
        let commitEnd = try time(.commitEnd, reader)
        try ordered((.commitStart, commitStart), (.commitEnd, commitEnd), reader)
        let renderStart = try time(.renderStart, reader)
        let renderEnd = try time(.renderEnd, reader)
        try ordered((.renderStart, renderStart), (.renderEnd, renderEnd), reader)
        let present = try required(.present, reader)
        try forward(present, .present, reader)
        let expected = try time(.expectedPresent, reader)
        let hitch = try time(.hitch, reader)
        if let hitch, hitch > present, let hitchField = field(.hitch, reader),
            let presentField = field(.present, reader)
        {
            throw reader.error(
                "hitch \(reader.quoted(hitchField)) is longer than present \(reader.quoted(presentField)): a hitch ends at its present, after the origin",
                line: hitchField.line, column: hitchField.column)
        }
        var cause: String?
        if let field = field(.cause, reader), field.end > field.start {
            guard let text = String(validating: reader.slice(field), as: UTF8.self) else {
                throw reader.error("not UTF-8 text", line: field.line, column: field.column)
            }
            cause = text
        }
        if let refresh = try time(.refreshInterval, reader) {
            if refresh == 0, let field = field(.refreshInterval, reader) {
                throw reader.error(
                    "refresh_interval \(reader.quoted(field)) is not positive", line: field.line, column: field.column)
            }
            refreshes.append(refresh)
        }
        var least = present
        for time in [vsync, commitStart, commitEnd, renderStart, renderEnd, expected] {
            if let time, time < least { least = time }
        }
        earliest = min(earliest ?? least, least)
        if hitch == nil { unmeasured += 1 }
        func t(_ ns: Int64?) -> SimTime? { ns.map { SimTime(nanoseconds: $0) } }
        frames.append(
            RecordedFrame(
                present: SimTime(nanoseconds: present), vsync: t(vsync), commitStart: t(commitStart),
                commitEnd: t(commitEnd), renderStart: t(renderStart), renderEnd: t(renderEnd),
                expectedPresent: t(expected), cause: cause, number: number,
                hitch: hitch.map { SimDuration(nanoseconds: $0) }))
        if let hitch, hitch > 0 {
            hitches.append(
                RecordedHitch(
                    start: SimTime(nanoseconds: present - hitch), duration: SimDuration(nanoseconds: hitch),
                    description: cause ?? ""))
        }
    }

    func framesTimeline() -> RecordedTimeline {
        var notes: [String] = []
        var refresh = CSVImport.assumedRefresh
        var source = RecordedTimeline.RefreshSource.assumed
        if let median = CSVImport.median(refreshes) {
            refresh = SimDuration(nanoseconds: median)
            source = .declared
        } else {
            notes.append("no refresh_interval: the refresh interval is assumed, 60 Hz")
        }
        if header.fields[.hitch] == nil {
            notes.append("no hitch column: the log says no frame was late, or whether any was")
        } else if unmeasured > 0 {
            notes.append(
                "\(unmeasured) of \(frames.count) frames have an empty hitch: not counted for hitches (A2), or not measured"
            )
        }
        notes.append("a frame log has no display-link callbacks: no FPS label's reading to compare")
        // Hitches in time order (a log's presents go forward; a long hitch may start before the
        // previous one's end).
        let ordered = hitches.enumerated().sorted { a, b in
            a.element.start != b.element.start ? a.element.start < b.element.start : a.offset < b.offset
        }.map(\.element)
        return RecordedTimeline(
            format: .framesCSV, sources: [path], start: SimTime(nanoseconds: earliest ?? 0),
            end: frames.last?.present ?? .zero, refreshInterval: refresh, refreshSource: source, frames: frames,
            hitches: ordered, hasHitchList: header.fields[.hitch] != nil, notes: notes)
    }
}
