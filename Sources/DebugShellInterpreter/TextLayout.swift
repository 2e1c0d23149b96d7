/// Small text helpers the interpreter's help and the session's listings share.

/// `1,000,000`.
public func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = n < 0 ? "-" : ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return out
}

extension String {
    /// Pads with spaces to `width` characters.
    public func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
