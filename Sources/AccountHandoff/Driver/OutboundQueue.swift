/// Frames waiting to be written, in the order the session produced them. One writer drains
/// the queue, so a frame is never overtaken by a later one (a reordered frame would stall the
/// session until it expires, Spec 3.1).
struct OutboundQueue: Sendable {
    struct Item: Sendable {
        let frame: [UInt8]
        let peer: FramePeer
    }

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation

    init() {
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Queues a frame for `peer`; never suspends.
    func enqueue(_ frame: [UInt8], to peer: FramePeer) {
        continuation.yield(Item(frame: frame, peer: peer))
    }

    /// No more frames will come; the writer stops after the last one.
    func finish() { continuation.finish() }
}
