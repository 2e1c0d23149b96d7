/// One list per run-loop mode class (default, tracking, common) or queue kind, reached through
/// plain methods (a coroutine accessor per access costs more than the lists themselves).
struct ClassLists: ~Copyable {
    private var zero = PodVector<Int>()
    private var one = PodVector<Int>()
    private var two = PodVector<Int>()

    init() {}

    @inline(__always) func isEmpty(_ c: Int) -> Bool {
        c == 0 ? zero.isEmpty : c == 1 ? one.isEmpty : two.isEmpty
    }

    @inline(__always) func count(_ c: Int) -> Int {
        c == 0 ? zero.count : c == 1 ? one.count : two.count
    }

    @inline(__always) func first(_ c: Int) -> Int? {
        c == 0 ? zero.first : c == 1 ? one.first : two.first
    }

    @inline(__always) func element(_ c: Int, _ k: Int) -> Int {
        c == 0 ? zero[k] : c == 1 ? one[k] : two[k]
    }

    @inline(__always) mutating func append(_ c: Int, _ x: Int) {
        switch c {
        case 0: zero.append(x)
        case 1: one.append(x)
        default: two.append(x)
        }
    }

    @inline(__always) mutating func removeAll(_ c: Int) {
        switch c {
        case 0: zero.removeAll()
        case 1: one.removeAll()
        default: two.removeAll()
        }
    }

    mutating func remove(_ c: Int, _ x: Int) {
        switch c {
        case 0: zero.removeAll { $0 == x }
        case 1: one.removeAll { $0 == x }
        default: two.removeAll { $0 == x }
        }
    }

    /// Exchanges list `c` with `other` in O(1).
    mutating func swap(_ c: Int, with other: inout PodVector<Int>) {
        switch c {
        case 0: zero.swapContents(with: &other)
        case 1: one.swapContents(with: &other)
        default: two.swapContents(with: &other)
        }
    }
}
