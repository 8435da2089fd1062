#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of the terminal that standard output is, in character cells.
struct TerminalSize: Equatable {
    let columns: Int
    let rows: Int

    /// The terminal's size, or `nil` when standard output is no terminal or the terminal does
    /// not say (a size of 0, as a new pseudo-terminal has).
    static func ofStandardOutput() -> TerminalSize? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return nil
        }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
