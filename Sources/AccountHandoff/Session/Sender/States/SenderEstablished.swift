/// What every sender state after the first accepted hello owns: the channel to that
/// receiver, the accepted hello's bytes (H1) and the code its person must type (Spec 4.4).
struct SenderEstablished {
    let channel: SecureChannel
    let acceptedHello: [UInt8]
    let shortCode: ShortCode
}
