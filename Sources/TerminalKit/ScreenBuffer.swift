import TextFormats

/// How a cell is drawn. Colours are the palette's (the eight ANSI colours first, then their
/// bright forms, then xterm's 256), or the terminal's own.
public struct CellStyle: Equatable, Hashable, Sendable {
    /// An entry of the terminal's palette: 0–7 the ANSI colours, 8–15 their bright forms,
    /// 16–255 xterm's cube and greys.
    public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
        public let index: UInt8
        public init(index: UInt8) { self.index = index }
        public static let black = Color(index: 0), red = Color(index: 1), green = Color(index: 2), yellow = Color(index: 3)
        public static let blue = Color(index: 4), magenta = Color(index: 5), cyan = Color(index: 6), white = Color(index: 7)

        /// `red` for the eight named ones, `color214` for the others (Taskwarrior's words).
        public var description: String {
            index < 8 ? ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"][Int(index)] : "color\(index)"
        }

        /// Its SGR parameters as a foreground (`31`, `91`, `38;5;214`) or a background.
        func parameters(background: Bool) -> String {
            let value = Int(index)
            if value < 8 { return String((background ? 40 : 30) + value) }
            if value < 16 { return String((background ? 100 : 90) + value - 8) }
            return (background ? "48;5;" : "38;5;") + String(value)
        }
    }

    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false
    public var foreground: Color?
    public var background: Color?

    public init(bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false, foreground: Color? = nil,
                background: Color? = nil) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
        self.foreground = foreground
        self.background = background
    }

    public static let plain = CellStyle()
}

/// One cell of the screen: the character drawn in it (a wide character fills two cells, the
/// second holding `""`), and its style.
public struct Cell: Equatable, Sendable {
    public var text: String
    public var style: CellStyle

    public init(_ text: String = " ", style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// The right half of a wide character.
    var isContinuation: Bool { text.isEmpty }
}

/// A frame: rows × columns of cells, drawn by a view and written by a `Renderer`. Widths are
/// terminal cells as `tasks list` counts them (`TerminalText`): Korean and emoji take two.
public struct ScreenBuffer: Equatable, Sendable {
    public let rows: Int
    public let columns: Int
    public private(set) var cells: [Cell]

    /// A blank frame.
    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
        cells = Array(repeating: Cell(), count: self.rows * self.columns)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * columns + column]
    }

    /// Writes `text` from `row`, `column` into at most `width` cells (to the right edge when
    /// nil): controls shown escaped, a text too wide cut with `…`, a wide character that would
    /// straddle the edge replaced by a space. Returns the cells used.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, width: Int? = nil, style: CellStyle = .plain) -> Int {
        guard row >= 0, row < rows, column >= 0, column < columns else { return 0 }
        let room = min(width ?? columns - column, columns - column)
        guard room > 0 else { return 0 }
        var shown = TerminalText.escapingControls(text)
        if TerminalText.displayWidth(shown) > room { shown = TerminalText.truncated(shown, toWidth: room) }
        var at = column
        let end = column + room
        for character in shown {
            let cells = TerminalText.width(of: character)
            if cells == 0 { continue }
            if at + cells > end {
                while at < end { put(Cell(" ", style: style), row: row, column: at); at += 1 }
                break
            }
            put(Cell(String(character), style: style), row: row, column: at)
            if cells == 2 { put(Cell("", style: style), row: row, column: at + 1) }
            at += cells
        }
        return at - column
    }

    /// Spaces in `style` over `width` cells from `column` (a highlighted row's background).
    public mutating func fill(row: Int, column: Int = 0, width: Int? = nil, style: CellStyle) {
        guard row >= 0, row < rows else { return }
        let end = min(columns, column + (width ?? columns))
        var at = max(0, column)
        while at < end {
            put(Cell(" ", style: style), row: row, column: at)
            at += 1
        }
    }

    /// Copies `other`'s cells here with its top left at `row`, `column`, cut at the edges
    /// (a pane drawn on its own, put beside another). A wide character cut in half by the
    /// right edge becomes a space.
    public mutating func paste(_ other: ScreenBuffer, row: Int, column: Int) {
        for sourceRow in 0..<other.rows where row + sourceRow >= 0 && row + sourceRow < rows {
            for sourceColumn in 0..<other.columns where column + sourceColumn >= 0 && column + sourceColumn < columns {
                var cell = other[sourceRow, sourceColumn]
                let at = column + sourceColumn
                if cell.text.first.map(TerminalText.width(of:)) == 2 && at + 1 >= columns {
                    cell = Cell(" ", style: cell.style)
                }
                put(cell, row: row + sourceRow, column: at)
            }
        }
    }

    /// Restyles the cells of a row (keeping their text): the cursor row's highlight.
    public mutating func restyle(row: Int, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < rows else { return }
        for index in (row * columns)..<((row + 1) * columns) { change(&cells[index].style) }
    }

    private mutating func put(_ cell: Cell, row: Int, column: Int) {
        let index = row * columns + column
        // Overwriting half of a wide character blanks its other half.
        if cells[index].isContinuation && column > 0 && !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if column + 1 < columns && cells[index + 1].isContinuation && !cell.isContinuation && TerminalText.width(of: Character(cell.text.isEmpty ? " " : cell.text)) < 2 {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// The text of a row, trailing spaces removed (what a test compares).
    public func text(row: Int) -> String {
        var line = ""
        for column in 0..<columns { line += self[row, column].text }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Every row's text, one line each.
    public var lines: [String] { (0..<rows).map { text(row: $0) } }
}
