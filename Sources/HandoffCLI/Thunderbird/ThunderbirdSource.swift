import AccountHandoff
import AccountHandoffThunderbird
import Foundation

/// `handoff send --from-thunderbird [PROFILE] [--account EMAIL]`: the account and its saved
/// password from a Thunderbird profile, the profile and accounts listed when the choice is
/// not clear, and the profile's primary password asked for on a terminal (never echoed).
enum ThunderbirdSource {
    /// The account to send and its password, in guarded memory.
    static func load(_ parsed: ParsedArguments, selector: String, input: StandardInput, console: Console) async throws(CLIError) -> ThunderbirdAccount {
        guard !parsed.has("--password-stdin"), parsed.value("--password-file") == nil else {
            throw .usage(sentenceCatalog.sentence("thunderbird.passwordOptions", in: .cli), command: "send")
        }
        let profile = try await ThunderbirdProfiles.choose(selector, command: "send")
        let address = parsed.value("--account")
        do {
            return try await ThunderbirdAccountSource.account(in: profile, emailAddress: address)
        } catch .primaryPasswordRequired {
            let primary = try await blockingStep { () throws(CLIError) in try ThunderbirdProfiles.askPrimaryPassword(profile, input: input, console: console) }
            defer { primary.wipe() }
            do { return try await ThunderbirdAccountSource.account(in: profile, emailAddress: address, primaryPassword: primary) } catch {
                throw ThunderbirdProfiles.failure(error)
            }
        } catch .ambiguousAccount, .accountNotFound {
            throw try await accountListing(profile, address: address)
        } catch {
            throw ThunderbirdProfiles.failure(error)
        }
    }

    /// Lists the profile's IMAP accounts (and which cannot be sent) when the choice is not clear.
    private static func accountListing(_ profile: ThunderbirdProfile, address: String?) async throws(CLIError) -> CLIError {
        let accounts: [ThunderbirdAccountSummary]
        do { accounts = try await ThunderbirdAccountSource.accounts(in: profile) } catch { throw ThunderbirdProfiles.failure(error) }
        let head = address.map { sentenceCatalog.sentence("thunderbird.noSuchAccount", .text(profile.name), .text($0), in: .cli) }
            ?? sentenceCatalog.sentence("thunderbird.severalAccounts", .text(profile.name), in: .cli)
        let lines = accounts.map { account in
            "  \(account.emailAddress)  \(account.server)" + (account.unsupported == nil ? "" : sentenceCatalog.sentence("thunderbird.cannotBeSent", in: .cli))
        }
        return CLIError(([head, sentenceCatalog.sentence("thunderbird.itsAccounts", in: .cli)] + lines).joined(separator: "\n"), exitCode: .usage)
    }
}

/// Choosing a Thunderbird profile for the commands, and their sentences about profiles.
enum ThunderbirdProfiles {
    /// The profile `selector` names ("" for the default), or a usage error that lists the
    /// profiles when the choice is not clear.
    static func choose(_ selector: String, command: String) async throws(CLIError) -> ThunderbirdProfile {
        do { return try await ThunderbirdProfileList.profile(selector.isEmpty ? nil : selector) } catch {
            let option = command == "send" ? "--from-thunderbird" : "--into-thunderbird"
            var listed: (head: String, profiles: [ThunderbirdProfileSummary])?
            if case .ambiguousProfile(let profiles) = error {
                listed = (sentenceCatalog.sentence("thunderbird.severalProfiles", .text(option), in: .cli), profiles)
            } else if case .profileNotFound(_, let profiles) = error {
                listed = (sentenceCatalog.sentence("thunderbird.noSuchProfile", .text(selector), .text(option), in: .cli), profiles)
            }
            guard let listed else { throw CLIError(error.sentence(in: .cli), exitCode: exitCode(for: error)) }
            let lines = listed.profiles.map { "  \($0.name)  \($0.path)" }
            throw CLIError(([listed.head, sentenceCatalog.sentence("thunderbird.itsProfiles", in: .cli)] + lines).joined(separator: "\n"), exitCode: .usage)
        }
    }

    /// The profile's primary password, asked for on a terminal with echo off, into guarded
    /// memory; a sentence instead when standard input is not a terminal.
    static func askPrimaryPassword(_ profile: ThunderbirdProfile, input: StandardInput, console: Console) throws(CLIError) -> SecretBytes {
        guard input.isTerminal else {
            throw CLIError(sentenceCatalog.sentence("thunderbird.primaryNeedsTerminal", .text(profile.name), in: .cli), exitCode: .invalidInput)
        }
        let prompt = sentenceCatalog.sentence("thunderbird.primaryPrompt", .text(profile.name), in: .cli)
        guard let password = try input.readSecretLine(prompt: prompt, maximumByteCount: 4096, console: console) else {
            throw CLIError(sentenceCatalog.sentence("thunderbird.noPrimary", in: .cli), exitCode: .invalidInput)
        }
        return password
    }

    /// The command's error for a profile error.
    static func failure(_ error: ThunderbirdProfileError) -> CLIError {
        CLIError(error.sentence(in: .cli), exitCode: exitCode(for: error))
    }

    /// Invalid input for what is wrong with the profile's contents or the choice made; failure
    /// for what is wrong with its state (Thunderbird running, not writable, a file operation).
    static func exitCode(for error: ThunderbirdProfileError) -> ExitCode {
        switch error {
        case .thunderbirdRunning, .importAlreadyRunning, .readOnly, .fileOperationFailed, .journalInvalid, .keyDatabaseUnusable:
            .failure
        case .noProfileList, .profileListInvalid, .profileNotFound, .ambiguousProfile, .notAProfileFolder, .unsupportedProfilePath,
             .newerThunderbird, .compatibilityInvalid, .notARegularFile, .preferencesInvalid, .loginsInvalid,
             .loginsFromAnotherKeyDatabase, .keyDatabaseMissing, .primaryPasswordRequired, .primaryPasswordWrong, .noIMAPAccount,
             .accountNotFound, .ambiguousAccount, .unsupportedAccount, .noSavedPassword, .serverAlreadyConfigured:
            .invalidInput
        }
    }
}
