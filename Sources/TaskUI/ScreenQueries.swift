import QueryLanguage
import TaskModel

/// What `f` and `@` choose among on the list screen, and how a choice becomes a query: the
/// command line's words, a report's filter and order, a context's filter — made by the program
/// (TaskCLI knows reports and contexts; the screen only names them).
public struct ScreenQueries {
    /// The reports `f` cycles through, in order (`list` first: the pending tasks by list).
    public var reports: [String]
    /// The contexts `@` offers (`none` as well).
    public var contexts: [String]
    /// The context the screen opened in, if any.
    public var context: String?
    /// The filter words and flags of the command line (`+bills --waiting`), which every
    /// report the screen shows is read with: the status line names them.
    public var commandLine = ""
    /// The query of a report in a context (nil: none), or the words why not.
    public var make: (_ report: String, _ context: String?) -> Result<TaskQuery, QueryRefusal>

    public init(reports: [String], contexts: [String], context: String?,
                make: @escaping (_ report: String, _ context: String?) -> Result<TaskQuery, QueryRefusal>) {
        self.reports = reports
        self.contexts = contexts
        self.context = context
        self.make = make
    }

    /// Why a report or a context gives no query, in the command line's words.
    public struct QueryRefusal: Error, Sendable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }
}
