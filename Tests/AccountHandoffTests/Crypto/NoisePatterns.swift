/// The Noise handshake patterns (Noise specification revision 34, sections 7 and 9) that the
/// cacophony vectors use, written in the specification's own notation, for the test-only
/// Noise runner in `NoiseHandshake.swift`.
struct NoisePattern {
    /// A token of a message pattern.
    enum Token: String {
        case e, s, ee, es, se, ss, psk
    }

    /// Tokens of the initiator's pre-message (`-> s` before `...`).
    let initiatorPreMessage: [Token]
    /// Tokens of the responder's pre-message (`<- s` before `...`).
    let responderPreMessage: [Token]
    /// The handshake messages; even indices are sent by the initiator, odd ones by the responder.
    private(set) var messages: [[Token]]

    /// Whether only the initiator ever sends (patterns N, K, X and their psk variants).
    var isOneWay: Bool { messages.count == 1 }

    /// Whether the pattern has a `psk` token, which makes every `e` token also call MixKey.
    var usesPreSharedKeys: Bool { messages.contains { $0.contains(.psk) } }

    /// Parses a pattern name such as `XX`, `NK1` or `NNpsk0` (a base pattern followed by
    /// `pskN` modifiers joined with `+`); `nil` for unknown names.
    init?(name: String) {
        let baseName = String(name.prefix { $0 != "p" })
        guard let notation = Self.basePatterns[baseName], var parsed = Self.parse(notation) else { return nil }
        let modifiers = name.dropFirst(baseName.count)
        if !modifiers.isEmpty {
            for modifier in modifiers.split(separator: "+") {
                guard modifier.hasPrefix("psk"), let position = Int(modifier.dropFirst(3)),
                      position <= parsed.messages.count else { return nil }
                // psk0 goes at the start of the first message; pskN at the end of message N.
                if position == 0 {
                    parsed.messages[0].insert(.psk, at: 0)
                } else {
                    parsed.messages[position - 1].append(.psk)
                }
            }
        }
        self = parsed
    }

    private init(initiatorPreMessage: [Token], responderPreMessage: [Token], messages: [[Token]]) {
        self.initiatorPreMessage = initiatorPreMessage
        self.responderPreMessage = responderPreMessage
        self.messages = messages
    }

    /// Parses lines of `-> tokens` / `<- tokens`, with optional pre-messages before `...`.
    private static func parse(_ notation: String) -> NoisePattern? {
        var preMessages: [String] = []
        var messageLines = notation.split(separator: "\n").map { String($0) }
        if let separator = messageLines.firstIndex(of: "...") {
            preMessages = Array(messageLines[..<separator])
            messageLines = Array(messageLines[(separator + 1)...])
        }
        func tokens(_ line: String) -> [Token]? {
            let list = line.dropFirst(3).split(separator: ",").map { String($0.filter { $0 != " " }) }
            let parsed = list.compactMap { Token(rawValue: $0) }
            return parsed.count == list.count ? parsed : nil
        }
        var initiatorPre: [Token] = []
        var responderPre: [Token] = []
        for line in preMessages {
            guard let parsed = tokens(line) else { return nil }
            if line.hasPrefix("->") { initiatorPre = parsed } else { responderPre = parsed }
        }
        var messages: [[Token]] = []
        for (index, line) in messageLines.enumerated() {
            // Messages alternate, starting with the initiator.
            guard line.hasPrefix(index.isMultiple(of: 2) ? "->" : "<-"), let parsed = tokens(line) else { return nil }
            messages.append(parsed)
        }
        return NoisePattern(initiatorPreMessage: initiatorPre, responderPreMessage: responderPre, messages: messages)
    }

    /// One-way (7.4), fundamental interactive (7.5) and deferred (7.6) patterns.
    private static let basePatterns: [String: String] = [
        "N": "<- s\n...\n-> e, es",
        "K": "-> s\n<- s\n...\n-> e, es, ss",
        "X": "<- s\n...\n-> e, es, s, ss",
        "NN": "-> e\n<- e, ee",
        "NK": "<- s\n...\n-> e, es\n<- e, ee",
        "NX": "-> e\n<- e, ee, s, es",
        "KN": "-> s\n...\n-> e\n<- e, ee, se",
        "KK": "-> s\n<- s\n...\n-> e, es, ss\n<- e, ee, se",
        "KX": "-> s\n...\n-> e\n<- e, ee, se, s, es",
        "XN": "-> e\n<- e, ee\n-> s, se",
        "XK": "<- s\n...\n-> e, es\n<- e, ee\n-> s, se",
        "XX": "-> e\n<- e, ee, s, es\n-> s, se",
        "IN": "-> e, s\n<- e, ee, se",
        "IK": "<- s\n...\n-> e, es, s, ss\n<- e, ee, se",
        "IX": "-> e, s\n<- e, ee, se, s, es",
        "NK1": "<- s\n...\n-> e\n<- e, ee, es",
        "NX1": "-> e\n<- e, ee, s\n-> es",
        "X1N": "-> e\n<- e, ee\n-> s\n<- se",
        "X1K": "<- s\n...\n-> e, es\n<- e, ee\n-> s\n<- se",
        "XK1": "<- s\n...\n-> e\n<- e, ee, es\n-> s, se",
        "X1K1": "<- s\n...\n-> e\n<- e, ee, es\n-> s\n<- se",
        "X1X": "-> e\n<- e, ee, s, es\n-> s\n<- se",
        "XX1": "-> e\n<- e, ee, s\n-> es, s, se",
        "X1X1": "-> e\n<- e, ee, s\n-> es, s\n<- se",
        "K1N": "-> s\n...\n-> e\n<- e, ee\n-> se",
        "K1K": "-> s\n<- s\n...\n-> e, es\n<- e, ee\n-> se",
        "KK1": "-> s\n<- s\n...\n-> e\n<- e, ee, se, es",
        "K1K1": "-> s\n<- s\n...\n-> e\n<- e, ee, es\n-> se",
        "K1X": "-> s\n...\n-> e\n<- e, ee, s, es\n-> se",
        "KX1": "-> s\n...\n-> e\n<- e, ee, se, s\n-> es",
        "K1X1": "-> s\n...\n-> e\n<- e, ee, s\n-> se, es",
        "I1N": "-> e, s\n<- e, ee\n-> se",
        "I1K": "<- s\n...\n-> e, es, s\n<- e, ee\n-> se",
        "IK1": "<- s\n...\n-> e, s\n<- e, ee, se, es",
        "I1K1": "<- s\n...\n-> e, s\n<- e, ee, es\n-> se",
        "I1X": "-> e, s\n<- e, ee, s, es\n-> se",
        "IX1": "-> e, s\n<- e, ee, se, s\n-> es",
        "I1X1": "-> e, s\n<- e, ee, s\n-> se, es",
    ]
}
