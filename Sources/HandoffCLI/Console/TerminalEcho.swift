#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns terminal echo off while a password is typed, and guarantees it comes back on every
/// exit path: normal return, a thrown error, and Ctrl-C or SIGTERM (the signal handler
/// restores the saved settings with `tcsetattr`, which is async-signal-safe; then Ctrl-C
/// before a session ends as a cancel (``EarlyInterrupt``) and other signals end the process
/// as usual).
enum TerminalEcho {
    // Written before the handlers are installed and read only by them (and by `restore`).
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active: sig_atomic_t = 0

    /// Runs `body` with echo off when standard input is a terminal.
    static func withEchoOff<Result>(_ body: () throws(CLIError) -> Result) throws(CLIError) -> Result {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return try body() }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        installRestoringHandlers(cancellingOnInterrupt: true)
        active = 1
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer { restore() }
        return try body()
    }

    /// Turns echo off until ``restore()``, when standard input is a terminal (a question whose
    /// answer is read by the background reader, such as the gate's login password). Only
    /// during a transfer, whose handler for SIGINT and SIGTERM (``Signals``) turns echo back on
    /// itself and cancels, so those two are left to it here.
    static func turnOff() {
        guard active == 0, isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        installRestoringHandlers(cancellingOnInterrupt: false)
        active = 1
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    }

    /// Puts the saved settings back, once.
    static func restore() {
        guard active == 1 else { return }
        active = 0
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    private static func installRestoringHandlers(cancellingOnInterrupt: Bool) {
        if cancellingOnInterrupt { EarlyInterrupt.install() }
        for signal in cancellingOnInterrupt ? [SIGTERM, SIGHUP, SIGQUIT] : [SIGHUP, SIGQUIT] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                TerminalEcho.restoreFromSignal()
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                TerminalEcho.restoreFromSignal()
                Darwin.signal(number, SIG_DFL)
                raise(number)
            }
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Puts the saved settings back from a signal handler (async-signal-safe).
    static func restoreFromSignal() {
        if active == 1 { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        active = 0
    }
}
