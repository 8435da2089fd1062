import AccountHandoff

extension ImportOutcome {
    /// What the person is told, in English: whole sentences, no secret, saying what happens next.
    public var message: String { message(in: .english) }

    /// What the person is told: whole sentences, no secret, saying what happens next.
    /// - Parameter language: The language to say it in.
    public func message(in language: HandoffLanguage) -> String {
        switch self {
        case .imported(let record):
            let address = record.account.metadata.emailAddress
            let check = record.checkedWithServer
                ? sentenceCatalog.sentence("importOutcome.checkedWithServer", in: language)
                : sentenceCatalog.sentence("importOutcome.notCheckedWithServer", in: language)
            if let replaced = record.replaced {
                return sentenceCatalog.sentence("importOutcome.importedReplacing", .text(address), .text(replaced.metadata.emailAddress),
                                                .text(check), in: language)
            }
            return sentenceCatalog.sentence("importOutcome.imported", .text(address), .text(check), in: language)
        case .validationFailed(let failure, let account):
            return failure.message(for: account, in: language)
        case .declined(.cancelledByPerson):
            return sentenceCatalog.sentence("importOutcome.cancelledByPerson", in: language)
        case .declined(.failed(let error)):
            return Self.sentence(for: error, in: language)
        }
    }

    private static func sentence(for error: ImportError, in language: HandoffLanguage) -> String {
        let unchanged = sentenceCatalog.sentence("importOutcome.unchanged", in: language)
        switch error {
        case .importInProgress:
            return sentenceCatalog.sentence("importOutcome.importInProgress", in: language)
        case .accountChangedMeanwhile:
            return sentenceCatalog.sentence("importOutcome.accountChangedMeanwhile", .text(unchanged), in: language)
        case .choiceRequired, .choiceNotAllowed:
            return sentenceCatalog.sentence("importOutcome.choiceRequired", .text(unchanged), in: language)
        case .alreadyFinished:
            return sentenceCatalog.sentence("importOutcome.alreadyFinished", in: language)
        case .deliveredAccountDiffersFromOffer:
            return sentenceCatalog.sentence("importOutcome.deliveredAccountDiffersFromOffer", .text(unchanged), in: language)
        case .commitUncertain:
            return sentenceCatalog.sentence("importOutcome.commitUncertain", in: language)
        case .metadataStore(.unsafeLocation), .credentialStore(.unsafeLocation):
            return sentenceCatalog.sentence("importOutcome.unsafeLocation", .text(unchanged), in: language)
        case .metadataStore(.corrupt), .metadataStore(.unsupportedSchema), .metadataStore(.invalidRecord):
            return sentenceCatalog.sentence("importOutcome.databaseDamaged", .text(unchanged), in: language)
        case .metadataStore(.readOnly):
            return sentenceCatalog.sentence("importOutcome.databaseReadOnly", .text(unchanged), in: language)
        case .credentialStore(.keychain(let status)) where status == -34018:
            return sentenceCatalog.sentence("importOutcome.missingEntitlement", .text(unchanged), in: language)
        case .credentialStore(.keychain(let status)) where status == -25308:
            return sentenceCatalog.sentence("importOutcome.deviceLocked", .text(unchanged), in: language)
        case .credentialStore(.policyViolation):
            return sentenceCatalog.sentence("importOutcome.policyViolation", .text(unchanged), in: language)
        case .credentialStore(.keyringLocked):
            return sentenceCatalog.sentence("importOutcome.keyringLocked", .text(unchanged), in: language)
        case .credentialStore(.sessionBusUnavailable), .credentialStore(.secretServiceUnavailable),
             .credentialStore(.keyringHasNoDefaultCollection):
            return sentenceCatalog.sentence("importOutcome.keyringUnreachable", .text(unchanged), in: language)
        case .validatorNotReady(let failure):
            if case .validatorNotReady = failure {
                // The validator's own sentence (or, without one, the general one).
                return sentenceCatalog.sentence("importOutcome.validatorNotReadyBecause", .text(failure.sentence(in: language)), .text(unchanged),
                                                in: language)
            }
            return sentenceCatalog.sentence("importOutcome.validatorNotReady", .text(unchanged), in: language)
        case .metadataStore, .credentialStore:
            return sentenceCatalog.sentence("importOutcome.notSaved", .text(unchanged), in: language)
        }
    }
}
