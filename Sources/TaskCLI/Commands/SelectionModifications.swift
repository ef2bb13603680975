import CommandLineKit
import QueryLanguage
import TaskModel

/// The words of `done`, `start` and `stop`, read as Taskwarrior reads them: the tasks chosen,
/// then modifications as `add` reads them (`+tag`, `-tag`, `project:`, `due:`, …), whose other
/// words are an annotation — `tasks 12 done called them +phone` marks 12 done, tags it and
/// annotates it "called them", in one change and one undo.
struct SelectionModifications {
    var selection: Selection
    /// The changes made to each task chosen before it is marked; empty when no word modifies.
    var changes = TaskChanges()

    /// Which words choose: the ids, ranges and uuids in front when other words follow them; or
    /// a first word that is filter words quoted or grouped as one (`'+bills list:Home'`,
    /// `(+bills or +urgent)`, what Taskwarrior's order passes); else every word, as a filter —
    /// `tasks done +bills list:Home` chooses by both.
    init(_ line: ParsedLine, status: TaskQuery.Status = .pending) throws {
        let words = line.arguments
        let ids = words.prefix { TaskwarriorOrder.isIDShaped($0) }.count
        let chosen: [String], modifications: [String]
        if words.contains("-") {
            self.selection = try line.selection(status: status)
            return
        } else if ids > 0 && ids < words.count {
            (chosen, modifications) = (Array(words.prefix(ids)), Array(words.dropFirst(ids)))
        } else if Self.isGroup(words[0]) {
            chosen = try ParsedLine.filterWords(of: words[0])
            modifications = Array(words.dropFirst())
        } else {
            (chosen, modifications) = (words, [])
        }
        selection = try line.selection(status: status, words: chosen)
        guard !modifications.isEmpty else { return }
        var fields = FieldFlags()
        let dates = try line.dates()
        let configuration = try line.configuration()
        let text = try AddWords.read(modifications, into: &fields, vocabulary: configuration.vocabulary, dates: dates, removingTags: true)
        changes = try BulkChanges.of(fields, dates: dates)
        if let text { changes.annotate = [text] }
    }

    /// A word that is filter words as one: quoted with a space in it, or a parenthesised group.
    static func isGroup(_ word: String) -> Bool {
        word.contains(" ") || word.contains("\t") || (word.hasPrefix("(") && word.hasSuffix(")"))
    }
}
