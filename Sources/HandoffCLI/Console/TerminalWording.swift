/// The library's sentences are written for apps, whose person scans the QR code with a
/// camera; at this terminal the person pastes the code's text (or types it, or names a file).
/// Every line the CLI prints passes through ``pasting(_:)``, which puts this tool's words in
/// place of the library's phrases that tell the person to scan. The library's sentences stay
/// as they are for apps; the tool's own sentences about `--scan` and `--camera`, where the
/// person does scan, use none of these phrases.
package enum TerminalWording {
    /// Each library phrase that says "scan" (English) or "scannen" (German), and what this tool
    /// says instead, longest first where one contains another.
    package static let replacements: [(library: String, terminal: String)] = [
        ("scan the code shown by the sending device again",
         "take the code the sending device shows again (paste its whole line, or photograph it again with --scan)"),
        ("scan the code shown by the sending device", "paste the code the sending device shows"),
        ("then scan a new code", "then paste a new code"),
        ("(scan or copy that one)", "(copy and paste that one)"),
        ("a device that scanned the code", "a device that has the code"),
        ("scan a code made by the handoff tool", "use a code made by the handoff tool"),
        ("you may have scanned another device's code", "you may have pasted another device's code"),
        ("then scan it again", "then paste it again"),
        ("every code this device showed or scanned", "every code this device showed or used"),
        ("scan the QR code the sending device shows", "paste the code the sending device shows"),
        // The same phrases in German, where the message locale asks for it.
        ("scannen Sie den Code, den das sendende Gerät anzeigt, noch einmal",
         "fügen Sie den Code, den das sendende Gerät anzeigt, noch einmal ein (seine ganze Zeile, oder fotografieren Sie ihn mit --scan noch einmal)"),
        ("scannen Sie den Code, den das sendende Gerät anzeigt", "fügen Sie den Code ein, den das sendende Gerät anzeigt"),
        ("scannen Sie den QR-Code, den das sendende Gerät anzeigt", "fügen Sie den Code ein, den das sendende Gerät anzeigt"),
        ("den Code eines anderen Geräts gescannt", "den Code eines anderen Geräts eingefügt"),
        ("dann scannen Sie ihn noch einmal", "dann fügen Sie ihn noch einmal ein"),
        ("den dieses Gerät angezeigt oder gescannt hat", "den dieses Gerät angezeigt oder verwendet hat"),
    ]

    /// `text` with this tool's words for the library's scanning phrases.
    package static func pasting(_ text: String) -> String {
        guard text.contains("scan") else { return text }
        return replacements.reduce(text) { $0.replacingOccurrences(of: $1.library, with: $1.terminal) }
    }
}
