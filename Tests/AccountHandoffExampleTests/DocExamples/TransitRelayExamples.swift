import AccountHandoffTransitRelay

// The example in the doc comment of TransitRelay (see SessionDriverExamples.swift).

// example: Harness/AccountHandoffTransitRelay/TransitRelay.swift#1
func transitRelayExample() throws -> UInt16 {
    let relay = try TransitRelay.start()      // 127.0.0.1, a free port
    defer { relay.stop() }
    // handoff send --relay 127.0.0.1:\(relay.port)
    return relay.port
}
