import Foundation

/// `handoff accounts [--store DIR]`: lists the accounts in a receiver's store, never a secret.
enum AccountsCommand {
    static let specification = ArgumentSpecification(
        command: "accounts", valueOptions: ["--store"], flags: [], positionals: 0...0, positionalName: "no arguments")

    static func run(_ arguments: [String], console: Console) throws(CLIError) -> ExitCode {
        _ = try specification.parse(arguments)
        throw CLIError("'handoff accounts' is not available yet.", exitCode: .failure)
    }
}
