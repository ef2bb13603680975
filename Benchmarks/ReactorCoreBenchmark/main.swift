// ReactorCore benchmark: ns per action for the counter, concat3 and list workloads, each beside
// a plain Swift loop doing the same reduce in the same process (the floor).
//
//   swift run -c release reactorcore-benchmark            # 1×, 10× and 100× sizes
//   swift run -c release reactorcore-benchmark --quick    # 1× and 10× only
//
// Prints a Markdown table: medians of several runs, and the ratio to the floor.

import BenchmarkSupport
import ReactorKitCompat

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Reactors under test
//
// Each workload's reactor twice: one that declares its storage (`let reactorStorage =
// Storage()`, the fast path) and one that declares none, as a ReactorKit reactor is written
// (its storage found per instance in the table). The logic is shared by a protocol.

struct CounterState { var value = 0 }
enum CounterAction { case increase, decrease }

protocol CounterBench: Reactor where Action == CounterAction, Mutation == CounterAction, State == CounterState {
    init()
}

extension CounterBench {
    func reduce(state: consuming CounterState, mutation: CounterAction) -> CounterState {
        var state = state
        switch mutation {
        case .increase: state.value += 1
        case .decrease: state.value -= 1
        }
        return state
    }
}

final class CounterDeclared: CounterBench {
    let initialState = CounterState()
    let reactorStorage = Storage()
}

final class CounterFound: CounterBench {
    let initialState = CounterState()
}

struct Concat3State {
    var value = 0
    var isLoading = false
}
enum Concat3Mutation { case setLoading(Bool), increaseValue }

protocol Concat3Bench: Reactor where Action == CounterAction, Mutation == Concat3Mutation, State == Concat3State {
    init()
}

extension Concat3Bench {
    func mutate(action: CounterAction) -> Observable<Concat3Mutation> {
        .concat([.just(.setLoading(true)), .just(.increaseValue), .just(.setLoading(false))])
    }

    func reduce(state: consuming Concat3State, mutation: Concat3Mutation) -> Concat3State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .increaseValue: state.value += 1
        }
        return state
    }
}

final class Concat3Declared: Concat3Bench {
    let initialState = Concat3State()
    let reactorStorage = Storage()
}

final class Concat3Found: Concat3Bench {
    let initialState = Concat3State()
}

struct Item {
    var id: Int
    var title: String
    var isDone = false
}

struct Section {
    var header: String
    var items: [Item]
}

struct ListState {
    var sections: [Section]
}

enum ListAction { case toggle(Int) }

@inline(never) func reduceList(_ state: inout ListState, toggle index: Int) {
    state.sections[0].items[index].isDone.toggle()
}

protocol ListBench: Reactor where Action == ListAction, Mutation == ListAction, State == ListState {
    init(count: Int)
}

extension ListBench {
    func reduce(state: consuming ListState, mutation: ListAction) -> ListState {
        var state = state
        switch mutation {
        case .toggle(let index): state.sections[0].items[index].isDone.toggle()
        }
        return state
    }
}

final class ListDeclared: ListBench {
    let initialState: ListState
    let reactorStorage = Storage()
    init(count: Int) { initialState = makeListState(count: count) }
}

final class ListFound: ListBench {
    let initialState: ListState
    init(count: Int) { initialState = makeListState(count: count) }
}

/// The same list reactor with ReactorKit's signature (no `consuming`): each toggle copies.
final class CopyingListBenchReactor: Reactor {
    let initialState: ListState
    let reactorStorage = Storage()

    init(count: Int) { initialState = makeListState(count: count) }

    func reduce(state: ListState, mutation: ListAction) -> ListState {
        var state = state
        switch mutation {
        case .toggle(let index): state.sections[0].items[index].isDone.toggle()
        }
        return state
    }
}

func makeListState(count: Int) -> ListState {
    ListState(sections: [Section(header: "Inbox", items: (0..<count).map { Item(id: $0, title: "Task \($0)") })])
}

// MARK: - Measuring

@inline(never) func blackHole<T>(_ value: T) { _ = value }

let clock = ContinuousClock()

/// Runs `body` `runs` times, returning the median time per operation in nanoseconds.
func medianNanoseconds(runs: Int, operations: Int, _ body: () -> Void) -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let elapsed = clock.measure(body)
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        samples.append(nanoseconds / Double(operations))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func counterReactor<R: CounterBench>(_: R.Type, actions: Int) {
    let reactor = R()
    var last = 0
    let subscription = reactor.state.map { $0.value }.distinctUntilChanged().subscribe(onNext: { last = $0 })
    let action = reactor.action
    for index in 0..<actions { action.onNext(index & 1 == 0 ? .increase : .decrease) }
    subscription.dispose()
    blackHole(last)
}

/// The floor's reduce: the same switch as the reactor's, kept out of line as a reducer call is.
@inline(never) func reduceCounter(_ state: CounterState, _ action: CounterAction) -> CounterState {
    var state = state
    switch action {
    case .increase: state.value += 1
    case .decrease: state.value -= 1
    }
    return state
}

/// The floor's subscriber: what `map(\.value).distinctUntilChanged()` hands on.
@inline(never) func observe(_ value: Int, _ sink: inout Int) { sink &+= value }

func counterFloor(actions: Int) {
    var state = CounterState()
    var last = Int.min
    var seen = 0
    for index in 0..<actions {
        state = reduceCounter(state, index & 1 == 0 ? .increase : .decrease)
        if state.value != last {
            last = state.value
            observe(last, &seen)
        }
    }
    blackHole(seen)
}

