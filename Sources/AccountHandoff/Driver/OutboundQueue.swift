/// Frames waiting to be written, in the order the session produced them. One writer drains
/// the queue, so a frame is never overtaken by a later one (a reordered frame would stall the
/// session until it expires, Spec 3.1).
struct OutboundQueue: Sendable {
    enum Item: Sendable {
        /// A frame for `peer`.
        case frame([UInt8], to: FramePeer)
        /// The typed offer to serve from now on (Spec 11.10), in order with the frames: a
        /// `pakeRefused` queued before it reaches its connection before that connection is
        /// closed for the new offer.
        case typedOffer(TypedOffer?)
    }

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation

    init() {
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Queues a frame for `peer`; never suspends.
    func enqueue(_ frame: [UInt8], to peer: FramePeer) {
        continuation.yield(.frame(frame, to: peer))
    }

    /// Queues a change of the typed offer, after the frames queued before it; never suspends.
    func enqueueTypedOffer(_ offer: TypedOffer?) {
        continuation.yield(.typedOffer(offer))
    }

    /// No more frames will come; the writer stops after the last one.
    func finish() { continuation.finish() }
}
