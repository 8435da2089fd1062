import AccountHandoffTransport

/// A receiver's search for the sender of a typed code on the local network: browse for a
/// while, collect every service reported, then decide (``DiscoveryCollection``).
public enum ReceiverDiscovery {
    /// How long a receiver browses before it decides: long enough for every sender on the
    /// link to answer the first query and be resolved.
    public static let browsingTime: Duration = .seconds(2)

    /// Browses with `browser` for `duration`, then stops it and decides for `nameplate`.
    ///
    /// - Parameter browser: a browser started for `nameplate` (`AvahiBrowser(lookingFor:)`,
    ///   `BonjourBrowser(lookingFor:)`), so that no other service is resolved.
    /// - Throws: the ``DiscoveryError`` the browser reported, as soon as it does.
    public static func find(_ nameplate: DiscoveryNameplate, with browser: any DNSSDBrowser, for duration: Duration = browsingTime,
                            policy: DirectAddressPolicy = .localNetworks) async throws(DiscoveryError) -> DiscoveryDecision {
        try await collect(with: browser, for: duration).decision(for: nameplate, policy: policy)
    }

    /// Browses with `browser` for `duration`, then stops it; what it collected.
    ///
    /// - Parameter observe: sees each report as it comes (for diagnostics).
    /// - Throws: the ``DiscoveryError`` the browser reported, as soon as it does.
    public static func collect(with browser: any DNSSDBrowser, for duration: Duration = browsingTime,
                               observe: (@Sendable (DNSSDBrowserEvent) -> Void)? = nil) async throws(DiscoveryError) -> DiscoveryCollection {
        let events = browser.events
        let outcome = await withTaskGroup(of: Result<DiscoveryCollection, DiscoveryError>?.self) { group in
            group.addTask {
                var collection = DiscoveryCollection()
                for await event in events {
                    observe?(event)
                    switch event {
                    case .found(let service): collection.found(service)
                    case .removed(let key): collection.removed(key)
                    case .failed(let error): return .failure(error)
                    }
                }
                return .success(collection)
            }
            group.addTask {
                try? await Task.sleep(for: duration)
                browser.stop()
                return nil
            }
            var outcome: Result<DiscoveryCollection, DiscoveryError> = .success(DiscoveryCollection())
            for await finished in group {
                guard let finished else { continue }
                outcome = finished
                group.cancelAll()
            }
            return outcome
        }
        return try outcome.get()
    }
}
