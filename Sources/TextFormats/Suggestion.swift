/// "Did you mean": the closest name by edit distance (transpositions count once), when close.
public enum Suggestion {
    public static func closest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(word, $0)) }.sorted { $0.1 < $1.1 }
        guard let (name, score) = scored.first else { return nil }
        let limit = max(1, min(word.count, name.count) / 3)
        return score <= limit ? name : nil
    }

    /// Optimal string alignment distance.
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[x.count][y.count]
    }
}
