/// `Joining_Type` of Unicode 14.0 (`ArabicShaping.txt`), as far as CONTEXTJ needs it (Spec 3.7, T3).
///
/// Code points not listed in the table have Joining_Type T when their category is Mn, Me or
/// Cf, and U otherwise.
enum JoiningType: Equatable {
    case right, left, dual, joinCausing, transparent, nonJoining

    static func of(_ scalar: Unicode.Scalar) -> JoiningType {
        if let listed = table(scalar.value) { return listed }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return .transparent
        default: return .nonJoining
        }
    }

    /// The explicitly listed values. (Preliminary: the main Arabic block; completed from
    /// ArabicShaping.txt.)
    private static func table(_ value: UInt32) -> JoiningType? {
        switch value {
        case 0x0622...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677,
             0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF:
            return .right
        case 0x0620, 0x0626, 0x0628, 0x062A...0x062E, 0x0633...0x063F, 0x0641...0x0647, 0x0649, 0x064A,
             0x066E, 0x066F, 0x0678...0x0687, 0x069A...0x06BF, 0x06C1, 0x06C2, 0x06CC, 0x06CE, 0x06D0, 0x06D1,
             0x06FA...0x06FC, 0x06FF:
            return .dual
        case 0x0640, 0x07FA, 0x0883...0x0885, 0x180A, 0x200D:
            return .joinCausing
        default:
            return nil
        }
    }
}
