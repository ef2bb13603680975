import QueryLanguage
import ReactorCore
import TaskReactors
import TaskModel

/// An in-memory TaskService that follows the SQLite one's rules and fails on demand, for the
/// tests above the model (test-only: its name starts with `_`); each role an extension of its own.
public final class FakeTaskService {
    public let events = PublishSubject<TaskEvent>()
    public private(set) var tasks: [Task] = []

    public init() {}
    private var nextID: Int64 = 1
    private var clock: Int64 = 1_000
    /// The last position per list, so that seeding thousands of tasks stays linear.
    private var bottoms: [String: Int64] = [:]
    /// The next call fails (once).
    public var failNext = false
    public var kept: [String: KeptRecord] = [:]  // what imports kept as written, by uuid

    private func tick() -> Timestamp {
        clock += 1
        return Timestamp(millisecondsSince1970: clock)
    }

    private func attempt<T>(_ work: @escaping () throws -> (T, [TaskEvent])) -> Observable<T> {
        .deferred { [unowned self] in
            if self.failNext {
                self.failNext = false
                throw FakeFailure()
            }
            let (result, events) = try work()
            for event in events { self.events.onNext(event) }
            return .just(result)
        }
    }

    private func index(of id: Int64) throws -> Int {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { throw TaskServiceError.notFound(ids: [id]) }
        return index
    }

    private func requireAll(_ ids: [Int64]) throws {
        let missing = ids.filter { id in !tasks.contains { $0.id == id } }
        if !missing.isEmpty { throw TaskServiceError.notFound(ids: missing) }
    }

    private func sortedResult(_ query: TaskQuery) -> [Task] {
        tasks.filter { query.matches($0, world: .of(tasks)) }.sorted { query.precedes($0, $1) }
    }

    /// Every request counted, to show which ones a window move makes.
    public private(set) var rowRequests: [TaskRowRequest] = []

    private func apply(_ changes: TaskChanges, to id: Int64) throws -> Task {
            let index = try self.index(of: id)
            var task = self.tasks[index]
            task.title = changes.title ?? task.title
            task.notes = changes.notes ?? task.notes
            if let list = changes.list { task.list = list }
            changes.applyingValues(to: &task)
            if !changes.repeat.isKeep { task.repeat = changes.repeat.applied(to: task.repeat) }
            task.tags = Array(Set(task.tags.filter { !changes.removeTags.contains($0) } + changes.addTags)).sorted()
            task.modified = self.tick()
            task.annotations += changes.annotate.map { Annotation(entry: task.modified, text: $0) }
            self.tasks[index] = task
            return task
    }

    /// The ids of each `update(ids:_:)` call, in turn: one call is one command.
    public private(set) var updates: [[Int64]] = []

    /// The `checkedCount` of each `create(streaming:)` call, in turn.
    public private(set) var checkedCounts: [Int?] = []
}

extension FakeTaskService: TaskReading {
    public func fetch(_ query: TaskQuery) -> Observable<[Task]> {
        attempt { (self.tasks.filter { query.matches($0, world: .of(self.tasks)) }.sorted { query.orders($0, before: $1) }.sortedBySection(query), []) }
    }

    /// The totals; cells counted as characters (the fake has no terminal).
    public func totals(_ query: TaskQuery, measuringCells: Bool) -> Observable<TaskQueryTotals> {
        attempt {
            let result = self.sortedResult(query)
            var totals = TaskQueryTotals(count: result.count)
            for task in result {
                let header = query.header(for: task)
                if totals.sections.last?.header == header { totals.sections[totals.sections.count - 1].count += 1 } else {
                    totals.sections.append(.init(header: header, count: 1))
                }
                if measuringCells {
                    totals.titleCells = max(totals.titleCells, task.title.count)
                    totals.tagsCells = max(totals.tagsCells, task.tags.map { "+" + $0 }.joined(separator: " ").count)
                }
                if measuringCells {
                    totals.anyDue = totals.anyDue || task.due != nil
                    totals.anyDueTime = totals.anyDueTime || task.due?.isDay == false
                    totals.anyPriority = totals.anyPriority || task.priority != nil
                    totals.largestID = max(totals.largestID, task.id)
                }
            }
            if !measuringCells { totals.largestID = self.nextID - 1 }
            return (totals, [])
        }
    }

