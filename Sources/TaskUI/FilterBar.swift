import QueryLanguage
import TaskModel

/// `/` on the list screen with the filter grammar of the command line (`+chores list:Work
/// due.before:fri`): what is typed is read as filter words on every key, ANDed as a group of
/// its own with the filter the screen was opened with (the command line's and the context's),
/// so that nothing typed reaches outside it.
enum FilterBar {
    /// The query `text` makes of `base`; `base` itself for blank text. A word that cannot be
    /// read is the parser's error (the word, its place, why, a did-you-mean).
    static func query(_ text: String, over base: TaskQuery, settings: FilterSettings) throws(FilterError) -> TaskQuery {
        let words = try FilterParser.words(of: text)
        guard let typed = try FilterParser(settings: settings).parse(words).filter else { return base }
        var query = base
        query.filter = TaskFilter.all([base.filter, typed])
        if typed.choosesStatus && base.filter?.choosesStatus != true {
            // `status:done`, `+WAITING`, ids: the typed words choose among every task.
            query.status = .all
            query.waiting = .shown
            query.expired = .shown
        }
        return query
    }

    /// The error as the status line shows it: `'due:fry': not a date (did you mean 'fri'?)`.
    static func message(_ error: FilterError) -> String {
        "'\(error.word)': \(error.reason)" + (error.suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    }
}
