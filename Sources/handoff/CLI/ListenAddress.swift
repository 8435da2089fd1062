import AccountHandoffTransport

/// Which address `handoff send` listens on and advertises in the QR: 127.0.0.1 unless the
/// person asks for a LAN address explicitly (`--address ADDRESS --lan`). The unspecified
/// address 0.0.0.0 is refused, since the QR must name one address the receiver can reach.
enum ListenAddress {
    static func choose(_ parsed: ParsedArguments, command: String) throws(CLIError) -> IPv4Address {
        guard let text = parsed.value("--address") else {
            guard !parsed.has("--lan") else {
                throw .usage("--lan needs --address with the LAN address of this machine that the receiving device can reach.", command: command)
            }
            return .loopback
        }
        guard let address = IPv4Address(text) else {
            throw .usage("The option --address takes an IPv4 address of this machine, such as 127.0.0.1.", command: command)
        }
        if address.bytes == [0, 0, 0, 0] {
            throw CLIError("0.0.0.0 means every address of this machine, but the QR must name one address that the receiving device can reach; give that address, for example --address 192.168.1.20 --lan.", exitCode: .usage)
        }
        if address.bytes[0] == 127 { return address }
        guard parsed.has("--lan") else {
            throw CLIError("\(address) is not a loopback address: listening there lets other machines on the network connect. If the receiving device is on your LAN, say so with --lan; the QR will then advertise \(address).", exitCode: .usage)
        }
        return address
    }
}
