import AccountHandoffDiscovery
import AccountHandoffTransport
import Foundation

// Advertises or browses through AccountHandoffDiscovery's Avahi adapter and prints what
// happens, one tab-separated line per event, for the namespace tests (each host runs it with
// its own DBUS_SYSTEM_BUS_ADDRESS). Standard input: `withdraw` (advertise), or its end (stop).
//
//   dnssd-probe advertise NAMEPLATE PORT [REDRAW,...]   the sender's side, redrawing from the list
//   dnssd-probe browse NAMEPLATE,... MILLISECONDS [public]  the receiver's side: events, then a decision a nameplate
//   dnssd-probe watch                                    every found and removed service until stdin ends

#if os(Linux)
let arguments = Array(CommandLine.arguments.dropFirst())

/// Writes one line at once (standard output is a pipe: no buffering may hold it back).
func say(_ fields: String...) {
    FileHandle.standardOutput.write(Data((fields.map(printable).joined(separator: "\t") + "\n").utf8))
}

/// A network string made safe for a line of this output.
func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7f ? Character($0) : "?" })
}

func name(_ error: DiscoveryError) -> String {
    switch error {
    case .daemonNotRunning: "daemonNotRunning"
    case .daemonStopped: "daemonStopped"
    case .notPermitted: "notPermitted"
    case .daemonBusy: "daemonBusy"
    case .failed: "failed"
    }
}

func describe(_ event: DNSSDBrowserEvent) {
    switch event {
    case .found(let service):
        let address = switch service.address {
        case .ipv4(let address): address.description
        case .other: "other"
        }
        let txt = service.txtEntries.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",")
        say("found", service.instanceName, String(service.interfaceIndex), address, String(service.port), txt)
        if case .failure(let reason) = Result(catching: { () throws(DiscoveryIgnoreReason) in try service.advertisedNameplate() }) {
            say("ignored", service.instanceName, "\(reason)")
        }
    case .removed(let key):
        say("removed", key.instanceName, String(key.interfaceIndex))
    case .failed(let error):
        say("error", name(error), error.description)
    }
}

/// Lines of standard input, read on a thread of their own; `nil` at its end.
func standardInputLines() -> AsyncStream<String?> {
    AsyncStream { continuation in
        Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.yield(nil)
            continuation.finish()
        }.start()
    }
}

func advertise(_ nameplate: DiscoveryNameplate, port: UInt16, redraws: [DiscoveryNameplate]) async -> Int32 {
    let pending = Queue(redraws)
    let advertisement = SenderAdvertisement(advertiser: AvahiAdvertiser(), nameplate: nameplate, port: port) {
        let next = pending.next() ?? DiscoveryNameplate(Int.random(in: 0...999))!
        say("drew", next.digits)
        return next
    }
    await advertisement.start()
    Task {
        for await line in standardInputLines() where line == nil || line == "withdraw" {
            await advertisement.withdraw()
        }
    }
    var status: Int32 = 0
    for await update in advertisement.updates {
        switch update {
        case .registering(let nameplate): say("registering", nameplate.digits)
        case .showCode(let nameplate): say("established", nameplate.digits)
        case .collided(let nameplate): say("collided", nameplate.digits)
        case .stopped(.withdrawn): say("stopped", "withdrawn")
        case .stopped(.namesTaken(let collisions)):
            say("stopped", "namesTaken", String(collisions))
            status = 3
        case .stopped(.discoveryFailed(let error)):
            say("stopped", "failed", name(error), error.description)
            status = 1
        }
    }
    return status
}

func browse(_ nameplates: [DiscoveryNameplate], milliseconds: Int, policy: DirectAddressPolicy) async -> Int32 {
    do throws(DiscoveryError) {
        // One nameplate: resolve only its service, as a receiver does; several: every sender's.
        let browser = AvahiBrowser(lookingFor: nameplates.count == 1 ? nameplates[0] : nil)
        let collection = try await ReceiverDiscovery.collect(with: browser, for: .milliseconds(milliseconds)) { describe($0) }
        for nameplate in nameplates {
            switch collection.decision(for: nameplate, policy: policy) {
            case .connect(let address, let port): say("decision", nameplate.digits, "connect", address.description, String(port))
            case .notFound: say("decision", nameplate.digits, "notFound")
            case .ambiguous(let endpoints): say("decision", nameplate.digits, "ambiguous", String(endpoints))
            case .refused(let address, let refusal): say("decision", nameplate.digits, "refused", address.description, "\(refusal)")
            }
        }
        return 0
    } catch {
        return 1
    }
}

func watch() async -> Int32 {
    let browser = AvahiBrowser()
    Task {
        for await line in standardInputLines() where line == nil { browser.stop() }
    }
    var status: Int32 = 0
    for await event in browser.events {
        describe(event)
        if case .failed = event { status = 1 }
    }
    return status
}

/// The nameplates to draw, in order.
final class Queue: @unchecked Sendable {
    // Safety of @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [DiscoveryNameplate]
    init(_ items: [DiscoveryNameplate]) { self.items = items }
    func next() -> DiscoveryNameplate? { lock.withLock { items.isEmpty ? nil : items.removeFirst() } }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: dnssd-probe advertise NAMEPLATE PORT [N,...] | browse NAMEPLATE,... MILLISECONDS [public] | watch\n".utf8))
    exit(64)
}

let status: Int32
switch arguments.first {
case "advertise":
    guard arguments.count >= 3, let nameplate = DiscoveryNameplate(digits: arguments[1]), let port = UInt16(arguments[2]) else { usage() }
    let redraws = arguments.count > 3 ? arguments[3].split(separator: ",").compactMap { DiscoveryNameplate(digits: $0) } : []
    status = await advertise(nameplate, port: port, redraws: redraws)
case "browse":
    let nameplates = arguments.count >= 3 ? arguments[1].split(separator: ",").compactMap { DiscoveryNameplate(digits: $0) } : []
    guard !nameplates.isEmpty, let milliseconds = Int(arguments[2]) else { usage() }
    status = await browse(nameplates, milliseconds: milliseconds, policy: DirectAddressPolicy(allowsPublicAddresses: arguments.count > 3))
case "watch":
    status = await watch()
default:
    usage()
}
exit(status)
#else
print("dnssd-probe needs Avahi (Linux).")
exit(69)
#endif
