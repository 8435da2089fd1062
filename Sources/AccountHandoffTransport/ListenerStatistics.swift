/// What a ``FrameListener`` did with the connections it accepted, so a driver can summarise
/// stray connections in one line instead of one line each.
///
/// Every accepted connection ends up counted in at most one of the closing counters;
/// connections that closed themselves or broke the framing after the tag were reported as
/// ``FrameListener/Event/disconnected(_:_:)`` and are not counted here.
public struct ListenerStatistics: Hashable, Sendable {
    /// Connections accepted.
    public internal(set) var accepted = 0
    /// Connections that presented the tag and were reported as
    /// ``FrameListener/Event/connected(_:)``.
    public internal(set) var admitted = 0
    /// Connections closed because their first bytes were not the preamble, or because they
    /// closed before finishing it.
    public internal(set) var refusedTag = 0
    /// Connections closed because they had not finished the preamble at
    /// ``TransportConfiguration/tagTimeout``.
    public internal(set) var tagTimedOut = 0
    /// Connections closed, without having presented the tag, to make room for a newer one.
    public internal(set) var evictedBeforeTag = 0
    /// Connections that had presented the tag but were not bound, closed to make room for a
    /// newer one and reported with ``TransportError/evicted``.
    public internal(set) var evictedAfterTag = 0
    /// Connections that presented the tag but were not bound at
    /// ``TransportConfiguration/helloTimeout``, reported with ``TransportError/notJoinedInTime``.
    public internal(set) var helloTimedOut = 0
    /// Connections closed by ``FrameListener/noteIgnoredFrame(_:)``.
    public internal(set) var closedForIgnoredFrames = 0
    /// Connections accepted and closed at once because every slot held the bound connection.
    public internal(set) var refusedAtCapacity = 0
    /// The most connections the listener held open at once.
    public internal(set) var peakOpenConnections = 0

    /// Connections closed to make room for newer ones, before or after the tag.
    public var evicted: Int { evictedBeforeTag + evictedAfterTag }

    /// Connections closed without ever being reported to the driver.
    public var droppedBeforeTag: Int { refusedTag + tagTimedOut + evictedBeforeTag + refusedAtCapacity }
}
