import TextFormats

/// Writes frames to a terminal, sending only what changed since the frame before: for each
/// row, the span from its first changed cell to its last, with the cursor moved there and the
/// styles switched as the cells need (xterm/VT100 sequences: CUP, SGR, ED). The first frame,
/// and the first after `invalidate()` (a resize, a return from `Ctrl-Z`), is drawn whole.
public struct Renderer {
    private var shown: ScreenBuffer?

    public init() {}

    /// Forgets what the terminal shows: the next frame is drawn whole.
    public mutating func invalidate() { shown = nil }

    /// The bytes that turn the terminal's screen from the last frame into `next`, then put the
    /// cursor at `cursor` (shown) or hide it.
    public mutating func frame(_ next: ScreenBuffer, cursor: (row: Int, column: Int)? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        // Every frame leaves the terminal in the plain style.
        var style = CellStyle.plain
        let whole = shown.map { $0.rows != next.rows || $0.columns != next.columns } ?? true
        if whole { out.append(contentsOf: Array("\u{1B}[0m\u{1B}[2J".utf8)) }
        for row in 0..<next.rows {
            var first = 0
            var last = next.columns - 1
            if !whole, let shown {
                while first < next.columns && shown[row, first] == next[row, first] { first += 1 }
                if first == next.columns { continue }
                while last > first && shown[row, last] == next[row, last] { last -= 1 }
                // Start on a whole character; end after one.
                while first > 0 && next[row, first].isContinuation { first -= 1 }
                if last + 1 < next.columns && next[row, last + 1].isContinuation { last += 1 }
            }
            // A blank tail to the row's end is one EL, not spaces: nothing of an earlier frame
            // can survive past the last character, whatever width the terminal gave it.
            var blankFrom = last + 1
            if (last + 1..<next.columns).allSatisfy({ next[row, $0] == Cell() }) {
                while blankFrom > first && next[row, blankFrom - 1] == Cell() { blankFrom -= 1 }
            }
            Self.moveTo(row: row, column: first, into: &out)
            var column = first
            while column < blankFrom {
                let cell = next[row, column]
                column += 1
                if cell.isContinuation { continue }
                if style != cell.style {
                    Self.select(cell.style, into: &out)
                    style = cell.style
                }
                guard cell.text.utf8.first.map({ $0 >= 0x80 }) == true, let character = cell.text.first,
                      TerminalText.isWidthAmbiguous(character) else {
                    out.append(contentsOf: cell.text.utf8)
                    continue
                }
                // Terminals disagree on this one's width (an emoji with VS16, a ZWJ sequence):
                // blank both cells, draw it, and put the cursor where the next cell begins, so
                // the rest of the row lands in its place whichever width the terminal chose.
                let cells = TerminalText.width(of: character)
                out.append(contentsOf: Array(String(repeating: " ", count: cells).utf8))
                Self.moveTo(row: row, column: column - 1, into: &out)
                out.append(contentsOf: cell.text.utf8)
                Self.moveTo(row: row, column: column - 1 + cells, into: &out)
            }
            if blankFrom <= last {
                if style != .plain {
                    out.append(contentsOf: Array("\u{1B}[0m".utf8))
                    style = .plain
                }
                out.append(contentsOf: Array("\u{1B}[K".utf8))
            }
        }
        if style != .plain { out.append(contentsOf: Array("\u{1B}[0m".utf8)) }
        if let cursor {
            Self.moveTo(row: cursor.row, column: cursor.column, into: &out)
            out.append(contentsOf: Array("\u{1B}[?25h".utf8))
        } else {
            out.append(contentsOf: Array("\u{1B}[?25l".utf8))
        }
        shown = next
        return out
    }

    private static func moveTo(row: Int, column: Int, into out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, 0x5B])
        DecimalText.append(Int64(row + 1), to: &out)
        out.append(0x3B)
        DecimalText.append(Int64(column + 1), to: &out)
        out.append(0x48)
    }

    /// SGR for `style`, from a reset.
    private static func select(_ style: CellStyle, into out: inout [UInt8]) {
        var codes = "\u{1B}[0"
        if style.bold { codes += ";1" }
        if style.dim { codes += ";2" }
        if style.underline { codes += ";4" }
        if style.reverse { codes += ";7" }
        if let color = style.foreground { codes += ";" + color.parameters(background: false) }
        if let color = style.background { codes += ";" + color.parameters(background: true) }
        out.append(contentsOf: Array((codes + "m").utf8))
    }
}
