import AccountHandoff
@testable import AccountHandoffTransport
import Foundation
import Testing

/// Address classification and the listening-address policy the CLI applies to `--address`.
@Suite struct AddressPolicyTests {
    static func address(_ text: String) -> IPv4Address { IPv4Address(text)! }

    @Test func classificationFollowsTheRFCRanges() {
        let cases: [(String, unspecified: Bool, loopback: Bool, linkLocal: Bool, isPrivate: Bool)] = [
            ("0.0.0.0", true, false, false, false),
            ("0.0.0.1", false, false, false, false),
            ("127.0.0.1", false, true, false, false),
            ("127.255.255.254", false, true, false, false),
            ("126.255.255.255", false, false, false, false),
            ("128.0.0.0", false, false, false, false),
            ("169.254.0.1", false, false, true, false),
            ("169.253.255.255", false, false, false, false),
            ("169.255.0.0", false, false, false, false),
            ("10.0.0.0", false, false, false, true),
            ("10.255.255.255", false, false, false, true),
            ("11.0.0.0", false, false, false, false),
            ("172.15.255.255", false, false, false, false),
            ("172.16.0.0", false, false, false, true),
            ("172.31.255.255", false, false, false, true),
            ("172.32.0.0", false, false, false, false),
            ("192.167.255.255", false, false, false, false),
            ("192.168.0.0", false, false, false, true),
            ("192.168.255.255", false, false, false, true),
            ("192.169.0.0", false, false, false, false),
            ("100.64.0.1", false, false, false, false),
            ("8.8.8.8", false, false, false, false),
        ]
        for (text, unspecified, loopback, linkLocal, isPrivate) in cases {
            let address = Self.address(text)
            #expect(address.isUnspecified == unspecified, "\(text)")
            #expect(address.isLoopback == loopback, "\(text)")
            #expect(address.isLinkLocal == linkLocal, "\(text)")
            #expect(address.isPrivate == isPrivate, "\(text)")
        }
        #expect(IPv4Address.unspecified == Self.address("0.0.0.0"))
    }

    @Test func thisMachineListsItsLoopbackAddress() throws {
        let interfaces = try InterfaceAddress.all()
        let loopback = try #require(interfaces.first { $0.address == .loopback })
        #expect(loopback.isUp)
        #expect(!loopback.interfaceName.isEmpty)
        #expect(!interfaces.contains { $0.address.isUnspecified })
        // Every address listed passes the policy when network addresses are allowed.
        for interface in interfaces where interface.isUp {
            let choice = try ListeningAddressPolicy.check(interface.address, allowingNetworkAddresses: true)
            #expect(choice.address == interface.address)
        }
    }

    static let interfaces = [
        InterfaceAddress(interfaceName: "lo", address: .loopback, isUp: true),
        InterfaceAddress(interfaceName: "en0", address: address("192.168.1.20"), isUp: true),
        InterfaceAddress(interfaceName: "en1", address: address("169.254.7.9"), isUp: true),
        InterfaceAddress(interfaceName: "wg0", address: address("100.64.0.5"), isUp: true),
        InterfaceAddress(interfaceName: "en2", address: address("10.1.1.1"), isUp: false),
    ]

    static func check(_ text: String, allowing: Bool) throws(ListeningAddressError) -> ListeningAddressPolicy.Choice {
        try ListeningAddressPolicy.check(address(text), allowingNetworkAddresses: allowing, interfaces: interfaces)
    }

