extension RegistryStorageFailure: LocalizedErrorSentence {
    /// Whole sentences: why this device cannot record its used transfers, and what to do.
    public var description: String {
        "This device cannot record which transfers it has used, because \(summary). " + nextStep
    }

    /// What the person can do about it.
    private var nextStep: String {
        switch self {
        case .unreadable, .unwritable:
            "Check the permissions of the folder that holds it and the free space on the disk, then try again."
        case .corrupt:
            "Restore the file from a backup, or move it aside once every code this device showed or scanned has expired (after ten minutes), then try again."
        case .notARegularFile:
            "Remove what is at that path or choose another one, then try again."
        }
    }
}
