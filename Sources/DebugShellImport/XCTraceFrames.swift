import DebugShellCore

/// How the frames of an xctrace import are put together (docs/Import.md, "xctrace"): one table
/// gives the frames, the others add what they know of each, by a key the two share.
///
/// - The frames: `hitches-frame-lifetimes` if it has rows (vsync = start, present = start +
///   duration, the swap id), else `displayed-surfaces-interval` (present = start, on glass =
///   duration, the surface id), else `display-surface-swap` (present = timestamp, swap and
///   surface ids).
/// - `hitches-updates` (commit) and `hitches-renders` (render) rows join a frame by swap id
///   when the frames are lifetimes (the same id space, Instruments' Hitches tap), else by
///   surface id: a pass goes to the first frame of its surface presented at or after the pass
///   ends (a surface is reused every few frames). A frame's commit and render span all the
///   passes it got (a render's offscreen passes nest in it).
/// - `display-surface-swap` rows give displayed-surfaces frames their swap id where the two
///   agree exactly on time and surface.
/// - With lifetimes, a hitch's description becomes its frame's cause (by swap id).
///
/// What joins nothing is said in a note, never dropped silently.
extension XCTraceCollection {
    func assembleFrames(hitchList: [RecordedHitch]) -> ([RecordedFrame], [String]) {
        var notes: [String] = []
        var frames: [RecordedFrame]
        var bySwap = false
        if !lifetimes.isEmpty {
            frames = lifetimes.map { RecordedFrame(present: $0.end, vsync: $0.start, swapID: $0.swapID) }
            bySwap = true
            for (table, count) in [(XCTraceTable.displayedSurfaces, surfaces.count), (.surfaceSwaps, swaps.count)]
            where count > 0 {
                notes.append("\(table.rawValue) (\(count) rows) not joined: hitches-frame-lifetimes gives the frames")
            }
        } else if !surfaces.isEmpty {
            frames = surfaces
            if !swaps.isEmpty {
                let unmatched = Self.joinSwaps(swaps, into: &frames)
                if unmatched > 0 {
                    notes.append(
                        "display-surface-swap: \(unmatched) of \(swaps.count) rows match no displayed surface "
                            + "(same time and surface id)")
                }
            }
        } else if !swaps.isEmpty {
            frames = swaps.map { RecordedFrame(present: $0.time, swapID: $0.swapID, surfaceID: $0.surfaceID) }
        } else {
            for (table, passes) in [(XCTraceTable.hitchesUpdates, updates), (.hitchesRenders, renders)]
            where !passes.isEmpty {
                notes.append(
                    "\(table.rawValue) (\(passes.count) rows) not used: no frames to join them to "
                        + "(hitches-frame-lifetimes, displayed-surfaces-interval or display-surface-swap)")
            }
            return ([], notes)
        }
        // In present order (lifetimes end out of order); stable: frames presented at the same time
        // keep their order in the table. The other tables are in time order already.
        if zip(frames, frames.dropFirst()).contains(where: { $0.present > $1.present }) {
            frames = frames.enumerated().sorted { ($0.element.present, $0.offset) < ($1.element.present, $1.offset) }
                .map(\.element)
        }
        if surfaceDisplays.count > 1 && !bySwap {
            notes.append(
                "displayed-surfaces-interval has the frames of \(surfaceDisplays.count) displays "
                    + "(\(surfaceDisplays.joined(separator: ", "))): all kept")
        }
        for (table, passes) in [(XCTraceTable.hitchesUpdates, updates), (.hitchesRenders, renders)]
        where !passes.isEmpty {
            let isRender = table == .hitchesRenders
            let unmatched = Self.join(passes, into: &frames, bySwap: bySwap) { frame, pass in
                if isRender {
                    frame.renderStart = min(frame.renderStart ?? pass.start, pass.start)
                    frame.renderEnd = max(frame.renderEnd ?? pass.end, pass.end)
                } else {
                    frame.commitStart = min(frame.commitStart ?? pass.start, pass.start)
                    frame.commitEnd = max(frame.commitEnd ?? pass.end, pass.end)
                }
            }
            if unmatched > 0 {
                let rule =
                    bySwap
                    ? "no frame lifetime has their swap id"
                    : "their surface is not displayed at or after they end, or they have no surface id"
                notes.append("\(table.rawValue): \(unmatched) of \(passes.count) rows match no frame (\(rule))")
            }
        }
        if bySwap {
            var index: [Int64: Int] = [:]
            for (k, frame) in frames.enumerated() {
                if let swap = frame.swapID, index[swap] == nil { index[swap] = k }
            }
            for hitch in hitchList {
                if let swap = hitch.swapID, let k = index[swap] { frames[k].cause = hitch.description }
            }
        }
        return (frames, notes)
    }

    /// Joins each pass to a frame (by swap id: the frame with it; by surface id: the first frame
    /// of the surface presented at or after the pass ends): the number that joined none.
    private static func join(
        _ passes: [Pass], into frames: inout [RecordedFrame], bySwap: Bool,
        apply: (inout RecordedFrame, Pass) -> Void
    ) -> Int {
        // The frames of each key, in present order.
        var byKey: [Int64: [Int]] = [:]
        for (k, frame) in frames.enumerated() {
            if let key = bySwap ? frame.swapID : frame.surfaceID { byKey[key, default: []].append(k) }
        }
        var unmatched = 0
        for pass in passes {
            guard let key = bySwap ? pass.swapID : pass.surfaceID, let candidates = byKey[key] else {
                unmatched += 1
                continue
            }
            if bySwap {
                apply(&frames[candidates[0]], pass)
                continue
            }
            // The first candidate presented at or after the pass ends.
            var low = 0
            var high = candidates.count
            while low < high {
                let mid = (low + high) / 2
                if frames[candidates[mid]].present < pass.end { low = mid + 1 } else { high = mid }
            }
            if low < candidates.count { apply(&frames[candidates[low]], pass) } else { unmatched += 1 }
        }
        return unmatched
    }

    /// Gives displayed-surfaces frames the swap id of the swap at their time with their surface:
    /// the number of swaps that matched none.
    private static func joinSwaps(_ swaps: [Swap], into frames: inout [RecordedFrame]) -> Int {
        struct Key: Hashable {
            var time: SimTime
            var surface: Int64?
        }
        // The frames of each time and surface, in order, and how many of them have a swap.
        var byKey: [Key: (frames: [Int], used: Int)] = [:]
        for (k, frame) in frames.enumerated() {
            byKey[Key(time: frame.present, surface: frame.surfaceID), default: ([], 0)].frames.append(k)
        }
        var unmatched = 0
        for swap in swaps {
            let key = Key(time: swap.time, surface: swap.surfaceID)
            guard let entry = byKey[key], entry.used < entry.frames.count else {
                unmatched += 1
                continue
            }
            frames[entry.frames[entry.used]].swapID = swap.swapID
            byKey[key]?.used += 1
        }
        return unmatched
    }
}
