#if canImport(dnssd)
import dnssd

extension DiscoveryError {
    /// The typed error for a dns_sd error code met while doing `operation`.
    static func bonjour(_ code: DNSServiceErrorType, while operation: DiscoveryOperation) -> DiscoveryError {
        switch code {
        case DNSServiceErrorType(kDNSServiceErr_ServiceNotRunning):
            operation == .connect ? .daemonNotRunning : .daemonStopped
        case DNSServiceErrorType(kDNSServiceErr_PolicyDenied), DNSServiceErrorType(kDNSServiceErr_NoAuth),
             DNSServiceErrorType(kDNSServiceErr_Refused):
            .notPermitted
        case DNSServiceErrorType(kDNSServiceErr_NoMemory):
            .failed(operation, .outOfMemory)
        default:
            .failed(operation, .daemonCode(code))
        }
    }
}

/// The callbacks' context: the object a DNSServiceRef reports to, not retained (its owner
/// deallocates the ref, on the ref's queue, before it goes).
func bonjourContext(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}
#endif
