import ReactorCore
import TextFormats

/// What every command's view has: its bindings and the run's context. Each command's view
/// subclasses it and is a `View` of its own reactor. (Not generic: a generic superclass costs
/// every run the instantiation of its metadata by name, about 0.3 ms here.)
class CommandView {
    var disposeBag = DisposeBag()
    let context: ViewContext

    init(context: ViewContext) { self.context = context }
}

extension CommandView {
    /// The style a picture (a chart, the calendar, stats, the timesheet) is drawn in: colour
    /// on a colour terminal, and always for an SVG.
    var pictureStyle: Style { Style(enabled: context.console.settings.color || context.console.settings.svg) }

    /// A picture's text as the terminal shows it, or with `--format svg` drawn as an SVG.
    func writePicture(_ text: String, title: String) {
        context.console.stdout.write(context.console.settings.svg ? TerminalSVG.document(text, title: title) : text)
    }
}
