/// What every sender state after the first accepted hello owns: the channel to that
/// receiver, the accepted hello's bytes (H1) and the code its person must type (Spec 4.4).
struct SenderEstablished {
    let channel: SecureChannel
    /// The accepted hello's bytes; empty when the typed way paired.
    let acceptedHello: [UInt8]
    /// The code the person must type; `nil` when the typed way paired (CPace confirmed it).
    let shortCode: ShortCode?
}
