#if canImport(Glibc)
import AccountHandoff
import AccountHandoffLocalAuthentication
import Foundation
import Glibc
import Testing

/// The paths that end before PAM starts, in this process (no pam_wrapper needed, and PAM's
/// system configuration is never read).
@Suite struct PAMAuthenticatorInProcessTests {
    /// Records the prompts it is asked; answers none.
    final class SilentConversation: PAMConversation, @unchecked Sendable {
        // Safety of @unchecked Sendable: `asked` is touched only under `lock`.
        private let lock = NSLock()
        private var asked: [PAMPrompt] = []
        var prompts: [PAMPrompt] { lock.withLock { asked } }

        func answer(_ prompt: PAMPrompt, for purpose: LocalAuthenticationPurpose) async -> PAMAnswer? {
            lock.withLock { asked.append(prompt) }
            return nil
        }
    }

    @Test func theDefaultsAreTheHandoffServiceAndThreeTries() {
        let configuration = PAMAuthenticatorConfiguration()
        #expect(configuration.serviceName == "handoff")
        #expect(configuration.maximumTries == 3)
        #expect(PAMAuthenticator(conversation: SilentConversation()).configuration == configuration)
    }

    @Test func aUserIDWithoutANameIsUnavailableBeforeAnyPrompt() async throws {
        let unnamed = try #require(UnnamedUserID.find())
        let conversation = SilentConversation()
        let authenticator = PAMAuthenticator(configuration: PAMAuthenticatorConfiguration(), conversation: conversation, userID: unnamed)
        let result = await authenticator.authenticate(for: .sendCredential(Accounts.ada, receiverGate: .asks))
        #expect(result == .failed(.unavailable(detail: "The system has no user name for user ID \(unnamed), so PAM cannot authenticate this user.")))
        #expect(conversation.prompts.isEmpty)
    }

    @Test func anAlreadyCancelledTaskIsCancelledWithoutStartingPAM() async {
        let conversation = SilentConversation()
        let authenticator = PAMAuthenticator(conversation: conversation)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await authenticator.authenticate(for: .receiveCredential(Accounts.ada))
        }
        #expect(await task.value == .cancelled)
        #expect(conversation.prompts.isEmpty)
    }
}
#endif
