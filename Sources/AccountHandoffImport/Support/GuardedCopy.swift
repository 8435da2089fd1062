import AccountHandoff

/// Copies bytes into guarded memory. The one place this package's store and validator code
/// creates ``AccountHandoff/SecretBytes`` from bytes, declared `throws(HandoffError)` so that
/// the coming throwing `SecretBytes` initialisers need only a `try` here.
package enum GuardedCopy {
    /// A guarded copy of `bytes`.
    package static func make<Bytes: Collection>(_ bytes: Bytes) throws(HandoffError) -> SecretBytes where Bytes.Element == UInt8 {
        SecretBytes(copying: bytes)
    }

    /// A guarded copy of `secret` followed by one NUL byte, for C APIs that take a C string.
    /// The bytes go from one guarded buffer to the other without an intermediate copy.
    package static func nulTerminated(_ secret: SecretBytes) throws(HandoffError) -> SecretBytes {
        // `withUnsafeBytes` rethrows untyped errors, so the typed error travels in a Result.
        let copy: Result<SecretBytes, HandoffError> = secret.withUnsafeBytes { source in
            do throws(HandoffError) { return .success(try make(NulTerminatedBytes(source))) } catch { return .failure(error) }
        }
        return try copy.get()
    }
}

/// The bytes of a buffer followed by a NUL byte, read in place.
struct NulTerminatedBytes: RandomAccessCollection {
    let source: UnsafeRawBufferPointer

    init(_ source: UnsafeRawBufferPointer) { self.source = source }

    var startIndex: Int { 0 }
    var endIndex: Int { source.count + 1 }
    subscript(position: Int) -> UInt8 { position < source.count ? source[position] : 0 }
}
