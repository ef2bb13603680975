import TaskModel
/// What each term selects, stated in Swift: the rules `TaskFilterSQL` states for SQLite.
extension FilterTerm {
    func matches(_ task: Task, clock: FilterClock, world: FilterWorld) -> Bool {
        switch self {
        case .text(let needle):
            return TaskQuery.foldCase(task.title).contains(needle) || TaskQuery.foldCase(task.notes).contains(needle)
        case .regex(let pattern):
            return FilterRegex.matches(pattern, task.title) || FilterRegex.matches(pattern, task.notes)
        case .tag(let tag): return task.tags.contains(tag)
        case .list(let name, let exact):
            return task.list == name || (!exact && task.list.hasPrefix(name + "."))
        case .ids(let ranges): return ranges.contains { $0.contains(task.id) }
        case .uuid(let prefix): return task.uuid.lowercased().hasPrefix(prefix)
        case .field(let field, let comparison, let operand):
            let context = QueryContext(today: clock.today)
            let value = field.read(task, context)
            switch operand {
            case .none: return comparison == .equal ? value == nil : value != nil
            case .value(let operand, _)?: return Self.compareOrdered(value ?? field.missing, comparison, operand)
            case .date(let bounds)?:
                guard case .date(let encoding) = field.type else { return false }
                let (low, high) = encoding.ends(bounds)
                return DateBounds.compare(value, comparison, low: low, high: high)
            }
        case .range(let field, let low, let high):
            return FilterTerm.field(field, .lessOrEqual, .date(high)).matches(task, clock: clock, world: world)
                && !FilterTerm.field(field, .less, .date(low)).matches(task, clock: clock, world: world)
                && FilterTerm.field(field, .notEqual, nil).matches(task, clock: clock, world: world)
        case .match(let field, let match, let text):
            guard let value = field.read(task, QueryContext(today: clock.today))?.text else { return false }
            let folded = TaskQuery.foldCase(value)
            switch match {
            case .contains: return folded.contains(text)
            case .startswith: return folded.utf8.starts(with: text.utf8)
            case .endswith: return folded.hasSuffix(text)
            }
        case .status(let status):
            if task.isDeleted != (status == .deleted) { return false }
            switch status {
            case .deleted: return true
            case .done: return task.isDone
            case .waiting: return !task.isDone && (task.wait.map(clock.isAhead) ?? false)
            case .expired: return !task.isDone && (task.until.map(clock.isPast) ?? false)
            case .pending:
                return !task.isDone && !(task.wait.map(clock.isAhead) ?? false) && !(task.until.map(clock.isPast) ?? false)
            }
        case .flag(let flag):
            switch flag {
            case .overdue: return !task.isDone && (task.due.map(clock.isPast) ?? false)
            case .active: return task.start != nil
            case .blocked: return Self.isBlocked(task, world)
            case .blocking: return world.isWaitedOn(task.uuid) ?? false
            case .ready:
                return !task.isDone && !(task.wait.map(clock.isAhead) ?? false) && !Self.isBlocked(task, world)
                    && FieldVocabulary.heldBack.allSatisfy { field in
                        field.read(task, QueryContext(today: clock.today))?.text.map { $0 <= clock.now } ?? true
                    }
            case .repeating: return task.repeat != nil
            case .annotated: return !task.annotations.isEmpty
            case .tagged: return !task.tags.isEmpty
            case .instance: return task.series != nil
            case .latest: return world.latestID == task.id
            case .parent: return world.hasSubtasks(task.uuid) ?? false
            }
        case .named(_, let filter): return filter.matches(task, clock: clock, world: world)
        case .subtaskOf(let ranges):
            guard let parent = task.parent, let id = world.idOf(parent) else { return false }
            return ranges.contains { $0.contains(id) }
        case .orphan(let declared):
            return ExtrasText.members(task.extras).contains { member in
                guard let key = CustomField.unquoted(member.key) else { return false }
                return !declared.contains(key) && !ExtrasText.taskwarriorKept.contains(key)
            }
        }
    }

    static func isBlocked(_ task: Task, _ world: FilterWorld) -> Bool {
        task.depends.contains { world.isPending($0) ?? true }
    }

    static func compareOrdered(_ value: QueryValue?, _ comparison: FilterComparison, _ operand: QueryValue) -> Bool {
        guard let value else { return comparison == .notEqual }
        let order = QueryValue.compare(value, operand)
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .greater: return order > 0
        case .lessOrEqual: return order <= 0
        }
    }
}
