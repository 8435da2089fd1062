/// Why a durable registry could not read or write its records (Spec 6.3).
public enum RegistryStorageFailure: Error, Hashable, Sendable {
    /// The records could not be read; the system call failed with this `errno`.
    case unreadable(errno: Int32)
    /// The records could not be written durably; the system call failed with this `errno`.
    case unwritable(errno: Int32)
    /// The stored records are not in the registry's format.
    case corrupt
    /// The storage path exists but is not a regular file, or is a symbolic link.
    case notARegularFile
}
