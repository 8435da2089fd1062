import AccountHandoffTransport
import Foundation
import Testing
import TestProcesses

/// A code whose direct address cannot lead to the sending device from here (Spec 11.8: the
/// receiver tells its person why): a loopback code carried to another computer, and addresses
/// the receiver never connects to. Each says what the address is and how to restart the sender.
@Suite(.startsProcesses) struct CLICodeAddressTests {
    static let restart = "restart 'handoff send' on the sending computer with --address ITS-NETWORK-ADDRESS --lan (an address this computer reaches it at) or with --relay HOST:PORT, and use its new code"

    /// A code naming 127.0.0.1 used where no sender listens there (another computer, or a
    /// sender that stopped).
    @Test func aLoopbackCodeWhereNothingListensSaysItIsTheSendingComputerItself() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (code, _) = try Scratch.validCode()
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: code + "\n")
        #expect(result.status == 70)
        #expect(result.stderr.hasSuffix("Nothing answered at 127.0.0.1:9, the address in this code: 127.0.0.1 is the sending computer itself, so the code works only there. If you are on another computer, \(Self.restart); on the same computer, check that 'handoff send' still shows this code. Nothing was imported.\n"), "\(result.stderr)")
        #expect(!result.all.contains("same network"))
    }

    @Test(arguments: [
        ("0.0.0.0", "0.0.0.0 names no machine"),
        ("255.255.255.255", "it is the broadcast address, which names no one machine"),
        ("224.0.0.1", "it is a multicast address, which names no one machine"),
        ("8.8.8.8", "it is neither this computer nor a local network, and a code shown to a camera could send this device anywhere"),
    ])
    func aRefusedAddressIsNamedWithTheReason(address: String, why: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (code, _) = try Scratch.code(expiresIn: 170, address: try #require(IPv4Address(address)), port: 4000)
        let result = try await HandoffProcess.run(scratch.receiveArguments(), stdin: code + "\n")
        #expect(result.status == 70)
        #expect(result.stderr.hasSuffix("This device will not connect to \(address):4000, the address in this code: \(why). To transfer, \(Self.restart). Nothing was imported.\n"), "\(result.stderr)")
        #expect(!result.all.contains("Nothing answered"))
    }
}
