/// A frame timeline that a real device recorded (an Instruments trace exported by `xctrace`, a
/// display-link log an in-app FPS label wrote) or that debugsh wrote itself (`fps frames --csv`,
/// `trace save`), as debugsh reads it: the display's vsyncs, the frames it presented with what is
/// known of each, the hitches the recording tool reported, and the display-link callbacks a log
/// kept. Every time is since the recording's start, in nanoseconds, as ``SimTime``s are.
///
/// A reader fills what its format carries and leaves the rest empty; ``notes`` says, once, what
/// the format could not give (docs/Import.md).
public struct RecordedTimeline: Sendable, Equatable {
    /// What a timeline was read from.
    public enum Format: String, Sendable, Equatable {
        /// Tables of an Instruments trace, as `xctrace export` writes them.
        case xctrace
        /// One row per CADisplayLink callback (`timestamp`, `targetTimestamp`, `duration`).
        case displayLinkCSV = "display-link csv"
        /// One row per frame (vsync, commit, render, present): what `fps frames --csv` writes.
        case framesCSV = "frames csv"
        /// debugsh's own Chrome trace (`trace save`), read back.
        case chrome
    }

    /// Where the display's refresh interval was read.
    public enum RefreshSource: Sendable, Equatable {
        /// `device-display-info`'s `max-refresh-rate` of the main display, in Hz.
        case displayInfo(hertz: Int)
        /// A hitch row's own `refresh-interval` (`hitches-summary`).
        case hitchRows
        /// The median gap between consecutive vsyncs (`display-vsyncs-interval`).
        case vsyncMedian
        /// The file says it (a CSV header, a trace's metadata).
        case declared
        /// Nothing in the recording says: 60 Hz is assumed, and said.
        case assumed

        /// The source in one word, as JSON and a saved recording write it: `device-display-info`,
        /// `hitch-rows`, `vsync-median`, `declared`, `assumed`.
        public var word: String {
            switch self {
            case .displayInfo: return "device-display-info"
            case .hitchRows: return "hitch-rows"
            case .vsyncMedian: return "vsync-median"
            case .declared: return "declared"
            case .assumed: return "assumed"
            }
        }

        /// Where the interval was read, as `import` and `recording` say it.
        public var text: String {
            switch self {
            case .displayInfo(let hertz): return "device-display-info: \(hertz) Hz"
            case .hitchRows: return "the hitch rows' refresh interval"
            case .vsyncMedian: return "the median vsync gap"
            case .declared: return "as the file declares"
            case .assumed: return "assumed: the recording does not say"
            }
        }
    }

    /// The format, and the files read (in the order given).
    public var format: Format
    public var sources: [String]
    /// The span the recording covers: its start (0 unless the format says otherwise) and end
    /// (the trace's duration where the export has one, else the last event).
    public var start: SimTime
    public var end: SimTime
    /// The display's refresh interval, and where it was read; nil before a reader decides.
    public var refreshInterval: SimDuration?
    public var refreshSource: RefreshSource?
    /// Every vsync the recording has, in time order.
    public var vsyncs: [SimTime]
    /// Every frame the display presented, in time order.
    public var frames: [RecordedFrame]
    /// The hitches the tool that recorded it reported, in time order (Instruments' own rows:
    /// never derived by debugsh, never summed from per-stage tables).
    public var hitches: [RecordedHitch]
    /// Whether the recording has a hitch list at all: an empty one means no hitch, while a
    /// display-link log (or an export without a hitch table) says nothing of hitches.
    public var hasHitchList: Bool
    /// Display-link callbacks an in-app log kept, in time order: what an FPS label counted.
    public var linkCallbacks: [RecordedLinkCallback]
    /// Instruments' Core Animation FPS samples (`core-animation-fps-estimate`), if exported.
    public var fpsSamples: [RecordedFPSSample]
    /// What the format could not give, said once when it is imported (docs/Import.md).
    public var notes: [String]

    public init(
        format: Format, sources: [String], start: SimTime = .zero, end: SimTime = .zero,
        refreshInterval: SimDuration? = nil, refreshSource: RefreshSource? = nil, vsyncs: [SimTime] = [],
        frames: [RecordedFrame] = [], hitches: [RecordedHitch] = [], hasHitchList: Bool? = nil,
        linkCallbacks: [RecordedLinkCallback] = [],
        fpsSamples: [RecordedFPSSample] = [], notes: [String] = []
    ) {
        self.format = format
        self.sources = sources
        self.start = start
        self.end = end
        self.refreshInterval = refreshInterval
        self.refreshSource = refreshSource
        self.vsyncs = vsyncs
        self.frames = frames
        self.hitches = hitches
        self.hasHitchList = hasHitchList ?? !hitches.isEmpty
        self.linkCallbacks = linkCallbacks
        self.fpsSamples = fpsSamples
        self.notes = notes
    }
}

