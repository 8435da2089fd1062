import AccountHandoff

/// A small, strict command-line parser: `--name value`, `--name=value`, flags, positionals,
/// and `--` to end options. Error messages name an unknown option but never repeat its value,
/// so a secret typed by mistake is not echoed.
package struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    package func value(_ name: String) -> String? { values[name] }
    package func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Which options a command accepts.
package struct ArgumentSpecification {
    let command: String
    let valueOptions: Set<String>
    let flags: Set<String>
    /// Options whose value may be left out (`--from-thunderbird [PROFILE]`): the value is the
    /// inline `=value`, or the next argument unless it starts with `-`; left out, it is "".
    var optionalValueOptions: Set<String> = []
    /// Options accepted only to be refused with their sentence (a usage error).
    var refused: [String: String] = [:]
    let positionals: ClosedRange<Int>
    let positionalName: String

    /// Options that would put a secret on the command line; refused with their own message.
    static let secretOptions: Set<String> = ["--password", "--pass", "--passwd", "--credential", "--secret"]

    package func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix(TransferCode.prefix) { throw TransferCode.refusalOnCommandLine(command: command) }
            guard !optionsEnded, argument.hasPrefix("--"), argument.count > 2 else {
                if argument == "--", !optionsEnded { optionsEnded = true; continue }
                if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                    throw .usage(sentenceCatalog.sentence("args.unknownOption", .text(Self.name(of: argument)), .text("\(CommandManual.program) \(command)"), in: .cli),
                                 command: command)
                }
                parsed.positionals.append(argument)
                continue
            }
            let name = Self.name(of: argument)
            let inlineValue = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
            if Self.secretOptions.contains(name) {
                throw CLIError(sentenceCatalog.sentence("args.secretOption", in: .cli), exitCode: .usage)
            }
            if let refusal = refused[name] { throw CLIError(refusal, exitCode: .usage) }
            if optionalValueOptions.contains(name) {
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else if index < arguments.count, !arguments[index].hasPrefix("-") {
                    parsed.values[name] = arguments[index]
                    index += 1
                } else {
                    parsed.values[name] = ""
                }
            } else if flags.contains(name) {
                guard inlineValue == nil else { throw .usage(sentenceCatalog.sentence("args.takesNoValue", .text(name), in: .cli), command: command) }
                parsed.flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inlineValue {
                    parsed.values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage(sentenceCatalog.sentence("args.needsValue", .text(name), in: .cli), command: command) }
                    parsed.values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw .usage(sentenceCatalog.sentence("args.unknownOption", .text(name), .text("\(CommandManual.program) \(command)"), in: .cli), command: command)
            }
        }
        guard positionals.contains(parsed.positionals.count) else {
            if parsed.positionals.count < positionals.lowerBound {
                throw .usage(sentenceCatalog.sentence("args.needsPositional", .text("\(CommandManual.program) \(command)"), .text(positionalName), in: .cli),
                             command: command)
            }
            let program = SentenceArgument.text("\(CommandManual.program) \(command)")
            let hint = SentenceArgument.text(strayArgumentHint(parsed.positionals.last ?? ""))
            throw .usage(positionals.upperBound == 0
                            ? sentenceCatalog.sentence("args.noArguments", program, hint, in: .cli)
                            : sentenceCatalog.sentence("args.onlyPositional", program, .text(positionalName), hint, in: .cli), command: command)
        }
        return parsed
    }

    /// What an argument without its option most likely meant: `handoff send ada.json` is an
    /// account file without `--account`. Only a name ending in `.json` is repeated (anything
    /// else might be a password typed in the wrong place).
    private func strayArgumentHint(_ argument: String) -> String {
        guard command == "send" else { return "" }
        guard argument.lowercased().hasSuffix(".json"), argument.count <= 200, !argument.contains(where: \.isNewline) else {
            return sentenceCatalog.sentence("args.hint.accountFile", in: .cli)
        }
        return sentenceCatalog.sentence("args.hint.jsonFile", .text(argument), .text(CommandManual.program), in: .cli)
    }

    /// The option name without any `=value`, cut to a sane length.
    static func name(of argument: String) -> String {
        String(argument.prefix { $0 != "=" }.prefix(40))
    }
}
