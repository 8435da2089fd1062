import AccountHandoffTransport

/// Which address `handoff send` listens on and advertises in the QR: 127.0.0.1 unless the
/// person asks for a LAN address explicitly (`--address ADDRESS --lan`); 0.0.0.0 and
/// addresses that are not this machine's are refused (``ListeningAddressPolicy``).
enum ListenAddress {
    static func choose(_ parsed: ParsedArguments, command: String) throws(CLIError) -> ListeningAddressPolicy.Choice {
        let address: IPv4Address
        if let text = parsed.value("--address") {
            guard let parsedAddress = IPv4Address(text) else {
                throw .usage(sentenceCatalog.sentence("address.usage", in: .cli), command: command)
            }
            address = parsedAddress
        } else {
            guard !parsed.has("--lan") else {
                throw .usage(sentenceCatalog.sentence("address.lanNeedsAddress", in: .cli), command: command)
            }
            address = .loopback
        }
        do {
            return try ListeningAddressPolicy.check(address, allowingNetworkAddresses: parsed.has("--lan"))
        } catch .networkAddressNotRequested(let address) {
            throw CLIError(sentenceCatalog.sentence("address.needsLan", .text("\(address)"), in: .cli), exitCode: .usage)
        } catch {
            throw CLIError(error.sentence(in: .cli), exitCode: .usage)
        }
    }
}
