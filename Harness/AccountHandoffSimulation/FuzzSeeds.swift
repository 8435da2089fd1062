import AccountHandoff
import AccountHandoffTestSupport
import Foundation

/// Seed inputs for each fuzz target, built from deterministic sessions (and from `Vectors/`
/// JSON files when they exist), so the fuzzers start from inputs that reach deep states.
///
/// Test support only.
public enum FuzzSeeds {
    /// The built-in seeds of `target`.
    public static func seeds(for target: FuzzTarget) -> [[UInt8]] {
        let recordings = [SessionRecording.standard, SessionRecording.foreign]
        switch target {
        case .qrPayload:
            var seeds = recordings.map { Array($0.qrText.utf8) }
            for length in [0, 1, 7, RendezvousToken.maximumByteCount] {
                let scenario = Scenario(rendezvous: try! RendezvousToken(bytes: Array(repeating: 0x42, count: length)))
                if let recording = try? SessionRecording.record(scenario) {
                    seeds.append(Array(recording.qrText.utf8))
                    if let payload = try? SessionPayload(text: recording.qrText) { seeds.append(payload.binary) }
                }
            }
            return seeds
        case .frame:
            var seeds = recordings.flatMap { $0.frames.map(\.bytes) } + [VectorPrimitives.offerPlaintext(Scenario.standard.account)]
            if let credential = try? VectorPrimitives.credentialPlaintext(Scenario.standard.passwordBytes) { seeds.append(credential) }
            return seeds
        case .sender:
            return [
                // hello, reveal read, confirm, offer read, peer accepts, accept, credential, read, receipt, receipt delivered
                [2, 0, 5, 8, 0, 0, 8, 5, 6, 0, 2, 0, 8, 3, 0, 12, 5, 6, 3, 2, 0],
                // to the credential, then a second device's hello (anotherDeviceJoined), then a forged receipt
                [2, 0, 5, 8, 0, 0, 8, 5, 6, 0, 2, 0, 8, 3, 0, 12, 11, 2, 0, 7, 1, 0, 1, 2, 0],
                // replays, a flipped bit, a forged abort, cancel
                [2, 0, 2, 0, 3, 0, 4, 0, 0, 9, 7, 2, 0, 2, 8, 2, 0, 0],
            ]
        case .receiver:
            return [
                // peer reads the hello, reveal, offer, confirm, accept read, credential, import
                [5, 2, 0, 6, 0, 2, 0, 8, 0, 0, 0, 5, 6, 3, 2, 0, 8, 4, 0, 0],
                // a forged reveal with the real nonce at sequence 0 (the same bytes as the genuine
                // one, which then counts as a replay), the offer, the accept read, a forged credential
                [5, 7, 0, 0, 2, 1, 2, 0, 6, 0, 2, 0, 8, 0, 0, 0, 5, 7, 2, 0, 0, 9, 0x41, 2, 0],
                // a forged reveal whose nonce has one bit flipped: the commitment does not open
                [5, 7, 0, 1, 9, 2, 1],
                // reveal, a second device makes the sender contest, then a forged raw offer
                [5, 2, 0, 11, 2, 0, 7, 1, 1, 0, 40, 2, 0],
            ]
        case .session:
            let honest = SessionScript.honestSteps
            return [
                SessionScript.encode(honest),
                SessionScript.encode(honest, useRegistries: true),
                // The shoulder-surfer's hello wins the race; a careless sending person wants to
                // confirm, but the receiving screen shows no code, so there is nothing to type
                // (Spec 4.4); the honest hello then arrives as a second device and the sender contests.
                SessionScript.encode([.attackerScans, .deliver(.toSender, 1), .person(.sender, .confirm),
                                      .attackerObserves(0), .attackerObserves(1), .attackerAccepts, .deliver(.toSender, 1)]
                                     + honest, carelessPeople: true),
                // The offer is damaged in flight, then the receiving person cancels.
                SessionScript.encode([.deliver(.toSender, 0), .deliver(.toReceiver, 0), .person(.sender, .confirm),
                                      .damage(.toReceiver, 0, .flipBit(300)), .deliver(.toReceiver, 0),
                                      .person(.receiver, .cancel)]),
                // A replayed hello, the reveal, late delivery after expiry, a second scan.
                SessionScript.encode([.deliverCopy(.toSender, 0), .deliver(.toSender, 0), .deliver(.toReceiver, 0),
                                      .person(.sender, .confirm), .advanceClock(seconds: 200), .deliver(.toReceiver, 0), .rescan],
                                     useRegistries: true),
                // A second device scans after the credential left: it is told contested, the sender goes on.
                SessionScript.encode(Array(honest.prefix(8)) + [.attackerScans, .deliver(.toSender, 0), .attackerObserves(0)]
                                     + Array(honest.suffix(2))),
            ]
        }
    }

    /// Seeds found in the JSON files of `directory` (the repository's `Vectors/`): every string
    /// that starts with `AH:` is a QR seed, every hex string that decodes as a frame a frame seed.
    public static func vectorSeeds(for target: FuzzTarget, in directory: URL) -> [[UInt8]] {
        guard target == .qrPayload || target == .frame,
              let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var strings: [String] = []
        for file in files where file.pathExtension == "json" {
            guard let data = try? Data(contentsOf: file), let json = try? JSONSerialization.jsonObject(with: data) else { continue }
            collectStrings(json, into: &strings)
        }
        var seeds: [[UInt8]] = []
        for string in strings {
            if target == .qrPayload, string.hasPrefix(SessionPayload.textPrefix) { seeds.append(Array(string.utf8)) }
            if target == .frame, let bytes = Hex.decode(string), (try? Frame(bytes: bytes)) != nil { seeds.append(bytes) }
        }
        return seeds
    }

    private static func collectStrings(_ value: Any, into strings: inout [String]) {
        switch value {
        case let string as String: strings.append(string)
        case let array as [Any]: array.forEach { collectStrings($0, into: &strings) }
        case let object as [String: Any]: object.values.forEach { collectStrings($0, into: &strings) }
        default: break
        }
    }
}