    @Test func unspecifiedIsAlwaysRefused() {
        for allowing in [false, true] {
            #expect(throws: ListeningAddressError.unspecified) { try Self.check("0.0.0.0", allowing: allowing) }
        }
        #expect(ListeningAddressError.unspecified.description
            == "The address 0.0.0.0 stands for every address of this machine and a code cannot advertise it; choose one address, such as 127.0.0.1 for this machine only.")
    }

    @Test func loopbackIsAcceptedWithoutAsking() throws {
        let choice = try Self.check("127.0.0.1", allowing: false)
        #expect(choice == ListeningAddressPolicy.Choice(address: .loopback, interfaceName: nil, reach: .thisMachine))
        #expect(choice.description == "The code will advertise 127.0.0.1, which only this machine can reach.")
        #expect(try Self.check("127.0.0.2", allowing: false).reach == .thisMachine)
    }

    @Test func aNetworkAddressOfThisMachineNeedsAnExplicitRequest() throws {
        #expect(throws: ListeningAddressError.networkAddressNotRequested(Self.address("192.168.1.20"))) {
            try Self.check("192.168.1.20", allowing: false)
        }
        let lan = try Self.check("192.168.1.20", allowing: true)
        #expect(lan.reach == .localNetwork)
        #expect(lan.interfaceName == "en0")
        #expect(lan.description == "The code will advertise 192.168.1.20 (en0), which devices on the local network can reach.")
        #expect(try Self.check("169.254.7.9", allowing: true).reach == .localNetwork)
        let other = try Self.check("100.64.0.5", allowing: true)
        #expect(other.reach == .beyondLocalNetwork)
        #expect(other.description == "The code will advertise 100.64.0.5 (wg0), which is not a private address and may be reachable beyond the local network.")
        #expect(ListeningAddressError.networkAddressNotRequested(Self.address("192.168.1.20")).description
            == "The address 192.168.1.20 can be reached by other devices on the network, so it is used only when you ask for a network address explicitly; ask for it explicitly, or use 127.0.0.1 for this machine only.")
    }

    @Test func anAddressNoInterfaceThatIsUpHasIsRefusedWithTheAlternatives() {
        let available = [IPv4Address.loopback, Self.address("192.168.1.20"), Self.address("169.254.7.9"), Self.address("100.64.0.5")]
        for text in ["192.168.1.21", "10.1.1.1", "8.8.8.8", "255.255.255.255"] {
            for allowing in [false, true] {
                #expect(throws: ListeningAddressError.notOnThisMachine(Self.address(text), available: available)) {
                    try Self.check(text, allowing: allowing)
                }
            }
        }
        #expect(ListeningAddressError.notOnThisMachine(Self.address("10.1.1.1"), available: available).description
            == "The address 10.1.1.1 is not an address of this machine; choose one of 127.0.0.1, 192.168.1.20, 169.254.7.9, 100.64.0.5.")
    }

    @Test func interfaceListingFailureIsASentence() {
        #expect(InterfaceAddressError.unavailable(errno: 12).description
            == "The addresses of this machine could not be listed: the system is out of memory (ENOMEM); use 127.0.0.1 or try again.")
        #expect(ListeningAddressError.interfacesUnavailable(errno: 12).description
            == "The addresses of this machine could not be listed: the system is out of memory (ENOMEM); use 127.0.0.1 or try again.")
    }

    // MARK: The receiver's direct addresses (Spec 11.8)

    @Test func theReceiverConnectsDirectlyOnlyToLocalAddressesUnlessAllowed() {
        let local = ["127.0.0.1", "127.1.2.3", "10.0.0.1", "172.16.0.1", "172.31.255.254", "192.168.1.20", "169.254.7.9",
                     "100.64.0.1", "100.127.255.254"]
        let public_ = ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "1.1.1.1", "203.0.113.7"]
        for text in local {
            #expect(DirectAddressPolicy.localNetworks.refusal(of: Self.address(text)) == nil, "\(text)")
        }
        for text in public_ {
            #expect(DirectAddressPolicy.localNetworks.refusal(of: Self.address(text)) == .publicAddress, "\(text)")
            #expect(DirectAddressPolicy(allowsPublicAddresses: true).refusal(of: Self.address(text)) == nil, "\(text)")
        }
        for policy in [DirectAddressPolicy.localNetworks, DirectAddressPolicy(allowsPublicAddresses: true)] {
            #expect(policy.refusal(of: .unspecified) == .unspecified)
            #expect(policy.refusal(of: Self.address("255.255.255.255")) == .broadcast)
            #expect(policy.refusal(of: Self.address("224.0.0.1")) == .multicast)
            #expect(policy.refusal(of: Self.address("239.255.255.250")) == .multicast)
        }
        #expect(TransportError.directAddressRefused(Self.address("8.8.8.8"), .publicAddress).description
            == "The code names 8.8.8.8, which is not on this machine or a local network, so this device will not connect to it; connect both devices to the same network, or allow public addresses if you trust the code.")
    }

    /// The refusal comes before any connection: nothing listens at these addresses, so a
    /// connection attempt would fail otherwise (refused or timed out).
    @Test(arguments: [("0.0.0.0", DirectAddressPolicy.Refusal.unspecified), ("255.255.255.255", .broadcast),
                      ("224.0.0.251", .multicast), ("203.0.113.7", .publicAddress)])
    func theConnectorRefusesBeforeConnecting(_ text: String, _ refusal: DirectAddressPolicy.Refusal) async throws {
        let rendezvous = try #require(TCPRendezvous(address: Self.address(text), port: 9))
        let sender = try HandoffSender.start(account: Loopback.account(), rendezvous: rendezvous.token,
                                             random: SystemRandomSource(), now: Loopback.now)
        let start = ContinuousClock.now
        await #expect(throws: TransportError.directAddressRefused(Self.address(text), refusal)) {
            _ = try await ConnectionFrameChannel.connect(to: sender.payload, configuration: Loopback.fast)
        }
        #expect(ContinuousClock.now - start < .milliseconds(500))
    }

    /// A public direct address beside a relay is not connected to: the receiver says so and
    /// tries only the relay (here a port that refuses: tried again every 100 ms until its
    /// pairing deadline 3 s later).
    @Test func aRefusedDirectAddressBesideARelayIsSkipped() async throws {
        let (port, holder) = try refusingLoopbackPort()
        defer { holder.close() }
        let relay = try #require(TCPRendezvous.Relay(host: RelayHost("127.0.0.1"), port: port))
        let rendezvous = try TCPRendezvous(direct: TCPRendezvous.Endpoint(address: Self.address("203.0.113.7"), port: 9)!, relay: relay)
        let sender = try HandoffSender.start(account: Loopback.account(), rendezvous: rendezvous.token,
                                             random: SystemRandomSource(), now: Loopback.now)
        let routes = RouteLog()
        var configuration = Loopback.fast
        configuration.relayRetryDelay = .milliseconds(100)
        await #expect(throws: TransportError.relayNotPaired) {
            _ = try await ConnectionFrameChannel.connect(to: sender.payload, configuration: configuration,
                                                         pairingDeadline: Date().addingTimeInterval(3), progress: routes.note)
        }
        #expect(routes.events.first == .directAddressSkipped(Self.address("203.0.113.7"), .publicAddress))
        #expect(!routes.events.contains { if case .connectingDirectly = $0 { true } else { false } })
        #expect(routes.events.contains(.connectingThroughRelay(relay, address: .loopback)))
        // Each attempt is refused (how many fit in the window depends on how busy the machine is).
        #expect(routes.events.allSatisfy { if case .relayRetrying(_, let error) = $0 { error == .connectionRefused } else { true } })
    }
}
