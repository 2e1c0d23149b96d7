import DebugShellCore

/// An imported recording written as a Chrome trace for Perfetto's UI (`recording save`,
/// docs/Import.md "Saving a recording"): the tracks of debugsh's own trace — Display (vsyncs and
/// presents), Hitches, Render server, Main thread (commits) — plus the recording's display-link
/// callbacks and Core Animation FPS samples on tracks of their own.
///
/// Every value the recording holds is in the file, so `import chrome` reads back the recording
/// it came from (the round trip is tested on every fixture): `otherData` carries the span, the
/// refresh interval and its source, whether there is a hitch list and the notes; each event's
/// `args` carry what its fields are, in nanoseconds, a missing value left out.
public enum RecordingTrace {
    /// The threads of the trace, in the order Perfetto lists them: the main thread's id is the
    /// process's, as in debugsh's own trace.
    static let tracks: [(id: Int64, name: StaticString)] = [
        (1, "Main thread"), (2, "Render server"), (3, "Display"), (4, "Hitches"),
        (5, "Display link (recorded)"), (6, "Core Animation FPS"),
    ]

    /// `otherData`'s key that marks a recording's trace (its format's name).
    public static let formatKey = "recording_format"

    /// The trace as bytes, handed to `chunk` a megabyte at a time.
    public static func encode(
        _ t: RecordedTimeline, generator: String, chunk: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var out = JSONBytes()
        out.raw("{\"displayTimeUnit\": \"ms\", \"otherData\": {\"generator\": ")
        out.string(generator)
        out.raw(", \"recording_format\": ")
        out.string(t.format.rawValue)
        out.raw(", \"sources\": ")
        out.text(JSONValue.array(t.sources.map { .string($0) }).serialized)
        out.raw(", \"window_start_ns\": ")
        out.int(t.start.nanoseconds)
        out.raw(", \"recording_end_ns\": ")
        out.int(t.end.nanoseconds)
        if let refresh = t.refreshInterval {
            out.raw(", \"refresh_interval_ns\": ")
            out.int(refresh.nanoseconds)
        }
        if let source = t.refreshSource {
            out.raw(", \"refresh_source\": ")
            out.string(source.word)
            if case .displayInfo(let hertz) = source {
                out.raw(", \"refresh_hz\": ")
                out.int(Int64(hertz))
            }
        }
        out.raw(", \"has_hitch_list\": ")
        out.raw(t.hasHitchList ? "true" : "false")
        out.raw(", \"notes\": ")
        out.text(JSONValue.array(t.notes.map { .string($0) }).serialized)
        out.raw("},\n\"traceEvents\": [\n")

        var first = true
        func open(_ out: inout JSONBytes) {
            if !first { out.raw(",\n") }
            first = false
        }
        open(&out)
        out.raw("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": ")
        out.string(
            "recording: \(t.format.rawValue)"
                + (t.sources.count == 1 ? " \(t.sources[0])" : " (\(t.sources.count) files)"))
        out.raw("}}")
        for track in tracks {
            open(&out)
            out.raw("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": ")
            out.int(track.id)
            out.raw(", \"args\": {\"name\": \"")
            out.raw(track.name)
            out.raw("\"}}")
            open(&out)
            out.raw("{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": ")
            out.int(track.id)
            out.raw(", \"args\": {\"sort_index\": ")
            out.int(track.id)
            out.raw("}}")
        }
        func flush(_ out: inout JSONBytes) throws {
            guard out.isFull else { return }
            try out.flush(chunk)
        }

        for (index, vsync) in t.vsyncs.enumerated() {
            open(&out)
            out.raw("{\"name\": \"vsync\", \"cat\": \"display\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
            out.micros(vsync.nanoseconds)
            out.raw(", \"pid\": 1, \"tid\": 3, \"args\": {\"index\": ")
            out.int(Int64(index))
            out.raw("}}")
            try flush(&out)
        }
        for (index, frame) in t.frames.enumerated() {
            Self.frame(frame, key: Int64(index + 1), open: open, to: &out)
            try flush(&out)
        }
        for hitch in t.hitches {
            open(&out)
            Self.hitch(hitch, to: &out)
            try flush(&out)
        }
        for callback in t.linkCallbacks {
            open(&out)
            out.raw("{\"name\": \"callback\", \"cat\": \"link\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
            out.micros(callback.timestamp.nanoseconds)
            out.raw(", \"pid\": 1, \"tid\": 5, \"args\": {\"timestamp_ns\": ")
            out.int(callback.timestamp.nanoseconds)
            out.optional("target_ns", callback.targetTimestamp?.nanoseconds)
            out.optional("duration_ns", callback.duration?.nanoseconds)
            out.raw("}}")
            try flush(&out)
        }
        for sample in t.fpsSamples {
            let fps = MetricNumber(thousandths: Int64(exactly: (sample.fps * 1000).rounded()) ?? 0)
            open(&out)
            out.raw("{\"name\": ")
            out.string("\(fps) fps")
            out.raw(", \"cat\": \"fps\", \"ph\": \"X\", \"ts\": ")
            out.micros(sample.start.nanoseconds)
            out.raw(", \"dur\": ")
            out.micros(sample.period.nanoseconds)
            out.raw(", \"pid\": 1, \"tid\": 6, \"args\": {\"start_ns\": ")
            out.int(sample.start.nanoseconds)
            out.raw(", \"period_ns\": ")
            out.int(sample.period.nanoseconds)
            out.raw(", \"fps\": ")
            out.text(sample.fps.description)
            if let utilization = sample.deviceUtilization {
                out.raw(", \"device_utilization\": ")
                out.text(utilization.description)
            }
            out.raw("}}")
            // The same value as a counter, which Perfetto draws as a graph.
            open(&out)
            out.raw("{\"name\": \"Core Animation\", \"cat\": \"fps\", \"ph\": \"C\", \"ts\": ")
            out.micros(sample.start.nanoseconds)
            out.raw(", \"pid\": 1, \"args\": {\"FPS\": ")
            out.text(fps.description)
            out.raw("}}")
            try flush(&out)
        }
        out.raw("\n]}\n")
        try out.flush(chunk)
    }

    /// A frame: its present on the Display track, every field of the frame in its arguments (what
    /// `import chrome` reads); its render on the render server's track and its commit on the main
    /// thread's where both ends are recorded, for the eye.
    private static func frame(
        _ f: RecordedFrame, key: Int64, open: (inout JSONBytes) -> Void, to out: inout JSONBytes
    ) {
        if let start = f.commitStart, let end = f.commitEnd {
            open(&out)
            phase(
                "{\"name\": \"commit\", \"cat\": \"main\", \"ph\": \"X\", \"ts\": ",
                ", \"pid\": 1, \"tid\": 1, \"args\": {\"kind\": \"commit\", \"frame\": ", start, end, key, to: &out)
        }
        if let start = f.renderStart, let end = f.renderEnd {
            open(&out)
            phase(
                "{\"name\": \"render\", \"cat\": \"render\", \"ph\": \"X\", \"ts\": ",
                ", \"pid\": 1, \"tid\": 2, \"args\": {\"frame\": ", start, end, key, to: &out)
        }
        open(&out)
        out.raw("{\"name\": \"present\", \"cat\": \"display\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
        out.micros(f.present.nanoseconds)
        out.raw(", \"pid\": 1, \"tid\": 3, \"args\": {\"frame\": ")
        out.int(key)
        out.raw(", \"present_ns\": ")
        out.int(f.present.nanoseconds)
        out.optional("number", f.number)
        out.optional("on_glass_ns", f.onGlass?.nanoseconds)
        out.optional("commit_start_ns", f.commitStart?.nanoseconds)
        out.optional("commit_end_ns", f.commitEnd?.nanoseconds)
        out.optional("render_start_ns", f.renderStart?.nanoseconds)
        out.optional("render_end_ns", f.renderEnd?.nanoseconds)
        out.optional("vsync_ns", f.vsync?.nanoseconds)
        out.optional("expected_present_ns", f.expectedPresent?.nanoseconds)
        out.optional("hitch_ns", f.hitch?.nanoseconds)
        if let cause = f.cause {
            out.raw(", \"cause\": ")
            out.string(cause)
        }
        out.optional("swap_id", f.swapID)
        out.optional("surface_id", f.surfaceID)
        out.raw("}}")
    }

    /// A frame's commit or render as a slice (`head`, its times, `track`'s start of the arguments,
    /// the frame's key): drawn for the eye; the present's arguments are what is read back.
    private static func phase(
        _ head: StaticString, _ track: StaticString, _ start: SimTime, _ end: SimTime, _ key: Int64,
        to out: inout JSONBytes
    ) {
        out.raw(head)
        out.micros(start.nanoseconds)
        out.raw(", \"dur\": ")
        out.micros((end - start).nanoseconds)
        out.raw(track)
        out.int(key)
        out.raw("}}")
    }

    /// A hitch on the Hitches track, named by its description: a slice from when the frame was
    /// due to its present.
    private static func hitch(_ h: RecordedHitch, to out: inout JSONBytes) {
        out.raw("{\"name\": ")
        out.string(h.description.isEmpty ? "hitch" : h.description)
        out.raw(", \"cat\": \"display\", \"ph\": \"X\", \"ts\": ")
        out.micros(h.start.nanoseconds)
        out.raw(", \"dur\": ")
        out.micros(h.duration.nanoseconds)
        out.raw(", \"pid\": 1, \"tid\": 4, \"args\": {\"start_ns\": ")
        out.int(h.start.nanoseconds)
        out.raw(", \"hitch_ns\": ")
        out.int(h.duration.nanoseconds)
        out.raw(", \"description\": ")
        out.string(h.description)
        if let severity = h.severity {
            out.raw(", \"severity\": ")
            out.string(severity)
        }
        out.optional("refresh_interval_ns", h.refreshInterval?.nanoseconds)
        out.optional("acceptable_latency_ns", h.acceptableLatency?.nanoseconds)
        out.optional("buffer_count", h.bufferCount.map(Int64.init))
        out.optional("swap_id", h.swapID)
        if let system = h.isSystem {
            out.raw(", \"is_system\": ")
            out.raw(system ? "true" : "false")
        }
        if let process = h.process {
            out.raw(", \"process\": ")
            out.string(process)
        }
        out.raw("}}")
    }
}

extension JSONBytes {
    /// `, "key": value` when there is a value.
    mutating func optional(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        raw(", \"")
        raw(key)
        raw("\": ")
        int(value)
    }
}
