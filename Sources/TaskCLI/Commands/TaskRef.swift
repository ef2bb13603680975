import CommandLineKit
import QueryLanguage
import TaskReactors

/// One task as a person names it: its id, or its uuid or a start of it (8 hex digits or more)
/// that no other task's uuid has — wherever one task is taken (`show`, `edit`, `append`,
/// `prepend`, `duplicate`, `denotate`).
enum TaskRef {
    case id(Int64)
    case uuid(String)

    /// `42`, `01a24e36-a679`, a whole uuid; anything else is status 2.
    init(_ word: String) throws {
        if let uuid = FilterParser.uuidPrefix(word.trimmingWhitespace) {
            self = .uuid(uuid)
        } else {
            self = .id(try IDParser.id(word))
        }
    }

    /// The task's id: a uuid is read first, and none or several tasks with it is said (status
    /// 1 for none, 2 for several, naming how many) and nil.
    func id(_ context: CommandContext) -> Int64? {
        switch self {
        case .id(let id): return id
        case .uuid(let uuid):
            var query = TaskQuery(status: .all)
            query.filter = .term(.uuid(uuid))
            let state = TaskListReactor(service: context.service).send(.choose(query))
            if let failure = state.failure {
                context.status.fail(failure)
                return nil
            }
            let tasks = state.chosen ?? []
            switch tasks.count {
            case 1: return tasks[0].id
            case 0: context.status.fail(.failure("no task has a uuid beginning '\(uuid)'"))
            default: context.status.fail(.usage("'\(uuid)' begins the uuids of \(tasks.count) tasks", hint: "give more of the uuid, or the task's id"))
            }
            return nil
        }
    }

    /// The shortest start of `uuid` — 8 hex digits or more, as a filter takes one — that no
    /// other task's uuid begins with (uuids made in the same moment share their first digits);
    /// nil when the reads fail.
    static func shortest(_ uuid: String, _ context: CommandContext) -> String? {
        (try? context.service.shortUUIDs([uuid]))?[uuid]
    }
}
