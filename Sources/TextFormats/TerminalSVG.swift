/// Text as a terminal shows it — lines of cells, with the program's style marks — as a
/// standalone SVG document: each cell on a grid of a monospaced font, each coloured
/// background a rectangle behind its cells, Hangul and emoji two cells wide as the terminal
/// gives them. What a chart drawn for the terminal looks like, for a browser, a report or a
/// wiki (`--format svg`).
public enum TerminalSVG {
    /// A cell's size in pixels at the font size used (14 px: a monospaced glyph is 0.6 em).
    static let cellWidth = 8.4, lineHeight = 18.0, fontSize = 14.0, margin = 8.0

    /// The colours a background mark stands for, and the text's.
    static func fill(_ mark: TerminalText.Mark) -> String? {
        switch mark {
        case .onRed: "#d9534f"
        case .onGreen: "#5cb85c"
        case .onYellow: "#f0ad4e"
        case .onBlue: "#337ab7"
        case .onBrightRed: "#ff6f6f"
        default: nil
        }
    }

    /// `text` (lines; marks as `TerminalText.Mark` writes them) as an SVG document titled `title`.
    public static func document(_ text: String, title: String) -> String {
        struct Style: Equatable { var background: String?; var bold = false; var red = false }
        var blocks: [(row: Int, start: Int, end: Int, fill: String)] = []
        var runs: [String] = []
        var widest = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
        for (row, line) in lines.prefix(count).enumerated() {
            var style = Style()
            var column = 0
            let baseline = margin + Double(row) * lineHeight + fontSize
            // A run of characters of one style, one cell each, placed at its first cell.
            var run = "", runStart = 0, runStyle = style
            func flush() {
                defer { run = "" }
                while run.last == " " { run.removeLast() }
                guard !run.isEmpty else { return }
                var attributes = "x=\"\(number(margin + Double(runStart) * cellWidth))\" y=\"\(number(baseline))\""
                if runStyle.bold { attributes += " font-weight=\"bold\"" }
                if runStyle.red { attributes += " fill=\"#c9302c\"" }
                runs.append("<text \(attributes)>\(escaped(run))</text>")
            }
            for character in line {
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, let mark = TerminalText.Mark(rawValue: scalar.value) {
                    flush()
                    switch mark {
                    case .reset: style = Style()
                    case .bold: style.bold = true
                    case .red: style.red = true
                    case .defaultColor: style.red = false
                    case .defaultBackground: style.background = nil
                    case .dim: break
                    default: if !mark.isStylePart { style.background = fill(mark) }
                    }
                    continue
                }
                let width = TerminalText.width(of: character)
                if width == 0 { continue }
                if let background = style.background {
                    // A run of one background is one rectangle.
                    if let last = blocks.last, last.row == row, last.end == column, last.fill == background {
                        blocks[blocks.count - 1].end = column + width
                    } else {
                        blocks.append((row, column, column + width, background))
                    }
                }
                if width > 1 || run.isEmpty || style != runStyle {
                    // A wide character is placed alone: the font's own width for it may differ.
                    flush()
                    runStart = column
                    runStyle = style
                }
                run.append(character)
                column += width
                if width > 1 { flush() }
            }
            flush()
            widest = max(widest, column)
        }
        let rectangles = blocks.map { block in
            "<rect x=\"\(number(margin + Double(block.start) * cellWidth))\" y=\"\(number(margin + Double(block.row) * lineHeight))\" "
                + "width=\"\(number(Double(block.end - block.start) * cellWidth))\" height=\"\(number(lineHeight))\" fill=\"\(block.fill)\"/>"
        }
        let width = number(2 * margin + Double(widest) * cellWidth)
        let height = number(2 * margin + Double(count) * lineHeight)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <title>\(escaped(title))</title>
            <rect width="100%" height="100%" fill="#ffffff"/>
            \(rectangles.joined(separator: "\n"))
            <g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="\(number(fontSize))" fill="#222222" xml:space="preserve">
            \(runs.joined(separator: "\n"))
            </g>
            </svg>

            """
    }

    /// `1.5`, `8`: one decimal at most.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(tenths / 10) + "." + String(abs(tenths % 10))
    }

    /// Text as XML character data: the markup characters escaped, and every control
    /// character (which XML 1.0 cannot hold) shown as `?`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default:
                let value = scalar.value
                let allowed = value == 0x09 || (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value != 0xFFFE && value != 0xFFFF && !(0xFDD0...0xFDEF).contains(value))
                result.unicodeScalars.append(allowed ? scalar : "?")
            }
        }
        return result
    }
}
