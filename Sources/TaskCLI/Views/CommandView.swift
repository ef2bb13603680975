import ReactorCore

/// What every command's view has: its bindings and the run's context. Each command's view
/// subclasses it and is a `View` of its own reactor. (Not generic: a generic superclass costs
/// every run the instantiation of its metadata by name, about 0.3 ms here.)
class CommandView {
    var disposeBag = DisposeBag()
    let context: ViewContext

    init(context: ViewContext) { self.context = context }
}
