import AccountHandoff
@testable import AccountHandoffDiscovery
import Testing
#if canImport(CAvahi)
import CAvahi
#endif

/// Why the daemon failed, as a typed reason, and the sentence a person reads for each: the
/// daemon library's own words where it has them, catalog words for everything else.
@Suite struct DiscoveryFailureSentenceTests {
    #if canImport(CAvahi)
    @Test func aCodeAvahiNamesKeepsAvahisWords() {
        let error = DiscoveryError.avahi(Int32(AVAHI_ERR_INVALID_HOST_NAME), while: .advertise)
        #expect(error == .failed(.advertise, .daemonSays("Invalid host name")))
        #expect(error.sentence(in: .english) == "This device could not show this device's code on the local network "
                + "(the daemon says: Invalid host name); try again, or use a relay.")
        #expect(error.sentence(in: .german) == "Dieses Gerät konnte seinen Code nicht im lokalen Netzwerk anzeigen "
                + "(der Dienst meldet: Invalid host name); versuchen Sie es noch einmal, oder verwenden Sie ein Relay.")
    }
    #endif

    @Test func theSystemsOwnFailuresAreSaidInEachLanguage() {
        let memory = DiscoveryError.failed(.connect, .outOfMemory)
        #expect(memory.sentence(in: .english) == "This device could not connect to the DNS-SD daemon: the system is out of memory; "
                + "close other programs and try again, or use a relay.")
        #expect(memory.sentence(in: .german) == "Dieses Gerät konnte keine Verbindung zum DNS-SD-Dienst herstellen: Der Arbeitsspeicher des "
                + "Systems ist erschöpft; beenden Sie andere Programme und versuchen Sie es noch einmal, oder verwenden Sie ein Relay.")
        let descriptors = DiscoveryError.failed(.connect, .noDescriptorLeft)
        #expect(descriptors.sentence(in: .english) == "This device could not connect to the DNS-SD daemon: this program has no file "
                + "descriptors left; quit it and start it again, or use a relay.")
        #expect(descriptors.sentence(in: .german) == "Dieses Gerät konnte keine Verbindung zum DNS-SD-Dienst herstellen: Diesem Programm "
                + "sind die Dateideskriptoren ausgegangen; beenden Sie es und starten Sie es neu, oder verwenden Sie ein Relay.")
    }

    /// mDNSResponder names no code; the sentence gives the number for support.
    @Test func aCodeWithoutWordsIsGivenAsANumber() {
        let error = DiscoveryError.failed(.browse, .daemonCode(-65537))
        #expect(error.sentence(in: .english) == "This device could not look for the sending device on the local network "
                + "(the daemon gave no reason, only the code -65537); try again, or use a relay.")
        #expect(error.sentence(in: .german) == "Dieses Gerät konnte das sendende Gerät nicht im lokalen Netzwerk suchen "
                + "(der Dienst hat keinen Grund genannt, nur den Code -65537); versuchen Sie es noch einmal, oder verwenden Sie ein Relay.")
        #expect(error.description == error.sentence(in: .english))
    }
}
