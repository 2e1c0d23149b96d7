import DebugShellCore

/// The display's track: vsyncs the device processed, idle stretches, presents and hitches.
extension TraceTimeline {
    // MARK: The display

    /// A vsync the device processed: the idle stretch before it, if any, then the vsync.
    mutating func vsync(at t: Int64, index: Int64, device: any SimulatedDevice) {
        if categories.contains(.counters) {
            countSeconds(upTo: t, partial: false)
            displayRate(at: t, device: device)
        }
        guard categories.contains(.display) else { return }
        idle(before: t, device: device, endingAt: t)
        lastVsync = t
        if let present = lastPresent, present.time == t, let i = ringIndex(of: present.sequence) {
            ring[i].primary = index
            return
        }
        name(track: TraceTimeline.displayTrack)
        record(.vsync, track: TraceTimeline.displayTrack, name: Fixed.vsync.rawValue, start: t, end: t, primary: index)
    }

    /// The vsyncs nothing needed since the last processed one (or since the simulation began
    /// being recorded), up to `t`, as one span with their count.
    mutating func idle(before t: Int64, device: any SimulatedDevice, endingAt end: Int64) {
        let from: SimTime =
            lastVsync.map { device.vsync(after: SimTime(nanoseconds: $0)) }
            ?? device.vsync(atOrAfter: SimTime(nanoseconds: simulationStart))
        guard from.nanoseconds < t else { return }
        let count = device.vsyncs(from: from, to: SimTime(nanoseconds: t))
        guard count > 0 else { return }
        name(track: TraceTimeline.displayTrack)
        record(
            .idle, track: TraceTimeline.displayTrack, name: Fixed.idle.rawValue, start: from.nanoseconds, end: end,
            primary: count)
    }

    mutating func presented(_ p: PresentInfo, device: any SimulatedDevice) {
        let t = p.present.nanoseconds
        if categories.contains(.counters) {
            countSeconds(upTo: t, partial: false)
            presentsInSecond += 1
        }
        if categories.contains(.display) {
            // A present is at a vsync (R2), published before the vsync itself: the vsync's instant
            // is the present's (the vsync fills in its index), so that two instants never share
            // one moment of the display's track.
            name(track: TraceTimeline.displayTrack)
            let kept = record(
                .present, track: TraceTimeline.displayTrack, name: Fixed.present.rawValue, start: t, end: t,
                primary: -1, secondary: p.expectedPresent.nanoseconds + offset, reference: Int32(clamping: p.frame),
                code: Int16(clamping: p.mergedFrames))
            lastPresent = kept ? (recorded - 1, t) : nil
        }
        // The actual frame's record follows the present's: the present names its flow from it.
        if categories.contains(.frames) { framesPresented(p, device: device) }
        guard categories.contains(.display) else { return }
        if p.counted && p.hitch > .zero {
            name(track: TraceTimeline.hitchTrack)
            let cause: Int32 = (p.commitLate ? 1 : 0) | (p.renderLate ? 2 : 0)
            record(
                .hitch, track: TraceTimeline.hitchTrack, name: Fixed.hitch.rawValue + cause,
                start: t - p.hitch.nanoseconds, end: t, primary: p.frame,
                secondary: p.expectedPresent.nanoseconds + offset,
                reference: cause)
        }
    }
}
