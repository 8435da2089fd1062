internal import CSodium

/// The per-process random value written around every slot; a changed canary word means that
/// something wrote past the end (or before the start) of a secret.
///
/// Each word is the random value mixed with its own address, so a canary copied from one
/// place is wrong at any other.
struct Canary: Sendable {
    /// Bytes in one canary word.
    static let length = 16

    /// The canary of this process, drawn from libsodium's generator on first use.
    static let process = Canary()

    private let low: UInt64
    private let high: UInt64

    private init() {
        Sodium.ensureInitialised()
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { randombytes_buf($0.baseAddress!, $0.count) }
        (low, high) = words
    }

    /// Writes the canary word at `address` (16-byte aligned).
    func write(at address: UInt) {
        let word = UnsafeMutablePointer<UInt64>(bitPattern: address)!
        word[0] = low ^ UInt64(address)
        word[1] = high ^ ~UInt64(address)
    }

    /// Whether the canary word at `address` is unchanged.
    func isIntact(at address: UInt) -> Bool {
        let word = UnsafePointer<UInt64>(bitPattern: address)!
        return (word[0] ^ low ^ UInt64(address)) | (word[1] ^ high ^ ~UInt64(address)) == 0
    }
}
