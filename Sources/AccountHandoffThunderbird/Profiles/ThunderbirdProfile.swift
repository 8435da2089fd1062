import AccountHandoff
import Foundation

/// A Thunderbird profile: a folder holding `prefs.js`, `logins.json` and the NSS key database.
public struct ThunderbirdProfile: Hashable, Sendable {
    /// The profile's name in Thunderbird's profile list (the folder's name when it was given by path).
    public let name: String
    /// The profile's folder.
    public let directory: URL

    /// A profile in `directory`, for example one given by its path.
    public init(name: String, directory: URL) {
        self.name = name
        self.directory = directory.standardizedFileURL
    }

    /// The summary the error sentences list.
    public var summary: ThunderbirdProfileSummary { ThunderbirdProfileSummary(name: name, path: directory.path) }
}

/// Thunderbird's list of profiles (`profiles.ini`, and `installs.ini` for the default of each
/// installation), and the choice of a profile by name, by path, or by default.
public struct ThunderbirdProfileList: Sendable {
    /// The folder that holds `profiles.ini`.
    public let root: URL
    /// The listed profiles, in file order.
    public let profiles: [ThunderbirdProfile]
    /// The default profile, when the list names exactly one.
    public let defaultProfile: ThunderbirdProfile?

    /// The home folder Thunderbird uses: `$HOME`, else the user's home in the password database.
    public static var home: URL {
        if let path = ProcessInfo.processInfo.environment["HOME"], path.hasPrefix("/") { return URL(fileURLWithPath: path, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// Where Thunderbird keeps its profile list for the user whose home is `home`:
    /// `~/.thunderbird` on Linux, `~/Library/Thunderbird` on macOS.
    public static func standardRoot(home: URL = ThunderbirdProfileList.home) -> URL {
        #if canImport(Darwin)
        home.appendingPathComponent("Library/Thunderbird", isDirectory: true)
        #else
        home.appendingPathComponent(".thunderbird", isDirectory: true)
        #endif
    }

    /// Reads the profile list in `root`.
    ///
    /// - Throws: ``ThunderbirdProfileError/noProfileList(folder:)`` when there is no
    ///   `profiles.ini`; ``ThunderbirdProfileError/profileListInvalid(path:line:problem:)``.
    public static func read(root: URL = standardRoot()) async throws(ThunderbirdProfileError) -> ThunderbirdProfileList {
        try await ProfileWork.lane.run { (_: BlockingIOCancellation) throws(ThunderbirdProfileError) in try load(root: root) }
    }

    /// The profile `selector` names: a path (it contains a `/`, or names an existing folder
    /// relative to the working directory when no listed profile has that name) or a name in
    /// the list; `nil` chooses the default profile.
    ///
    /// - Throws: ``ThunderbirdProfileError/profileNotFound(name:available:)`` or
    ///   ``ThunderbirdProfileError/ambiguousProfile(available:)``, both listing the profiles.
    public func choose(_ selector: String?) throws(ThunderbirdProfileError) -> ThunderbirdProfile {
        guard let selector else {
            if let defaultProfile { return defaultProfile }
            if profiles.count == 1 { return profiles[0] }
            throw .ambiguousProfile(available: profiles.map(\.summary))
        }
        if let named = profiles.first(where: { $0.name == selector }) { return named }
        throw .profileNotFound(name: selector, available: profiles.map(\.summary))
    }

    /// The profile `selector` names, as ``choose(_:)`` does, reading the list only when the
    /// selector is not a path.
    public static func profile(_ selector: String?, root: URL = standardRoot()) async throws(ThunderbirdProfileError) -> ThunderbirdProfile {
        if let selector, selector.contains("/") {
            let directory = URL(fileURLWithPath: selector, isDirectory: true)
            return ThunderbirdProfile(name: directory.lastPathComponent, directory: directory)
        }
        return try await read(root: root).choose(selector)
    }

    // MARK: Reading

    static func load(root: URL) throws(ThunderbirdProfileError) -> ThunderbirdProfileList {
        let folder: ProfileFolder
        do { folder = try ProfileFolder.opened(at: root) } catch { throw .noProfileList(folder: root.path) }
        guard let listBytes = try folder.read("profiles.ini", maximumByteCount: INIFile.maximumByteCount) else {
            throw .noProfileList(folder: root.path)
        }
        let list = try parse(listBytes, path: folder.path(of: "profiles.ini"))
        let installs = try folder.read("installs.ini", maximumByteCount: INIFile.maximumByteCount)
            .map { (bytes) throws(ThunderbirdProfileError) in try parse(bytes, path: folder.path(of: "installs.ini")) }

        var profiles: [ThunderbirdProfile] = []
        var marked: [ThunderbirdProfile] = []
        var relativePaths: [String: ThunderbirdProfile] = [:]
        for section in list.sections where section.name.hasPrefix("Profile") {
            guard let name = section.value("Name"), let path = section.value("Path") else {
                throw .profileListInvalid(path: folder.path(of: "profiles.ini"), line: 0, problem: ThunderbirdDiagnosis("diagnosis.profiles.sectionIncomplete", .text(section.name)))
            }
            let relative = section.value("IsRelative") != "0"
            let directory = relative ? root.appendingPathComponent(path, isDirectory: true) : URL(fileURLWithPath: path, isDirectory: true)
            let profile = ThunderbirdProfile(name: name, directory: directory)
            profiles.append(profile)
            relativePaths[path] = profile
            if section.value("Default") == "1" { marked.append(profile) }
        }
        // Each installation names its default in an [Install...] section (profiles.ini) or a
        // section of installs.ini; when they all name the same profile, that is the default.
        let installSections = list.sections.filter { $0.name.hasPrefix("Install") } + (installs?.sections ?? [])
        let installDefaults = Set(installSections.compactMap { $0.value("Default") }.compactMap { relativePaths[$0] })
        let defaultProfile: ThunderbirdProfile? = switch installDefaults.count {
        case 1: installDefaults.first
        case 0: marked.count == 1 ? marked[0] : nil
        default: nil
        }
        return ThunderbirdProfileList(root: root, profiles: profiles, defaultProfile: defaultProfile)
    }

    private static func parse(_ bytes: [UInt8], path: String) throws(ThunderbirdProfileError) -> INIFile {
        do { return try INIFile.parse(bytes) } catch { throw .profileListInvalid(path: path, line: error.line, problem: error.reason) }
    }
}
