extension ShortCodeFormatter {
    /// The spoken form of a typed code (Spec 12.4): each digit as a word, the words of a group
    /// apart by ``wordSeparator``, the groups of 3, 4 and 4 digits apart by ``groupSeparator``.
    /// English gives `"four two seven, eight one five zero, nine three six six"`.
    ///
    /// - Precondition: the code has not been wiped.
    public func accessibilityLabel(for code: TypedCode) -> String {
        let words = code.digits.utf8.map { digitWords[Int($0 - 0x30)] }
        return TypedCode.groups(of: words).map { $0.joined(separator: wordSeparator) }.joined(separator: groupSeparator)
    }
}
