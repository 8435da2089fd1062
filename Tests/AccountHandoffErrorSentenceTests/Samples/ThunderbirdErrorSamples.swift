@testable import AccountHandoffThunderbird

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples of the errors of module `AccountHandoffThunderbird`.
enum ThunderbirdErrorSamples {
    static var all: [ErrorSample] { profileErrors.map { ErrorSample($0) } }

    static let profile = "/home/ada/.thunderbird/abcd1234.default-release"
    static let profiles = [ThunderbirdProfileSummary(name: "default-release", path: profile),
                           ThunderbirdProfileSummary(name: "work", path: "/home/ada/.thunderbird/efgh5678.work")]

    static let profileErrors: [ThunderbirdProfileError] = [
        .noProfileList(folder: "/home/ada/.thunderbird"),
        .profileListInvalid(path: "/home/ada/.thunderbird/profiles.ini", line: 3, problem: ThunderbirdDiagnosis("diagnosis.ini.keyTwice", .text("Name"), .text("Profile0"))),
        .profileNotFound(name: "home", available: profiles),
        .profileNotFound(name: "home", available: []),
        .ambiguousProfile(available: profiles),
        .notAProfileFolder(path: profile, code: ENOENT),
        .unsupportedProfilePath(path: "/home/ada/it's here"),
        .newerThunderbird(path: profile, version: "160.0", newestKnownMajorVersion: 153),
        .compatibilityInvalid(path: profile, problem: ThunderbirdDiagnosis("diagnosis.compatibility.noLastVersion")),
        .compatibilityInvalid(path: profile, problem: ThunderbirdDiagnosis("diagnosis.compatibility.atLine", .number(2),
                                                                          .diagnosis(ThunderbirdDiagnosis("diagnosis.ini.sectionTwice", .text("Compatibility"))))),
        .thunderbirdRunning(path: profile, processID: 4242),
        .thunderbirdRunning(path: profile, processID: nil),
        .importAlreadyRunning(path: profile),
        .readOnly(path: profile),
        .notARegularFile(path: profile + "/prefs.js"),
        .preferencesInvalid(path: profile + "/prefs.js", line: 21, problem: ThunderbirdDiagnosis("diagnosis.preferences.integerTooLarge", .text("99999999999"))),
        .loginsInvalid(path: profile + "/logins.json", problem: ThunderbirdDiagnosis("diagnosis.logins.newerFormat", .number(4), .number(3))),
        .loginsInvalid(path: profile + "/logins.json", problem: ThunderbirdDiagnosis("diagnosis.logins.notJSON", .number(20),
                                                                                     .diagnosis(ThunderbirdDiagnosis("diagnosis.json.memberTwice", .text("nextId"))))),
        .loginsFromAnotherKeyDatabase(path: profile + "/logins.json"),
        .keyDatabaseMissing(path: profile, hasLegacyDatabase: true),
        .keyDatabaseMissing(path: profile, hasLegacyDatabase: false),
        .keyDatabaseUnusable(path: profile, code: -8174),
        .keyDatabaseUnusable(path: profile, code: -1),
        .primaryPasswordRequired(path: profile),
        .primaryPasswordWrong(path: profile),
        .noIMAPAccount(path: profile),
        .accountNotFound(emailAddress: "bob@example.org", available: ["ada@example.org", "lovelace@example.com"]),
        .ambiguousAccount(available: ["ada@example.org", "lovelace@example.com"]),
        .unsupportedAccount(emailAddress: "ada@example.org", reason: .noTransportSecurity),
        .unsupportedAccount(emailAddress: "ada@example.org", reason: .signsInWithOAuth),
        .unsupportedAccount(emailAddress: "ada@example.org", reason: .authenticationMethod(5)),
        .unsupportedAccount(emailAddress: "ada@example.org", reason: .fieldNotTransferable("server name")),
        .noSavedPassword(emailAddress: "ada@example.org", server: "imap.example.org"),
        .serverAlreadyConfigured(emailAddress: "ada@example.org", server: "imap.example.org"),
        .fileOperationFailed(path: profile + "/prefs.js", operation: "written", code: ENOSPC),
        .fileOperationFailed(path: profile + "/prefs.js", operation: "written", code: EROFS),
        .fileOperationFailed(path: profile + "/prefs.js", operation: "written", code: EIO),
        .journalInvalid(path: profile + "/.handoff-import/manifest", problem: ThunderbirdDiagnosis("diagnosis.journal.modeNotOctal")),
    ]
}
