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
            throw .usage("With --from-thunderbird the password comes from the Thunderbird profile, so --password-stdin and --password-file are not used.", command: "send")
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
        let head = address.map { "The Thunderbird profile \(profile.name) holds no IMAP account with the address \($0)." }
            ?? "The Thunderbird profile \(profile.name) holds several IMAP accounts; choose one with --account EMAIL."
        let lines = accounts.map { account in
            "  \(account.emailAddress)  \(account.server)" + (account.unsupported == nil ? "" : "  (cannot be sent)")
        }
        return CLIError(([head, "Its IMAP accounts:"] + lines).joined(separator: "\n"), exitCode: .usage)
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
                listed = ("Thunderbird has several profiles and none is the default; name one after \(option).", profiles)
            } else if case .profileNotFound(_, let profiles) = error {
                listed = ("Thunderbird has no profile named \(selector); name one of its profiles after \(option).", profiles)
            }
            guard let listed else { throw CLIError(error.description, exitCode: exitCode(for: error)) }
            let lines = listed.profiles.map { "  \($0.name)  \($0.path)" }
            throw CLIError(([listed.head, "Its profiles:"] + lines).joined(separator: "\n"), exitCode: .usage)
        }
    }

    /// The profile's primary password, asked for on a terminal with echo off, into guarded
    /// memory; a sentence instead when standard input is not a terminal.
    static func askPrimaryPassword(_ profile: ThunderbirdProfile, input: StandardInput, console: Console) throws(CLIError) -> SecretBytes {
        guard input.isTerminal else {
            throw CLIError("The saved passwords of the Thunderbird profile \(profile.name) are protected by a primary password, which can only be typed at a terminal. Run the command in a terminal, or remove the primary password in Thunderbird's settings.", exitCode: .invalidInput)
        }
        let prompt = "Primary password of the Thunderbird profile \(profile.name) (not shown): "
        guard let password = try input.readSecretLine(prompt: prompt, maximumByteCount: 4096, console: console) else {
            throw CLIError("No primary password was typed, so the Thunderbird profile's saved passwords stay locked.", exitCode: .invalidInput)
        }
        return password
    }

    /// The command's error for a profile error.
    static func failure(_ error: ThunderbirdProfileError) -> CLIError {
        CLIError(error.description, exitCode: exitCode(for: error))
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
