import Foundation
import Testing

/// Every test asserts a concrete outcome (CONTRIBUTING.md): each `@Test` function under Tests/
/// contains `#expect`, `#require` or `Issue.record`, or calls a function of Tests/ that does
/// (found transitively, by name). A test that only runs code passes whatever the code does.
/// When this check was written it found two: `SecureMemoryBenchmark.allocateReleasePairs` and
/// `TransportMeasurementTests.idleCPUOfAWaitingSender`, which printed measurements only.
@Suite struct EveryTestAssertsTests {
    /// One function of a source file: its name, whether it is a `@Test`, its line, and its body.
    struct Function {
        let name: String
        let isTest: Bool
        let line: Int
        let body: String
    }

    static let assertions = ["#expect", "#require", "Issue.record"]

    /// `source` with comments and string literals blanked out (newlines kept, so lines still
    /// count), so that an assertion or a brace inside them is not taken for code.
    static func code(of source: String) -> String {
        let characters = Array(source)
        var result: [Character] = []
        result.reserveCapacity(characters.count)
        var index = 0
        func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "/", at(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", at(1) == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && at(1) == "/") {
                    if characters[index] == "\n" { result.append("\n") }
                    index += 1
                }
                index += 2
            } else if character == "#" || character == "\"" {
                // A string literal, raw (`#"..."#`) or not, single- or multi-line.
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    result.append(character)
                    index += 1
                    continue
                }
                index += hashes
                let multiline = at(0) == "\"" && at(1) == "\"" && at(2) == "\""
                index += multiline ? 3 : 1
                let closing = Array(repeating: "\"", count: multiline ? 3 : 1) + Array(repeating: Character("#"), count: hashes)
                result.append("\"")
                while index < characters.count {
                    if characters[index] == "\\", hashes == 0 {
                        // An escape; an interpolation `\(...)` is code, kept with its parentheses.
                        if at(1) == "(" {
                            var depth = 0
                            index += 1
                            repeat {
                                if characters[index] == "(" { depth += 1 }
                                if characters[index] == ")" { depth -= 1 }
                                result.append(characters[index])
                                index += 1
                            } while depth > 0 && index < characters.count
                            continue
                        }
                        index += 2
                        continue
                    }
                    if Array(characters[index..<min(index + closing.count, characters.count)]) == closing {
                        index += closing.count
                        break
                    }
                    if characters[index] == "\n" { result.append("\n") }
                    index += 1
                }
                result.append("\"")
            } else {
                result.append(character)
                index += 1
            }
        }
        return String(result)
    }

    /// Every function with a body in `source` (comments and strings ignored).
    static func functions(in source: String) -> [Function] {
        let text = Array(code(of: source))
        var found: [Function] = []
        var index = 0
        let keyword = Array("func ")
        while index + keyword.count < text.count {
            guard Array(text[index..<index + keyword.count]) == keyword,
                  index == 0 || !(text[index - 1].isLetter || text[index - 1].isNumber || text[index - 1] == "_") else {
                index += 1
                continue
            }
            let nameStart = index + keyword.count
            var nameEnd = nameStart
            while nameEnd < text.count, text[nameEnd].isLetter || text[nameEnd].isNumber || text[nameEnd] == "_" { nameEnd += 1 }
            let name = String(text[nameStart..<nameEnd])
            // The attributes since the previous declaration's end: is it a `@Test`?
            var back = index - 1
            while back >= 0, text[back] != "}", text[back] != "{", text[back] != ";" { back -= 1 }
            let preamble = String(text[(back + 1)..<index])
            let isTest = preamble.contains("@Test")
            // The body: the first `{` at parenthesis depth 0 after the name, to its match.
            var cursor = nameEnd
            var parentheses = 0
            while cursor < text.count {
                if text[cursor] == "(" { parentheses += 1 }
                if text[cursor] == ")" { parentheses -= 1 }
                // A protocol's requirement has no body: its protocol's `}` (or a property's
                // `{ get }`, which holds no assertion) comes first.
                if parentheses == 0, text[cursor] == "{" || text[cursor] == "}" { break }
                cursor += 1
            }
            guard cursor < text.count, text[cursor] == "{" else {
                index = nameEnd
                continue
            }
            var depth = 0
            var end = cursor
            repeat {
                if text[end] == "{" { depth += 1 }
                if text[end] == "}" { depth -= 1 }
                end += 1
            } while depth > 0 && end < text.count
            let line = text[0..<index].filter { $0 == "\n" }.count + 1
            found.append(Function(name: name, isTest: isTest, line: line, body: String(text[cursor..<end])))
            index = nameEnd
        }
        return found
    }

    /// The names `body` calls: identifiers followed by `(` or by a trailing closure's `{`.
    static func calledNames(in body: String) -> Set<String> {
        var names = Set<String>()
        let characters = Array(body)
        var index = 0
        while index < characters.count {
            guard characters[index].isLetter || characters[index] == "_" else {
                index += 1
                continue
            }
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                index += 1
            }
            var next = index
            while next < characters.count, characters[next] == " " { next += 1 }
            if next < characters.count, characters[next] == "(" || characters[next] == "{" { names.insert(String(characters[start..<index])) }
        }
        return names
    }

    /// Whether `body` calls `name` (`name(`, `.name(`, `name {` for a trailing closure).
    static func calls(_ body: String, _ name: String) -> Bool { calledNames(in: body).contains(name) }

    /// The `@Test` functions under Tests/ that assert nothing, as `path:line: name`, and how
    /// many tests there are. A call counts as an assertion when every function of that name
    /// asserts: those of the calling file when it has any (a file's own helper), else those of
    /// all Tests/ (names are not types: an ambiguous name counts only when no reading of it is
    /// silent).
    static func testsThatAssertNothing() throws -> (tests: Int, silent: [String]) {
        var all: [(path: String, function: Function)] = []
        for path in try DocumentationScan.files(under: "Tests", ending: ".swift") {
            all += functions(in: try DocumentationScan.read(path)).map { (path, $0) }
        }
        let helpers = all.indices.filter { !all[$0].function.isTest }
        let byName = Dictionary(grouping: helpers) { all[$0].function.name }
        var asserting = Set<Int>()
        func resolves(_ name: String, from path: String) -> Bool {
            guard let definitions = byName[name] else { return false }
            let local = definitions.filter { all[$0].path == path }
            return (local.isEmpty ? definitions : local).allSatisfy(asserting.contains)
        }
        let called = all.map { calledNames(in: $0.function.body).filter { byName[$0] != nil } }
        let direct = all.map { entry in assertions.contains(where: entry.function.body.contains) }
        func asserts(_ index: Int) -> Bool {
            direct[index] || called[index].contains { resolves($0, from: all[index].path) }
        }
        var grew = true
        while grew {
            grew = false
            for index in helpers where !asserting.contains(index) && asserts(index) {
                asserting.insert(index)
                grew = true
            }
        }
        let tests = all.indices.filter { all[$0].function.isTest }
        let silent = tests.filter { !asserts($0) }.map { "\(all[$0].path):\(all[$0].function.line): \(all[$0].function.name)" }
        return (tests.count, silent)
    }

    @Test func everyTestAssertsSomething() throws {
        let (tests, silent) = try Self.testsThatAssertNothing()
        #expect(tests > 800, "the scan found only \(tests) tests")
        #expect(silent.isEmpty, "tests that assert nothing: \(silent.joined(separator: "; "))")
    }

    @Test func theScanTellsAssertingTestsFromSilentOnes() {
        let expect = "#" + "expect"
        let source = """
            @Suite struct Sample {
                @Test func asserts() { \(expect)(1 == 1) }
                @Test(arguments: [1, 2]) func silent(_ value: Int) {
                    let text = "\(expect)(in a string)"  // \(expect) in a comment
                    _ = text
                }
                @Test func callsAHelper() throws { try helper() }
                func helper() throws { try check() }
                func check() throws { \(expect)(true) }
                /* @Test func commented() {} */
            }
            """
        let functions = Self.functions(in: source)
        #expect(functions.map(\.name) == ["asserts", "silent", "callsAHelper", "helper", "check"])
        #expect(functions.filter(\.isTest).map(\.name) == ["asserts", "silent", "callsAHelper"])
        #expect(functions.first { $0.name == "silent" }.map { $0.body.contains(expect) } == false)
        #expect(Self.calls("{ try helper() }", "helper") && !Self.calls("{ helpers() }", "helper") && !Self.calls("{ myhelper() }", "helper"))
    }
}
