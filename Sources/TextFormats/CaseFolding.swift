/// Case folding in every script, as the store's search index folds: what a search word and a
/// date word are compared as (`ärger` is `Ärger`, `σίσυφος` is `ΣΊΣΥΦΟΣ`).
public enum CaseFolding {
    /// Lower case, with the final sigma as sigma; ASCII alone without the Unicode tables.
    public static func folded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return String(text.lowercased().unicodeScalars.map { $0 == "ς" ? "σ" : Character($0) })
    }
}
