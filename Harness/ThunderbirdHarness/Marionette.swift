#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A client of Marionette, Thunderbird's remote-control protocol (the one its own tests use):
/// messages are `LENGTH:JSON`, a command is `[0, id, name, parameters]` and its answer
/// `[1, id, error, result]`. The tests use it to make Thunderbird itself set up an account and
/// save its password, and to ask Thunderbird what a profile holds.
package final class Marionette {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0

    /// Why a command failed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Connects to 127.0.0.1:`port`, waiting up to `timeout` for Thunderbird to listen, and
    /// opens a session in Thunderbird's chrome (privileged) context.
    package init(port: UInt16, timeout: Duration = .seconds(60)) throws(Failure) {
        let deadline = ContinuousClock.now + timeout
        var connected: Int32 = -1
        while connected < 0 {
            let candidate = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(candidate, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if status == 0 {
                connected = candidate
            } else {
                close(candidate)
                guard ContinuousClock.now < deadline else { throw Failure(description: "Marionette on port \(port) did not answer") }
                usleep(200_000)
            }
        }
        socket = connected
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = try receive()  // the server's greeting
        _ = try command("WebDriver:NewSession", ["capabilities": [String: Any]()])
        _ = try command("Marionette:SetContext", ["value": "chrome"])
    }

    deinit { close(socket) }

    /// Runs `script` (asynchronous JavaScript that calls its last argument with a JSON value)
    /// in Thunderbird's chrome context; the value.
    package func execute(_ script: String) throws(Failure) -> Any? {
        let result = try command("WebDriver:ExecuteAsyncScript", ["script": script, "args": [Any](), "scriptTimeout": 60_000])
        return (result as? [String: Any])?["value"]
    }

    /// Asks Thunderbird to quit (it saves its files first).
    package func quit() {
        _ = try? command("Marionette:Quit", ["flags": ["eAttemptQuit"]])
    }

    private func command(_ name: String, _ parameters: [String: Any]) throws(Failure) -> Any? {
        nextID += 1
        let id = nextID
        guard let body = try? JSONSerialization.data(withJSONObject: [0, id, name, parameters] as [Any]) else {
            throw Failure(description: "the parameters of \(name) are not JSON")
        }
        let message = Array("\(body.count):".utf8) + Array(body)
        var offset = 0
        while offset < message.count {
            let sent = message.withUnsafeBytes { send(socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "sending \(name) failed") }
            offset += sent
        }
        while true {
            guard let answer = try receive() as? [Any], answer.count == 4, answer[0] as? Int == 1 else { continue }
            guard answer[1] as? Int == id else { continue }
            if let error = answer[2] as? [String: Any] {
                throw Failure(description: "\(name): \(error["error"] ?? "") \(error["message"] ?? "")")
            }
            return answer[3]
        }
    }

    private func receive() throws(Failure) -> Any? {
        while true {
            if let colon = buffer.firstIndex(of: UInt8(ascii: ":")),
               let length = Int(String(decoding: buffer[..<colon], as: UTF8.self)), buffer.count > colon + length {
                let body = Array(buffer[(colon + 1)...(colon + length)])
                buffer.removeFirst(colon + 1 + length)
                return try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure(description: "Marionette closed the connection") }
            buffer += chunk[..<count]
        }
    }
}
