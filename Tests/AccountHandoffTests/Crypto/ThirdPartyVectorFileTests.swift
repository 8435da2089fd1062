import Foundation
import Testing
@testable import AccountHandoff

/// The committed third-party vectors are all there, byte for byte as copied, with their
/// licences, and a file that cannot be read fails the test that needs it (never a skip).
@Suite struct ThirdPartyVectorFileTests {
    @Test func everyVectorFileIsCommittedUnchanged() throws {
        for (name, digest) in ThirdPartyVectors.files.sorted(by: { $0.key < $1.key }) {
            let bytes = try ThirdPartyVectors.bytes(name)
            #expect(Hex.encode(SHA256.hash(Array(bytes))) == digest, "\(name) differs from the copy its README describes")
        }
    }

    @Test func theReadmeListsEveryFileWithItsDigestAndEveryLicenceIsThere() throws {
        let readme = String(decoding: try ThirdPartyVectors.bytes("README.md"), as: UTF8.self)
        for (name, digest) in ThirdPartyVectors.files {
            #expect(readme.contains("`\(name)`"), "the README's table does not name \(name)")
            #expect(readme.contains("\(digest)  \(name)"), "the README does not give the digest of \(name)")
        }
        for licence in ThirdPartyVectors.licences {
            #expect(readme.contains("`\(licence)`"), "the README does not name \(licence)")
            #expect(try ThirdPartyVectors.bytes(licence).count > 100, "\(licence) is empty")
        }
    }

    @Test func aMissingFileThrowsNamingItsPath() {
        let error = #expect(throws: ThirdPartyVectors.Unreadable.self) {
            _ = try ThirdPartyVectors.load("absent_test.json", as: [String].self)
        }
        #expect(error?.path == ThirdPartyVectors.directory.appendingPathComponent("absent_test.json").path)
        #expect(error?.description.hasPrefix("cannot read the committed vector file ") == true)
    }
}
