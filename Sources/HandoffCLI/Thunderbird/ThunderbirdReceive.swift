#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AccountHandoff
import AccountHandoffIMAPValidation
import AccountHandoffImport
import AccountHandoffThunderbird
import Foundation

/// `handoff receive --into-thunderbird [PROFILE]`: the receiver session with a Thunderbird
/// profile as its importer. The profile is checked (and an interrupted import undone) before
/// the code is asked for; afterwards the sentence names the profile that holds the account.
enum ThunderbirdReceive {
    static func run(_ parsed: ParsedArguments, selector: String, console: Console, input: StandardInput) async throws(CLIError) -> ExitCode {
        for option in ["--store", "--credentials"] where parsed.value(option) != nil {
            throw .usage(sentenceCatalog.sentence("thunderbird.storeOption", .text(option), in: .cli), command: "receive")
        }
        let presetChoice = try ReceiveCommand.conflictChoice(parsed)
        let validation = try await blockingStep { () throws(CLIError) in try ReceiveCommand.validation(parsed) }
        let profile = try await ThunderbirdProfiles.choose(selector, command: "receive")
        let validator: any AccountValidator = switch validation {
        case .imap(let configuration): IMAPValidator(configuration: configuration)
        case .skipped: UncheckedAccounts()
        }
        let importer = ThunderbirdImporter(profile: profile, validator: validator)
        defer { importer.forgetPrimaryPassword() }
        try await check(importer, input: input, console: console)
        let validates = if case .imap = validation { true } else { false }
        let code = try await ReceiveCommand.transfer(parsed, importer: importer,
                                                     destination: ImportDestination(validates: validates, place: sentenceCatalog.sentence("thunderbird.place", .text(profile.name), in: .cli)),
                                                     registryFolder: try registryFolder(), presetChoice: presetChoice, console: console, input: input)
        await importer.waitUntilReleased()
        return code
    }

    /// Checks the profile before the code is asked for, asking for its primary password on a
    /// terminal when it has one.
    private static func check(_ importer: ThunderbirdImporter, input: StandardInput, console: Console) async throws(CLIError) {
        let profile = importer.profile
        let result: ThunderbirdProfileCheck
        do {
            result = try await importer.check()
        } catch .primaryPasswordRequired {
            let primary = try await blockingStep { () throws(CLIError) in try ThunderbirdProfiles.askPrimaryPassword(profile, input: input, console: console) }
            importer.usePrimaryPassword(primary)
            do { result = try await importer.check() } catch { throw ThunderbirdProfiles.failure(error) }
        } catch {
            throw ThunderbirdProfiles.failure(error)
        }
        if result.undidInterruptedImport {
            console.line(sentenceCatalog.sentence("thunderbird.undone", in: .cli))
        }
        if !result.filesChangedAfterInterruptedImport.isEmpty {
            console.line(sentenceCatalog.sentence("thunderbird.notUndone", .text(result.filesChangedAfterInterruptedImport.joined(separator: ", ")), in: .cli))
        }
        console.line(sentenceCatalog.sentence("thunderbird.willGoInto", .text(profile.name), .text(profile.directory.path), in: .cli))
    }

    /// `$XDG_STATE_HOME/handoff` (by default `~/.local/state/handoff`), mode 0700: where the
    /// codes used on this device are remembered when no store is involved.
    private static func registryFolder() throws(CLIError) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? ThunderbirdProfileList.home.appendingPathComponent(".local/state")
        let folder = state.appendingPathComponent("handoff", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(sentenceCatalog.sentence("thunderbird.stateFolderCreate", .text(folder.path), in: .cli), exitCode: .failure)
        }
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw CLIError(sentenceCatalog.sentence("thunderbird.stateFolderOpen", .text(folder.path), in: .cli), exitCode: .failure)
        }
        return folder
    }
}

extension ThunderbirdPreparedImport: ChoosingPreparation {}
