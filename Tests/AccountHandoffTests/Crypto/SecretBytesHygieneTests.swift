import Foundation
import Testing
@testable import AccountHandoff

/// SecretBytes never shows its bytes, wipes for real, and compares in constant time.
@Suite struct SecretBytesHygieneTests {
    /// A recognisable secret: if any rendering contains this text, its hex, or its length,
    /// the redaction leaks.
    private static let marker = "MARKER-c0ffee-SECRET-do-not-print-0123456789-abcdefghijklmnopqrstuvwxyz-END"

    private static var markerLeaks: [String] {
        [marker, "MARKER", "c0ffee", "SECRET", Hex.encode(Array("MARKER".utf8)), "\(marker.utf8.count)",
         // The decimal bytes as an array description would print them: [77, 65, 82, ...].
         "77, 65, 82"]
    }

    /// Object addresses (`0x7f3a…`) are random and may contain the length's digits by chance,
    /// so they are removed before looking for the length.
    private func expectNoLeak(_ rendering: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // Addresses (0x…, and $… in "unknown context at $…") are not the secret.
        let rendering = rendering.replacing(/0x[0-9a-fA-F]+/, with: "0x").replacing(/\$[0-9a-fA-F]+/, with: "$")
        for leak in Self.markerLeaks {
            #expect(!rendering.contains(leak), "rendering leaks \(leak): \(rendering)", sourceLocation: sourceLocation)
        }
    }

    /// A value that holds a secret the way app code might, to check nested rendering.
    private struct Holder {
        let name = "holder"
        let secret: SecretBytes
    }

    @Test func descriptionAndDebugDescriptionAreExactlyRedacted() throws {
        let secret = try SecretBytes(utf8: Self.marker)
        #expect(secret.description == "SecretBytes(redacted)")
        #expect(secret.debugDescription == "SecretBytes(redacted)")
        #expect(String(describing: secret) == "SecretBytes(redacted)")
        #expect(String(reflecting: secret) == "SecretBytes(redacted)")
        #expect("\(secret)" == "SecretBytes(redacted)")
    }

    @Test func renderingsNeverContainTheBytesOrTheLength() throws {
        let secret = try SecretBytes(utf8: Self.marker)
        var dumped = ""
        dump(secret, to: &dumped)
        var dumpedHolder = ""
        dump(Holder(secret: secret), to: &dumpedHolder)
        let renderings = [
            secret.description, secret.debugDescription, String(describing: secret), String(reflecting: secret),
            "\(secret)", dumped, dumpedHolder,
            String(describing: Holder(secret: secret)), String(reflecting: Holder(secret: secret)),
            String(describing: [secret]), String(describing: Optional(secret)),
        ]
        for rendering in renderings { expectNoLeak(rendering) }
        #expect(dumped.contains("SecretBytes(redacted)"))
        #expect(dumpedHolder.contains("holder"))
    }

    @Test func reflectionShowsNoChildren() throws {
        let secret = try SecretBytes(utf8: Self.marker)
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }

    @Test func wipeZeroesEveryByteAndIsIdempotent() throws {
        let secret = try SecretBytes(utf8: Self.marker)
        #expect(!secret.isWiped)
        #expect(!secret.isAllZero)
        secret.wipe()
        #expect(secret.isWiped)
        #expect(secret.isAllZero)
        #expect(secret.count == Self.marker.utf8.count)
        secret.wipe()
        #expect(secret.isWiped)
        #expect(secret.isAllZero)
    }

    @Test func allZeroIsAboutContentWhileWipedIsAboutHistory() throws {
        let zeros = try SecretBytes(copying: [0, 0, 0])
        #expect(zeros.isAllZero)
        #expect(!zeros.isWiped)
        #expect(zeros.revealedBytes() == [0, 0, 0])  // zeros that were never wiped read fine
        let empty = try SecretBytes(copying: [])
        #expect(empty.count == 0)
        #expect(empty.isAllZero)
        empty.wipe()
        #expect(empty.isWiped)
        // A single non-zero byte anywhere is enough to be non-zero.
        #expect(try !SecretBytes(copying: [0, 0, 1]).isAllZero)
        #expect(try !SecretBytes(copying: [1, 0, 0]).isAllZero)
    }

    @Test func copyingAndUTF8InitialisersHoldExactlyTheSourceBytes() throws {
        #expect(try SecretBytes(copying: [1, 2, 255]).revealedBytes() == [1, 2, 255])
        #expect(try SecretBytes(copying: [9, 8, 7, 6].dropFirst()).revealedBytes() == [8, 7, 6])
        #expect(try SecretBytes(utf8: "hé").revealedBytes() == [0x68, 0xc3, 0xa9])
        #expect(try SecretBytes(utf8: "hé").count == 3)
    }

    @Test func constantTimeEqualsComparesContentAndLength() throws {
        let secret = try SecretBytes(copying: [1, 2, 3, 4])
        #expect(secret.constantTimeEquals(try SecretBytes(copying: [1, 2, 3, 4])))
        #expect(!secret.constantTimeEquals(try SecretBytes(copying: [0, 2, 3, 4])))
        #expect(!secret.constantTimeEquals(try SecretBytes(copying: [1, 2, 3, 5])))
        #expect(!secret.constantTimeEquals(try SecretBytes(copying: [1, 2, 3])))
        #expect(!secret.constantTimeEquals(try SecretBytes(copying: [1, 2, 3, 4, 0])))
        #expect(!secret.constantTimeEquals(try SecretBytes(copying: [])))
        #expect(try SecretBytes(copying: []).constantTimeEquals(try SecretBytes(copying: [])))
    }

    // A deadlock shows up as a hanging `swift test`, not as a failure.

    /// Comparing a secret with itself must answer, not deadlock on its own lock.
    @Test func constantTimeEqualsWithItselfIsTrue() throws {
        let secret = try SecretBytes(copying: [1, 2, 3, 4])
        #expect(secret.constantTimeEquals(secret))
    }

    /// `a == b` on one thread and `b == a` on another at the same time must both finish
    /// (SecretBytes is Sendable, so this is allowed use).
    @Test func crossedConcurrentComparisonsDoNotDeadlock() throws {
        let first = try SecretBytes(copying: [UInt8](repeating: 7, count: 4096))
        let second = try SecretBytes(copying: [UInt8](repeating: 7, count: 4096))
        let agreed = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 4_000) { iteration in
            let equal = iteration.isMultiple(of: 2) ? first.constantTimeEquals(second) : second.constantTimeEquals(first)
            if equal { agreed.increment() }
        }
        #expect(agreed.value == 4_000)
    }
}

/// A counter shared by concurrent test iterations.
private final class LockedCounter: @unchecked Sendable {
    // Safety of @unchecked Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        defer { lock.unlock() }
        count += 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
