import AccountHandoff

/// The starts of the lines another program reads from `handoff` (the developer tool's demo),
/// in the language the CLI prints: each is its catalog sentence up to the first argument.
package enum PrintedMarkers {
    /// Starts the sender's line with the transfer code: "Transfer code: ".
    package static let transferCode = beforeArgument(sentenceCatalog.sentence("code.line", .text(cut), in: .cli))
    /// Starts the sender's line with the typed code beside the QR.
    package static let typedCode = beforeArgument(sentenceCatalog.sentence("code.typedLine", .text(cut), .text(""), in: .cli))
    /// Starts the receiver's six-digit code for the sending person: "Code for the sending device: ".
    package static let shortCode = beforeArgument(sentenceCatalog.sentence("receive.codeReady", .text(cut), .text(""), in: .cli))
    /// Starts the sender's sentence that the typed way is not offered where only this computer reaches it.
    package static let typedWayNotOnThisMachine =
        beforeArgument(sentenceCatalog.sentence("typed.notOnThisMachine", .text(cut), .text(""), in: .cli))

    /// Put in at the first placeholder, where the marker ends (a character no sentence holds).
    private static let cut = "\u{0}"

    private static func beforeArgument(_ sentence: String) -> String { String(sentence.prefix { String($0) != cut }) }
}
