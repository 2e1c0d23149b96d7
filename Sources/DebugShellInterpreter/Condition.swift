import DebugShellCore

/// A condition for `expect` and `run until`: `<metric> <op> <value>` terms joined by `and` /
/// `or`, `and` binding tighter. The value's type must match the metric's. `==` and `!=` take a
/// tolerance, `± <value>` or `+- <value>` (`layout.settled_at == 0.617s ± 1ms`), so that a time
/// read off an event line's three-decimal stamp can be pasted.
public struct Condition {
    public enum Op: String, CaseIterable {
        case eq = "==", ne = "!=", le = "<=", ge = ">=", lt = "<", gt = ">"
    }

    enum Literal {
        case none
        case integer(Int64)
        /// A decimal: mantissa and fraction digits, compared exactly with a metric's thousandths.
        case number(Int128, Int)
        case nanoseconds(Int64)
        case word(String)
    }

    struct Comparison {
        var metric: String
        var type: MetricType
        var op: Op
        var literal: Literal
        /// `± tolerance`: `==` holds within it, `!=` outside it.
        var tolerance: Literal?
        /// The metric's place in ``Condition/metrics`` (``holds(_:)`` reads it by that number).
        var slot = 0
    }

    indirect enum Node {
        case compare(Comparison)
        case and(Node, Node)
        case or(Node, Node)
    }

    var root: Node
    /// The condition as written.
    public var text: String

    /// The metrics the condition reads, in order of appearance.
    public var metrics: [String] {
        var out: [String] = []
        func walk(_ n: Node) {
            switch n {
            case .compare(let c): if !out.contains(c.metric) { out.append(c.metric) }
            case .and(let a, let b), .or(let a, let b):
                walk(a)
                walk(b)
            }
        }
        walk(root)
        return out
    }

    /// The instants at which a comparison of `metric`, a time, with a literal may change truth:
    /// its value, one nanosecond on, and each end of a tolerance. A condition on `clock.now`
    /// alone holds at one of them, whether or not anything happens there.
    public func thresholds(of metric: String) -> [SimTime] {
        var out: Set<Int64> = []
        func walk(_ n: Node) {
            switch n {
            case .compare(let c):
                guard c.metric == metric, case .nanoseconds(let t) = c.literal else { return }
                var tolerance: Int64 = 0
                if case .nanoseconds(let d)? = c.tolerance { tolerance = d }
                for value in [t, t &- tolerance, t &+ tolerance] where value >= 0 {
                    out.insert(value)
                    if value < Int64.max { out.insert(value + 1) }
                }
            case .and(let a, let b), .or(let a, let b):
                walk(a)
                walk(b)
            }
        }
        walk(root)
        return out.sorted().map { SimTime(nanoseconds: $0) }
    }

    /// The counts at which a comparison of `metric` with a whole number can change: each
    /// literal and the one after it (`clock.vsyncs >= 50` changes at 50, `> 50` at 51).
    public func countThresholds(of metric: String) -> [Int64] {
        var out: Set<Int64> = []
        func walk(_ n: Node) {
            switch n {
            case .compare(let c):
                guard c.metric == metric, case .integer(let v) = c.literal, v >= 0 else { return }
                out.insert(v)
                if v < Int64.max { out.insert(v + 1) }
            case .and(let a, let b), .or(let a, let b):
                walk(a)
                walk(b)
            }
        }
        walk(root)
        return out.sorted()
    }

    // MARK: Parsing

    /// Parses words; `typeOf` names a metric's type or throws for an unknown metric. A word
    /// metric takes any word (`kindOf` checks the words).
    public static func parse(_ words: [Word], rate: Int, typeOf: (String) throws(CommandError) -> MetricType)
        throws(CommandError)
        -> Condition
    {
        try parse(words, rate: rate, kindOf: { name throws(CommandError) in MetricKind.unchecked(try typeOf(name)) })
    }

