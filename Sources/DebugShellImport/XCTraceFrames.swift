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
    /// The frames and the notes on them. The rows of the tables that become frames are taken,
    /// not copied (a million frames are 170 MB); `interrupted()` is asked every 65,536 rows.
    mutating func assembleFrames(hitchList: [RecordedHitch], interrupted: () -> Bool) throws(ImportError) -> (
        [RecordedFrame], [String]
    ) {
        var notes: [String] = []
        var frames: [RecordedFrame]
        var bySwap = false
        if !lifetimes.isEmpty {
            frames = lifetimes.map { RecordedFrame(present: $0.end, vsync: $0.start, swapID: $0.swapID) }
            lifetimes = []
            bySwap = true
            for (table, count) in [(XCTraceTable.displayedSurfaces, surfaces.count), (.surfaceSwaps, swaps.count)]
            where count > 0 {
                notes.append("\(table.rawValue) (\(count) rows) not joined: hitches-frame-lifetimes gives the frames")
            }
        } else if !surfaces.isEmpty {
            frames = surfaces
            surfaces = []
            if !swaps.isEmpty {
                let unmatched = try Self.joinSwaps(swaps, into: &frames, interrupted: interrupted)
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
        if interrupted() { throw ImportError.interrupted }
        // In present order (lifetimes end out of order); stable: frames presented at the same time
        // keep their order in the table. The other tables are in time order already.
        if frames.indices.dropFirst().contains(where: { frames[$0 - 1].present > frames[$0].present }) {
            let order = frames.indices.sorted { (frames[$0].present, $0) < (frames[$1].present, $1) }
            frames = order.map { frames[$0] }
        }
        if surfaceDisplays.count > 1 && !bySwap {
            notes.append(
                "displayed-surfaces-interval has the frames of \(surfaceDisplays.count) displays "
                    + "(\(surfaceDisplays.joined(separator: ", "))): all kept")
        }
        for (table, passes) in [(XCTraceTable.hitchesUpdates, updates), (.hitchesRenders, renders)]
        where !passes.isEmpty {
            let isRender = table == .hitchesRenders
            let unmatched = try Self.join(passes, into: &frames, bySwap: bySwap, interrupted: interrupted) {
                frame, pass in
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
            for k in frames.indices {
                if let swap = frames[k].swapID, index[swap] == nil { index[swap] = k }
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
        _ passes: [Pass], into frames: inout [RecordedFrame], bySwap: Bool, interrupted: () -> Bool,
        apply: (inout RecordedFrame, Pass) -> Void
    ) throws(ImportError) -> Int {
        // The frames of each key, in present order, with their present times beside them.
        var groupOf: [Int64: Int] = [:]
        var members: [[Int]] = []
        var presents: [[SimTime]] = []
        for k in frames.indices {
            guard let key = bySwap ? frames[k].swapID : frames[k].surfaceID else { continue }
            let group: Int
            if let known = groupOf[key] {
                group = known
            } else {
                group = members.count
                groupOf[key] = group
                members.append([])
                presents.append([])
            }
            members[group].append(k)
            presents[group].append(frames[k].present)
        }
        var unmatched = 0
        for (n, pass) in passes.enumerated() {
            if n & 0xFFFF == 0xFFFF && interrupted() { throw ImportError.interrupted }
            guard let key = bySwap ? pass.swapID : pass.surfaceID, let group = groupOf[key] else {
                unmatched += 1
                continue
            }
            if bySwap {
                apply(&frames[members[group][0]], pass)
                continue
            }
            // The first frame of the group presented at or after the pass ends.
            let times = presents[group]
            var low = 0
            var high = times.count
            while low < high {
                let mid = (low + high) / 2
                if times[mid] < pass.end { low = mid + 1 } else { high = mid }
            }
            if low < times.count { apply(&frames[members[group][low]], pass) } else { unmatched += 1 }
        }
        return unmatched
    }

    /// Gives displayed-surfaces frames the swap id of the swap at their time with their surface:
    /// the number of swaps that matched none.
    private static func joinSwaps(_ swaps: [Swap], into frames: inout [RecordedFrame], interrupted: () -> Bool)
        throws(ImportError) -> Int
    {
        struct Key: Hashable {
            var time: SimTime
            var surface: Int64?
        }
        // The frames of each time and surface, in order, and how many of them have a swap.
        var byKey: [Key: (frames: [Int], used: Int)] = [:]
        for k in frames.indices {
            byKey[Key(time: frames[k].present, surface: frames[k].surfaceID), default: ([], 0)].frames.append(k)
        }
        var unmatched = 0
        for (n, swap) in swaps.enumerated() {
            if n & 0xFFFF == 0xFFFF && interrupted() { throw ImportError.interrupted }
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
