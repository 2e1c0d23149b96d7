/// One event of a trace, packed: a slice `[start, end)`, an instant (`start == end`) or a
/// counter value, on a track, with a name and a few numbers whose meaning its kind gives.
/// Times are the trace's, which go on across a `reset`. Variable arguments (a tool's, a merged
/// group's) live beside the ring, by sequence number.
struct TraceRecord {
    enum Kind: UInt8, CaseIterable {
        /// A main-thread item; primary: its `MainThreadItem.Kind` index, secondary: its iteration.
        case mainItem
        /// A main-thread item that is a timer's callback or handler: primary its scheduled time
        /// (on the trace's clock, as every time a record holds), secondary its data, reference the
        /// timer, code the item's kind index × 256 + the cause of its lateness (0 none).
        case timerItem
        /// Zero-cost main-thread items of one instant, as one slice of no length (several slices
        /// of no length at one instant would nest in one another); reference: how many, the
        /// items themselves beside the ring (`TraceTimeline.mergedItems`): its name and arguments
        /// are built from them when saved.
        case mergedItems
        /// A run-loop iteration enclosing its items; primary: its number, secondary: the last
        /// iteration it stands for (an iteration of no length that later ones at its instant
        /// joined), else its number.
        case iteration
        /// A background dispatch handler on its queue's track; primary: scheduled, secondary:
        /// data, reference: the timer, code: cause.
        case queueHandler
        /// A render; primary: the frame.
        case render
        /// A vsync the device processed (instant); primary: its index.
        case vsync
        /// A vsync at which a frame was presented (instant); primary: the vsync's index,
        /// secondary: the expected present, reference: the frame, code: the frames merged into it.
        case present
        /// Vsyncs nothing needed, as one span; primary: how many.
        case idle
        /// A hitch `[present − hitch, present)`; primary: the frame, secondary: expected present,
        /// reference: cause (1 commit, 2 render, 3 both).
        case hitch
        /// A run-loop mode span; primary: 0 default, 1 tracking.
        case mode
        /// A counter's value from `start` on; primary: the value in thousandths.
        case counter
        /// A tool's event (instant) or slice, arguments beside the ring.
        case toolEvent, toolSlice
        /// A `reset` (instant): a new simulation starts here; primary: its number, from 2.
        case reset
        /// A frame's expected life, from its earliest time to its expected present (R3, R8), on a
        /// lane of the Expected frames track: primary the frame, secondary its buffers.
        case expectedFrame
        /// A frame's actual life, from its earliest time to its present — or, dropped, to the commit
        /// it was merged into (R9) — on a lane of the Actual frames track: primary the frame, its
        /// verdict and the rest beside the ring (`TraceTimeline.frameDetails`, by sequence number).
        case actualFrame
        /// A main-thread item of 250 ms or more (RL6) on the Hangs track: primary its kind's index,
        /// reference its label's interned name.
        case hang
    }

    var start: Int64
    var end: Int64
    /// The kind's main number: a frame, an index, an iteration, a scheduled time, a counter's
    /// thousandths, a count.
    var primary: Int64
    /// Its second number: an expected present, a dispatch timer's data, an item's iteration.
    var secondary: Int64
    /// The interned name.
    var name: Int32
    var track: Int32
    /// What it refers to: a timer's id, a count of merged frames or items, a hitch's cause.
    var reference: Int32
    /// A small code: a lateness cause, with an item's kind in the high byte.
    var code: Int16
    var kind: Kind
}
