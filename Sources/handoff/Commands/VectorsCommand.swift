// TEMPORARY LOCAL STUB - DO NOT COMMIT
enum VectorsCommand {
    static func run(_ arguments: [String], console: Console) throws(CLIError) -> ExitCode { throw CLIError("stub", exitCode: .failure) }
}
