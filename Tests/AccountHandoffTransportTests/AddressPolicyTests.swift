@testable import AccountHandoffTransport
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
            == "The addresses of this machine could not be listed (errno 12); use 127.0.0.1 or try again.")
        #expect(ListeningAddressError.interfacesUnavailable(errno: 12).description
            == "The addresses of this machine could not be listed (errno 12); use 127.0.0.1 or try again.")
    }
}
