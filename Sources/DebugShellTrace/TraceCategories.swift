import DebugShellCore

/// What a trace records: each category a set of tracks (`trace start --categories …`).
public struct TraceCategories: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Vsyncs, presents, idle stretches and hitches.
    public static let display = TraceCategories(rawValue: 1 << 0)
    /// The main thread's items and run-loop iterations.
    public static let main = TraceCategories(rawValue: 1 << 1)
    /// The render server's renders.
    public static let render = TraceCategories(rawValue: 1 << 2)
    /// Background queues' dispatch handlers.
    public static let queues = TraceCategories(rawValue: 1 << 3)
    /// Run-loop mode spans.
    public static let modes = TraceCategories(rawValue: 1 << 4)
    /// Counters: presented FPS, main-thread busy, tools' own.
    public static let counters = TraceCategories(rawValue: 1 << 5)
    /// Tools' events and slices.
    public static let tools = TraceCategories(rawValue: 1 << 6)
    /// Every frame's expected and actual life on lanes of their own (Perfetto's FrameTimeline),
    /// and the flows from a frame's commit to its render and present and from what delayed it.
    public static let frames = TraceCategories(rawValue: 1 << 7)

    public static let all: TraceCategories = [.display, .main, .render, .queues, .modes, .counters, .tools, .frames]

    /// The categories by name, in the order help lists them.
    public static let names: [(String, TraceCategories)] = [
        ("display", .display), ("main", .main), ("render", .render), ("queues", .queues), ("modes", .modes),
        ("counters", .counters), ("tools", .tools), ("frames", .frames),
    ]

    /// The names of the categories in this set, in the order help lists them.
    public var words: [String] { TraceCategories.names.filter { contains($0.1) }.map(\.0) }

    /// Parses `display,main`: the categories named, comma-separated.
    ///
    /// - Throws: an unknown name, with the list and a did-you-mean.
    public static func parse(_ text: String) throws(CommandError) -> TraceCategories {
        var chosen = TraceCategories()
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let found = names.first(where: { $0.0 == word }) else {
                var message = "unknown trace category '\(word)' (categories: "
                message += names.map(\.0).joined(separator: ", ") + ")"
                if let guess = NameSuggestion.closest(to: word, in: names.map(\.0)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw CommandError(message)
            }
            chosen.insert(found.1)
        }
        return chosen
    }
}

/// Which events a full trace keeps (`trace start --keep …`), as Perfetto's buffer modes do.
public enum TraceKeep: String, Sendable, CaseIterable, CommandLineChoice {
    /// The first events up to the limit; then recording stops, and costs nothing more (Perfetto's
    /// DISCARD mode). The default: a script's trace keeps its beginning, whatever follows.
    case first
    /// The newest events: beyond the limit the oldest are dropped (Perfetto's RING_BUFFER mode).
    /// Every event is recorded, so a long run costs its whole length.
    case last
}
