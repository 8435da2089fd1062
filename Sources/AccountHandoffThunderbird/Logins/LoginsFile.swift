/// Thunderbird's `logins.json` (format version 3), read strictly; logins this library does not
/// touch, and fields it does not know, are written back as they were.
///
/// A login for an IMAP account has the origin `imap://HOST` in both `hostname` and `httpRealm`
/// and its user name and password encrypted with the profile's SDR key
/// (``SecretDecoderRing``).
struct LoginsFile {
    /// The largest file read.
    static let maximumByteCount = 16 << 20
    /// The format version this library reads and writes.
    static let formatVersion = 3

    /// Why a file was refused.
    struct Problem: Error, Hashable {
        let reason: ThunderbirdDiagnosis
    }

    /// One stored login, as far as this library reads it.
    struct Login {
        /// Its place in ``entries``.
        let position: Int
        let origin: String
        let httpRealm: String?
        let encryptedUsername: String
        let encryptedPassword: String
    }

    private var members: [(name: String, value: JSONText)]
    private var entries: [JSONText]

    /// The file of a profile that has none yet, as Thunderbird starts it.
    init() {
        members = [("nextId", .number("1")), ("logins", .array([])), ("potentiallyVulnerablePasswords", .array([])),
                   ("version", .number(String(Self.formatVersion)))]
        entries = []
    }

    /// Parses `bytes`.
    ///
    /// - Throws: ``Problem`` when the text is not JSON, not the structure Thunderbird writes,
    ///   or of a newer format version.
    init(parsing bytes: [UInt8]) throws(Problem) {
        guard bytes.count <= Self.maximumByteCount else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.file.tooLarge", .number(Self.maximumByteCount))) }
        let root: JSONText
        do { root = try JSONText.parse(bytes) } catch { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.notJSON", .number(error.offset), .diagnosis(error.reason))) }
        guard case .object(let members) = root else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.notAnObject")) }
        guard case .number(let version)? = root["version"], let number = Int(version) else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.noFormatVersion")) }
        guard number <= Self.formatVersion else {
            throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.newerFormat", .number(number), .number(Self.formatVersion)))
        }
        guard case .number(let next)? = root["nextId"], Int64(next) != nil else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.noNextID")) }
        guard case .array(let entries)? = root["logins"] else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.noList")) }
        for (position, entry) in entries.enumerated() {
            guard case .object = entry else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.entryNotAnObject", .number(position + 1))) }
            if entry["deleted"] == .boolean(true) { continue }  // a deletion kept for sync: no fields but its identity
            _ = try Self.login(entry, position: position)
        }
        self.members = members
        self.entries = entries
    }

    /// The live logins (deleted ones left out).
    var logins: [Login] {
        entries.enumerated().compactMap { position, entry in
            entry["deleted"] == .boolean(true) ? nil : try? Self.login(entry, position: position)
        }
    }

    /// The logins whose origin and realm are `origin` (how Thunderbird files a mail server's login).
    func logins(forOrigin origin: String) -> [Login] {
        logins.filter { $0.origin == origin && ($0.httpRealm == nil || $0.httpRealm == origin) }
    }

    /// Adds a login as Thunderbird's login manager writes one for a mail server.
    mutating func add(origin: String, encryptedUsername: String, encryptedPassword: String, guid: String, now: Int64) {
        guard case .number(let nextText)? = self["nextId"], let next = Int64(nextText) else {
            preconditionFailure("a parsed logins file has a nextId")
        }
        let time = JSONText.number(String(now))
        entries.append(.object([
            ("id", .number(String(next))), ("hostname", .string(origin)), ("httpRealm", .string(origin)), ("formSubmitURL", .null),
            ("usernameField", .string("")), ("passwordField", .string("")),
            ("encryptedUsername", .string(encryptedUsername)), ("encryptedPassword", .string(encryptedPassword)),
            ("guid", .string(guid)), ("encType", .number("1")),
            ("timeCreated", time), ("timeLastUsed", time), ("timePasswordChanged", time), ("timesUsed", .number("1")),
            ("syncCounter", .number("1")), ("everSynced", .boolean(false)), ("encryptedUnknownFields", .null),
        ]))
        self["nextId"] = .number(String(next + 1))
    }

    /// Gives an existing login new encrypted values, as Thunderbird does when a password changes.
    mutating func update(_ login: Login, encryptedUsername: String, encryptedPassword: String, now: Int64) {
        guard case .object(var fields) = entries[login.position] else { preconditionFailure("a login is an object") }
        Self.set(&fields, "encryptedUsername", .string(encryptedUsername))
        Self.set(&fields, "encryptedPassword", .string(encryptedPassword))
        Self.set(&fields, "encType", .number("1"))
        Self.set(&fields, "timePasswordChanged", .number(String(now)))
        entries[login.position] = .object(fields)
    }

    /// Removes a login.
    mutating func remove(_ login: Login) {
        entries.remove(at: login.position)
    }

    /// The file's bytes (compact JSON, as Thunderbird writes it).
    var bytes: [UInt8] {
        var root = members
        Self.set(&root, "logins", .array(entries))
        return Array(JSONText.object(root).serialized.utf8)
    }

    private subscript(name: String) -> JSONText? {
        get { members.first { $0.name == name }?.value }
        set { if let newValue { Self.set(&members, name, newValue) } }
    }

    private static func set(_ fields: inout [(name: String, value: JSONText)], _ name: String, _ value: JSONText) {
        if let index = fields.firstIndex(where: { $0.name == name }) { fields[index].value = value } else { fields.append((name, value)) }
    }

    private static func login(_ entry: JSONText, position: Int) throws(Problem) -> Login {
        func text(_ name: String) throws(Problem) -> String {
            guard case .string(let value)? = entry[name] else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.entryLacksText", .number(position + 1), .text(name))) }
            return value
        }
        let realm: String?
        switch entry["httpRealm"] {
        case .string(let value)?: realm = value
        case .null?, nil: realm = nil
        default: throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.realmNotText", .number(position + 1)))
        }
        guard case .number? = entry["encType"] else { throw Problem(reason: ThunderbirdDiagnosis("diagnosis.logins.noEncType", .number(position + 1))) }
        _ = try text("guid")
        return Login(position: position, origin: try text("hostname"), httpRealm: realm,
                     encryptedUsername: try text("encryptedUsername"), encryptedPassword: try text("encryptedPassword"))
    }
}
