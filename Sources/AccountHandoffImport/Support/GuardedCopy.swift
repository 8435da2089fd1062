import AccountHandoff

/// Copies bytes into guarded memory: the one place this package's store and validator code
/// creates ``AccountHandoff/SecretBytes`` from bytes.
package enum GuardedCopy {
    /// A guarded copy of `bytes`.
    package static func make<Bytes: Collection>(_ bytes: Bytes) throws(HandoffError) -> SecretBytes where Bytes.Element == UInt8 {
        try SecretBytes(copying: bytes)
    }

    /// A guarded copy of `secret` followed by one NUL byte, for C APIs that take a C string.
    /// The bytes go from one guarded buffer to the other without an intermediate copy.
    package static func nulTerminated(_ secret: SecretBytes) throws(HandoffError) -> SecretBytes {
        try secret.withUnsafeBytes { (source) throws(HandoffError) in try make(NulTerminatedBytes(source)) }
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
