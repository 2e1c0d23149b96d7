import DebugShellCore

/// Tools' events, slices and counters.
extension TraceTimeline {
    // MARK: Tools

    mutating func toolEvent(_ event: ToolEvent) {
        guard categories.contains(.tools) else { return }
        name(track: TraceTimeline.toolEventTrack)
        let t = event.time.nanoseconds
        record(
            .toolEvent, track: TraceTimeline.toolEventTrack, name: intern(event.name), start: t, end: t,
            extra: [("message", .string(event.message))] + event.fields)
    }

    /// A tool's slice, as the host clamps it (docs/Trace.md, "For tool authors"): it starts
    /// within its simulation, at or after t = 0 and at or before now (a slice is handed when it
    /// has begun); it ends at or after its start; an end at or past the horizon (S1: `.never`, a
    /// slice that has not ended) is an unfinished slice, which ends where recording ends — now
    /// when a trace is saved, the reset or `trace stop` that ends its simulation, the moment a
    /// full trace stopped — with the argument `unfinished`. So no time a plugin hands can overflow
    /// the trace's arithmetic (S1), and no slice stretches the axis past what happened.
    mutating func toolSlice(
        tool: Int, toolName: String, _ name: String, from start: SimTime, to end: SimTime, args: [(String, JSONValue)],
        now: SimTime
    ) {
        guard categories.contains(.tools) else { return }
        let track = TraceTimeline.toolTrackBase + Int32(tool)
        if trackNames[track] == nil { trackNames[track] = "Tool \(toolName)" }
        let from = min(max(start.nanoseconds, 0), max(now.nanoseconds, 0))
        guard end < .horizon else {
            unfinishedToolSlices.append((track, intern(name), from, args))
            return
        }
        record(.toolSlice, track: track, name: intern(name), start: from, end: max(from, end.nanoseconds), extra: args)
    }

    mutating func toolCounter(toolName: String, _ name: String, _ value: MetricNumber, at time: SimTime) {
        guard categories.contains(.counters) else { return }
        record(
            .counter, track: 0, name: intern("\(toolName): \(name)"), start: time.nanoseconds,
            end: time.nanoseconds, primary: value.thousandths)
    }
}
