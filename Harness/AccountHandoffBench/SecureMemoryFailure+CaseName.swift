import AccountHandoff

extension SecureMemoryFailure {
    /// The case's name (`lockLimitReached`, `mappingFailed(errno: 12)`), as the bench's JSON and
    /// the memory-limit tests report it; ``description`` is a sentence for people.
    package var caseName: String {
        switch self {
        case .lockLimitReached: "lockLimitReached"
        case .mappingLimitReached: "mappingLimitReached"
        case .mappingFailed(let code): "mappingFailed(errno: \(code))"
        case .protectionFailed(let code): "protectionFailed(errno: \(code))"
        case .lockFailed(let code): "lockFailed(errno: \(code))"
        case .dumpExclusionFailed(let code): "dumpExclusionFailed(errno: \(code))"
        }
    }
}
