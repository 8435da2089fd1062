import AccountHandoffSimulation
import CLibFuzzer
import Foundation

/// What every fuzz executable does: run one input through its ``FuzzTarget`` (a broken
/// property is a crash), and in `main` either write its seed corpus or start libFuzzer.
public enum FuzzMain {
    /// The body of `LLVMFuzzerTestOneInput`: runs the input and traps on a violated invariant.
    public static func execute(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try target.run(bytes)
        } catch {
            fatalError("\(target.rawValue): \(error)")
        }
        return 0
    }

    /// The program's main.
    ///
    /// `--write-seeds DIRECTORY [VECTORS]` writes the target's seeds (plus those found in the
    /// JSON files of VECTORS) into DIRECTORY and exits; `--reaches-deep FILE...` prints
    /// `deep FILE` for each input that reaches deep into its target (the regression replay
    /// requires one per target) and exits; anything else is passed to libFuzzer.
    public static func main(_ target: FuzzTarget,
                            testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        let arguments = CommandLine.arguments
        if arguments.count >= 3, arguments[1] == "--write-seeds" {
            return writeSeeds(target, into: URL(fileURLWithPath: arguments[2]),
                              vectors: arguments.count >= 4 ? URL(fileURLWithPath: arguments[3]) : nil)
        }
        if arguments.count >= 2, arguments[1] == "--reaches-deep" {
            return reportDeepInputs(target, files: Array(arguments.dropFirst(2)))
        }
        // One input at a time on this thread: the harnesses may share their leak scanners.
        LeakScanner.sharedPerProcess = true
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    }

    private static func reportDeepInputs(_ target: FuzzTarget, files: [String]) -> CInt {
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            do {
                if try target.reachesDeepState(Array(data)) { print("deep \(file)") }
            } catch {
                print("broken \(file): \(error)")
                return 1
            }
        }
        return 0
    }

    private static func writeSeeds(_ target: FuzzTarget, into directory: URL, vectors: URL?) -> CInt {
        let seeds = FuzzSeeds.seeds(for: target) + (vectors.map { FuzzSeeds.vectorSeeds(for: target, in: $0) } ?? [])
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, seed) in seeds.enumerated() {
                try Data(seed).write(to: directory.appendingPathComponent("seed-\(index)"))
            }
        } catch {
            FileHandle.standardError.write(Data("cannot write seeds: \(error)\n".utf8))
            return 1
        }
        print("\(target.rawValue): wrote \(seeds.count) seeds")
        return 0
    }
}
