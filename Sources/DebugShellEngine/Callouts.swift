import DebugShellCore

/// The engine's calls out to tools: the observers it notifies, and whose code runs now.
///
/// The lists change here; a notification, which calls tools that may call back into the engine
/// (add or remove an observer on the way), is the engine's (``DeviceEngine/notify(_:_:)``): it
/// holds no access to this state across a call.
struct Callouts: ~Copyable {
    var observers: [(token: Int, kinds: ObservationKinds, observer: any DeviceObserver)] = []
    /// The observers again, for calls: unretained, so a notification does no reference counting
    /// (an atomic operation costs more than the rest of a delivery here). `observers` holds them
    /// strongly; one removed during a notification is kept alive in `retired` until the
    /// notification is over.
    var calls = PodVector<ObserverCall>(capacity: 8)
    var retired: [any DeviceObserver] = []
    /// The kinds some observer wants.
    var kinds = ObservationKinds()
    var nextToken = 0
    /// Notifications in progress (an observer's call can lead to another).
    var notifying = 0
    /// The index in `calls` of the observer being called, while `notifying`.
    var delivering = 0
    /// Whose code runs, but for an observer's call (``DeviceEngine/running``).
    var running = RunningCode.shell
    /// Where the start and end of a plugin's code is noted for the watchdog (``ToolCallWatch``).
    let watch = ToolCallWatch.shared
    /// The first tool whose code is watched, read once: the hot loop compares with a plain
    /// value.
    let firstWatched = ToolCallWatch.shared.firstWatchedTool

    init() {}

    /// Whether an observer wants any of `kinds`.
    @inline(__always) func wants(_ kinds: ObservationKinds) -> Bool { !self.kinds.isDisjoint(with: kinds) }

    /// Whose code runs at `now`: an observer's, noted by its index alone while it is called (one
    /// store per call: it is made for every firing the inspector watches), or what was noted.
    func running(at now: SimTime) -> RunningCode {
        notifying > 0 ? RunningCode(kind: .observer, tool: calls[delivering].tool, time: now) : running
    }

    /// Adds an observer of `kinds` for `tool`; returns its token.
    mutating func add(_ observer: any DeviceObserver, kinds: ObservationKinds, tool: Int32) -> Int {
        nextToken += 1
        observers.append((nextToken, kinds, observer))
        calls.append(ObserverCall(observer, kinds: kinds, token: nextToken, tool: tool))
        self.kinds.formUnion(kinds)
        return nextToken
    }

    /// Changes what an observer wants; false if there is no such observer.
    mutating func change(_ token: Int, kinds: ObservationKinds) -> Bool {
        guard let k = observers.firstIndex(where: { $0.token == token }) else { return false }
        observers[k].kinds = kinds
        let n = calls.count
        for c in 0..<n where calls[c].token == token { calls[c].kinds = kinds }
        self.kinds = observers.reduce(into: ObservationKinds()) { $0.formUnion($1.kinds) }
        return true
    }

    /// Removes an observer; returns it, so that the caller lets go of it once this access is over
    /// (its deinit is a tool's code).
    mutating func remove(_ token: Int) -> (any DeviceObserver)? {
        guard let k = observers.firstIndex(where: { $0.token == token }) else { return nil }
        let removed = observers.remove(at: k)
        kinds = observers.reduce(into: ObservationKinds()) { $0.formUnion($1.kinds) }
        if notifying > 0 {
            // Mid-notification: the call list is being walked, so the entry only goes quiet, and
            // the observer (perhaps the one being called) stays alive until the walk is over.
            retired.append(removed.observer)
            let n = calls.count
            for c in 0..<n where calls[c].token == token { calls[c].kinds = [] }
        } else {
            calls.removeAll { $0.token == token }
        }
        return removed.observer
    }

    /// After the outermost notification: the entries of observers removed during it go, and
    /// the observers with them.
    mutating func dropRetired() {
        guard notifying == 0 && !retired.isEmpty else { return }
        calls.removeAll { $0.kinds.isEmpty }
        retired.removeAll()
    }
}

/// An observer as the hot loop calls it: its object unretained and its dynamic type, so a call
/// needs no reference counting.
struct ObserverCall {
    var kinds: ObservationKinds
    let object: UnsafeRawPointer
    let type: any DeviceObserver.Type
    let token: Int
    /// The tool that added it (-1: debugsh's own, the trace), for a trap's last words.
    let tool: Int32

    init(_ observer: any DeviceObserver, kinds: ObservationKinds, token: Int, tool: Int32) {
        self.kinds = kinds
        object = UnsafeRawPointer(Unmanaged.passUnretained(observer as AnyObject).toOpaque())
        type = Swift.type(of: observer)
        self.token = token
        self.tool = tool
    }
}

extension PodVector where Element == ObserverCall {
    /// The tool that added the observer of `token`; -1 when there is none.
    func firstTool(of token: Int) -> Int32 {
        for c in 0..<count where self[c].token == token { return self[c].tool }
        return -1
    }
}
