/// A manual page (roff, the `man` macros) generated from a `CommandSpec` tree: the same
/// commands, options and text as `help`, so the page cannot drift from the parser.
public struct ManPage: Sendable {
    public let root: CommandSpec
    /// The page's section (`1`: user commands).
    public let section: String
    /// Footer fields: the program and version (`tasks 0.1.0`), the manual's name.
    public let source: String
    public let manual: String
    /// Further sections after the commands: (`FILES`, its lines), in order, set line by line.
    public let extra: [(String, String)]

    public init(root: CommandSpec, section: String = "1", source: String, manual: String, extra: [(String, String)] = []) {
        self.root = root
        self.section = section
        self.source = source
        self.manual = manual
        self.extra = extra
    }

    /// The page.
    public func render() -> String {
        var out: [String] = []
        out.append(".\\\" Generated from the command tree of \(root.name) (\(source)); do not edit.")
        out.append(".TH \(root.name.uppercased()) \(section) \"\" \(quoted(source)) \(quoted(manual))")
        out.append(".SH NAME")
        out.append("\(escaped(root.name)) \\- \(escaped(root.abstract))")
        out.append(".SH SYNOPSIS")
        out.append(".B \(escaped(root.name))")
        out.append("[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR] [\\fIARGUMENTS\\fR]")
        if !root.discussion.isEmpty {
            out.append(".SH DESCRIPTION")
            out.append(contentsOf: paragraphs(root.discussion))
        }
        out.append(".SH OPTIONS")
        out.append(contentsOf: root.options.flatMap(option))
        out.append(".SH COMMANDS")
        for command in root.subcommands {
            out.append(".SS \(escaped(usage(command)))")
            if !command.aliases.isEmpty {
                out.append("Alias: \(command.aliases.map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")).")
                out.append(".br")
            }
            out.append(escaped(command.abstract))
            if !command.discussion.isEmpty { out.append(".PP"); out.append(contentsOf: paragraphs(command.discussion)) }
            for argument in command.arguments {
                out.append(".TP")
                out.append("\\fI\(escaped(argument.name))\\fR\(argument.isVariadic ? "..." : "")")
                out.append(escaped(argument.help))
            }
            out.append(contentsOf: command.options.flatMap(option))
        }
        for (title, text) in extra {
            // Written line by line, as given (tables of variables, examples).
            out.append(".SH \(escaped(title))")
            out.append(".nf")
            out.append(contentsOf: text.split(separator: "\n").map { escaped(String($0)) })
            out.append(".fi")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// `list [--list LIST] … [FILTER...]`, as `help` writes it.
    private func usage(_ command: CommandSpec) -> String {
        var words = [root.name, command.name]
        for argument in command.arguments {
            let name = argument.name + (argument.isVariadic ? "..." : "")
            words.append(argument.isOptional ? "[\(name)]" : name)
        }
        return words.joined(separator: " ")
    }

    private func option(_ option: OptionSpec) -> [String] {
        var names = ["\\fB\\-\\-\(escaped(option.long))\\fR"]
        if let short = option.short { names.insert("\\fB\\-\(short)\\fR", at: 0) }
        let value = option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? ""
        return [".TP", names.joined(separator: ", ") + value, escaped(option.help)]
    }

    /// Text with blank lines between paragraphs; lines indented in the source (tables of
    /// formats, examples) are kept as they are, without filling.
    private func paragraphs(_ text: String) -> [String] {
        var out: [String] = []
        var inLiteral = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingPrefix(" ").isEmpty {
                if inLiteral { out.append(".fi"); inLiteral = false }
                out.append(".PP")
            } else if line.hasPrefix(" ") || line.hasSuffix(":") && line == line.uppercased() {
                if !inLiteral { out.append(".nf"); inLiteral = true }
                out.append(escaped(String(line)))
            } else {
                if inLiteral { out.append(".fi"); inLiteral = false }
                out.append(escaped(String(line)))
            }
        }
        if inLiteral { out.append(".fi") }
        return out
    }

    /// Backslashes and dashes escaped, characters beyond ASCII as `\[uXXXX]` (roff is ASCII),
    /// and a line never starting with `.` or `'` (a request).
    private func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    private func quoted(_ text: String) -> String { "\"" + text.replacing("\"", with: "\\(dq") + "\"" }
}
