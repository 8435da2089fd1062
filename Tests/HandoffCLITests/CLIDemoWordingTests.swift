import Foundation
import Testing
import TestProcesses

/// `handoff demo` without `--yes`, on a terminal where a person answers: every sentence is
/// true inside the demo. Its gate asks for the demo's own password, not someone's login
/// password, and nothing tells the person to run commands or options the demo does not take.
@Suite(.startsProcesses) struct CLIDemoWordingTests {
    @Test func theDemoSaysOnlyWhatIsTrueInTheDemo() async throws {
        let demo = try TerminalProcess(["demo", "--qr-style", "dark"])
        let marker = "Code for the sending device: "
        try #require(await demo.waitForScreen(containing: marker, timeout: .seconds(30)), "\(demo.screen)")
        let screen = demo.screen
        let shown = String(screen[try #require(screen.range(of: marker)).upperBound...].prefix(7))
        try #require(await demo.waitForScreen(containing: Asked.codeQuestion))
        demo.type(shown + "\n")
        try #require(await demo.waitForScreen(containing: Asked.importQuestion))
        demo.type("yes\n")
        let question = "Login password for the demo's gate: type demo-login, the password of its throwaway PAM setup, not your own (not shown) [login password] "
        for gate in 1...2 {
            try #require(await demo.waitForScreen(containing: question, count: gate), "\(demo.screen)")
            demo.type("demo-login\n")
        }
        let ended = await demo.finish(timeout: .seconds(30))
        #expect(ended.status == 0 && !ended.killedBySignal, "\(demo.screen)")
        let shownAll = demo.screen
        #expect(shownAll.contains("receiver │ " + question + "\n") && shownAll.contains("sender   │ " + question + "\n"))
        #expect(shownAll.contains("sender   │ (The demo hands this code to its receiving process itself.)\n"))
        #expect(shownAll.contains("sender   │ (The demo runs both sides on this computer; to use two computers, run 'handoff send' and 'handoff receive' yourself, as the README's 'Try the two sides by hand' shows.)\n"))
        #expect(!shownAll.contains("Login password of "), "a login password the demo does not ask for was named")
        #expect(!shownAll.contains("Or run 'handoff receive'") && !shownAll.contains("--address ADDRESS --lan"))
        #expect(!shownAll.contains("not a terminal"), "the demo relays the answers itself")
        #expect(!shownAll.contains("demo-login\n"), "the login password was echoed")
        #expect(shownAll.contains("  Password: (redacted)\n"))
    }
}
