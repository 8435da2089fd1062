import AccountHandoffDiscovery
import AccountHandoffTransport
import Foundation
import Testing

/// The drivers over scripted adapters: what a sender's advertisement asks of its daemon and
/// tells its caller, and how long a receiver browses. (`AvahiDiscoveryTests` runs them over
/// the Avahi adapter and real daemons.)
@Suite(.timeLimit(.minutes(10))) struct DriverTests {
    @Test func theAdvertisementRedrawsAfterACollisionAndStopsWhenWithdrawn() async {
        let advertiser = ScriptedAdvertiser()
        let drawn = DiscoveryNameplate(512)!
        let advertisement = SenderAdvertisement(advertiser: advertiser, nameplate: DiscoveryNameplate(427)!, port: 40123) { drawn }
        var updates = advertisement.updates.makeAsyncIterator()
        await advertisement.start()
        #expect(await updates.next() == .registering(DiscoveryNameplate(427)!))
        advertiser.report(.collision(DiscoveryNameplate(427)!))
        #expect(await updates.next() == .collided(DiscoveryNameplate(427)!))
        #expect(await updates.next() == .registering(drawn))
        advertiser.report(.established(drawn))
        #expect(await updates.next() == .showCode(drawn))
        await advertisement.withdraw()
        #expect(await updates.next() == .stopped(.withdrawn))
        #expect(await updates.next() == nil)
        #expect(advertiser.calls == [.register(DiscoveryNameplate(427)!, 40123), .unregister, .register(drawn, 40123), .unregister, .stop])
    }

    @Test func aFailureOfTheDaemonEndsTheAdvertisementWithItsError() async {
        let advertiser = ScriptedAdvertiser()
        let advertisement = SenderAdvertisement(advertiser: advertiser, nameplate: DiscoveryNameplate(427)!, port: 40123) { DiscoveryNameplate(1)! }
        var updates = advertisement.updates.makeAsyncIterator()
        await advertisement.start()
        #expect(await updates.next() == .registering(DiscoveryNameplate(427)!))
        advertiser.report(.failed(.daemonStopped))
        #expect(await updates.next() == .stopped(.discoveryFailed(.daemonStopped)))
        #expect(await updates.next() == nil)
        #expect(advertiser.calls == [.register(DiscoveryNameplate(427)!, 40123), .stop])
    }

    /// The receiver decides on what arrived within its browsing time, and stops the browser.
    @Test func theReceiverDecidesWhenItsBrowsingTimeIsOver() async throws {
        let browser = ScriptedBrowser()
        let txt = [Array("v=4".utf8), Array("np=427".utf8)]
        browser.report(.found(DiscoveredService(instanceName: "AccountHandoff 427", domain: "local", interfaceIndex: 2,
                                                address: .ipv4(IPv4Address("192.168.1.20")!), port: 40123, txtEntries: txt)))
        let decision = try await ReceiverDiscovery.find(DiscoveryNameplate(427)!, with: browser, for: .milliseconds(50))
        #expect(decision == .connect(address: IPv4Address("192.168.1.20")!, port: 40123))
        #expect(browser.stopped)
    }

    /// A failure ends the search at once with the typed error, whatever the browsing time left
    /// (ten minutes here, beyond the suite's time limit).
    @Test func theReceiverThrowsTheBrowsersFailureAtOnce() async {
        let browser = ScriptedBrowser()
        browser.report(.failed(.daemonNotRunning))
        await #expect(throws: DiscoveryError.daemonNotRunning) {
            try await ReceiverDiscovery.find(DiscoveryNameplate(427)!, with: browser, for: .seconds(600))
        }
        #expect(browser.stopped)
    }
}

/// An advertiser whose daemon is the test: it records what it is asked and reports what the
/// test tells it to.
final class ScriptedAdvertiser: DNSSDAdvertiser, @unchecked Sendable {
    // Safety of @unchecked Sendable: `recorded` is only touched under `lock`.
    enum Call: Hashable { case register(DiscoveryNameplate, UInt16), unregister, stop }

    let events: AsyncStream<DNSSDAdvertiserEvent>
    private let continuation: AsyncStream<DNSSDAdvertiserEvent>.Continuation
    private let lock = NSLock()
    private var recorded: [Call] = []

    init() { (events, continuation) = AsyncStream.makeStream() }

    var calls: [Call] { lock.withLock { recorded } }
    func report(_ event: DNSSDAdvertiserEvent) { continuation.yield(event) }
    func register(_ nameplate: DiscoveryNameplate, port: UInt16) { lock.withLock { recorded.append(.register(nameplate, port)) } }
    func unregister() { lock.withLock { recorded.append(.unregister) } }
    func stop() {
        lock.withLock { recorded.append(.stop) }
        continuation.finish()
    }
}

/// A browser whose daemon is the test.
final class ScriptedBrowser: DNSSDBrowser, @unchecked Sendable {
    // Safety of @unchecked Sendable: `wasStopped` is only touched under `lock`.
    let events: AsyncStream<DNSSDBrowserEvent>
    private let continuation: AsyncStream<DNSSDBrowserEvent>.Continuation
    private let lock = NSLock()
    private var wasStopped = false

    init() { (events, continuation) = AsyncStream.makeStream() }

    var stopped: Bool { lock.withLock { wasStopped } }
    func report(_ event: DNSSDBrowserEvent) { continuation.yield(event) }
    func stop() {
        lock.withLock { wasStopped = true }
        continuation.finish()
    }
}
