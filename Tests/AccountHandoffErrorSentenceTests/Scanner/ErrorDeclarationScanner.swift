/// A public type in the scanned sources that conforms to `Error` (directly, through a
/// protocol that refines it, or in an extension).
struct ScannedErrorType: Hashable, CustomStringConvertible {
    /// The module (target) that declares it.
    let module: String
    /// The name within the module; nested types are dotted, e.g. `Outer.Inner`.
    let name: String
    /// Whether its values are told apart by cases: an enum's own, or those of the nested
    /// `Kind` enum of a struct with a code (whose static members stand for the cases), or a
    /// struct, class or actor without one.
    let hasCases: Bool
    /// The case names (the enum's, or its `Kind`'s), in source order; empty for other kinds.
    let cases: [String]
    /// `path:line` of the declaration.
    let location: String

    /// The keys a sample must cover: `Module.Type.case` for each case, `Module.Type` otherwise.
    var keys: [String] { hasCases ? cases.map { "\(module).\(name).\($0)" } : ["\(module).\(name)"] }

    var description: String { "\(module).\(name) (\(location))" }
}

/// Finds the public error types and their cases in Swift sources, by reading declarations
/// the way the compiler nests them: comments and strings are blanked, braces are tracked,
/// and only `case` declarations directly in an enum's body count. A public error struct
/// with a nested `Kind` enum (a struct with a code, such as `HandoffError`) counts that
/// enum's cases as its own: they are what apps create through its static members.
struct ErrorDeclarationScanner {
    private var declarations: [Declaration] = []

    /// Reads one file of `module`; `path` is used in locations only.
    mutating func scan(source: String, module: String, path: String) {
        let tokens = SwiftTokens.tokens(of: SwiftCodeText.code(of: source))
        var parser = FileParser(tokens: tokens, module: module, path: path)
        parser.parse()
        declarations.append(contentsOf: parser.declarations)
    }

    /// The public error types of everything scanned, sorted by module and name.
    func errorTypes() -> [ScannedErrorType] {
        var errorProtocols: Set<String> = ["Error", "LocalizedError", "CustomNSError", "RecoverableError"]
        var grew = true
        while grew {
            grew = false
            for declaration in declarations where declaration.kind == "protocol" && !errorProtocols.contains(declaration.name)
                && !declaration.inherited.isDisjoint(with: errorProtocols) {
                errorProtocols.insert(declaration.name)
                grew = true
            }
        }
        let types = declarations.filter { ["enum", "struct", "class", "actor"].contains($0.kind) }
        let extensions = declarations.filter { $0.kind == "extension" }
        let typeAccess = Dictionary(types.map { ($0.name, $0.isAccessible) }, uniquingKeysWith: { $0 && $1 })
        // A struct with a code keeps its cases in a nested `Kind` enum of any access level,
        // declared in its body or in an extension of it.
        let kinds = Dictionary(types.filter { $0.kind == "enum" }.map { ("\($0.module).\($0.name)", $0.cases) },
                               uniquingKeysWith: { $0 + $1 })
        return types.compactMap { type in
            let ownerAccessible = type.extendedOwner.map { typeAccess[$0] ?? true } ?? true
            guard type.isAccessible && ownerAccessible else { return nil }
            let conforms = !type.inherited.isDisjoint(with: errorProtocols)
                || extensions.contains { $0.name == type.name && !$0.inherited.isDisjoint(with: errorProtocols) }
            guard conforms else { return nil }
            if type.kind == "struct", let cases = kinds["\(type.module).\(type.name).Kind"] {
                return ScannedErrorType(module: type.module, name: type.name, hasCases: true, cases: cases, location: type.location)
            }
            return ScannedErrorType(module: type.module, name: type.name, hasCases: type.kind == "enum", cases: type.cases,
                                    location: type.location)
        }
        .sorted { ($0.module, $0.name) < ($1.module, $1.name) }
    }
}

