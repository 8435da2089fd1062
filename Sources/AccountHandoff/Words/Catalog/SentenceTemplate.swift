/// One catalog sentence, parsed: literal text and typed placeholders. The formats are the
/// String Catalog's: `%@` (text), `%lld` (integer), positional `%1$@`/`%2$lld` where a language
/// orders them differently, and `%%` for a percent sign. Nothing else is accepted, and a
/// sentence uses either sequential or positional placeholders, not both.
package struct SentenceTemplate: Sendable, Equatable {
    /// What a placeholder takes.
    package enum Kind: String, Sendable, Equatable {
        case text = "@"
        case integer = "lld"
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case argument(index: Int, kind: Kind)
    }

    let segments: [Segment]

    /// The kind of each argument, by position (the first argument first): the same for every
    /// language of one key.
    package let signature: [Kind]

    /// Parses `text`.
    /// - Throws: ``SentenceCatalogError/invalidPlaceholder(key:language:)`` for a `%` that is
    ///   not one of the formats above, a gap in positions, a position used with two kinds, or
    ///   sequential and positional placeholders mixed.
    package init(_ text: String, key: String, language: String) throws(SentenceCatalogError) {
        let invalid = SentenceCatalogError.invalidPlaceholder(key: key, language: language)
        var segments: [Segment] = []
        var literal = ""
        var kinds: [Int: Kind] = [:]
        var sequentialCount = 0
        var positional = false
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            literal += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" {
                literal += "%"
                rest = rest.dropFirst()
                continue
            }
            var index: Int
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                guard rest.dropFirst(digits.count).first == "$", let position = Int(digits), position >= 1, position <= 9 else {
                    throw invalid
                }
                index = position - 1
                positional = true
                rest = rest.dropFirst(digits.count + 1)
            } else {
                index = sequentialCount
                sequentialCount += 1
            }
            let kind: Kind
            if rest.hasPrefix("@") {
                kind = .text
            } else if rest.hasPrefix("lld") {
                kind = .integer
            } else {
                throw invalid
            }
            rest = rest.dropFirst(kind.rawValue.count)
            guard kinds[index] == nil || kinds[index] == kind else { throw invalid }
            kinds[index] = kind
            if !literal.isEmpty { segments.append(.literal(literal)) }
            literal = ""
            segments.append(.argument(index: index, kind: kind))
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        guard !(positional && sequentialCount > 0) else { throw invalid }
        let signature = (0..<kinds.count).compactMap { kinds[$0] }
        guard signature.count == kinds.count else { throw invalid }
        self.segments = segments
        self.signature = signature
    }

    /// The sentence with `arguments` in its placeholders, inserted as they are; nil when
    /// their kinds differ from ``signature``.
    package func render(_ arguments: [SentenceArgument]) -> String? {
        guard arguments.map(\.kind) == signature else { return nil }
        var sentence = ""
        for segment in segments {
            switch segment {
            case .literal(let text): sentence += text
            case .argument(let index, _): sentence += arguments[index].rendered
            }
        }
        return sentence
    }
}
