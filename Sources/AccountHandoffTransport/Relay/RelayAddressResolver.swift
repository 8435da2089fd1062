#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import Foundation

/// Finds a relay's IPv4 address (Spec 11.7): a dotted IPv4 host as written, a name through the
/// system resolver (`getaddrinfo`, IPv4 only). A lookup may wait on the network for seconds,
/// so it runs on the ``AccountHandoff/BlockingIOPool``: never on the transport's event loop,
/// never on a Swift concurrency thread.
enum RelayAddressResolver {
    /// The first usable IPv4 address of `host`, to `completion` on the lookup's pool thread
    /// (or at once, on the caller's, for a dotted IPv4 host).
    static func resolve(_ host: RelayHost, completion: @escaping @Sendable (Result<IPv4Address, TransportError>) -> Void) {
        if let literal = IPv4Address(host.name) {
            completion(usable(literal).map { .success($0) } ?? .failure(.relayHostNotFound(host)))
            return
        }
        BlockingIOPool.shared.execute { completion(lookUp(host)) }
    }

    /// The same, awaited. A cancelled task stops waiting at once (the lookup finishes on its
    /// pool thread, unheard): a direct connection that won must not wait for a slow DNS server.
    static func resolve(_ host: RelayHost) async throws -> IPv4Address {
        let answer = Answer()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<IPv4Address, any Error>, Never>) in
                answer.wait(continuation)
                resolve(host) { answer.give($0.mapError { $0 }) }
            }
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
        return try result.get()
    }

    /// The first answer wins: the lookup's, or the cancellation's.
    private final class Answer: @unchecked Sendable {
        // Safety of @unchecked Sendable: both fields are only touched under `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<IPv4Address, any Error>, Never>?
        private var early: Result<IPv4Address, any Error>?

        func wait(_ continuation: CheckedContinuation<Result<IPv4Address, any Error>, Never>) {
            let ready = lock.withLock { () -> Result<IPv4Address, any Error>? in
                if let early { return early }
                self.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }

        func give(_ result: Result<IPv4Address, any Error>) {
            let waiting = lock.withLock { () -> CheckedContinuation<Result<IPv4Address, any Error>, Never>? in
                defer { continuation = nil }
                if continuation == nil, early == nil { early = result }
                return continuation
            }
            waiting?.resume(returning: result)
        }
    }

    /// A relay address must name one machine: never 0.0.0.0, a broadcast or a multicast address.
    private static func usable(_ address: IPv4Address) -> IPv4Address? {
        address.isUnspecified || address.isBroadcast || address.isMulticast ? nil : address
    }

    private static func lookUp(_ host: RelayHost) -> Result<IPv4Address, TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var first: UnsafeMutablePointer<addrinfo>?
        guard BlockingCall.run("getaddrinfo", { getaddrinfo(host.name, nil, &hints, &first) }) == 0 else { return .failure(.relayHostNotFound(host)) }
        defer { freeaddrinfo(first) }
        var cursor = first
        while let entry = cursor?.pointee {
            cursor = entry.ai_next
            guard entry.ai_family == AF_INET, let socketAddress = entry.ai_addr else { continue }
            let value = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let bytes = [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                         UInt8(truncatingIfNeeded: value)]
            if let address = IPv4Address(bytes: bytes).flatMap(usable) { return .success(address) }
        }
        return .failure(.relayHostNotFound(host))
    }
}
