#if canImport(CAvahi)
import CAvahi

/// Whether the Avahi daemon answers: connects a client, and reports once whether it runs.
/// A sending device asks before it offers the typed way on the local network, so that its
/// person is told plainly why typing a code does not work here.
final class AvahiDaemonCheck: AvahiClientCore, @unchecked Sendable {
    private var answer: ((DiscoveryError?) -> Void)?

    init(loop: AvahiLoop, answer: @escaping (DiscoveryError?) -> Void) {
        self.answer = answer
        super.init(loop: loop)
    }

    override func clientRunning(_ client: OpaquePointer) {
        loop.execute { [self] in close() }
        reply(nil)
    }

    override func failed(_ error: DiscoveryError) {
        reply(error)
    }

    private func reply(_ error: DiscoveryError?) {
        guard let answer else { return }
        self.answer = nil
        answer(error)
    }
}
#endif
