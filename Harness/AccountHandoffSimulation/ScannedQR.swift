import AccountHandoff
import Foundation

/// What a receiver decodes from a QR text, decoded once per distinct text in the process:
/// every simulated world scans the same deterministic QR, and the decoder has a fuzz target
/// of its own.
///
/// Test support only.
enum ScannedQR {
    private final class Cache: @unchecked Sendable {
        // Safety of @unchecked Sendable: `payloads` is only touched under `lock`.
        let lock = NSLock()
        var payloads: [String: SessionPayload] = [:]
    }

    private static let cache = Cache()

    /// The payload of `text`, strictly decoded (Spec 2.4).
    static func payload(of text: String) throws(HandoffError) -> SessionPayload {
        if let payload = cache.lock.withLock({ cache.payloads[text] }) { return payload }
        let payload = try SessionPayload(text: text)
        cache.lock.withLock { if cache.payloads.count < 64 { cache.payloads[text] = payload } }
        return payload
    }
}