    /// Parses words; `kindOf` names a metric's kind — its type, and for a word metric its
    /// words — or throws for an unknown metric. A word the metric cannot take is an error naming
    /// its words, so that a misspelt word is not a comparison that can never hold.
    public static func parse(_ words: [Word], rate: Int, kindOf: (String) throws(CommandError) -> MetricKind)
        throws(CommandError)
        -> Condition
    {
        var tokens: [(text: String, quoted: Bool)] = []
        for word in words {
            if word.quoted {
                tokens.append((word.text, true))
            } else {
                tokens += splitOperators(word.text).map { ($0, false) }
            }
        }
        guard !tokens.isEmpty else { throw CommandError("missing condition, e.g. fps.value >= 55") }
        var position = 0

        func parseComparison() throws(CommandError) -> Node {
            guard position < tokens.count else { throw CommandError("condition ends early: expected a metric") }
            let metric = tokens[position].text
            position += 1
            guard position < tokens.count else {
                throw CommandError("condition ends after '\(metric)': expected an operator (== != < <= > >=)")
            }
            guard let op = Op(rawValue: tokens[position].text), !tokens[position].quoted else {
                throw CommandError(
                    "expected an operator (== != < <= > >=) after '\(metric)', got '\(tokens[position].text)'")
            }
            position += 1
            guard position < tokens.count else {
                throw CommandError("condition ends after '\(metric) \(op.rawValue)': expected a value")
            }
            let valueText = tokens[position].text
            position += 1
            let kind = try kindOf(metric)
            let type = kind.type
            let literal = try parseLiteral(
                valueText, quoted: tokens[position - 1].quoted, metric: metric, type: type, rate: rate)
            if case .word(let choices) = kind, case .word(let word) = literal, !choices.contains(word) {
                throw CommandError(wordProblem(word, metric: metric, choices: choices))
            }
            if type == .word || { if case .none = literal { return true } else { return false } }() {
                guard op == .eq || op == .ne else {
                    var message = "'\(metric) \(op.rawValue) \(valueText)': only == and != apply here"
                    if case .word(let choices) = kind {
                        message += " (\(metric) is a word: \(choices.joined(separator: ", ")))"
                    }
                    throw CommandError(message)
                }
            }
            var tolerance: Literal?
            if position < tokens.count, !tokens[position].quoted,
                Condition.toleranceSigns.contains(tokens[position].text)
            {
                let sign = tokens[position].text
                position += 1
                let term = "\(metric) \(op.rawValue) \(valueText) \(sign)"
                guard position < tokens.count else {
                    throw CommandError("condition ends after '\(term)': expected a tolerance")
                }
                let toleranceText = tokens[position].text
                position += 1
                guard type != .word else {
                    throw CommandError(
                        "'\(term) \(toleranceText)': \(metric) is a word; a tolerance goes with numbers, durations and times"
                    )
                }
                guard op == .eq || op == .ne else {
                    throw CommandError("'\(term) \(toleranceText)': a tolerance goes with == and != only")
                }
                guard !Condition.isNone(literal) else {
                    throw CommandError("'\(term) \(toleranceText)': a tolerance needs a value to be near, not none")
                }
                let parsed = try parseLiteral(
                    toleranceText, quoted: tokens[position - 1].quoted, metric: metric,
                    type: type == .time ? .duration : type,
                    rate: rate)
                guard !Condition.isNegative(parsed) else {
                    throw CommandError("'\(term) \(toleranceText)': the tolerance must not be negative")
                }
                tolerance = parsed
            }
            return .compare(Comparison(metric: metric, type: type, op: op, literal: literal, tolerance: tolerance))
        }
        func parseAnd() throws(CommandError) -> Node {
            var node = try parseComparison()
            while position < tokens.count, tokens[position].text == "and", !tokens[position].quoted {
                position += 1
                node = .and(node, try parseComparison())
            }
            return node
        }
        var node = try parseAnd()
        while position < tokens.count, tokens[position].text == "or", !tokens[position].quoted {
            position += 1
            node = .or(node, try parseAnd())
        }
        guard position == tokens.count else {
            throw CommandError("unexpected '\(tokens[position].text)' in condition (join terms with 'and' or 'or')")
        }
        // Each comparison's metric numbered as `metrics` lists them.
        var names: [String] = []
        func number(_ n: Node) -> Node {
            switch n {
            case .compare(var c):
                if let k = names.firstIndex(of: c.metric) {
                    c.slot = k
                } else {
                    c.slot = names.count
                    names.append(c.metric)
                }
                return .compare(c)
            case .and(let a, let b):
                let left = number(a)
                return .and(left, number(b))
            case .or(let a, let b):
                let left = number(a)
                return .or(left, number(b))
            }
        }
        return Condition(root: number(node), text: words.map(\.raw).joined(separator: " "))
    }

