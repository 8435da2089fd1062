#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one door of the package's blocking calls: every call that may block its thread (a
/// file lock, `fsync`, a file read or write, SQLite, a D-Bus call, a PAM conversation, a
/// libcurl transfer, a name lookup) runs through ``run(_:_:)`` or ``retryingInterrupted(_:_:)``.
///
/// In debug builds each call checks that blocking is allowed where it runs: on a
/// ``BlockingIOPool`` thread, or on a thread that runs no Swift task (the main thread of a
/// synchronous program, the transport's event loop, a thread of the app's own). A call made
/// while a task runs on the current thread (a thread of Swift concurrency's cooperative pool,
/// or the main actor's) stops the program with the call's name: a test that drives the code
/// fails there. Release builds skip the check.
package enum BlockingCall {
    /// Runs `call`, which may block the calling thread.
    ///
    /// - Parameters:
    ///   - name: the blocking call, for the check's message (`"fsync"`, `"sqlite3_step"`).
    ///   - call: the call.
    @inline(__always)
    package static func run<Result, Failure: Error>(_ name: StaticString, _ call: () throws(Failure) -> Result) throws(Failure) -> Result {
        #if DEBUG
        check(name)
        #endif
        return try call()
    }

    /// Runs a system call that may block, again for as long as it fails with `EINTR` (a signal
    /// arrived while it waited): the package's one retry loop. `errno` is the call's own when
    /// it returns -1.
    ///
    /// - Parameters:
    ///   - name: the system call, for the check's message.
    ///   - call: returns -1 and sets `errno` on failure, as system calls do.
    /// - Returns: the first result that is not an interruption.
    @inline(__always)
    package static func retryingInterrupted<Result: BinaryInteger>(_ name: StaticString, _ call: () -> Result) -> Result {
        #if DEBUG
        check(name)
        #endif
        while true {
            let result = call()
            if result == -1, errno == EINTR { continue }
            return result
        }
    }

    /// `read(2)` of up to `count` bytes into `buffer`, again after `EINTR`: the count read, 0
    /// at the end, or -1 with `errno`.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int) -> Int {
        retryingInterrupted("read") {
            #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
            #else
            Darwin.read(descriptor, buffer, count)
            #endif
        }
    }

    /// `write(2)` of up to `count` bytes from `buffer`, again after `EINTR`: the count
    /// written, or -1 with `errno`.
    package static func write(_ descriptor: Int32, from buffer: UnsafeRawPointer?, count: Int) -> Int {
        retryingInterrupted("write") {
            #if canImport(Glibc)
            Glibc.write(descriptor, buffer, count)
            #else
            Darwin.write(descriptor, buffer, count)
            #endif
        }
    }

    /// Whether the calling thread may block: a pool thread, or a thread that runs no task.
    package static var mayBlockHere: Bool {
        IOThreadMark.isPoolThread || !withUnsafeCurrentTask { $0 != nil }
    }

    /// Stops the program, or tells the task's ``BlockingCallCheck``, when `name` is about to
    /// block a thread that runs a task.
    package static func check(_ name: StaticString) {
        guard !mayBlockHere else { return }
        if let witness = BlockingCallCheck.witness {
            witness.record(name)
            return
        }
        assertionFailure("\(name) blocks its thread, and this thread runs a Swift task; run the call on a BlockingIOPool (BlockingIOPool.shared.run) or behind an async API")
    }
}
