import Foundation

/// Runs blocking work (reading a file, decoding a picture, waiting for a camera) on a thread
/// of its own, so that it never holds a Swift concurrency thread. The only place in this
/// module that starts a thread.
enum OwnThread {
    static func run<Value: Sendable, Failure: Error>(named name: String,
                                                    _ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let thread = Thread { continuation.resume(returning: Result { () throws(Failure) -> Value in try work() }) }
            thread.name = name
            thread.start()
        }
        return try result.get()
    }
}
