/// A value put into a catalog sentence at one of its placeholders: text at `%@`, an integer
/// at `%lld`. Inserted as it is, never read as a format (``SentenceTemplate`` is the formatter).
package enum SentenceArgument: Sendable, Hashable {
    /// Text, for `%@` or `%N$@`.
    case text(String)
    /// An integer, for `%lld` or `%N$lld`.
    case integer(Int64)

    /// An integer of any width.
    package static func number(_ value: some BinaryInteger) -> SentenceArgument { .integer(Int64(value)) }

    /// The placeholder kind this argument fills.
    var kind: SentenceTemplate.Kind {
        switch self {
        case .text: .text
        case .integer: .integer
        }
    }

    var rendered: String {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        }
    }
}
