import DebugShellCore

/// What the files of one `import xctrace` hold, table by table, as their rows are read; then
/// (``XCTraceCollection/timeline(sources:interrupted:)``, XCTraceImport.swift) the timeline.
struct XCTraceCollection {
    /// The most rows one import keeps, over all its tables (a day at 120 Hz is 10 million vsyncs).
    static let maxRows = 10_000_000

    /// A run of a TOC: how long it recorded, on what, and the tables the trace has.
    struct TOCRun {
        var duration: SimDuration?
        var device: String?
        var tables: [String] = []
    }

    /// A stage of a frame (`hitches-updates`, `hitches-renders`) and the keys that join it to one.
    struct Pass {
        var start: SimTime
        var end: SimTime
        var swapID: Int64?
        var surfaceID: Int64?
    }

    struct Swap {
        var time: SimTime
        var surfaceID: Int64?
        var swapID: Int64?
    }

    struct Lifetime {
        var start: SimTime
        var end: SimTime
        var swapID: Int64
    }

    struct Display {
        var hertz: Int64
        var isMain: Bool
        var builtIn: Bool?
    }

    var toc: [Int: TOCRun] = [:]
    private(set) var tocFile: String?
    /// The run the tables are of (their nodes' `xpath`), and the file that said so first.
    private(set) var run: Int?
    private var runFile: String?
    /// The tables read, with the file each came from.
    private(set) var files: [XCTraceTable: String] = [:]
    private var lastTime: SimTime?
    private(set) var rows = 0

    var hitches: [RecordedHitch] = []
    var summaryHitches: [RecordedHitch] = []
    var vsyncs: [SimTime] = []
    /// The gaps between consecutive vsyncs of the same display, and the displays, in order seen.
    var vsyncGaps: [Int64] = []
    var vsyncDisplays: [String] = []
    private var lastVsync: [String: SimTime] = [:]
    var surfaces: [RecordedFrame] = []
    var surfaceDisplays: [String] = []
    private var surfaceDisplaySet: Set<String> = []
    var swaps: [Swap] = []
    var lifetimes: [Lifetime] = []
    var updates: [Pass] = []
    var renders: [Pass] = []
    var displays: [Display] = []
    var fpsSamples: [RecordedFPSSample] = []

    /// The file a table came from, if it was read.
    func file(of table: XCTraceTable) -> String? { files[table] }

    /// Notes that the tables of a file are of `run`: a message if another file's are of another.
    mutating func use(run: Int, file: String) -> String? {
        if let known = self.run, known != run {
            return "tables of two runs, \(known) (\(runFile ?? "")) and \(run): import one run at a time"
        }
        self.run = run
        if runFile == nil { runFile = file }
        return nil
    }

    /// Notes a TOC: a message if there was one already.
    mutating func useTOC(file: String) -> String? {
        if let other = tocFile { return "a second TOC (the first is \(other)): give one" }
        tocFile = file
        return nil
    }

    /// A table's rows begin.
    mutating func begin(_ table: XCTraceTable, file: String) {
        files[table] = file
        lastTime = nil
    }

    /// A table's rows end.
    mutating func finish(_ table: XCTraceTable) { lastTime = nil }

    /// Adds a row of a table, converted; a fault names the cell at fault.
    mutating func add(_ row: XCTraceRow, texts: [String]) throws(XCTraceRow.Fault) {
        rows += 1
        if rows > Self.maxRows {
            throw XCTraceRow.Fault(
                message: "more than \(Self.maxRows) rows: debugsh keeps at most that many from one import",
                offset: row.offsets[0])
        }
        let table = row.table
        if table.isTimeOrdered, let time = try row.time(0, texts: texts) {
            if let last = lastTime, time < last { throw row.backwards(time, after: last) }
            lastTime = time
        }
        switch table {
        case .hitches:
            hitches.append(
                RecordedHitch(
                    start: try row.required(0, row.time(0, texts: texts)),
                    duration: try row.required(1, row.duration(1, texts: texts)),
                    description: row.text(2, texts: texts) ?? "", swapID: try row.integer(5, texts: texts),
                    isSystem: try row.boolean(4, texts: texts), process: row.text(3, texts: texts)))
        case .hitchesSummary:
            let buffers = try row.integer(6, texts: texts)
            summaryHitches.append(
                RecordedHitch(
                    start: try row.required(0, row.time(0, texts: texts)),
                    duration: try row.required(1, row.duration(1, texts: texts)),
                    description: row.text(2, texts: texts) ?? "", severity: row.text(3, texts: texts),
                    refreshInterval: try row.duration(4, texts: texts),
                    acceptableLatency: try row.duration(5, texts: texts),
                    bufferCount: buffers.flatMap { Int(exactly: $0) }, swapID: try row.integer(7, texts: texts)))
        case .hitchesUpdates, .hitchesRenders:
            let start = try row.required(0, row.time(0, texts: texts))
            let duration = try row.required(1, row.duration(1, texts: texts))
            let pass = Pass(
                start: start, end: start + duration, swapID: try row.integer(2, texts: texts),
                surfaceID: try row.integer(3, texts: texts))
            if table == .hitchesUpdates { updates.append(pass) } else { renders.append(pass) }
        case .hitchesFrameLifetimes:
            let start = try row.required(0, row.time(0, texts: texts))
            let duration = try row.required(1, row.duration(1, texts: texts))
            lifetimes.append(
                Lifetime(
                    start: start, end: start + duration, swapID: try row.required(2, row.integer(2, texts: texts))))
        case .vsyncs:
            let time = try row.required(0, row.time(0, texts: texts))
            let display = row.text(1, texts: texts) ?? ""
            if let last = lastVsync[display] {
                vsyncGaps.append(time.nanoseconds - last.nanoseconds)
            } else {
                vsyncDisplays.append(display)
            }
            lastVsync[display] = time
            vsyncs.append(time)
        case .displayedSurfaces:
            let display = row.text(3, texts: texts) ?? ""
            if surfaceDisplaySet.insert(display).inserted { surfaceDisplays.append(display) }
            surfaces.append(
                RecordedFrame(
                    present: try row.required(0, row.time(0, texts: texts)),
                    onGlass: try row.required(1, row.duration(1, texts: texts)),
                    surfaceID: try row.integer(2, texts: texts)))
        case .surfaceSwaps:
            swaps.append(
                Swap(
                    time: try row.required(0, row.time(0, texts: texts)), surfaceID: try row.integer(1, texts: texts),
                    swapID: try row.integer(2, texts: texts)))
        case .displayInfo:
            displays.append(
                Display(
                    hertz: try row.required(0, row.integer(0, texts: texts)),
                    isMain: try row.required(1, row.boolean(1, texts: texts)),
                    builtIn: try row.boolean(2, texts: texts)))
        case .fpsEstimate:
            fpsSamples.append(
                RecordedFPSSample(
                    start: try row.required(0, row.time(0, texts: texts)),
                    period: try row.required(1, row.duration(1, texts: texts)),
                    fps: try row.required(2, row.decimal(2, texts: texts)),
                    deviceUtilization: try row.decimal(3, texts: texts)))
        }
    }
}