/// One type, protocol or extension declaration, before the error types are decided.
private struct Declaration {
    let module: String
    /// The dotted name within the module; for an extension, the extended type's name.
    let name: String
    /// `enum`, `struct`, `class`, `actor`, `protocol` or `extension`.
    let kind: String
    /// Public (or open), and so are the types it is nested in.
    let isAccessible: Bool
    /// The names in its inheritance clause.
    let inherited: Set<String>
    var cases: [String]
    let location: String
    /// For a type declared inside an extension: the extended type's name, whose access decides.
    let extendedOwner: String?
}

/// Walks one file's tokens with a stack of scopes.
private struct FileParser {
    private enum Scope {
        /// The body of a type (or an extension) with this index in `declarations`.
        case declaration(Int)
        /// Any other braces: a function, closure, accessor or statement body.
        case other
    }

    let tokens: [SwiftToken]
    let module: String
    let path: String
    private(set) var declarations: [Declaration] = []
    private var scopes: [Scope] = []
    private var pendingBody: Int?
    private var index = 0

    private static let typeKeywords: Set<String> = ["enum", "struct", "class", "actor", "protocol", "extension"]
    private static let modifiers: Set<String> = ["public", "open", "package", "internal", "private", "fileprivate", "final",
                                                 "indirect", "nonisolated", "sending", "consuming"]
    private static let notATypeAfterClass: Set<String> = ["func", "var", "let", "subscript", "init", "override", "final",
                                                          "static", "class", "{", ",", "&"]

    init(tokens: [SwiftToken], module: String, path: String) {
        self.tokens = tokens
        self.module = module
        self.path = path
    }

    private func token(_ offset: Int) -> String? { offset < tokens.count && offset >= 0 ? tokens[offset].text : nil }

    mutating func parse() {
        while index < tokens.count {
            let text = tokens[index].text
            switch text {
            case "{":
                scopes.append(pendingBody.map(Scope.declaration) ?? .other)
                pendingBody = nil
                index += 1
            case "}":
                _ = scopes.popLast()
                index += 1
            case "case" where isDirectlyInEnum:
                readCases()
            case _ where Self.typeKeywords.contains(text) && isTypeKeyword(at: index):
                readDeclaration()
            default:
                index += 1
            }
        }
    }

    private var currentDeclaration: Int? {
        if case .declaration(let found)? = scopes.last { return found }
        return nil
    }

    private var isDirectlyInEnum: Bool { currentDeclaration.map { declarations[$0].kind == "enum" } ?? false }

    private func isTypeKeyword(at offset: Int) -> Bool {
        guard let next = token(offset + 1) else { return false }
        if tokens[offset].text == "class" { return !Self.notATypeAfterClass.contains(next) && tokens[offset + 1].isIdentifier }
        // `.enum`, `.extension` and the like are member names, not keywords.
        return token(offset - 1) != "." && tokens[offset + 1].isIdentifier
    }

    /// The modifiers before the keyword at `offset`, skipping attributes such as `@frozen`.
    private func modifiers(before offset: Int) -> Set<String> {
        var found: Set<String> = []
        var cursor = offset - 1
        while cursor >= 0 {
            let text = tokens[cursor].text
            if Self.modifiers.contains(text) {
                found.insert(text)
            } else if cursor >= 1 && tokens[cursor - 1].text == "@" {
                cursor -= 1
            } else if text == ")", let attribute = attributeStart(closingAt: cursor) {
                cursor = attribute
            } else {
                break
            }
            cursor -= 1
        }
        return found
    }

    /// For `@attribute(...)` whose `)` is at `offset`: the offset of its `@`.
    private func attributeStart(closingAt offset: Int) -> Int? {
        var depth = 0
        var cursor = offset
        while cursor >= 0 {
            if tokens[cursor].text == ")" { depth += 1 }
            if tokens[cursor].text == "(" {
                depth -= 1
                if depth == 0 { break }
            }
            cursor -= 1
        }
        guard cursor >= 2, tokens[cursor - 2].text == "@" else { return nil }
        return cursor - 2
    }

