import DebugShellCore

/// The events of fixed shape — a main-thread item, a timer's callback or handler, an iteration, a
/// vsync, an idle stretch, a present, a hitch, a hang, a mode span, a reset: nearly every event of
/// a trace — written through a cursor (``JSONCursor``): one check of room per event for the most
/// it can write, then its bytes stored left to right, constants as constants, numbers four digits
/// at a time. The same bytes as ``TraceWriter/write(_:sequence:to:)``'s general path would write.
extension TraceWriter {
    /// Whether a record's event has a fixed shape (no list of items, no tool's arguments, no
    /// counter's name to split): written by ``writeFixed(_:sequence:start:to:)``.
    @inline(__always)
    static func isFixed(_ kind: TraceRecord.Kind) -> Bool {
        switch kind {
        case .mainItem, .timerItem, .queueHandler, .iteration, .vsync, .idle, .present, .hitch, .hang, .mode, .reset:
            return true
        case .render, .counter, .mergedItems, .toolEvent, .toolSlice, .expectedFrame, .actualFrame:
            return false
        }
    }

    /// The most bytes a fixed event writes: its constants and numbers (a few hundred), and at most
    /// two names (an item's and a hang's item's).
    var fixedBound: Int { 768 + 2 * names.longest }

    /// A fixed event (``isFixed(_:)``), from `start` (the record's start, or the kept window's).
    mutating func writeFixed(_ r: TraceRecord, sequence: Int64, start: Int64, to out: inout JSONBytes) {
        var c = out.cursor(reserving: fixedBound)
        if first { c.raw("{\"name\": ") } else { c.raw(",\n{\"name\": ") }
        first = false
        let k = Int(r.name)
        if k >= 0 && k < names.count { names.write(k, to: &c) } else { c.raw("\"item\"") }
        switch r.kind {
        case .mainItem, .timerItem, .iteration, .hang: c.raw(", \"cat\": \"main\", \"ph\": \"X\", \"ts\": ")
        case .queueHandler: c.raw(", \"cat\": \"queues\", \"ph\": \"X\", \"ts\": ")
        case .vsync: c.raw(", \"cat\": \"display\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
        case .idle, .present, .hitch: c.raw(", \"cat\": \"display\", \"ph\": \"X\", \"ts\": ")
        case .mode: c.raw(", \"cat\": \"modes\", \"ph\": \"X\", \"ts\": ")
        case .reset: c.raw(", \"cat\": \"debugsh\", \"ph\": \"i\", \"s\": \"p\", \"ts\": ")
        default: preconditionFailure("not a fixed event: \(r.kind)")
        }
        let stamp = c.p
        c.micros(start)
        let stampLength = c.p - stamp
        switch r.kind {
        case .vsync:
            break
        case .reset:
            c.raw(", \"pid\": 1, \"args\": {\"simulation\": ")
            c.int(r.primary)
            c.raw(", \"offset_ns\": ")
            c.int(r.start)
            c.raw("}}")
            out.commit(c)
            return
        default:
            c.raw(", \"dur\": ")
            c.micros(r.end - start)
        }
        if r.track == TraceTimeline.mainTrack {
            c.raw(", \"pid\": 1, \"tid\": 1, \"args\": {")
        } else {
            c.raw(", \"pid\": 1, \"tid\": ")
            c.int(Int64(r.track))
            c.raw(", \"args\": {")
        }
        switch r.kind {
        case .mainItem:
            c.raw("\"kind\": \"")
            kindNames.write(Int(r.primary), to: &c)
            c.raw("\", \"iteration\": ")
            c.int(r.secondary)
        case .timerItem, .queueHandler:
            timerHeads.write(r.kind == .queueHandler ? TraceTimeline.itemKinds.count : Int(r.code >> 8), to: &c)
            c.int(Int64(r.reference))
            c.raw(", \"scheduled_ns\": ")
            if r.primary == start && start >= 1000 {
                // On time: its scheduled time is its time stamp, whose digits were just written
                // (`10000.000` µs is `10000000` ns).
                c.copyDigits(ofStamp: stamp, length: stampLength)
            } else {
                c.int(r.primary)
            }
            c.raw(", \"lateness_ns\": ")
            c.int(max(0, r.start - r.primary))
            causes.write(Int(r.code & 0xFF), to: &c)
            c.int(r.secondary)
        case .iteration:
            c.raw("\"iteration\": ")
            c.int(r.primary)
            if r.secondary > r.primary {
                c.raw(", \"through_iteration\": ")
                c.int(r.secondary)
            }
        case .present:
            c.raw("\"frame\": ")
            c.int(Int64(r.reference))
            c.raw(", \"vsync\": ")
            c.int(r.primary)
            c.raw(", \"expected_present_ns\": ")
            c.int(r.secondary)
            c.raw(", \"merged_frames\": ")
            c.int(Int64(r.code))
        case .hitch:
            c.raw("\"frame\": ")
            c.int(r.primary)
            switch r.reference & 3 {
            case 0: c.raw(", \"cause\": \"none")
            case 1: c.raw(", \"cause\": \"commit")
            case 2: c.raw(", \"cause\": \"render")
            default: c.raw(", \"cause\": \"both")
            }
            c.raw("\", \"expected_present_ns\": ")
            c.int(r.secondary)
            c.raw(", \"present_ns\": ")
            c.int(r.end)
            c.raw(", \"hitch_ns\": ")
            c.int(r.end - r.start)
        case .vsync:
            c.raw("\"index\": ")
            c.int(r.primary)
        case .idle:
            c.raw("\"vsyncs\": ")
            c.int(r.primary)
        case .hang:
            c.raw("\"item\": ")
            names.write(Int(r.reference), to: &c)
            c.raw(", \"item_kind\": \"")
            kindNames.write(Int(r.primary), to: &c)
            c.raw("\", \"duration_ns\": ")
            c.int(r.end - r.start)
        default:
            break
        }
        if r.start < timeline.windowStart {
            if c.last == UInt8(ascii: "{") {
                c.raw("\"truncated\": true")
            } else {
                c.raw(", \"truncated\": true")
            }
        }
        if frames && mayFlow(r), let flow = flow(r, sequence: sequence) {
            c.raw("}")
            c.raw(", \"bind_id\": \"0x")
            c.hex(flow.id)
            c.raw("\"")
            if flow.in { c.raw(", \"flow_in\": true") }
            if flow.out { c.raw(", \"flow_out\": true") }
            c.raw("}")
        } else {
            c.raw("}}")
        }
        out.commit(c)
    }
}
