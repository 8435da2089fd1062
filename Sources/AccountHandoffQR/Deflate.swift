internal import CZlib

/// Compression of the PNG image data with the system's zlib (the only file that calls it).
enum Deflate {
    /// `data` as one zlib stream (RFC 1950: header, deflate data of RFC 1951, Adler-32 of
    /// `data`) at zlib's best compression.
    static func zlibStream(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { output in
            data.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
            }
        }
        // With compressBound's room, compress2 fails only when zlib cannot allocate its state.
        precondition(status == Z_OK, "zlib could not compress \(data.count) bytes (status \(status))")
        return Array(output.prefix(Int(length)))
    }
}
