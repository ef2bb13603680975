import ReactorCore
import TaskModel

// MARK: - `tasks add -`: a task per line

extension TaskEditReactor {
    /// Creates a task of each line `lines` yields. The lines are read and checked ahead, up to
    /// `CheckedLines.limit`: a bad one among them stops the command before the store is called.
    /// An input that ends within that is handed over checked (`checkedCount`), and the store can
    /// write it through a rollback journal, each page once. A longer input is written as it is
    /// read, through the WAL, so that a bad line anywhere still leaves the file as it was.
    func submit(_ fields: Fields, lines: @escaping TaskTitleSource) -> Observable<Mutation> {
        let template: TaskDraft
        var ahead: CheckedLines
        do throws(TaskFieldError) {
            template = try validateSharedFields(fields).draft(title: "", notes: fields.notes)
            ahead = try CheckedLines(reading: lines)
        } catch {
            return .just(.setValidationError(error))
        }
        let stream = TaskTitleStream(template: template, checkedCount: ahead.ended ? ahead.count : nil) { try ahead.next() }
        return Observable.concat([
            .just(.setSaving(true)),
            Observable.concat([service.create(streaming: stream).map(Mutation.setCreation), .just(.dismiss)])
                .catch { error in
                    if let error = error as? TaskFieldError { return .just(.setValidationError(error)) }
                    return .just(.setFailure(TaskServiceError(error)))
                },
            .just(.setSaving(false)),
        ])
    }
}

/// The titles of `add -`, the first of them read and checked before anything is written, then
/// the rest as they come. Each title is checked by `FieldRules.title`; a bad line is named by its
/// 1-based number wherever it is.
struct CheckedLines {
    /// How much is read ahead: this many lines, or this many bytes of titles, whichever comes
    /// first. 262,144 titles of about 25 bytes hold about 16 MB (a Swift string of more than 15
    /// bytes is an allocation of its own), which is what a streamed write's page cache holds too.
    static let limit = (lines: 262_144, bytes: 16 << 20)

    /// The titles read ahead and not yet taken, last first (taken by `popLast`, so that each
    /// is let go as it is written).
    private var titles: [String]
    private let lines: TaskTitleSource
    /// Whether the input ended within the read-ahead: every title is checked already.
    let ended: Bool
    /// How many titles were read ahead.
    let count: Int
    /// The number of the last line read.
    private var number: Int

    init(reading lines: @escaping TaskTitleSource, limit: (lines: Int, bytes: Int) = Self.limit) throws(TaskFieldError) {
        self.lines = lines
        var titles: [String] = []
        var bytes = 0
        var number = 0
        var ended = false
        while titles.count < limit.lines && bytes < limit.bytes {
            guard let title = try Self.read(lines, number: &number) else {
                ended = true
                break
            }
            bytes += title.utf8.count
            titles.append(title)
        }
        self.titles = titles.reversed()
        self.ended = ended
        self.count = titles.count
        self.number = number
    }

    /// The next title: one read ahead, else the next line of the input; `nil` at the end.
    mutating func next() throws(TaskFieldError) -> String? {
        if let title = titles.popLast() { return title }
        if ended { return nil }
        return try Self.read(lines, number: &number)
    }

    /// The next line, checked, counting it; a bad one throws `inItem` with its number.
    private static func read(_ lines: TaskTitleSource, number: inout Int) throws(TaskFieldError) -> String? {
        number += 1
        do throws(TaskFieldError) {
            guard let line = try lines() else { return nil }
            return try FieldRules.title(line)
        } catch {
            throw TaskFieldError.inItem(number, error)
        }
    }
}
