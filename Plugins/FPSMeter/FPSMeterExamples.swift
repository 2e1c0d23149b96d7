import DebugShellCore

/// The examples of each `fps` verb: transcripts that `help fps` prints and the example tests replay.
enum FPSMeterExamples {
    static let show: [Example] = []
    static let start: [Example] = []
    static let stop: [Example] = []
    static let reset: [Example] = []
    static let frames: [Example] = []
    static let history: [Example] = []
    static let compare: [Example] = []
    static let tiers: [Example] = []
    static let autohide: [Example] = []
    static let watch: [Example] = []
}
