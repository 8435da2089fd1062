#if os(Linux)
/// Why hosts in network namespaces could not be built.
public enum AvahiHostsUnavailable: Error, CustomStringConvertible, Sendable {
    /// This process may not build them (not root, or namespaces are not allowed).
    case notPermitted(String)
    /// A program is missing; the Debian package is named.
    case missingProgram(String)
    /// A step failed.
    case stepFailed(String)

    /// One sentence saying what failed, and what to do when something is missing.
    public var description: String {
        switch self {
        case .notPermitted(let why): "Hosts in network namespaces cannot be built here: \(why)."
        case .missingProgram(let program): "Hosts in network namespaces need \(program); run Scripts/setup.sh to install it."
        case .stepFailed(let step): "Hosts in network namespaces could not be built: \(step)."
        }
    }
}
#endif
