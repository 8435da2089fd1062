@testable import AccountHandoffThunderbird
import Testing

/// `logins.json` keeps what it does not know; what is not Thunderbird's JSON is refused.
@Suite struct LoginsFileTests {
    /// A file as Thunderbird 153 wrote it (one login, its fields in Thunderbird's order).
    static let written = #"{"nextId":2,"logins":[{"id":1,"hostname":"imap://127.0.0.1","httpRealm":"imap://127.0.0.1","formSubmitURL":null,"usernameField":"","passwordField":"","encryptedUsername":"MEMEEPgAAAAAAAAAAAAAAAAAAAEwHQYJYIZIAWUDBAEqBBBfM5YB8S7gPKB3FmLy6hDWBBCLosY+c6aAlPKbUZB393eZ","encryptedPassword":"MFMEEPgAAAAAAAAAAAAAAAAAAAEwHQYJYIZIAWUDBAEqBBA+fq2Ko3pudlu5v/KD1XFjBCDBZkBy9v+0MtawEC6grUjtd2iwc6eOgM5R9nzCqeAdvw==","guid":"{4aec30ec-2b9b-4d52-aa41-25cb1d4e4253}","encType":1,"timeCreated":1796532911081,"timeLastUsed":1796532911081,"timePasswordChanged":1796532911081,"timesUsed":1,"timeLastBreachAlertDismissed":0,"syncCounter":1,"everSynced":false,"encryptedUnknownFields":"MEMEEPgAAAAAAAAAAAAAAAAAAAEwHQYJYIZIAWUDBAEqBBAoWKN6ECrDKLIVrqrHTFChBBAv8+rXFPowmaANv6lOCKTK"}],"potentiallyVulnerablePasswords":[],"version":3}"#

    @Test func thunderbirdsFileIsWrittenBackUnchanged() throws {
        let file = try LoginsFile(parsing: Array(Self.written.utf8))
        #expect(file.bytes == Array(Self.written.utf8))
        #expect(file.logins(forOrigin: "imap://127.0.0.1").count == 1)
        #expect(file.logins(forOrigin: "imap://other").isEmpty)
    }

    @Test func anAddedLoginHasThunderbirdsFields() throws {
        var file = try LoginsFile(parsing: Array(Self.written.utf8))
        file.add(origin: "imap://imap.example.org", encryptedUsername: "U", encryptedPassword: "P", guid: "{g}", now: 1_700_000_000_000)
        let text = String(decoding: file.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"nextId":3,"logins":[{"id":1,"#))
        #expect(text.contains(#"{"id":2,"hostname":"imap://imap.example.org","httpRealm":"imap://imap.example.org","formSubmitURL":null,"usernameField":"","passwordField":"","encryptedUsername":"U","encryptedPassword":"P","guid":"{g}","encType":1,"timeCreated":1700000000000,"timeLastUsed":1700000000000,"timePasswordChanged":1700000000000,"timesUsed":1,"syncCounter":1,"everSynced":false,"encryptedUnknownFields":null}"#))
        let login = try #require(file.logins(forOrigin: "imap://imap.example.org").first)
        file.update(login, encryptedUsername: "U2", encryptedPassword: "P2", now: 1_800_000_000_000)
        let updated = String(decoding: file.bytes, as: UTF8.self)
        #expect(updated.contains(#""encryptedUsername":"U2","encryptedPassword":"P2","guid":"{g}","encType":1,"timeCreated":1700000000000,"timeLastUsed":1700000000000,"timePasswordChanged":1800000000000"#))
        file.remove(try #require(file.logins(forOrigin: "imap://imap.example.org").first))
        #expect(file.bytes == Array(Self.written.utf8).map { $0 }.replacingNextID(with: 3))
    }

    @Test func deletionsKeptForSyncAreKept() throws {
        let text = #"{"nextId":3,"logins":[{"id":2,"guid":"{x}","timePasswordChanged":1,"syncCounter":0,"everSynced":true,"deleted":true}],"potentiallyVulnerablePasswords":[],"version":3}"#
        let file = try LoginsFile(parsing: Array(text.utf8))
        #expect(file.logins.isEmpty)
        #expect(file.bytes == Array(text.utf8))
    }

    @Test(arguments: [
        (#"{"nextId":1,"logins":[],"version":3} x"#, "it is not JSON at byte 37: text follows the JSON value"),
        (#"{"nextId":1,"nextId":2,"logins":[],"version":3}"#, "it is not JSON at byte 20: the member nextId appears twice"),
        (#"{"nextId":1,"logins":[],"version":4}"#, "its format version 4 is newer than 3, the version this program knows"),
        (#"{"nextId":1.5,"logins":[],"version":3}"#, "it has no whole-number nextId"),
        (#"{"nextId":1,"logins":{},"version":3}"#, "it has no list of logins"),
        (#"{"nextId":1,"logins":[{"id":1}],"version":3}"#, "login 1 has no encType number"),
        (#"[]"#, "it is not a JSON object"),
        (#"{"nextId":01,"logins":[],"version":3}"#, "it is not JSON at byte 12: a number is malformed"),
        (#"{"nextId":1,"logins":["\x"],"version":3}"#, "it is not JSON at byte 25: a string holds an unknown escape"),
    ])
    func refusesWhatThunderbirdDoesNotWrite(text: String, reason: String) {
        let problem = #expect(throws: LoginsFile.Problem.self) { try LoginsFile(parsing: Array(text.utf8)) }
        #expect(problem?.reason.description == reason)
    }

    @Test func nestingIsCapped() {
        let deep = #"{"nextId":1,"logins":[],"version":3,"x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        let tooDeep = ThunderbirdDiagnosis("diagnosis.json.tooDeep")
        #expect(throws: LoginsFile.Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.notJSON", .number(72), .diagnosis(tooDeep)))) {
            try LoginsFile(parsing: Array(deep.utf8))
        }
    }
}

private extension Array where Element == UInt8 {
    func replacingNextID(with next: Int) -> [UInt8] {
        Array(String(decoding: self, as: UTF8.self).replacingOccurrences(of: #"{"nextId":2,"#, with: #"{"nextId":\#(next),"#).utf8)
    }
}
