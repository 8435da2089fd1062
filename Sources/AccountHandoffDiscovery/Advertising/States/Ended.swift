/// Advertising is over; nothing changes it.
struct Ended: Sendable {
    let reason: AdvertisingStopped

    /// After the daemon failed: nothing to remove, it is gone.
    static func after(_ error: DiscoveryError) -> (SenderAdvertising.State, [AdvertisingAction]) {
        (.ended(Ended(reason: .discoveryFailed(error))), [.stop(.discoveryFailed(error))])
    }

    /// After the sender withdrew; `registered`: whether a service is registered to remove.
    static func withdrawn(registered: Bool) -> (SenderAdvertising.State, [AdvertisingAction]) {
        (.ended(Ended(reason: .withdrawn)), (registered ? [.unregister] : []) + [.stop(.withdrawn)])
    }

    func handle(_ event: AdvertisingEvent) -> (SenderAdvertising.State, [AdvertisingAction]) {
        switch event {
        case .established, .collision, .codeDrawn, .failed, .withdraw:
            (.ended(self), [])
        }
    }
}
