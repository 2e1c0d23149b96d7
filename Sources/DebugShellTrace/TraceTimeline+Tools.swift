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
        let counter = intern("\(toolName): \(name)")
        toolCounterValues[counter] = value.thousandths
        record(
            .counter, track: 0, name: counter, start: time.nanoseconds, end: time.nanoseconds,
            primary: value.thousandths)
    }

    /// The tools' counters drop to 0 at `t` (the simulation's) as their simulation ends (a
    /// `reset`, `trace stop`): a value held past it would read as a measure of the next one. A
    /// JSON counter cannot end, so 0 stands for no value. In order of name, for the same bytes.
    mutating func endToolCounters(at t: Int64) {
        for (counter, value) in toolCounterValues.sorted(by: { $0.key < $1.key }) where value != 0 {
            record(.counter, track: 0, name: counter, start: t, end: t, primary: 0)
        }
        toolCounterValues.removeAll()
    }
}
