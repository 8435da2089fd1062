import AccountHandoffSimulation
import CLibFuzzer
import Foundation

/// The structure-aware fuzz targets: inputs are ``EventScript``s, mutated by ``EventMutator``.
public enum EventTarget: String, CaseIterable, Sendable {
    /// The sender and receiver state machines, both roles (``MachineWorld``).
    case machines = "FuzzEvents"
    /// The session drivers over frame channels, with their people, apps and clock (``DriverWorld``).
    case drivers = "FuzzDrivers"

    /// The mutator for this target's event kinds.
    public var mutator: EventMutator {
        switch self {
        case .machines: EventMutator(operandCounts: MachineEvent.operandCounts)
        case .drivers: EventMutator(operandCounts: DriverEvent.operandCounts)
        }
    }

    /// Runs one input; a failing input runs again with its steps recorded, for the report.
    ///
    /// - Throws: ``InvariantViolation`` when the input breaks a property.
    public func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        do {
            try run(EventScript(bytes: bytes), tracing: false)
        } catch {
            try run(EventScript(bytes: bytes), tracing: true)
            throw error
        }
    }

    /// Runs one script and returns its steps.
    ///
    /// - Throws: ``InvariantViolation`` when the script breaks a property.
    @discardableResult
    public func run(_ script: EventScript, tracing: Bool) throws(InvariantViolation) -> [String] {
        switch self {
        case .machines:
            let world = try MachineWorld(header: script.header, tracing: tracing)
            try world.run(script)
            return world.trace
        case .drivers:
            let world = DriverWorld(header: script.header, tracing: tracing)
            try world.run(script)
            return world.trace
        }
    }

    /// The seed scripts.
    public var seeds: [EventScript] {
        switch self {
        case .machines: MachineSeeds.all
        case .drivers: DriverSeeds.all
        }
    }
}

/// What each event fuzz executable does: libFuzzer's entry points, and a `main` that writes
/// the seeds, prints an input's steps, or starts libFuzzer.
public enum EventMain {
    /// The body of `LLVMFuzzerTestOneInput`: a broken property is a crash.
    public static func execute(_ target: EventTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try target.run(bytes)
        } catch {
            fatalError("\(target.rawValue): \(error)")
        }
        return 0
    }

    /// The body of `LLVMFuzzerCustomMutator`.
    public static func mutate(_ target: EventTarget, _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int,
                              _ seed: UInt32) -> Int {
        guard let data, maxSize > EventScript.headerByteCount else { return size }
        return target.mutator.mutate(data, size: size, maxSize: maxSize, seed: seed)
    }

    /// The body of `LLVMFuzzerCustomCrossOver`.
    public static func crossOver(_ target: EventTarget, _ first: UnsafePointer<UInt8>?, _ firstSize: Int,
                                 _ second: UnsafePointer<UInt8>?, _ secondSize: Int, _ out: UnsafeMutablePointer<UInt8>?,
                                 _ maxSize: Int, _ seed: UInt32) -> Int {
        guard let out, maxSize > 0 else { return 0 }
        let a = first.map { Array(UnsafeBufferPointer(start: $0, count: firstSize)) } ?? []
        let b = second.map { Array(UnsafeBufferPointer(start: $0, count: secondSize)) } ?? []
        return target.mutator.crossOver(a, b, into: out, maxSize: maxSize, seed: seed)
    }

    /// The program's main: `--write-seeds DIRECTORY` writes the seeds; `--trace FILE...`
    /// prints each input's steps; anything else goes to libFuzzer.
    public static func main(_ target: EventTarget, testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        let arguments = CommandLine.arguments
        if arguments.count >= 3, arguments[1] == "--write-seeds" {
            return writeSeeds(target, into: URL(fileURLWithPath: arguments[2]))
        }
        if arguments.count >= 2, arguments[1] == "--trace" {
            for file in arguments.dropFirst(2) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                do {
                    let steps = try target.run(EventScript(bytes: Array(data)), tracing: true)
                    print("\(file): \(steps.joined(separator: " | "))")
                } catch {
                    print("\(file): \(error)")
                    return 1
                }
            }
            return 0
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    }

    private static func writeSeeds(_ target: EventTarget, into directory: URL) -> CInt {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, seed) in target.seeds.enumerated() {
                try Data(seed.bytes).write(to: directory.appendingPathComponent("seed-\(index)"))
            }
        } catch {
            FileHandle.standardError.write(Data("cannot write seeds: \(error)\n".utf8))
            return 1
        }
        print("\(target.rawValue): wrote \(target.seeds.count) seeds")
        return 0
    }
}
