extension TypedCode {
    /// Reads a code that a person typed (Spec 12.5), in this order:
    ///
    /// 1. every space (U+0020) and hyphen-minus (U+002D) is removed;
    /// 2. anything left that is not an ASCII digit: ``HandoffError/malformed(_:)`` (`typedCode`);
    /// 3. exactly six digits: ``HandoffError/typedCodeIsShortCode`` (the QR mode's short code,
    ///    which belongs on the sending device);
    /// 4. not exactly 11 digits: ``HandoffError/malformed(_:)`` (`typedCode`);
    /// 5. the Damm check over the 11 digits is not 0: ``HandoffError/typedCodeCheckFailed``.
    ///
    /// None of these costs a guess: nothing has been sent.
    ///
    /// - Parameter entry: What the person typed.
    /// - Throws: the errors above; ``HandoffError/secureMemoryUnavailable(_:)``.
    /// - Warning: `entry` holds the secret in an ordinary string that cannot be wiped; let it go
    ///   as soon as this returns.
    public init(entry: String) throws(HandoffError) {
        let storage = try SecretBytes(zeroedCount: Self.digitCount)
        do throws(HandoffError) {
            let count = try storage.withUnsafeMutableBytes { (digits) throws(HandoffError) -> Int in
                var count = 0
                for byte in entry.utf8 where byte != 0x20 && byte != 0x2D {
                    guard (0x30...0x39).contains(byte) else { throw .malformed(.typedCode) }
                    if count < digits.count { digits[count] = byte }
                    count += 1
                }
                return count
            }
            guard count != ShortCode.digitCount else { throw .typedCodeIsShortCode }
            guard count == Self.digitCount else { throw .malformed(.typedCode) }
            guard storage.withUnsafeBytes({ DammCheckDigit.interim($0) }) == 0 else { throw .typedCodeCheckFailed }
        } catch {
            storage.wipe()
            throw error
        }
        self.init(checkedDigits: storage)
    }
}
