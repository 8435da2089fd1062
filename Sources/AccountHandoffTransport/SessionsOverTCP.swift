import AccountHandoff
import Foundation

extension HandoffSenderSession {
    /// A session on a ``FrameListener`` of its own, which only this session serves: it is
    /// opened here, gets each QR's keys from the session, and is closed when the session ends.
    /// No other session can reuse it, so no code is ever shown for a listener that is gone or
    /// serves another code.
    ///
    /// - Parameters:
    ///   - account: the account to offer.
    ///   - address: the local address receivers reach (``InterfaceAddress`` finds the local
    ///     network's); port 0 picks a free port.
    ///   - relay: a relay to name in the code and wait at, if any (Spec 11.7).
    ///   - credential: reads the password after the gate.
    ///   - authenticator: the local-authentication gate (Spec 8.7).
    ///   - registry: the device's record of transfer IDs and outcomes.
    ///   - options: lifetime, renewal and the optional gate before the QR.
    ///   - transport: the listener's timeouts and limits.
    ///   - clock: the time source (the system clock in production).
    /// - Throws: the errors of ``FrameListener/init(address:port:relay:advertisesDirectAddress:keys:configuration:)``.
    public init(account: AccountMetadata, listeningOn address: IPv4Address, port: UInt16 = 0, relay: TCPRendezvous.Relay? = nil,
                credential: @escaping CredentialReader, authenticator: any LocalAuthenticator, registry: SenderRegistry,
                options: SenderSessionOptions = .standard, transport: TransportConfiguration = .standard,
                clock: any HandoffClock = SystemHandoffClock()) throws(TransportError) {
        let listener = try FrameListener(address: address, port: port, relay: relay, configuration: transport)
        self.init(account: account, rendezvous: listener.rendezvous.token, channel: listener, credential: credential,
                  authenticator: authenticator, registry: registry, options: options, clock: clock)
    }
}

extension HandoffReceiverSession {
    /// A session for a scanned QR text that connects to the sender with the reference TCP
    /// transport (``ConnectionFrameChannel``: its direct address, then its relay).
    ///
    /// - Throws: the decoding errors of ``AccountHandoff/SessionPayload/init(text:)``.
    public init(scannedText: String, importer: Importer, authenticator: any LocalAuthenticator, registry: ReceiverRegistry,
                transport: TransportConfiguration = .standard, clock: any HandoffClock = SystemHandoffClock()) throws(HandoffError) {
        try self.init(scannedText: scannedText, importer: importer, authenticator: authenticator, registry: registry,
                      clock: clock) { payload in
            try await ConnectionFrameChannel.connect(to: payload, configuration: transport)
        }
    }
}