    private mutating func readDeclaration() {
        let keywordOffset = index
        let kind = tokens[index].text
        index += 1
        var name = tokens[index].text
        index += 1
        while token(index) == ".", let part = token(index + 1), tokens[index + 1].isIdentifier {
            name += "." + part
            index += 2
        }
        skipGenericParameters()
        var inherited: Set<String> = []
        if token(index) == ":" {
            index += 1
            var depth = 0
            while let text = token(index), !(depth == 0 && (text == "{" || text == "where")) {
                if text == "<" || text == "(" { depth += 1 }
                if text == ">" || text == ")" { depth -= 1 }
                // `Swift.Error` yields `Swift` and `Error`; `Error` is what counts.
                if tokens[index].isIdentifier { inherited.insert(text) }
                index += 1
            }
        }
        let modifiers = modifiers(before: keywordOffset)
        let enclosing = scopes.map { scope -> Int? in
            if case .declaration(let found) = scope { return found }
            return nil
        }
        // A type inside a function body, or inside a non-public type, is not public API.
        let insideOther = enclosing.contains { $0 == nil }
        let owners = enclosing.compactMap { $0 }
        let ownersAccessible = owners.allSatisfy { declarations[$0].kind == "extension" || declarations[$0].isAccessible }
        let ownPublic = kind == "extension" || !modifiers.isDisjoint(with: ["public", "open"])
        let qualifiedName: String
        let extendedOwner: String?
        if kind == "extension" {
            qualifiedName = Self.withoutModulePrefix(name)
            extendedOwner = nil
        } else if let owner = owners.last {
            qualifiedName = declarations[owner].name + "." + name
            extendedOwner = declarations[owner].kind == "extension" ? declarations[owner].name : declarations[owner].extendedOwner
        } else {
            qualifiedName = name
            extendedOwner = nil
        }
        declarations.append(Declaration(module: module, name: qualifiedName, kind: kind,
                                        isAccessible: ownPublic && ownersAccessible && !insideOther, inherited: inherited,
                                        cases: [], location: "\(path):\(tokens[keywordOffset].line)", extendedOwner: extendedOwner))
        pendingBody = declarations.count - 1
    }

    private mutating func skipGenericParameters() {
        guard token(index) == "<" else { return }
        var depth = 0
        repeat {
            if token(index) == "<" { depth += 1 }
            if token(index) == ">" { depth -= 1 }
            index += 1
        } while depth > 0 && index < tokens.count
    }

    /// `case a, b(Int), c(x: T, y: U) = raw` directly in an enum body.
    private mutating func readCases() {
        guard let owner = currentDeclaration else { return }
        index += 1
        while let name = token(index), tokens[index].isIdentifier {
            declarations[owner].cases.append(name)
            let line = tokens[index].line
            index += 1
            if token(index) == "(" { skipBalanced() }
            if token(index) == "=" {
                while let text = token(index), text != ",", tokens[index].line == line || text == "=" { index += 1 }
            }
            guard token(index) == "," else { return }
            index += 1
        }
    }

    private mutating func skipBalanced() {
        var depth = 0
        repeat {
            if token(index) == "(" { depth += 1 }
            if token(index) == ")" { depth -= 1 }
            index += 1
        } while depth > 0 && index < tokens.count
    }

    /// `AccountHandoff.HandoffError` -> `HandoffError`: extensions may qualify with the module.
    private static func withoutModulePrefix(_ name: String) -> String {
        let parts = name.split(separator: ".")
        guard parts.count > 1, parts[0].hasPrefix("AccountHandoff") || parts[0] == "Swift" else { return name }
        return parts.dropFirst().joined(separator: ".")
    }
}
