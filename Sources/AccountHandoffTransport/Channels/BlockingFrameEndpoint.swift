import AccountHandoff

/// A single-threaded, blocking frame transport (``FrameListener`` or ``FrameConnection``) as
/// ``ThreadedFrameChannel`` drives it from its own thread.
protocol BlockingFrameEndpoint: AnyObject {
    /// Waits up to `timeout` for the next event; `nil` when nothing happened.
    ///
    /// - Throws: a ``TransportError`` when the endpoint itself failed; the channel ends then.
    func poll(timeout: Duration) throws(TransportError) -> FrameChannelEvent?
    /// Sends one frame to `peer`.
    func send(_ frame: [UInt8], to peer: FramePeer) throws(TransportError)
    /// The session bound `peer` (its hello authenticated).
    func bind(_ peer: FramePeer)
    /// The session ignored a frame from `peer`.
    func noteIgnoredFrame(from peer: FramePeer)
    /// Closes `peer`'s connection.
    func disconnect(_ peer: FramePeer)
    /// Closes everything, letting sent frames reach their peers.
    func close()
}
