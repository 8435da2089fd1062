#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// libcurl's process-wide initialisation, done once, with allocation functions that wipe
/// every block before freeing it.
///
/// libcurl keeps copies of the password (the `CURLOPT_PASSWORD` string, the connection's
/// copy, the SASL PLAIN or LOGIN message and its base64 form) in memory it allocates. With
/// these functions installed, each copy is zeroed when libcurl frees it. They are installed
/// only if this is the first libcurl initialisation in the process; a host app that
/// initialised libcurl earlier keeps its own allocator, and those copies are freed unwiped.
enum CurlRuntime {
    /// The result of `curl_global_init_mem`.
    static let initialisation: CURLcode = curl_global_init_mem(
        Int(CURL_GLOBAL_DEFAULT), curlMalloc, wipingFree, wipingRealloc, curlStrdup, curlCalloc)

    /// Whether libcurl is ready for use.
    static var isReady: Bool { initialisation == CURLE_OK }
}

/// The usable size of a `malloc` block (at least the requested size).
private func allocatedSize(_ pointer: UnsafeMutableRawPointer) -> Int {
    accounthandoff_allocated_size(pointer)
}

private func zero(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
    #if canImport(Glibc)
    explicit_bzero(pointer, count)
    #else
    _ = memset_s(pointer, count, 0, count)
    #endif
}

private func curlMalloc(_ size: Int) -> UnsafeMutableRawPointer? {
    malloc(size)
}

private func wipingFree(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    zero(pointer, allocatedSize(pointer))
    free(pointer)
}

/// `realloc` that never leaves the old block's bytes behind: copy, wipe, free.
private func wipingRealloc(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    guard let pointer else { return malloc(size) }
    guard let grown = malloc(max(size, 1)) else { return nil }
    let oldSize = allocatedSize(pointer)
    grown.copyMemory(from: pointer, byteCount: min(oldSize, size))
    zero(pointer, oldSize)
    free(pointer)
    return grown
}

private func curlStrdup(_ string: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    guard let string else { return nil }
    let count = strlen(string) + 1
    guard let copy = malloc(count) else { return nil }
    copy.copyMemory(from: string, byteCount: count)
    return copy.assumingMemoryBound(to: CChar.self)
}

private func curlCalloc(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    calloc(count, size)
}