/// One frame on the display, with what the recording knows of its life (nil: not recorded).
public struct RecordedFrame: Sendable, Equatable {
    /// When it reached the display (a swap, a present).
    public var present: SimTime
    /// How long it stayed on glass (`displayed-surfaces-interval`'s duration).
    public var onGlass: SimDuration?
    /// The vsync its update started at (the app's tick, Instruments' `earliest-time`).
    public var vsync: SimTime?
    /// The app's commit (update) and the render server's pass.
    public var commitStart: SimTime?
    public var commitEnd: SimTime?
    public var renderStart: SimTime?
    public var renderEnd: SimTime?
    /// When it was expected on the display (R3), if the recording says.
    public var expectedPresent: SimTime?
    /// Its hitch's cause as the recording names it (`commit`, `render`, an Instruments string).
    public var cause: String?
    /// The recording's ids for it, where it has them.
    public var swapID: Int64?
    public var surfaceID: Int64?
    /// The frame's number in the recording (a frame log's `frame`, a trace's `frame` argument).
    public var number: Int64?
    /// How late it was as the recording measured it (a frame log's `hitch`, a trace's hitch
    /// slice): 0 on time; nil where the recording does not say (a frame not counted for hitches).
    public var hitch: SimDuration?

    public init(
        present: SimTime, onGlass: SimDuration? = nil, vsync: SimTime? = nil, commitStart: SimTime? = nil,
        commitEnd: SimTime? = nil, renderStart: SimTime? = nil, renderEnd: SimTime? = nil,
        expectedPresent: SimTime? = nil, cause: String? = nil, swapID: Int64? = nil, surfaceID: Int64? = nil,
        number: Int64? = nil, hitch: SimDuration? = nil
    ) {
        self.present = present
        self.onGlass = onGlass
        self.vsync = vsync
        self.commitStart = commitStart
        self.commitEnd = commitEnd
        self.renderStart = renderStart
        self.renderEnd = renderEnd
        self.expectedPresent = expectedPresent
        self.cause = cause
        self.swapID = swapID
        self.surfaceID = surfaceID
        self.number = number
        self.hitch = hitch
    }
}

/// One hitch as the tool that recorded it reported it (an Instruments row).
public struct RecordedHitch: Sendable, Equatable {
    /// When the frame should have been on the display, and how late it was.
    public var start: SimTime
    public var duration: SimDuration
    /// The recording's description of it, as written (`Potentially expensive app update(s)`,
    /// `Commit to Render latency`); empty when it has none.
    public var description: String
    /// Instruments' own severity (`Low`, `Moderate`, `High`) where the export has the column.
    public var severity: String?
    /// The row's own refresh interval, acceptable latency and buffer count (`hitches-summary`).
    public var refreshInterval: SimDuration?
    public var acceptableLatency: SimDuration?
    public var bufferCount: Int?
    /// The swap it belongs to, whether it is the system's, and the process, where exported.
    public var swapID: Int64?
    public var isSystem: Bool?
    public var process: String?

    public init(
        start: SimTime, duration: SimDuration, description: String = "", severity: String? = nil,
        refreshInterval: SimDuration? = nil, acceptableLatency: SimDuration? = nil, bufferCount: Int? = nil,
        swapID: Int64? = nil, isSystem: Bool? = nil, process: String? = nil
    ) {
        self.start = start
        self.duration = duration
        self.description = description
        self.severity = severity
        self.refreshInterval = refreshInterval
        self.acceptableLatency = acceptableLatency
        self.bufferCount = bufferCount
        self.swapID = swapID
        self.isSystem = isSystem
        self.process = process
    }
}

/// One CADisplayLink callback an in-app log kept.
public struct RecordedLinkCallback: Sendable, Equatable {
    /// `timestamp`: the vsync the callback is for; `targetTimestamp`: the next one.
    public var timestamp: SimTime
    public var targetTimestamp: SimTime?
    /// `duration`: the link's frame interval then.
    public var duration: SimDuration?

    public init(timestamp: SimTime, targetTimestamp: SimTime? = nil, duration: SimDuration? = nil) {
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
    }
}

/// One Core Animation FPS sample of Instruments (`core-animation-fps-estimate`).
public struct RecordedFPSSample: Sendable, Equatable {
    public var start: SimTime
    public var period: SimDuration
    /// Frames per second as Instruments wrote it, and the GPU's utilization (0–100) if given.
    public var fps: Double
    public var deviceUtilization: Double?

    public init(start: SimTime, period: SimDuration, fps: Double, deviceUtilization: Double? = nil) {
        self.start = start
        self.period = period
        self.fps = fps
        self.deviceUtilization = deviceUtilization
    }
}
