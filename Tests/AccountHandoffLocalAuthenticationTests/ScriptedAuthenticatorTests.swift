import AccountHandoff
import AccountHandoffTestSupport
import Testing

@Suite struct ScriptedAuthenticatorTests {
    @Test func playsTheScriptInOrderThenTheStepAfterIt() async {
        let authenticator = ScriptedAuthenticator([.answer(.cancelled), .answer(.authenticated)],
                                                  afterScript: .answer(.failed(.lockedOut)))
        #expect(await authenticator.authenticate(for: .showTransferCode(Accounts.ada)) == .cancelled)
        #expect(await authenticator.authenticate(for: .sendCredential(Accounts.ada, receiverGate: .asks)) == .authenticated)
        #expect(await authenticator.authenticate(for: .receiveCredential(Accounts.ada)) == .failed(.lockedOut))
        #expect(authenticator.purposes == [.showTransferCode(Accounts.ada), .sendCredential(Accounts.ada, receiverGate: .asks), .receiveCredential(Accounts.ada)])
    }

    @Test func anExhaustedScriptFailsByDefault() async {
        let authenticator = ScriptedAuthenticator([])
        #expect(await authenticator.authenticate(for: .sendCredential(Accounts.ada, receiverGate: .asks))
            == .failed(.unavailable(detail: "The scripted authenticator has no more answers.")))
    }

    @Test func alwaysAnswersTheSame() async {
        let authenticator = ScriptedAuthenticator(always: .failed(.notRecognized))
        for _ in 0..<3 {
            #expect(await authenticator.authenticate(for: .sendCredential(Accounts.ada, receiverGate: .asks)) == .failed(.notRecognized))
        }
    }

    @Test func waitingEndsAsCancelledWhenTheTaskIsCancelled() async {
        let authenticator = ScriptedAuthenticator([.waitUntilCancelled])
        let task = Task { await authenticator.authenticate(for: .receiveCredential(Accounts.ada)) }
        while authenticator.purposes.isEmpty { await Task.yield() }
        task.cancel()
        #expect(await task.value == .cancelled)
    }

    @Test func aCancelledTaskIsAnsweredCancelled() async {
        let authenticator = ScriptedAuthenticator(always: .authenticated)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await authenticator.authenticate(for: .sendCredential(Accounts.ada, receiverGate: .asks))
        }
        #expect(await task.value == .cancelled)
    }
}
