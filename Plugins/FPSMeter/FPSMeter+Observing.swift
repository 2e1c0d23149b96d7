import DebugShellCore

// MARK: - Observing the device

extension FPSMeter: DeviceObserver {
    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        switch observation {
        case .presented(let info): presented(info)
        case .vsync(let time, _):
            ledger.vsync(at: time, animating: device.isAnimating) { device.vsync(after: time) - time }
            if held.count > 0, let k = held.second, time.nanoseconds >= (k + 1) * SecondTally.nanosecondsPerSecond {
                emitHeldHitches(at: time)
            }
        case .modeChanged(let time, let mode):
            if mode == .tracking {
                trackingSince = time
            } else {
                closeTracking(at: time)
            }
        default: break
        }
    }

    /// Whether the run loop is tracking now, as the observed mode changes say: the hot paths ask
    /// this rather than the device.
    var isTracking: Bool { trackingSince != nil }

    func closeTracking(at time: SimTime) {
        if let start = trackingSince {
            trackingTime = trackingTime + (time - start)
            trackingSpans.append(TrackingSpan(from: start, to: time))
        }
        trackingSince = nil
    }

    /// Tracking time since start or reset, up to now or the stop.
    var trackingTimeNow: SimDuration {
        guard let start = trackingSince else { return trackingTime }
        return trackingTime + (measuredAt - start)
    }

    /// A frame reached the display: R5's count, R4's hitch, frame intervals, the ground truth.
    private func presented(_ info: PresentInfo) {
        ledger.presented(at: info.present)
        presentTally.add(at: info.present)
        if isTracking { lab.trackingPresents += 1 }
        let display = device.displayRefresh
        // The refresh interval in force: max/divisor Hz, to the nearest nanosecond (DL2's `duration`).
        let refresh = SimFormat.roundedDivide(
            Int128(1_000_000_000) * Int128(display.divisor), by: Int128(max(1, display.maximum)))
        var record = FrameRecord(info, refresh: SimDuration(nanoseconds: Int64(clamping: refresh)))
        if info.counted {
            // R4: only x for the first counted present since start or reset.
            let hitch = previousCountedPresent == nil ? max(.zero, info.present - info.expectedPresent) : info.hitch
            if let previous = previousCountedPresent {
                record.interval = (info.present - previous).nanoseconds
                // A frame time never spans time without animation: the plot's bar (frameTime).
                intervals.add(frameTime(record))
            }
            previousCountedPresent = info.present
            record.hitch = hitch.nanoseconds
            if hitch > .zero {
                let cause = HitchCause(info)
                record.cause = cause
                hitches.add(hitch, cause: cause)
                hitchLog.append(
                    HitchRecord(
                        frame: info.frame, present: info.present, expected: info.expectedPresent,
                        earliest: info.earliest, hitch: hitch.nanoseconds, refresh: record.refresh,
                        buffers: info.buffers, type: info.hitchType ?? .delayedSwap, cause: cause, phases: info.phases,
                        delay: info.delay))
                hitches.ratioTime += animatingPart(
                    of: hitch, presentedAt: info.present, promisedAt: info.newestTick ?? info.commitEnd)
                let printed = watch.hitches && hitch > watch.over && watched(hitch, cause: cause, info)
                // A breakpoint on fps.hitch stops at every hitch, printed or not.
                if !printed && host.isListening(for: "fps.hitch") {
                    host.emit(hitchEvent(hitch, cause: cause, info, silent: true))
                }
            }
        }
        frames.append(record)
    }
}

// MARK: - Watching hitches

extension FPSMeter {
    /// A hitch longer than `--over`: printed in full, or held for its second's summary line.
    /// Returns whether the hitch was printed in full.
    func watched(_ hitch: SimDuration, cause: HitchCause, _ info: PresentInfo) -> Bool {
        let k = info.present.nanoseconds / SecondTally.nanosecondsPerSecond
        if k != held.second {
            if held.count > 0, let second = held.second {
                emitHeldHitches(at: SimTime(nanoseconds: (second + 1) * SecondTally.nanosecondsPerSecond))
            }
            // A second follows a busy one only when it comes right after a summarised second.
            let busy = held.busy && held.second.map { $0 + 1 == k } == true
            held = HeldHitches(second: k, busy: busy)
        }
        guard watch.all || (!held.printed && !held.busy) else {
            held.count += 1
            held.time += hitch.nanoseconds
            switch cause {
            case .commit: held.commit += 1
            case .render: held.render += 1
            case .both: held.both += 1
            }
            held.longest = max(held.longest, hitch.nanoseconds)
            return false
        }
        held.printed = true
        host.emit(hitchEvent(hitch, cause: cause, info))
        return true
    }

    /// The event `fps.hitch` for one hitch.
    func hitchEvent(_ hitch: SimDuration, cause: HitchCause, _ info: PresentInfo, silent: Bool = false) -> ToolEvent {
        let type = info.hitchType ?? .delayedSwap
        let severity = HitchSeverity.of(hitch, interval: hitchLog.last?.refresh ?? hitch)
        return ToolEvent(
            name: "fps.hitch", time: info.present,
            message:
                "hitch \(FPSMeter.readable(hitch)) (\(cause.rawValue), \(severity.rawValue)): \(type.description); frame \(info.frame) expected at \(FPSMeter.readable(info.expectedPresent))",
            fields: [
                ("frame", .int(info.frame)), ("hitch_ns", JSONValue(hitch)),
                ("cause", .string(cause.rawValue)), ("type", .string(type.word)),
                ("type_label", .string(type.description)), ("severity", .string(severity.rawValue.lowercased())),
                ("present_ns", JSONValue(info.present)),
                ("expected_ns", JSONValue(info.expectedPresent)),
            ], silent: silent)
    }

    /// The held hitches of a second that has ended, as one line; the next second is then busy.
    func emitHeldHitches(at time: SimTime) {
        guard let k = held.second, held.count > 0 else { return }
        let h = held
        let from = SimTime(nanoseconds: k * SecondTally.nanosecondsPerSecond)
        let to = SimTime(nanoseconds: (k + 1) * SecondTally.nanosecondsPerSecond)
        let causes = [("commit", h.commit), ("render", h.render), ("both", h.both)].filter { $0.1 > 0 }
            .map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        // The first summary says how to see each hitch; later ones stay short.
        let hint = watch.hinted ? "" : "; --all lists each"
        watch.hinted = true
        let what =
            h.printed
            ? (h.count == 1 ? "1 more hitch" : "\(h.count) more hitches")
            : (h.count == 1 ? "1 hitch" : "\(h.count) hitches")
        host.emit(
            ToolEvent(
                name: "fps.hitches", time: time,
                message:
                    "\(what) in [\(FPSMeter.readable(from)), \(FPSMeter.readable(to))): \(SimFormat.readable(h.time)) (\(causes)), longest \(SimFormat.readable(h.longest))\(hint)",
                fields: [
                    ("count", .int(h.count)), ("time_ns", .int(h.time)), ("commit", .int(h.commit)),
                    ("render", .int(h.render)), ("both", .int(h.both)), ("longest_ns", .int(h.longest)),
                    ("from_ns", JSONValue(from)), ("to_ns", JSONValue(to)),
                ]))
        held = HeldHitches(second: k, printed: true, busy: true)
    }
}
