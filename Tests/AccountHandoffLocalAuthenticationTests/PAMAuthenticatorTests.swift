#if canImport(Glibc)
import Foundation
import Glibc
import AccountHandoffTestSupport
import Testing
import TestProcesses

/// PAMAuthenticator against real libpam, in a child process under pam_wrapper with the
/// pam_matrix module and a throwaway password file: nothing reads /etc/pam.d (Spec 8.7).
@Suite(.startsProcesses) struct PAMAuthenticatorTests {
    static let password = "correct horse 7Qx!battery"
    static let wrong = ["wrong staple 1", "wrong staple 2", "wrong staple 3"]
    /// The message after a wrong try, with two tries left (of three).
    static let tryAgain = "error That password was not right. Try again (2 tries left)."
    /// The message after the second wrong try.
    static let lastTry = "error That password was not right. Try again (1 try left)."

    @Test func theRightPasswordAuthenticates() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [Self.password])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
    }

    /// The gate an app writes without `#if` is PAM on Linux: the `handoff` service asks for
    /// the password through the app's closure.
    @Test func theDeviceOwnerGateIsPAMOnLinux() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password, service: "handoff")
        try fixture.writeMatrixService(name: "handoff")
        let run = try await fixture.probe(["--gate", "device-owner"], answers: [Self.password])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
        let refused = try await fixture.probe(["--gate", "device-owner"], answers: [])
        #expect(refused.outcome == "cancelled", "\(refused.diagnosis)")
    }

    @Test func aWrongPasswordIsFollowedByAMessageAndAnotherTry() async throws {

        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [Self.wrong[0], Self.password])
        #expect(run.prompts == ["secret Password: ", Self.tryAgain, "secret Password: "])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
    }

    @Test func threeWrongPasswordsAreNotRecognized() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        // A fourth answer is there, so only the maximum of tries can stop the asking.
        let run = try await fixture.probe(answers: Self.wrong + [Self.password])
        #expect(run.passwordPrompts == 3)
        #expect(run.prompts == ["secret Password: ", Self.tryAgain, "secret Password: ", Self.lastTry, "secret Password: "])
        #expect(run.outcome == "failed notRecognized", "\(run.diagnosis)")
    }

    @Test func theMaximumOfTriesIsConfigurable() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(["--service", PAMWrapperWorld.service, "--tries", "1"], answers: [Self.wrong[0], Self.password])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "failed notRecognized", "\(run.diagnosis)")
    }

    @Test func noAnswerAtTheFirstPromptCancels() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "cancelled", "\(run.diagnosis)")
    }

    @Test func noAnswerAfterAWrongTryCancels() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [Self.wrong[0]])
        #expect(run.prompts == ["secret Password: ", Self.tryAgain, "secret Password: "])
        #expect(run.outcome == "cancelled", "\(run.diagnosis)")
    }

    /// The conversation cancels the task at the prompt and then answers the right password
    /// anyway: the answer that arrives after the cancel is not used.
    @Test func cancellingTheTaskCancelsEvenIfTheRightAnswerFollows() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(["--service", PAMWrapperWorld.service, "--cancel-task-at-prompt", "1"], answers: [Self.password])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "cancelled", "\(run.diagnosis)")
    }

    /// pam_matrix's account check refuses a user whose password file line names another
    /// service (`PAM_PERM_DENIED`), as pam_access or pam_time would.
    @Test func anAccountPAMRefusesIsLockedOut() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password, service: "another-service")
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [Self.password])
        #expect(run.prompts == ["secret Password: "])
        #expect(run.outcome == "failed lockedOut", "\(run.diagnosis)")
    }

    @Test func aMissingServiceIsUnavailable() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        let run = try await fixture.probe(["--service", "handoff-missing"], answers: [Self.password])
        #expect(run.prompts.isEmpty)
        #expect(run.outcome == "failed unavailable The PAM service \"handoff-missing\" could not authenticate \(fixture.user): "
            + "PAM stopped with a critical error (is the service configured?) (PAM_ABORT).", "\(run.diagnosis)")
    }

    @Test func aMissingModuleIsUnavailable() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.writeService(["auth required \(fixture.directory.path)/pam_missing.so"])
        let run = try await fixture.probe(answers: [Self.password])
        #expect(run.prompts.isEmpty)
        #expect(run.outcome == "failed unavailable The PAM service \"handoff-test\" could not authenticate \(fixture.user): "
            + "one of its modules is missing or cannot be loaded (PAM_MODULE_UNKNOWN).", "\(run.diagnosis)")
    }

    /// What a distribution whose `other` service is pam_deny gives an unconfigured app.
    @Test func aServiceThatRefusesWithoutAskingIsUnavailable() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.writeService(["auth required \(try PAMWrapperPaths.shared().denyModule)"])
        let run = try await fixture.probe(answers: [Self.password])
        #expect(run.prompts.isEmpty)
        #expect(run.outcome == "failed unavailable The PAM service \"handoff-test\" refused \(fixture.user) without asking for a "
            + "password; its configuration may deny everyone, or the account may be locked.", "\(run.diagnosis)")
    }

    @Test func aUserIDWithoutANameIsUnavailable() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let unnamed = try #require(UnnamedUserID.find())
        let run = try await fixture.probe(["--service", PAMWrapperWorld.service, "--uid", String(unnamed)], answers: [Self.password])
        #expect(run.prompts.isEmpty)
        #expect(run.outcome == "failed unavailable The system has no user name for user ID \(unnamed), so PAM cannot authenticate this user.")
    }

    /// A question whose answer may be shown (pam_matrix's `echo`: `PAM_PROMPT_ECHO_ON`) is
    /// asked as text and answered as text.
    @Test func aVisibleQuestionIsAnsweredAsText() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService(authOptions: "echo")
        let run = try await fixture.probe(answers: [Self.password])
        #expect(run.prompts == ["text Password: "])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
    }

    /// Messages a module sends (pam_matrix's `verbose`) reach the conversation in order.
    @Test func aModulesMessagesReachTheConversation() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService(authOptions: "verbose")
        let run = try await fixture.probe(answers: [Self.wrong[0], Self.password])
        #expect(run.prompts == ["secret Password: ", "error Authentication failed", Self.tryAgain,
                                "secret Password: ", "info Authentication succeeded"])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
    }

    /// The answers travel on standard input only: neither the probe's arguments nor its
    /// environment (both readable by other users through /proc) nor anything it writes holds
    /// them, as the test passed them and as the probe saw them in /proc/self.
    @Test func theAnswersNeverAppearInArgumentsEnvironmentOrOutput() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(answers: [Self.wrong[0], Self.password])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
        #expect(run.exposure == "none")
        for answer in [Self.wrong[0], Self.password] {
            #expect(!run.everythingVisible.contains(answer))
        }
    }

    /// The probe's check of /proc/self can fail: an answer put in its arguments and its
    /// environment on purpose is reported in both.
    @Test func theExposureCheckFindsAnAnswerPutInArgumentsAndEnvironment() async throws {
        let fixture = try PAMWrapperWorld()
        try fixture.allow(password: Self.password)
        try fixture.writeMatrixService()
        let run = try await fixture.probe(["--service", PAMWrapperWorld.service, "--canary", Self.password], answers: [Self.password],
                                    extraEnvironment: ["HANDOFF_CANARY": Self.password])
        #expect(run.outcome == "authenticated", "\(run.diagnosis)")
        #expect(run.exposure == "argv,environment")
    }
}

/// A user ID the system's user database has no entry for.
enum UnnamedUserID {
    static func find() -> uid_t? {
        (uid_t(3_900_000_000)..<uid_t(3_900_000_100)).first { getpwuid($0) == nil }
    }
}
#endif
