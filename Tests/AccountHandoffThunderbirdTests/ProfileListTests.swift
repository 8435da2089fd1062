@testable import AccountHandoffThunderbird
import Foundation
import Testing

/// Thunderbird's profile list: the default per installation, by name, by path, and a listing
/// when the choice is not clear.
@Suite struct ProfileListTests {
    @Test func theInstallationsDefaultIsChosen() async throws {
        let root = try Self.root(profiles: """
            [Profile1]
            Name=work
            IsRelative=1
            Path=abc.work

            [Profile0]
            Name=default
            IsRelative=1
            Path=xyz.default
            Default=1

            [General]
            StartWithLastProfile=1
            Version=2

            [Install4F96D1932A9F858E]
            Default=abc.work
            Locked=1
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let list = try await ThunderbirdProfileList.read(root: root)
        #expect(list.profiles.map(\.name) == ["work", "default"])
        #expect(try list.choose(nil).name == "work", "the installation's default wins over the old Default=1")
        #expect(try list.choose("default").directory.path == root.appendingPathComponent("xyz.default").standardizedFileURL.path)
        #expect(throws: ThunderbirdProfileError.profileNotFound(name: "home", available: list.profiles.map(\.summary))) {
            try list.choose("home")
        }
    }

    @Test func installsIniAndTheOldDefaultMarkWork() async throws {
        let root = try Self.root(profiles: """
            [Profile0]
            Name=a
            IsRelative=0
            Path=/srv/profiles/a

            [Profile1]
            Name=b
            IsRelative=0
            Path=/srv/profiles/b
            """, installs: """
            [4F96D1932A9F858E]
            Default=/srv/profiles/b
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try await ThunderbirdProfileList.read(root: root).choose(nil).directory.path == "/srv/profiles/b")
    }

    @Test func twoProfilesWithoutADefaultAreListed() async throws {
        let root = try Self.root(profiles: """
            [Profile0]
            Name=a
            Path=a.x

            [Profile1]
            Name=b
            Path=b.x

            [Install1]
            Default=a.x

            [Install2]
            Default=b.x
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let list = try await ThunderbirdProfileList.read(root: root)
        let error = ThunderbirdProfileError.ambiguousProfile(available: [
            ThunderbirdProfileSummary(name: "a", path: root.appendingPathComponent("a.x").standardizedFileURL.path),
            ThunderbirdProfileSummary(name: "b", path: root.appendingPathComponent("b.x").standardizedFileURL.path),
        ])
        #expect(throws: error) { try list.choose(nil) }
        #expect(error.description.contains("The profiles are: a ("))
    }

    @Test func aPathIsTakenAsAFolder() async throws {
        let profile = try await ThunderbirdProfileList.profile("/srv/profiles/x.default", root: URL(fileURLWithPath: "/nonexistent"))
        #expect(profile.name == "x.default")
        #expect(profile.directory.path == "/srv/profiles/x.default")
    }

    @Test func missingAndDamagedListsAreNamed() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-tb-\(UUID().uuidString)")
        await #expect(throws: ThunderbirdProfileError.noProfileList(folder: empty.path)) { try await ThunderbirdProfileList.read(root: empty) }
        let root = try Self.root(profiles: "[Profile0]\nName=a\nName=b\n")
        defer { try? FileManager.default.removeItem(at: root) }
        await #expect(throws: ThunderbirdProfileError.profileListInvalid(path: root.path + "/profiles.ini", line: 3,
                                                                        problem: ThunderbirdDiagnosis("diagnosis.ini.keyTwice", .text("Name"), .text("Profile0")))) {
            try await ThunderbirdProfileList.read(root: root)
        }
    }

    static func root(profiles: String, installs: String? = nil) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-tb-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(profiles.utf8).write(to: root.appendingPathComponent("profiles.ini"))
        if let installs { try Data(installs.utf8).write(to: root.appendingPathComponent("installs.ini")) }
        return root
    }
}
