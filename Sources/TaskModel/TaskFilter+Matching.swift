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
        case .priority(let comparison, let priority):
            let rank = task.priority?.rank ?? 3
            guard let priority else { return comparison == .equal ? task.priority == nil : task.priority != nil }
            switch comparison {
            case .equal: return rank == priority.rank
            case .notEqual: return rank != priority.rank
            case .greater: return rank < priority.rank
            case .less: return rank > priority.rank
            case .lessOrEqual: return rank >= priority.rank
            }
        case .date(let target, let comparison, let bounds):
            guard let bounds else {
                let set: Bool
                switch target {
                case .due: set = task.due != nil
                case .wait: set = task.wait != nil
                case .scheduled: set = task.scheduled != nil
                case .until: set = task.until != nil
                case .completed: set = task.completed != nil
                case .created, .modified: set = true
                case .custom(let name): set = ExtrasText.value(name, in: task.extras) != nil
                }
                return comparison == .equal ? !set : set
            }
            switch target {
            case .due: return DateBounds.compare(task.due?.description, comparison, low: bounds.lowText, high: bounds.highText)
            case .wait: return DateBounds.compare(task.wait?.description, comparison, low: bounds.lowText, high: bounds.highText)
            case .scheduled: return DateBounds.compare(task.scheduled?.description, comparison, low: bounds.lowText, high: bounds.highText)
            case .until: return DateBounds.compare(task.until?.description, comparison, low: bounds.lowText, high: bounds.highText)
            case .completed: return DateBounds.compare(task.completed?.millisecondsSince1970, comparison, low: bounds.lowTime, high: bounds.highTime)
            case .created: return DateBounds.compare(task.created.millisecondsSince1970, comparison, low: bounds.lowTime, high: bounds.highTime)
            case .modified: return DateBounds.compare(task.modified.millisecondsSince1970, comparison, low: bounds.lowTime, high: bounds.highTime)
            case .custom(let name):
                let stamp = ExtrasText.value(name, in: task.extras).flatMap(CustomField.unquoted)
                return DateBounds.compare(stamp, comparison, low: bounds.lowStamp, high: bounds.highStamp)
            }
        case .dateRange(let target, let low, let high):
            return FilterTerm.date(target, .lessOrEqual, high).matches(task, clock: clock, world: world)
                && !FilterTerm.date(target, .less, low).matches(task, clock: clock, world: world)
                && FilterTerm.date(target, .notEqual, nil).matches(task, clock: clock, world: world)
        case .customText(let name, let match, let text):
            guard case .text(let value)? = CustomComparable.of(ExtrasText.value(name, in: task.extras), .string) else { return false }
            let folded = TaskQuery.foldCase(value)
            switch match {
            case .contains: return folded.contains(text)
            case .startswith: return folded.utf8.starts(with: text.utf8)
            case .endswith: return folded.hasSuffix(text)
            }
        case .status(let status):
            switch status {
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
                    && (task.scheduled.map { !clock.isAhead($0) } ?? true)
            case .repeating: return task.repeat != nil
            case .annotated: return !task.annotations.isEmpty
            case .tagged: return !task.tags.isEmpty
            }
        case .title(let match, let text):
            let title = TaskQuery.foldCase(task.title)
            switch match {
            case .contains: return title.contains(text)
            case .startswith: return title.utf8.starts(with: text.utf8)
            case .endswith: return title.hasSuffix(text)
            }
        case .custom(let name, let kind, let comparison, let operand):
            let value = CustomComparable.of(ExtrasText.value(name, in: task.extras), kind)
            guard let operand else { return comparison == .equal ? value == nil : value != nil }
            switch (operand, value) {
            case (.text(let text), .text(let have)?): return Self.compareOrdered(have, comparison, text)
            case (.number(let number), .number(let have)?): return Self.compareOrdered(have, comparison, number)
            case (.seconds(let seconds), .seconds(let have)?): return Self.compareOrdered(have, comparison, seconds)
            case (.date(let bounds), .text(let have)?): return DateBounds.compare(have, comparison, low: bounds.lowStamp, high: bounds.highStamp)
            default: return comparison == .notEqual
            }
        case .named(_, let term): return term.matches(task, clock: clock, world: world)
        }
    }

    static func isBlocked(_ task: Task, _ world: FilterWorld) -> Bool {
        task.depends.contains { world.isPending($0) ?? true }
    }

    static func compareOrdered<Value: Comparable>(_ value: Value?, _ comparison: FilterComparison, _ operand: Value) -> Bool {
        guard let value else { return comparison == .notEqual }
        switch comparison {
        case .equal: return value == operand
        case .notEqual: return value != operand
        case .less: return value < operand
        case .greater: return value > operand
        case .lessOrEqual: return value <= operand
        }
    }
}
