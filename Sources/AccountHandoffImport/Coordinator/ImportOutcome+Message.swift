import AccountHandoff

extension ImportOutcome {
    /// What the person is told: whole sentences, no secret, saying what happens next.
    public var message: String {
        switch self {
        case .imported(let record):
            let address = record.account.metadata.emailAddress
            let check = record.checkedWithServer
                ? "The mail server accepted the password, so you can use it now."
                : "Its mail server was not asked whether the password works (validation was turned off); if the mail app cannot log in, check the settings and password with the sending device."
            if let replaced = record.replaced {
                return "The account \(address) was imported and replaced the account \(replaced.metadata.emailAddress) on this device. " + check
            }
            return "The account \(address) was imported. " + check
        case .validationFailed(let failure, let account):
            return failure.message(for: account)
        case .declined(.cancelledByPerson):
            return "You chose not to import the account, so nothing was changed on this device. Start a new transfer if you change your mind."
        case .declined(.failed(let error)):
            return Self.sentence(for: error)
        }
    }

    private static func sentence(for error: ImportError) -> String {
        let unchanged = "Your existing accounts are unchanged."
        switch error {
        case .importInProgress:
            return "This account is already being imported on this device. Wait for that import to finish, then check your accounts."
        case .accountChangedMeanwhile:
            return "The accounts on this device changed while the import was running, for example through another import of the same account. \(unchanged) Check your accounts and start a new transfer if this one is still missing."
        case .choiceRequired, .choiceNotAllowed:
            return "An account with the same identity or address is already on this device, and the import needs your choice to replace it, keep both, or cancel. \(unchanged) Start a new transfer and choose one of the options shown."
        case .alreadyFinished:
            return "This import has already ended. Start a new transfer to import the account."
        case .deliveredAccountDiffersFromOffer:
            return "The sending device delivered a different account than the one you confirmed, so it was not imported. \(unchanged) Start a new transfer."
        case .commitUncertain:
            return "This device could not confirm whether the account was saved. Restart the app so it can finish or undo the import, then check your accounts before trying again."
        case .metadataStore(.unsafeLocation), .credentialStore(.unsafeLocation):
            return "The account could not be saved because the storage location on this device is not safe to use. \(unchanged) Fix the location's permissions or choose another one, then start a new transfer."
        case .metadataStore(.corrupt), .metadataStore(.unsupportedSchema), .metadataStore(.invalidRecord):
            return "The account database on this device is damaged or from a newer version, so nothing was written to it. \(unchanged) Restore it from a backup or update the app, then start a new transfer."
        case .metadataStore(.readOnly):
            return "The account database on this device is read-only, so the account could not be saved. \(unchanged) Make the storage writable, then start a new transfer."
        case .credentialStore(.keychain(let status)) where status == -34018:
            return "This app is not entitled to the Keychain group that holds account passwords, so the account could not be saved. \(unchanged) Reinstall or update the app, then start a new transfer."
        case .credentialStore(.keychain(let status)) where status == -25308:
            return "The password could not be saved while the device is locked. \(unchanged) Unlock the device, then start a new transfer."
        case .credentialStore(.policyViolation):
            return "The app's Keychain settings break a safety rule, so the password was not saved. \(unchanged) Update the app, then start a new transfer."
        case .credentialStore(.keyringLocked):
            return "The keyring that keeps account passwords is locked, so the account could not be saved. \(unchanged) Unlock your keyring (GNOME Keyring/KWallet), then start a new transfer."
        case .credentialStore(.sessionBusUnavailable), .credentialStore(.secretServiceUnavailable),
             .credentialStore(.keyringHasNoDefaultCollection):
            return "The keyring that keeps account passwords cannot be reached, so the account could not be saved. \(unchanged) Start or unlock your keyring (GNOME Keyring/KWallet), then start a new transfer."
        case .validatorNotReady(let failure):
            if case .validatorNotReady(let reason) = failure { return "\(reason) \(unchanged)" }
            return "This device cannot check accounts with their mail servers as it is set up. \(unchanged)"
        case .metadataStore, .credentialStore:
            return "The account could not be saved on this device. \(unchanged) Free some storage space or restart the app, then start a new transfer."
        }
    }
}
