/// `handoff bench`: a placeholder until the benchmarks exist, so the command is documented
/// and scripts get a clear answer.
enum BenchCommand {
    static func run(_ arguments: [String], console: Console) -> ExitCode {
        console.error("Benchmarks are not available in this build of handoff; run 'handoff help' to see the commands it has.")
        return .usage
    }
}
