import DequeModule

/// The session's commands for `history`: the last ``limit`` of them, numbered since the start.
struct CommandHistory {
    /// How many commands it keeps; older ones are let go, numbers go on.
    static let limit = 10_000

    private(set) var entries = Deque<String>()
    /// How many older commands were let go.
    private(set) var dropped = 0

    mutating func remember(_ text: String) {
        entries.append(text)
        if entries.count > CommandHistory.limit {
            entries.removeFirst()
            dropped += 1
        }
    }

    /// The commands kept, oldest first.
    var kept: [String] { Array(entries) }
}
