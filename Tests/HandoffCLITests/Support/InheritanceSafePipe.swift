#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A one-way byte channel for a child's standard stream whose ends are closed on exec from the
/// moment they exist (a socket pair made with `SOCK_CLOEXEC`; Glibc's module has no `pipe2`).
///
/// Foundation's `Pipe` sets that flag after creating the pipe, so a process another test
/// starts in between inherits the write end of someone else's standard input and holds it
/// open: closing the input then never reaches the child (seen in 14 of 300 children started
/// while another thread made pipes). The tests start many processes at once.
struct InheritanceSafePipe {
    let fileHandleForReading: FileHandle
    let fileHandleForWriting: FileHandle

    init() {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        precondition(socketpair(AF_UNIX, type, 0, &ends) == 0, "socketpair failed: \(errno)")
        shutdown(ends[0], Int32(SHUT_WR))
        shutdown(ends[1], Int32(SHUT_RD))
        fileHandleForReading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        fileHandleForWriting = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}
