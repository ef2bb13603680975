// taskstore-writer PATH COUNT LABEL — adds COUNT tasks titled "LABEL N" to the database at
// PATH, each in its own transaction, as COUNT separate `tasks add` commands would. The
// multi-process test starts several at once. Exit status 0 when every write landed.

import BenchmarkSupport
import TaskModel
import ReactorCore
import TaskStore

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), count >= 0 else {
    BenchmarkSupport.progress("usage: taskstore-writer PATH COUNT LABEL")
    exit(2)
}
do {
    let service = try SQLiteTaskService(path: arguments[1])
    for index in 0..<count {
        _ = try service.create([TaskDraft(title: "\(arguments[3]) \(index)", list: arguments[3])]).toBlocking().single()
    }
} catch {
    BenchmarkSupport.progress("taskstore-writer: \(error)")
    exit(1)
}