    public func ids(_ query: TaskQuery, in range: Range<Int>) -> Observable<[Int64]> {
        attempt {
            let result = self.sortedResult(query)
            let lower = min(max(0, range.lowerBound), result.count), upper = min(max(lower, range.upperBound), result.count)
            return (result[lower..<upper].map(\.id), [])
        }
    }

    public func position(of id: Int64, in query: TaskQuery) -> Observable<Int?> {
        attempt { (self.sortedResult(query).firstIndex { $0.id == id }, []) }
    }

    public func rows(_ query: TaskQuery, _ request: TaskRowRequest) -> Observable<[Task]> {
        attempt {
            self.rowRequests.append(request)
            let result = self.sortedResult(query)
            switch request {
            case .first(let count): return (Array(result.prefix(count)), [])
            case .last(let count): return (Array(result.suffix(count)), [])
            case .at(let offset, let count): return (Array(result.dropFirst(offset).prefix(count)), [])
            case .after(let task, let count): return (Array(result.filter { query.precedes(task, $0) }.prefix(count)), [])
            case .before(let task, let count): return (Array(result.filter { query.precedes($0, task) }.suffix(count)), [])
            }
        }
    }

    public func stream(_ query: TaskQuery, batch: Int, fields: TaskFieldSet) -> Observable<TaskWindow> {
        .deferred { [unowned self] in
            if self.failNext {
                self.failNext = false
                throw FakeFailure()
            }
            let result = self.sortedResult(query)
            let windows = stride(from: 0, to: max(result.count, 1), by: batch).map { start in
                TaskWindow(start: start, rows: Array(result[start..<min(start + batch, result.count)]))
            }
            return .from(windows)
        }
    }

    public func task(id: Int64) -> Observable<Task> {
        attempt { (self.tasks[try self.index(of: id)], []) }
    }

    public func tags() -> Observable<[TaskListSummary]> {
        attempt {
            let names = Set(self.tasks.flatMap(\.tags)).sorted()
            return (names.map { name in
                TaskListSummary(name: name, pending: self.tasks.filter { $0.tags.contains(name) && !$0.isDone }.count,
                                done: self.tasks.filter { $0.tags.contains(name) && $0.isDone }.count)
            }, [])
        }
    }

    public func lists() -> Observable<[TaskListSummary]> {
        attempt {
            let names = Set(self.tasks.map(\.list)).sorted()
            return (names.map { name in
                TaskListSummary(name: name, pending: self.tasks.filter { $0.list == name && !$0.isDone }.count,
                                done: self.tasks.filter { $0.list == name && $0.isDone }.count)
            }, [])
        }
    }
}

extension FakeTaskService: TaskWriting {
    public func create(_ drafts: [TaskDraft]) -> Observable<[Task]> {
        attempt {
            var made: [Task] = []
            for draft in drafts {
                let time = self.tick()
                let bottom = self.bottoms[draft.fields.list] ?? 0
                self.bottoms[draft.fields.list] = bottom + 100
                var task = draft.fields
                task.id = self.nextID
                task.uuid = "uuid-\(self.nextID)"
                task.tags = task.tags.sorted()
                task.position = bottom + 100
                task.created = time
                task.modified = time
                task.completed = task.isDone ? time : nil
                self.nextID += 1
                self.tasks.append(task)
                made.append(task)
            }
            return (made, made.map(TaskEvent.create))
        }
    }

    /// Reads every title first (the fake holds everything anyway), then creates the drafts as
    /// one batch; a title the stream cannot read leaves nothing behind. Keeps each call's
    /// `checkedCount` in `checkedCounts`.
    public func create(streaming stream: TaskTitleStream) -> Observable<TaskCreationProgress> {
        .deferred { [unowned self] in
            self.checkedCounts.append(stream.checkedCount)
            var drafts: [TaskDraft] = []
            while let title = try stream.titles() {
                var draft = stream.template
                draft.fields.title = title
                draft.uuid = nil
                drafts.append(draft)
            }
            return self.create(drafts).map { made in
                TaskCreationProgress.committed(first: made.first?.id ?? 0, count: made.count, head: Array(made.prefix(10)))
            }
        }
    }

