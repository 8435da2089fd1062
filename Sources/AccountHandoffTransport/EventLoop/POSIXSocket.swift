#if canImport(Glibc)
import CPOSIXAccept
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP socket file descriptor in non-blocking mode, owned by this object: closed exactly
/// once, by ``close()`` or ``closeListening()``, or at the latest when released. Nothing here
/// waits: the ``EventLoop`` says when a socket is ready.
final class POSIXSocket: @unchecked Sendable {
    // Safety of @unchecked Sendable: one thread at a time owns it; it moves to the event
    // loop's thread with the connection it belongs to, and stays there.
    private(set) var descriptor: Int32
    var isOpen: Bool { descriptor >= 0 }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    // MARK: Creating

    /// A new non-blocking IPv4 stream socket, closed on exec: a program the app starts while a
    /// transfer is pending must not keep its port or connection open (Spec 8.3).
    static func makeTCP() throws(TransportError) -> POSIXSocket {
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw .system(operation: "socket", errno: errno) }
        let created = POSIXSocket(descriptor: descriptor)
        try created.configure()
        return created
    }

    /// Takes ownership of a connected or accepted descriptor (for example one end of a relayed
    /// connection, Spec 11.7) and makes it close-on-exec and non-blocking if it is not already.
    static func adopt(_ descriptor: Int32) throws(TransportError) -> POSIXSocket {
        let adopted = POSIXSocket(descriptor: descriptor)
        try adopted.configure()
        return adopted
    }

    private func configure() throws(TransportError) {
        // Linux sockets are created and accepted close-on-exec; Darwin's (no SOCK_CLOEXEC, no
        // accept4) get the flag here, right after they exist.
        guard fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else { throw .system(operation: "fcntl", errno: errno) }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system(operation: "fcntl", errno: errno)
        }
        var one: Int32 = 1
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // Small messages go out at once: the admission response and the hello are two writes in
        // a row, and Nagle's algorithm would hold the second until the first is acknowledged,
        // which a delayed acknowledgement makes 40 ms (measured through a relay: 43 ms from the
        // scan to the code). A failure only costs that delay, so it is not checked.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    // MARK: Addresses

    static func socketAddress(_ address: IPv4Address, _ port: UInt16) -> sockaddr_in {
        var storage = sockaddr_in()
        #if canImport(Darwin)
        storage.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        storage.sin_family = sa_family_t(AF_INET)
        storage.sin_port = port.bigEndian
        storage.sin_addr = in_addr(s_addr: address.value.bigEndian)
        return storage
    }

    /// Binds to `address:port` (0 picks a free port) and starts listening.
    func listen(address: IPv4Address, port: UInt16, backlog: Int32) throws(TransportError) {
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = Self.socketAddress(address, port)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw .addressUnavailable(errno: errno) }
        #if canImport(Glibc)
        let listening = Glibc.listen(descriptor, backlog)
        #else
        let listening = Darwin.listen(descriptor, backlog)
        #endif
        guard listening == 0 else { throw .system(operation: "listen", errno: errno) }
    }

    /// The local port the socket is bound to.
    func localPort() throws(TransportError) -> UInt16 {
        var storage = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { throw .system(operation: "getsockname", errno: errno) }
        return UInt16(bigEndian: storage.sin_port)
    }

    /// The IPv4 address of the connected peer, or `nil` when it has none.
    func peerAddress() -> IPv4Address? {
        var storage = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard status == 0, storage.sin_family == sa_family_t(AF_INET) else { return nil }
        return IPv4Address(bytes: withUnsafeBytes(of: storage.sin_addr.s_addr) { Array($0) })
    }

    // MARK: Connecting

    /// Starts connecting to `address:port`: `true` when already connected (possible on
    /// loopback), `false` when the socket becomes writable once the attempt ends (then call
    /// ``finishConnect()``).
    ///
    /// - Throws: ``TransportError/connectionRefused`` and other immediate failures.
    func startConnect(address: IPv4Address, port: UInt16) throws(TransportError) -> Bool {
        var storage = Self.socketAddress(address, port)
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        if status == 0 { return true }
        guard errno == EINPROGRESS || errno == EINTR else { throw Self.connectFailure(errno) }
        return false
    }

    /// The outcome of a connection attempt once the socket turned writable.
    ///
    /// - Throws: ``TransportError/connectionRefused``, ``TransportError/timedOut`` and others.
    func finishConnect() throws(TransportError) {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else {
            throw .system(operation: "getsockopt", errno: errno)
        }
        guard failure == 0 else { throw Self.connectFailure(failure) }
    }

    private static func connectFailure(_ code: Int32) -> TransportError {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ETIMEDOUT: .timedOut
        case ENETUNREACH, EHOSTUNREACH: .networkUnreachable
        default: .system(operation: "connect", errno: code)
        }
    }

    // MARK: Accepting

    /// What one `accept` call gave.
    enum AcceptOutcome {
        /// A new connection, now owned by the caller.
        case accepted(POSIXSocket)
        /// Nothing to accept right now (or a connection failed before it could be accepted).
        case noneWaiting
        /// A connection is waiting but the process or system is out of descriptors or memory.
        case outOfResources
    }

    /// Accepts one pending connection, close-on-exec and non-blocking from birth on Linux.
    ///
    /// - Throws: only when the listening socket itself is unusable.
    func accept() throws(TransportError) -> AcceptOutcome {
        #if canImport(Glibc)
        let accepted = handoff_accept_close_on_exec(descriptor)
        #else
        let accepted = Darwin.accept(descriptor, nil, nil)
        #endif
        guard accepted >= 0 else {
            switch errno {
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                return .outOfResources
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN,
                 EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH:
                // Errors of one connection, reported by accept; the next one may be fine.
                return .noneWaiting
            default:
                throw .system(operation: "accept", errno: errno)
            }
        }
        do { return .accepted(try Self.adopt(accepted)) } catch {
            return .noneWaiting  // adopt closed it; the listener keeps going
        }
    }

    // MARK: Reading and writing

    /// Reads what is available, at most `maximum` bytes: bytes, an empty array at end of
    /// stream, or `nil` when nothing is available yet.
    ///
    /// - Throws: ``TransportError/closedByPeer`` on a reset, other errors as `system`.
    func readAvailable(maximum: Int) throws(TransportError) -> [UInt8]? {
        guard isOpen else { throw .closedLocally }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return Array(buffer[0..<count]) }
        if count == 0 { return [] }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        if errno == ECONNRESET || errno == ETIMEDOUT { throw .closedByPeer }
        throw .system(operation: "recv", errno: errno)
    }

    /// Writes as much of `bytes` as the kernel takes now; the count written (0 when the
    /// buffer is full).
    ///
    /// - Throws: ``TransportError/closedByPeer`` when the peer is gone, other errors as `system`.
    func writeSome(_ bytes: ArraySlice<UInt8>) throws(TransportError) -> Int {
        guard isOpen else { throw .closedLocally }
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        if errno == EPIPE || errno == ECONNRESET { throw .closedByPeer }
        throw .system(operation: "send", errno: errno)
    }

    /// Discards up to `chunks` reads of what is already readable (unread input would make a
    /// close a reset that can destroy bytes still in flight to the peer).
    func discardReadable(chunks: Int = 4) {
        for _ in 0..<chunks {
            guard let chunk = try? readAvailable(maximum: 4096), !chunk.isEmpty else { return }
        }
    }

    // MARK: Closing

    /// Stops sending: the peer reads end of stream after every byte already written.
    func shutdownWrite() {
        guard isOpen else { return }
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Stops a listening socket, then closes it: a process that another thread is starting
    /// holds a copy of every descriptor until its `exec`, and that copy alone would keep a
    /// socket that is merely closed listening, accepting connections for a session that ended.
    func closeListening() {
        guard isOpen else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close()
    }

    /// Closes at once. Idempotent. A socket registered with an ``EventLoop`` must be
    /// unregistered first (``LoopSocket`` does both).
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }
}
