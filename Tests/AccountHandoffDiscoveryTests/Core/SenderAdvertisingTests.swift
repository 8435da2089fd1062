import AccountHandoffDiscovery
import Testing

/// The sender's reaction to name collisions: retire the code, draw a new one, at most
/// `maximumRedraws` times, then withdraw the typed way.
@Suite struct SenderAdvertisingTests {
    func plate(_ value: Int) -> DiscoveryNameplate { DiscoveryNameplate(value)! }

    @Test func theFirstNameplateIsRegisteredThenShown() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        #expect(advertising.start == [.register(plate(427))])
        #expect(advertising.handle(.established(plate(427))) == [.showCode(plate(427))])
        #expect(advertising.nameplate == plate(427))
        #expect(advertising.stopped == nil)
    }

    @Test func aCollisionRetiresTheCodeAndRegistersTheNewNameplate() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        #expect(advertising.handle(.collision(plate(427))) == [.unregister, .drawNewCode])
        #expect(advertising.nameplate == nil)
        #expect(advertising.handle(.codeDrawn(plate(512))) == [.register(plate(512))])
        #expect(advertising.handle(.established(plate(512))) == [.showCode(plate(512))])
        #expect(advertising.nameplate == plate(512))
    }

    /// Another device claiming the name after it was established (a late announcement)
    /// retires the shown code too: a receiver could be led to that device.
    @Test func aCollisionAfterEstablishmentRetiresTheShownCode() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        _ = advertising.handle(.established(plate(427)))
        #expect(advertising.handle(.collision(plate(427))) == [.unregister, .drawNewCode])
    }

    @Test func afterEightRedrawsTheNinthCollisionWithdrawsTheTypedWay() {
        var advertising = SenderAdvertising(nameplate: plate(100))
        for redraw in 1...SenderAdvertising.maximumRedraws {
            #expect(advertising.handle(.collision(plate(99 + redraw))) == [.unregister, .drawNewCode])
            #expect(advertising.handle(.codeDrawn(plate(100 + redraw))) == [.register(plate(100 + redraw))])
        }
        #expect(SenderAdvertising.maximumRedraws == 8)
        #expect(advertising.handle(.collision(plate(108))) == [.unregister, .stop(.namesTaken(collisions: 9))])
        #expect(advertising.stopped == .namesTaken(collisions: 9))
        #expect(advertising.handle(.codeDrawn(plate(109))) == [])
        #expect(advertising.handle(.established(plate(108))) == [])
    }

    /// A nameplate drawn again after it collided is not registered: it counts as another
    /// collision and a new code is asked for.
    @Test func aNameplateThatCollidedBeforeIsNotTriedAgain() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        _ = advertising.handle(.collision(plate(427)))
        #expect(advertising.handle(.codeDrawn(plate(427))) == [.drawNewCode])
        #expect(advertising.handle(.codeDrawn(plate(512))) == [.register(plate(512))])
    }

    @Test func reportsAboutAnotherNameplateAreStaleAndIgnored() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        _ = advertising.handle(.collision(plate(427)))
        #expect(advertising.handle(.established(plate(427))) == [])
        #expect(advertising.handle(.collision(plate(427))) == [])
        _ = advertising.handle(.codeDrawn(plate(512)))
        #expect(advertising.handle(.established(plate(427))) == [])
        #expect(advertising.handle(.collision(plate(427))) == [])
        #expect(advertising.handle(.codeDrawn(plate(600))) == [])
        #expect(advertising.nameplate == plate(512))
    }

    @Test func aFailureOfTheDaemonStopsAdvertising() {
        for prepare in [[], [AdvertisingEvent.established(plate(427))], [.collision(plate(427))]] {
            var advertising = SenderAdvertising(nameplate: plate(427))
            for event in prepare { _ = advertising.handle(event) }
            #expect(advertising.handle(.failed(.daemonStopped)) == [.stop(.discoveryFailed(.daemonStopped))])
            #expect(advertising.stopped == .discoveryFailed(.daemonStopped))
            #expect(advertising.handle(.withdraw) == [])
        }
    }

    @Test func withdrawingRemovesTheService() {
        var advertising = SenderAdvertising(nameplate: plate(427))
        #expect(advertising.handle(.withdraw) == [.unregister, .stop(.withdrawn)])
        var established = SenderAdvertising(nameplate: plate(427))
        _ = established.handle(.established(plate(427)))
        #expect(established.handle(.withdraw) == [.unregister, .stop(.withdrawn)])
        var drawing = SenderAdvertising(nameplate: plate(427))
        _ = drawing.handle(.collision(plate(427)))
        #expect(drawing.handle(.withdraw) == [.stop(.withdrawn)])
        #expect(drawing.handle(.codeDrawn(plate(512))) == [])
    }
}