    /// `'setled' is not a value of layout.state; it is one of idle, settling, settled, timeout
    /// (did you mean 'settled'?)`.
    static func wordProblem(_ word: String, metric: String, choices: [String]) -> String {
        var message = "'\(word)' is not a value of \(metric); it is "
        message += choices.count == 1 ? choices[0] : "one of " + choices.joined(separator: ", ")
        if let guess = Suggest.closest(to: word, in: choices) { message += " (did you mean '\(guess)'?)" }
        return message
    }

    /// The signs that introduce a tolerance: `±` and its ASCII spelling `+-`.
    static let toleranceSigns: Set<String> = ["±", "+-"]

    /// `a>=5` → `a`, `>=`, `5`; `0.6s±1ms` → `0.6s`, `±`, `1ms`.
    static func splitOperators(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.first {
            let plusMinus = c == "+" && scalars.dropFirst().first == "-"
            if c == "±" || plusMinus {
                if !current.isEmpty { out.append(current) }
                current = ""
                scalars.removeFirst(plusMinus ? 2 : 1)
                out.append(plusMinus ? "+-" : "±")
            } else if "=!<>".unicodeScalars.contains(c) {
                if !current.isEmpty { out.append(current) }
                current = ""
                var op = String(c)
                scalars.removeFirst()
                if let d = scalars.first, d == "=" {
                    op.unicodeScalars.append(d)
                    scalars.removeFirst()
                }
                out.append(op)
            } else {
                current.unicodeScalars.append(c)
                scalars.removeFirst()
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func parseLiteral(_ text: String, quoted: Bool, metric: String, type: MetricType, rate: Int)
        throws(CommandError)
        -> Literal
    {
        if text == "none" && !quoted { return .none }
        do throws(CommandError) {
            switch type {
            case .integer:
                return .integer(try ValueParser.integer(text, range: Int64.min...Int64.max))
            case .number:
                let d = try ValueParser.parseDecimal(text, in: text)
                // Compared as thousandths × 10^digits: 18 digits keep that within 128 bits.
                guard d.fractionDigits <= 18 else { throw CommandError("'\(text)' has more than 18 decimals") }
                return .number(d.negative ? -d.mantissa : d.mantissa, d.fractionDigits)
            case .duration:
                return .nanoseconds(try ValueParser.duration(text, rate: rate).nanoseconds)
            case .time:
                return .nanoseconds(try ValueParser.time(text, rate: rate).nanoseconds)
            case .word:
                return .word(text)
            }
        } catch {
            throw CommandError("\(metric) is \(type == .integer ? "an" : "a") \(type.rawValue): \(error.message)")
        }
    }

    // MARK: Evaluation

    /// The result, and the first compared metric that had no value, if any.
    public func evaluate(_ value: (String) -> MetricValue) -> (holds: Bool, missing: String?) {
        var missing: String?
        func eval(_ n: Node) -> Bool {
            switch n {
            case .compare(let c):
                let v = value(c.metric)
                if case .none = v, !Condition.isNone(c.literal) {
                    if missing == nil { missing = c.metric }
                    return false
                }
                return Condition.compare(v, c.op, c.literal, within: c.tolerance)
            case .and(let a, let b): return eval(a) && eval(b)
            case .or(let a, let b): return eval(a) || eval(b)
            }
        }
        let holds = eval(root)
        return (holds, missing)
    }

    /// Whether the condition holds, each metric read by its place in ``metrics``: as
    /// ``evaluate(_:)``, reading the same metrics in the same order (`and` and `or` stop at the
    /// first term that decides), without a name to look up per read. What a breakpoint reads
    /// after each instant.
    public func holds(_ value: (Int) -> MetricValue) -> Bool {
        func eval(_ n: Node) -> Bool {
            switch n {
            case .compare(let c): return Condition.compare(value(c.slot), c.op, c.literal, within: c.tolerance)
            case .and(let a, let b): return eval(a) && eval(b)
            case .or(let a, let b): return eval(a) || eval(b)
            }
        }
        return eval(root)
    }

    static func isNone(_ l: Literal) -> Bool {
        if case .none = l { return true }
        return false
    }

    static func isNegative(_ l: Literal) -> Bool {
        switch l {
        case .integer(let v): return v < 0
        case .number(let m, _): return m < 0
        case .nanoseconds(let v): return v < 0
        case .none, .word: return false
        }
    }

    static func compare(_ v: MetricValue, _ op: Op, _ literal: Literal, within tolerance: Literal?) -> Bool {
        guard let tolerance else { return compare(v, op, literal) }
        // How far apart the value and the literal are, and how far they may be; nil when a number
        // is too long to scale (then they are not within any tolerance that fits).
        var measured: (apart: UInt128, allowed: Int128)??
        func distance(_ a: Int128, _ b: Int128) -> UInt128? {
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? nil : difference.magnitude
        }
        switch (v, literal, tolerance) {
        case (.integer(let a), .integer(let b), .integer(let t)):
            measured = distance(Int128(a), Int128(b)).map { ($0, Int128(t)) }
        case (.number(let a), .number(let m, let f), .number(let tm, let tf)):
            // All three in units of 10^-(3 + digits), the finer of the literal's and the tolerance's.
            let digits = max(f, tf)
            let value = Int128(a.thousandths).multipliedReportingOverflow(by: ValueParser.pow10(digits))
            let target = (m * 1000).multipliedReportingOverflow(by: ValueParser.pow10(digits - f))
            let allowed = (tm * 1000).multipliedReportingOverflow(by: ValueParser.pow10(digits - tf))
            if value.overflow || target.overflow || allowed.overflow {
                measured = .some(nil)
            } else {
                measured = distance(value.partialValue, target.partialValue).map { ($0, allowed.partialValue) }
            }
        case (.duration(let a), .nanoseconds(let b), .nanoseconds(let t)):
            measured = distance(Int128(a.nanoseconds), Int128(b)).map { ($0, Int128(t)) }
        case (.time(let a), .nanoseconds(let b), .nanoseconds(let t)):
            measured = distance(Int128(a.nanoseconds), Int128(b)).map { ($0, Int128(t)) }
        default: return compare(v, op, literal)
        }
        // The tolerance is never negative (the parser refuses it).
        let within = measured.flatMap { $0 }.map { $0.apart <= UInt128($0.allowed.magnitude) } ?? false
        return op == .eq ? within : !within
    }

    static func compare(_ v: MetricValue, _ op: Op, _ literal: Literal) -> Bool {
        switch (v, literal) {
        case (.none, .none): return op == .eq
        case (_, .none): return op == .ne
        case (.integer(let a), .integer(let b)): return order(Int128(a), Int128(b), op)
        case (.number(let a), .number(let m, let f)):
            return order(Int128(a.thousandths) * ValueParser.pow10(f), m * 1000, op)
        case (.duration(let a), .nanoseconds(let b)): return order(Int128(a.nanoseconds), Int128(b), op)
        case (.time(let a), .nanoseconds(let b)): return order(Int128(a.nanoseconds), Int128(b), op)
        case (.word(let a), .word(let b)): return op == .eq ? a == b : (op == .ne ? a != b : false)
        default: return false
        }
    }

    private static func order(_ a: Int128, _ b: Int128, _ op: Op) -> Bool {
        switch op {
        case .eq: return a == b
        case .ne: return a != b
        case .lt: return a < b
        case .le: return a <= b
        case .gt: return a > b
        case .ge: return a >= b
        }
    }
}
