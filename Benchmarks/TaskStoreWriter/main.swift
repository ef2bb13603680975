// taskstore-writer PATH COUNT LABEL — adds COUNT tasks titled "LABEL N" to the database at
// PATH, each in its own transaction, as COUNT separate `tasks add` commands would. The
// multi-process test starts several at once. Exit status 0 when every write landed.
//
// taskstore-writer follow PATH STOPFILE — follows the change feed of PATH as `tasks ui` does
// (catchUp every 20 ms) until STOPFILE exists, then once more, keeping the ids of the tasks
// its events say exist. Prints `entries N`, the number of other processes' history entries
// it was told of, `duplicates D`, create events for a task it already had, and `converged
// yes|no`, whether the tasks its events left equal the file's. scripts/reliability checks
// N against the file's history: every change seen exactly once.

import BenchmarkSupport
import QueryLanguage
import TaskModel
import ReactorKitCompat
import TaskStore

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments

func follow(path: String, stop: String) throws {
    let service = try SQLiteTaskService(path: path)
    var ids = Set(try service.fetch(TaskQuery(status: .all)).toBlocking().single().map(\.id))
    var duplicates = 0
    func apply(_ event: TaskEvent) {
        switch event {
        case .create(let task): if !ids.insert(task.id).inserted { duplicates += 1 }
        case .delete(let task): ids.remove(task.id)
        case .batch(let events): events.forEach(apply)
        default: break
        }
    }
    let subscription = service.event.subscribe(onNext: apply)
    defer { subscription.dispose() }
    var entries = 0
    while access(stop, F_OK) != 0 {
        entries += try service.catchUp().toBlocking().single()
        usleep(20_000)
    }
    entries += try service.catchUp().toBlocking().single()
    let now = Set(try service.fetch(TaskQuery(status: .all)).toBlocking().single().map(\.id))
    print("entries \(entries) duplicates \(duplicates) converged \(now == ids ? "yes" : "no")")
}

do {
    if arguments.count == 4 && arguments[1] == "follow" {
        try follow(path: arguments[2], stop: arguments[3])
        exit(0)
    }
    guard arguments.count == 4, let count = Int(arguments[2]), count >= 0 else {
        BenchmarkSupport.progress("usage: taskstore-writer PATH COUNT LABEL | taskstore-writer follow PATH STOPFILE")
        exit(2)
    }
    let service = try SQLiteTaskService(path: arguments[1])
    for index in 0..<count {
        _ = try service.create([TaskDraft(title: "\(arguments[3]) \(index)", list: arguments[3])]).toBlocking().single()
    }
} catch {
    BenchmarkSupport.progress("taskstore-writer: \(error)")
    exit(1)
}
