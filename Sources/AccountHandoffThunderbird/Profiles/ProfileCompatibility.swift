/// Which Thunderbird last used a profile, from its `compatibility.ini`
/// (`[Compatibility] LastVersion=153.8.0_20261120213735/20261120213735`), and whether this
/// library knows that version's files.
enum ProfileCompatibility {
    /// The newest major version whose `prefs.js` and `logins.json` this library was checked
    /// against (Debian's Thunderbird 153 ESR). A newer one may keep logins elsewhere (newer
    /// Thunderbirds already mirror them into `logins.db`), so its profile is left alone.
    static let newestKnownMajorVersion = 153

    /// Checks the profile in `folder`; a profile without `compatibility.ini` was never started
    /// and is accepted.
    ///
    /// - Throws: ``ThunderbirdProfileError/newerThunderbird(path:version:newestKnownMajorVersion:)``
    ///   or ``ThunderbirdProfileError/compatibilityInvalid(path:problem:)``.
    static func check(_ folder: ProfileFolder) throws(ThunderbirdProfileError) {
        guard let bytes = try folder.read("compatibility.ini", maximumByteCount: INIFile.maximumByteCount) else { return }
        let file: INIFile
        do { file = try INIFile.parse(bytes) } catch {
            throw .compatibilityInvalid(path: folder.path, problem: ThunderbirdDiagnosis("diagnosis.compatibility.atLine", .number(error.line), .diagnosis(error.reason)))
        }
        guard let last = file.section("Compatibility")?.value("LastVersion") else {
            throw .compatibilityInvalid(path: folder.path, problem: ThunderbirdDiagnosis("diagnosis.compatibility.noLastVersion"))
        }
        let version = String(last.prefix { $0 != "_" })
        guard let majorText = version.split(separator: ".").first, let major = Int(majorText), major > 0 else {
            throw .compatibilityInvalid(path: folder.path, problem: ThunderbirdDiagnosis("diagnosis.compatibility.versionNotANumber", .text(version)))
        }
        guard major <= newestKnownMajorVersion else {
            throw .newerThunderbird(path: folder.path, version: version, newestKnownMajorVersion: newestKnownMajorVersion)
        }
    }
}