    public func update(id: Int64, _ changes: TaskChanges) -> Observable<Task> {
        attempt {
            let task = try self.apply(changes, to: id)
            return (task, [.update(task)])
        }
    }

    public func update(ids: [Int64], _ changes: TaskChanges) -> Observable<TaskEvent> {
        attempt {
            self.updates.append(ids)
            try self.requireAll(ids)
            var events: [TaskEvent] = []
            for id in ids { events.append(.update(try self.apply(changes, to: id))) }
            return (TaskEvent.of(events), events)
        }
    }

    public func delete(ids: [Int64]) -> Observable<[Task]> {
        attempt {
            try self.requireAll(ids)
            let removed = self.tasks.filter { ids.contains($0.id) }
            self.tasks.removeAll { ids.contains($0.id) }
            return (removed, removed.map { .delete($0) })
        }
    }

    public func setDone(ids: [Int64], _ isDone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent> {
        attempt {
            try self.requireAll(ids)
            var changed: [Task] = []
            for id in ids {
                let index = try self.index(of: id)
                if self.tasks[index].isDone == isDone { continue }
                if !changes.isEmpty { _ = try self.apply(changes, to: id) }
                self.tasks[index].isDone = isDone
                self.tasks[index].completed = isDone ? self.tick() : nil
                changed.append(self.tasks[index])
            }
            let events: [TaskEvent] = changed.map { $0.isDone ? .markAsDone($0) : .markAsUndone($0) }
            return (TaskEvent.of(events), events)
        }
    }

    public func setActive(ids: [Int64], _ active: Bool, alone: Bool, changing changes: TaskChanges) -> Observable<TaskEvent> {
        attempt {
            try self.requireAll(ids)
            var changed: [Task] = []
            let time = self.tick()
            for id in ids {
                let index = try self.index(of: id)
                if self.tasks[index].isActive == active { continue }
                if active && self.tasks[index].isDone { throw TaskServiceError.notPending(id: id, title: self.tasks[index].title, action: "started") }
                let task = changes.isEmpty ? self.tasks[index] : try self.apply(changes, to: id)
                self.tasks[index].start = active ? time : nil
                if !active { self.tasks[index].spent = task.timeSpent(at: time) }
                changed.append(self.tasks[index])
            }
            let events = changed.map(TaskEvent.update)
            return (TaskEvent.of(events), events)
        }
    }

    public func toggle(ids: [Int64]) -> Observable<TaskEvent> {
        attempt {
            try self.requireAll(ids)
            var changed: [Task] = []
            for id in ids {
                let index = try self.index(of: id)
                self.tasks[index].isDone.toggle()
                self.tasks[index].completed = self.tasks[index].isDone ? self.tick() : nil
                changed.append(self.tasks[index])
            }
            let events: [TaskEvent] = changed.map { $0.isDone ? .markAsDone($0) : .markAsUndone($0) }
            return (TaskEvent.of(events), events)
        }
    }

    public func move(id: Int64, to placement: TaskPlacement) -> Observable<Task> {
        attempt {
            let index = try self.index(of: id)
            var task = self.tasks[index]
            func positions(_ list: String) -> [Int64] {
                self.tasks.filter { $0.list == list && $0.id != id }.map(\.position).sorted()
            }
            switch placement {
            case .top: task.position = (positions(task.list).first ?? 0) - 100
            case .bottom:
                task.position = (positions(task.list).last ?? 0) + 100
                self.bottoms[task.list] = max(self.bottoms[task.list] ?? 0, task.position)
            case .list(let list):
                task.list = list
                task.position = (positions(list).last ?? 0) + 100
                self.bottoms[list] = max(self.bottoms[list] ?? 0, task.position)
            case .before(let other), .after(let other):
                let anchor = self.tasks[try self.index(of: other)]
                task.list = anchor.list
                let all = positions(anchor.list)
                if case .before = placement {
                    let previous = all.last { $0 < anchor.position } ?? anchor.position - 100
                    task.position = (previous + anchor.position) / 2
                } else {
                    let next = all.first { $0 > anchor.position } ?? anchor.position + 100
                    task.position = (anchor.position + next) / 2
                }
            }
            self.tasks[index] = task
            return (task, [.move(task)])
        }
    }

    public func importTasks(_ records: [TaskRecord], keeping kept: [KeptRecord]) -> Observable<TaskImportResult> {
        attempt {
            for record in kept { self.kept[record.uuid] = record }
            var result = TaskImportResult()
            var events: [TaskEvent] = []
            let time = self.tick()
            for record in records {
                let index = record.uuid.flatMap { uuid in self.tasks.firstIndex { $0.uuid == uuid } }
                let existing = index.map { self.tasks[$0] }
                let id = existing?.id ?? self.nextID
                let task = record.task(over: existing, id: id, uuid: record.uuid ?? "fake-\(id)",
                                       bottom: (self.bottoms[record.fields.list] ?? 0) + 100, now: time)
                if let index {
                    if task == self.tasks[index] { result.unchanged += 1; continue }
                    self.tasks[index] = task
                    result.updated += 1
                    events.append(.update(task))
                } else {
                    self.nextID = id + 1
                    self.bottoms[task.list] = max(self.bottoms[task.list] ?? 0, task.position)
                    self.tasks.append(task)
                    result.created += 1
                    events.append(.create(task))
                }
            }
            return (result, events.count > 1 ? [.batch(events)] : events)
        }
    }

    /// Drains `source` (refusing a uuid it gave twice) and imports what it gave.
    public func importTasks(from source: any TaskRecordSource) -> Observable<TaskImportResult> {
        Observable<[TaskRecord]>.deferred {
            var records: [TaskRecord] = []
            var first: [String: Int] = [:]
            while let (record, number) = try source.next() {
                if let uuid = record.uuid {
                    if let earlier = first[uuid] { throw TaskFieldError.inRecord(source.unit, number, .duplicateUUID(uuid, first: earlier)) }
                    first[uuid] = number
                }
                records.append(record)
            }
            return .just(records)
        }
        .flatMap { [unowned self] records in self.importTasks(records) }
    }
}

extension FakeTaskService: TaskHistoryKeeping {
    /// The fake keeps no history: undo and redo find nothing; the history is empty; no deleted
    /// task is kept; no other process writes. (The store's are tested against SQLite in TaskStoreTests.)
    public func undo(entry: Int64?) -> Observable<HistoryEntry> {
        attempt { throw entry.map(TaskServiceError.noSuchEntry) ?? TaskServiceError.nothingToUndo }
    }

    public func redo() -> Observable<HistoryEntry> { attempt { throw TaskServiceError.nothingToRedo } }

    public func history(_ query: HistoryQuery) -> Observable<[HistoryEntry]> { attempt { ([], []) } }
    public func undelete(ids: [Int64]) -> Observable<[Task]> { attempt { throw TaskServiceError.notDeleted(ids: ids) } }
    public func purge(ids: [Int64]) -> Observable<[Task]> { attempt { throw TaskServiceError.notDeleted(ids: ids) } }
}

extension FakeTaskService: TaskEventFeed {
    public var event: Observable<TaskEvent> { events }

    public func catchUp() -> Observable<Int> { attempt { (0, []) } }
}

extension Array where Element == Task {
    /// Groups stay together in the query's section order (as the SQL's leading ORDER BY term does).
    public func sortedBySection(_ query: TaskQuery) -> [Task] {
        let headers = map { query.header(for: $0) }
        let order = [String](Set(headers)).sorted { query.orders(header: $0, before: $1) || (!query.orders(header: $1, before: $0) && $0 < $1) }
        return order.flatMap { header in filter { query.header(for: $0) == header } }
    }
}
