/// One option of a command: what the parser accepts and what the help says about it.
package struct CommandOption {
    package let name: String
    /// The placeholder of its value (`DIR`); `nil` for a flag.
    let value: String?
    let help: String
    /// Whether the value may be left out (the synopsis shows it in brackets).
    var valueIsOptional = false

    package init(_ name: String, _ value: String? = nil, _ help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    /// An option whose value may be left out, such as `--from-thunderbird [PROFILE]`.
    static func optionalValue(_ name: String, _ value: String, _ help: String) -> CommandOption {
        var option = CommandOption(name, value, help)
        option.valueIsOptional = true
        return option
    }

    /// `--store DIR`, `--from-thunderbird [PROFILE]`, or `--lan`.
    var synopsis: String { value.map { valueIsOptional ? "\(name) [\($0)]" : "\(name) \($0)" } ?? name }
}

/// A command's manual: its synopsis, what it does, its options and notes. The parser
/// (``specification``) is built from the same options, so the help names every option the
/// command takes and no other; the usage line is generated from them too.
package struct CommandManual {
    package let command: String
    /// The required part of the usage line (for example the password sources of `send`);
    /// the options it names are not repeated in brackets.
    let required: [String]
    /// What the command does, in paragraphs: each is wrapped, except one that holds a
    /// newline or starts with two spaces (an example, a list), which is kept as written.
    let about: [String]
    let options: [CommandOption]
    /// Paragraphs after the options, likewise.
    let notes: [String]
    /// Options accepted only to be refused with their sentence (exit 64): old spellings and
    /// answers the command never gives by itself.
    let refused: [String: String]
    let positionals: ClosedRange<Int>
    let positionalName: String

    package init(command: String, required: [String] = [], about: [String], options: [CommandOption], notes: [String] = [],
         refused: [String: String] = [:], positionals: ClosedRange<Int> = 0...0,
         positionalName: String = sentenceCatalog.sentence("manual.positional.none", in: .cli)) {
        self.command = command
        self.required = required
        self.about = about
        self.options = options
        self.notes = notes
        self.refused = refused
        self.positionals = positionals
        self.positionalName = positionalName
    }

    /// The program's name as it was started (`handoff`, or the developer tool's `handoff-dev`),
    /// for usage lines and sentences that say what to run.
    package static let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "handoff") } ?? "handoff"

    /// The parser for exactly these options.
    package var specification: ArgumentSpecification {
        ArgumentSpecification(command: command,
                              valueOptions: Set(options.filter { $0.value != nil && !$0.valueIsOptional }.map(\.name)),
                              flags: Set(options.filter { $0.value == nil }.map(\.name)),
                              optionalValueOptions: Set(options.filter(\.valueIsOptional).map(\.name)),
                              refused: refused, positionals: positionals, positionalName: positionalName)
    }

    /// `Usage: handoff send --account FILE ... [--address IPV4] ...`, wrapped.
    var usage: String {
        let named = required.joined(separator: " ")
        let optional = options.filter { !named.contains($0.name + " ") && !named.hasSuffix($0.name) && !named.contains($0.name + ")") }
            .map { "[\($0.synopsis)]" }
        let heading = sentenceCatalog.sentence("manual.heading.usage", in: .cli)
        let words = [heading, Self.program, command] + required + optional
        return TextWrap.lines(words, width: Self.width, continuation: "         ").joined(separator: "\n")
    }

    /// The whole help text: usage, what it does, options, notes.
    package var text: String {
        var parts = [usage] + about.map(Self.paragraph)
        if !options.isEmpty {
            parts.append(sentenceCatalog.sentence("manual.heading.options", in: .cli) + "\n" + options.map(Self.render).joined(separator: "\n"))
        }
        parts += notes.map(Self.paragraph)
        return parts.joined(separator: "\n\n")
    }

    private static func paragraph(_ text: String) -> String {
        if text.hasPrefix("  ") || text.contains("\n") { return text }
        return TextWrap.lines(text.split(separator: " ").map(String.init), width: width, continuation: "").joined(separator: "\n")
    }

    static let width = 92
    private static let helpColumn = 26

    private static func render(_ option: CommandOption) -> String {
        let head = "  " + option.synopsis
        let words = option.help.split(separator: " ").map(String.init)
        let body = TextWrap.lines(words, width: width - helpColumn, continuation: "")
        let indent = String(repeating: " ", count: helpColumn)
        if head.count < helpColumn - 1 {
            let first = head.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + body[0]
            return ([first] + body.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }
        return ([head] + body.map { indent + $0 }).joined(separator: "\n")
    }
}

/// Greedy word wrapping for the help texts.
enum TextWrap {
    /// `words` joined by spaces into lines of at most `width` characters (a longer word gets
    /// a line of its own); lines after the first start with `continuation`.
    static func lines(_ words: [String], width: Int, continuation: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in words {
            if current.isEmpty {
                current = (lines.isEmpty ? "" : continuation) + word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = continuation + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
