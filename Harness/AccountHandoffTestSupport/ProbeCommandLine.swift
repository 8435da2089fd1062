#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The command line and the output lines of a probe executable that a test runs with
/// ``ProbeProcess`` (`import-crash-probe`, `thunderbird-import-probe`): `--name value`
/// options, one line per report, written at once, `ERROR <sentence>` on failure, and
/// `STOPPED <step>` before waiting to be killed at that step.
package enum ProbeCommandLine {
    /// The `--name value` options of `arguments` (without the program's name), by name
    /// without the dashes; says `ERROR` and exits on anything else.
    package static func options(_ arguments: some Sequence<String>) -> [String: String] {
        var options: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { fail("bad argument \(name)") }
            options[String(name.dropFirst(2))] = value
        }
        return options
    }

    /// Writes one line to standard output at once (unbuffered), so the test sees it before a kill.
    package static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Says `ERROR <message>` and exits with status 2.
    package static func fail(_ message: String) -> Never {
        say("ERROR \(message)")
        exit(2)
    }

    /// Says `STOPPED <step>` and waits to be killed.
    package static func stop(at step: String) -> Never {
        say("STOPPED \(step)")
        while true { pause() }
    }
}