func concat3Reactor<R: Concat3Bench>(_: R.Type, actions: Int) {
    let reactor = R()
    var last = 0
    let subscription = reactor.state.map { $0.value }.distinctUntilChanged().subscribe(onNext: { last = $0 })
    let action = reactor.action
    for _ in 0..<actions { action.onNext(.increase) }
    subscription.dispose()
    blackHole(last)
}

@inline(never) func reduceConcat3(_ state: Concat3State, _ mutation: Concat3Mutation) -> Concat3State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .increaseValue: state.value += 1
    }
    return state
}

func concat3Floor(actions: Int) {
    var state = Concat3State()
    var last = Int.min
    var seen = 0
    for _ in 0..<actions {
        for mutation in [Concat3Mutation.setLoading(true), .increaseValue, .setLoading(false)] {
            state = reduceConcat3(state, mutation)
            if state.value != last {
                last = state.value
                observe(last, &seen)
            }
        }
    }
    blackHole(seen)
}

// MARK: - Running

let quick = CommandLine.arguments.contains("--quick")
if CommandLine.arguments.contains("--profile-counter") {
    // One short run of the counter alone, for callgrind.
    counterReactor(CounterDeclared.self, actions: 200_000)
    exit(0)
}
let scales = quick ? [1, 10] : [1, 10, 100]
var rows: [(workload: String, size: String, reactor: Double, floor: Double)] = []

@MainActor func report(_ workload: String, _ size: String, reactor: Double, floor: Double) {
    rows.append((workload, size, reactor, floor))
    let line = "\(workload) \(size): \(format(reactor)) ns/action, floor \(format(floor)) ns/action"
    BenchmarkSupport.progress(line)
}

func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    let tenths = (value * 10).rounded() / 10
    return "\(tenths)"
}


/// A workload of `1,000,000 × scale` actions at each scale, beside its floor.
@MainActor func measureActions(_ name: String, reactor: (Int) -> Void, floor: (Int) -> Void) {
    for scale in scales {
        let actions = 1_000_000 * scale
        let runs = scale == 100 ? 3 : 5
        let reactorTime = medianNanoseconds(runs: runs, operations: actions) { reactor(actions) }
        let floorTime = medianNanoseconds(runs: runs, operations: actions) { floor(actions) }
        report(name, "\(BenchmarkSupport.grouped(actions)) actions", reactor: reactorTime, floor: floorTime)
    }
}

measureActions("counter", reactor: { counterReactor(CounterDeclared.self, actions: $0) }, floor: counterFloor)
measureActions("counter, storage not declared", reactor: { counterReactor(CounterFound.self, actions: $0) }, floor: counterFloor)
measureActions("concat3", reactor: { concat3Reactor(Concat3Declared.self, actions: $0) }, floor: concat3Floor)
measureActions("concat3, storage not declared", reactor: { concat3Reactor(Concat3Found.self, actions: $0) }, floor: concat3Floor)

/// 100,000 toggles of a list of `10,000 × scale` items, beside the same toggles of a plain array.
@MainActor func measureList<R: ListBench>(_ name: String, _: R.Type) {
for scale in scales {
    let items = 10_000 * scale
    let actions = 100_000
    // Build the state outside the timed part; time only the 100,000 toggles.
    var reactorSamples: [Double] = []
    var floorSamples: [Double] = []
    for _ in 0..<5 {
        let reactor = R(count: items)
        let action = reactor.action
        var doneCount = 0
        let subscription = reactor.state.map { $0.sections[0].items.count }.distinctUntilChanged()
            .subscribe(onNext: { doneCount = $0 })
        action.onNext(.toggle(0))  // the first toggle copies away from `initialState`
        let elapsed = clock.measure {
            for index in 0..<actions { action.onNext(.toggle((index &* 7919) % items)) }
        }
        subscription.dispose()
        blackHole(doneCount)
        reactorSamples.append(Double(elapsed.components.attoseconds) / 1e9 / Double(actions)
            + Double(elapsed.components.seconds) * 1e9 / Double(actions))

        var state = makeListState(count: items)
        let floorElapsed = clock.measure {
            for index in 0..<actions { reduceList(&state, toggle: (index &* 7919) % items) }
        }
        blackHole(state.sections[0].items[0].isDone)
        floorSamples.append(Double(floorElapsed.components.attoseconds) / 1e9 / Double(actions)
            + Double(floorElapsed.components.seconds) * 1e9 / Double(actions))
    }
    reactorSamples.sort()
    floorSamples.sort()
    report(name, "\(BenchmarkSupport.grouped(items)) items", reactor: reactorSamples[2], floor: floorSamples[2])
}
}

measureList("list", ListDeclared.self)
measureList("list, storage not declared", ListFound.self)

// ReactorKit's own signature, without `consuming`: every toggle copies the items (10,000 only;
// fewer actions, as each costs a full copy).
do {
    let items = 10_000
    let actions = 10_000
    let time = medianNanoseconds(runs: 5, operations: actions) {
        let reactor = CopyingListBenchReactor(count: items)
        let action = reactor.action
        for index in 0..<actions { action.onNext(.toggle((index &* 7919) % items)) }
        blackHole(reactor.currentState.sections.count)
    }
    var state = makeListState(count: items)
    let floor = medianNanoseconds(runs: 5, operations: 100_000) {
        for index in 0..<100_000 { reduceList(&state, toggle: (index &* 7919) % items) }
    }
    report("list, reduce without `consuming`", "\(BenchmarkSupport.grouped(items)) items", reactor: time, floor: floor)
}

print("| workload | size | ReactorCore ns/action | plain loop ns/action | ratio |")
print("| --- | --- | ---: | ---: | ---: |")
for row in rows {
    let ratio = row.reactor / max(row.floor, 0.001)
    print("| \(row.workload) | \(row.size) | \(format(row.reactor)) | \(format(row.floor)) | \(format(ratio))× |")
}
