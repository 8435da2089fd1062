#if canImport(Glibc)
import AccountHandoffTestSupport
import Foundation
import Glibc
import Testing

/// `PAMAuthenticator.checkLoginPassword()` against real libpam under pam_wrapper: it rules a
/// password out only when the service loads pam_unix and the user's shadow entry refuses
/// every password, and it asks nothing (Spec 8.7).
@Suite struct LoginPasswordCheckTests {
    /// `nobody`'s shadow entry is `*` on Debian (base-passwd). Only root can read it; for any
    /// other user the check rules nothing out.
    @Test func aServiceThatChecksTheShadowDatabaseFindsNobodysMissingPassword() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.writeService(["auth required \(try PAMWrapperPaths.shared().unixModule)"])
        let run = try await fixture.probe(["--check-login-password", "yes", "--service", PAMWrapperWorld.service, "--uid", "65534"], answers: [])
        #expect(run.prompts.isEmpty)
        #expect(run.lines.first == (getuid() == 0 ? "check nobody *" : "check nobody none"), "\(run.diagnosis)")
    }

    /// pam_matrix checks its own file, not the shadow database: nothing is ruled out.
    @Test func aServiceWithoutPamUnixRulesNothingOut() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: "x-\(UUID())")
        try fixture.writeMatrixService()
        let run = try await fixture.probe(["--check-login-password", "yes", "--service", PAMWrapperWorld.service, "--uid", "65534"], answers: [])
        #expect(run.lines.first == "check nobody none", "\(run.diagnosis)")
    }

    /// A service that lets root through without a question (su, runuser: pam_rootok) is no
    /// dead end for root, whatever root's shadow entry says.
    @Test func pamRootOKIsNoDeadEndForRoot() async throws {
        let paths = try PAMWrapperPaths.shared()
        let fixture = try PAMWrapperWorld()
        try fixture.writeService(["auth sufficient \(paths.rootOKModule)", "auth required \(paths.unixModule)"])
        let run = try await fixture.probe(["--check-login-password", "yes", "--service", PAMWrapperWorld.service, "--uid", "0"], answers: [])
        #expect(run.lines.first == "check root none", "\(run.diagnosis)")
    }

    @Test func aUserIDWithoutANameIsNamedByNumber() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.writeService(["auth required \(try PAMWrapperPaths.shared().unixModule)"])
        let unnamed = try #require(UnnamedUserID.find())
        let run = try await fixture.probe(["--check-login-password", "yes", "--service", PAMWrapperWorld.service, "--uid", String(unnamed)], answers: [])
        #expect(run.lines.first == "check user ID \(unnamed) none", "\(run.diagnosis)")
    }
}
#endif
