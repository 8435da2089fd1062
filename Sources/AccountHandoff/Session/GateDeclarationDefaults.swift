import Foundation

// The package's own tests, tools and fuzzers start most sessions on a device that asks its
// person; these entry points say so for them. The public entry points take `localGate` with no
// default: an app declares what its gate does (Spec 3.4, 3.6), and the drivers pass their
// authenticator's declaration.

extension HandoffSender {
    /// ``start(account:rendezvous:configuration:random:now:registry:typedRoutes:typedWrongGuesses:localGate:)``
    /// on a device that asks its person (`localGate` ``GateDeclaration/asks``).
    package static func start(account: AccountMetadata, rendezvous: RendezvousToken,
                              configuration: SenderConfiguration = .standard, random: RandomSource,
                              now: Date, registry: SenderRegistry? = nil,
                              typedRoutes: Set<TypedRoute> = [], typedWrongGuesses: Int = 0) throws(HandoffError) -> HandoffSender {
        try start(account: account, rendezvous: rendezvous, configuration: configuration, random: random, now: now,
                  registry: registry, typedRoutes: typedRoutes, typedWrongGuesses: typedWrongGuesses, localGate: .asks)
    }
}

extension HandoffReceiver {
    /// ``scan(payload:expecting:configuration:random:now:registry:localGate:)`` on a device that
    /// asks its person (`localGate` ``GateDeclaration/asks``).
    package static func scan(payload: SessionPayload, expecting intent: TransferIntent = .sendAccount,
                             configuration: ReceiverConfiguration = .standard, random: RandomSource,
                             now: Date, registry: ReceiverRegistry? = nil) throws(HandoffError) -> (receiver: HandoffReceiver, step: ReceiverStep) {
        try scan(payload: payload, expecting: intent, configuration: configuration, random: random, now: now, registry: registry,
                 localGate: .asks)
    }

    /// ``startTyped(code:route:configuration:random:now:registry:localGate:)`` on a device that
    /// asks its person (`localGate` ``GateDeclaration/asks``).
    package static func startTyped(code: TypedCode, route: TypedRoute, configuration: ReceiverConfiguration = .standard,
                                   random: RandomSource, now: Date, registry: ReceiverRegistry? = nil) throws(HandoffError) -> HandoffReceiver {
        try startTyped(code: code, route: route, configuration: configuration, random: random, now: now, registry: registry,
                       localGate: .asks)
    }
}
