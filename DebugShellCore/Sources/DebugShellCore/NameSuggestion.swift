/// Did-you-mean suggestions by edit distance, for the shell and for tools' own names (timers,
/// objects, views): `unknown timer 'pol'; did you mean 'poll'?`.
public enum NameSuggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
        for c in candidates {
            let d = distance(word.lowercased(), c.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance, with a transposition counting as one edit.
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev2 = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    cur[j] = min(cur[j], prev2[j - 2] + 1)
                }
            }
            prev2 = prev
            prev = cur
        }
        return prev[y.count]
    }
}
