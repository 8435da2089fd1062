/// What a ``FrameListener`` did with the connections it accepted and the hellos it handed
/// over, so a driver can summarise stray connections in one line, and a test can prove that
/// a flood never reached the session.
///
/// Every accepted connection ends up counted in at most one of the closing counters;
/// connections that closed themselves or broke the framing after admission are not counted
/// there (the driver heard of them when it knew them).
public struct ListenerStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Connections accepted (or adopted).
    public internal(set) var accepted = 0
    /// Connections the relay paired and handed over (Spec 11.7), counted in ``accepted`` too.
    public internal(set) var relayPaired = 0
    /// Connections that answered the admission challenge (Spec 11.4).
    public internal(set) var admitted = 0
    /// Connections closed because their response was wrong, or because they closed before
    /// finishing it.
    public internal(set) var refusedAdmission = 0
    /// Connections closed because they had not answered at ``TransportConfiguration/admissionTimeout``.
    public internal(set) var admissionTimedOut = 0
    /// Connections closed, before admission, to make room for a newer one.
    public internal(set) var evictedBeforeAdmission = 0
    /// Connections admitted whose hello the session saw and did not bind, closed to make room
    /// for a newer one (an admitted connection whose hello is still to come never is).
    public internal(set) var evictedAfterAdmission = 0
    /// Connections admitted but not bound at ``TransportConfiguration/bindTimeout``.
    public internal(set) var bindTimedOut = 0
    /// Connections closed after the session ignored ``TransportConfiguration/maximumIgnoredFrames`` of their frames.
    public internal(set) var closedForIgnoredFrames = 0
    /// Connections closed because they sent a second hello before being bound (Spec 11.6).
    public internal(set) var closedForSecondHello = 0
    /// Unbound connections closed because the listener switched to a renewed QR's keys (Spec 11.8).
    public internal(set) var closedForRenewal = 0
    /// Connections accepted and closed at once because no connection could make room: every
    /// one was bound, had a frame waiting for or with the session, or was admitted with its
    /// hello still to come.
    public internal(set) var refusedAtCapacity = 0
    /// The most connections the listener held open at once.
    public internal(set) var peakOpenConnections = 0
    /// Hellos handed to the session (Spec 11.6: at most ``TransportConfiguration/hellosPerSecond``).
    public internal(set) var hellosHandedOver = 0
    /// Hellos waiting for their turn right now.
    public internal(set) var hellosWaiting = 0
    /// The most hellos that waited at once.
    public internal(set) var peakHellosWaiting = 0
    /// The longest a hello waited for its turn.
    public internal(set) var longestHelloWait: Duration = .zero
    /// Frames handed to the session, hellos included.
    public internal(set) var framesHandedOver = 0
    /// Typed connections accepted while a nameplate was served (Spec 11.10).
    public internal(set) var typedAccepted = 0
    /// Typed connections closed at once: no nameplate was served.
    public internal(set) var typedRefused = 0
    /// Typed connections handed to the session for a run.
    public internal(set) var typedRunsHandedOver = 0
    /// Typed connections closed because the session serves another nameplate, or none.
    public internal(set) var typedRetired = 0
    /// Typed connections closed at once because their address had
    /// ``TransportConfiguration/maximumTypedConnectionsPerAddress`` open and not bound (Spec 11.10 T10).
    public internal(set) var typedRefusedPerAddress = 0
    /// Typed connections closed because they sent nothing within
    /// ``TransportConfiguration/typedReplyTimeout`` of their `pakeInit` (Spec 11.10 T11).
    public internal(set) var typedReplyTimedOut = 0

    /// Connections closed to make room for newer ones, before or after admission.
    public var evicted: Int { evictedBeforeAdmission + evictedAfterAdmission }

    /// One line with every counter.
    public var description: String {
        "accepted \(accepted) (relayed \(relayPaired)), admitted \(admitted), refused admission \(refusedAdmission), admission timed out \(admissionTimedOut), "
            + "evicted \(evictedBeforeAdmission) before and \(evictedAfterAdmission) after admission, not bound in time \(bindTimedOut), "
            + "closed for ignored frames \(closedForIgnoredFrames), for a second hello \(closedForSecondHello), for renewal \(closedForRenewal), "
            + "refused at capacity \(refusedAtCapacity), peak open \(peakOpenConnections); hellos handed over \(hellosHandedOver), "
            + "waiting \(hellosWaiting) (peak \(peakHellosWaiting), longest wait \(longestHelloWait)), frames handed over \(framesHandedOver); "
            + "typed accepted \(typedAccepted), refused \(typedRefused), runs handed over \(typedRunsHandedOver), retired \(typedRetired), "
            + "refused per address \(typedRefusedPerAddress), reply timed out \(typedReplyTimedOut)"
    }
}
