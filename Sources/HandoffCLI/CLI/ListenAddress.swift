import AccountHandoffTransport

/// Which address `handoff send` listens on and advertises in the QR: 127.0.0.1 unless the
/// person asks for a LAN address explicitly (`--address ADDRESS --lan`); 0.0.0.0 and
/// addresses that are not this machine's are refused (``ListeningAddressPolicy``).
enum ListenAddress {
    static func choose(_ parsed: ParsedArguments, command: String) throws(CLIError) -> ListeningAddressPolicy.Choice {
        let address: IPv4Address
        if let text = parsed.value("--address") {
            guard let parsedAddress = IPv4Address(text) else {
                throw .usage("The option --address takes an IPv4 address of this machine, such as 127.0.0.1.", command: command)
            }
            address = parsedAddress
        } else {
            guard !parsed.has("--lan") else {
                throw .usage("--lan needs --address with the LAN address of this machine that the receiving device can reach.", command: command)
            }
            address = .loopback
        }
        do {
            return try ListeningAddressPolicy.check(address, allowingNetworkAddresses: parsed.has("--lan"))
        } catch .networkAddressNotRequested(let address) {
            throw CLIError("The address \(address) can be reached by other devices on the network; if the receiving device is on your LAN, add --lan (the QR will then advertise \(address)), or leave out --address to stay on 127.0.0.1.", exitCode: .usage)
        } catch {
            throw CLIError(error.description, exitCode: .usage)
        }
    }
}
