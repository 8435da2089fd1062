import AccountHandoff
import CCurl
import Foundation

/// Runs one libcurl easy handle's transfer through a multi handle of its own, so that a
/// cancellation ends the transfer at once, in whatever state it waits (name lookup, TCP
/// connect, a TLS handshake with a silent server, an IMAP response).
///
/// `curl_easy_perform` runs this same loop inside libcurl (`curl_multi_perform`, then
/// `curl_multi_poll`), but it can be stopped only from its progress callback, which runs when
/// libcurl's own wait ends (with libcurl 7.88.1 while a TLS handshake waits: about every
/// 200 ms). Here the loop is ours: a cancellation calls `curl_multi_wakeup`, which ends the
/// current `curl_multi_poll` at once (or makes the next one return at once), and the loop
/// checks the cancellation after every wake. The transfer is then removed from the multi
/// handle before it finished, which closes its connection without any further exchange.
enum CurlCancellableTransfer {
    /// How a transfer ended.
    enum Outcome: Equatable {
        /// The transfer ended with this result: `CURLE_OK`, libcurl's failure, or, when the
        /// multi interface itself failed, `CURLE_OUT_OF_MEMORY` or `CURLE_FAILED_INIT`.
        case finished(CURLcode)
        /// The cancellation was set before the transfer finished.
        case cancelled
    }

    /// Runs `handle`'s transfer to its end or to `cancellation`. Blocks the calling thread.
    static func perform(_ handle: UnsafeMutableRawPointer, cancellation: BlockingIOCancellation) -> Outcome {
        guard let multi = curl_multi_init() else { return .finished(CURLE_OUT_OF_MEMORY) }
        defer { curl_multi_cleanup(multi) }
        let added = curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else { return failed(added) }
        defer { curl_multi_remove_handle(multi, handle) }

        let wakeup = MultiWakeup(multi)
        let key = cancellation.whenCancelled { wakeup.wake() }
        // Runs before the cleanups above: after `retire()` no wake can touch the multi handle.
        defer {
            cancellation.forgetHandler(key)
            wakeup.retire()
        }

        var running: Int32 = 1
        while true {
            let performed = BlockingCall.run("curl_multi_perform") { curl_multi_perform(multi, &running) }
            guard performed == CURLM_OK else { return failed(performed) }
            if running == 0 { return .finished(result(of: handle, in: multi)) }
            if cancellation.isCancelled { return .cancelled }
            let polled = BlockingCall.run("curl_multi_poll") { curl_multi_poll(multi, nil, 0, 1000, nil) }
            guard polled == CURLM_OK else { return failed(polled) }
        }
    }

    /// A failure of the multi interface itself, as the transfer's result.
    private static func failed(_ code: CURLMcode) -> Outcome {
        .finished(code == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT)
    }

    /// The result of the finished transfer of `handle`.
    private static func result(of handle: UnsafeMutableRawPointer, in multi: UnsafeMutableRawPointer) -> CURLcode {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE, message.pointee.easy_handle == handle {
                return message.pointee.data.result
            }
        }
        // A finished transfer always leaves its message; this is libcurl breaking its contract.
        return CURLE_FAILED_INIT
    }
}

/// The multi handle as far as a cancellation on another thread may use it: `curl_multi_wakeup`
/// (documented as callable from any thread) until the transfer's thread retires it, which
/// waits for a wake in progress, so no wake ever reaches a multi handle being cleaned up.
private final class MultiWakeup: @unchecked Sendable {
    // Safety of @unchecked Sendable: `multi` is only read or cleared under `lock`.
    private let lock = NSLock()
    private var multi: UnsafeMutableRawPointer?

    init(_ multi: UnsafeMutableRawPointer) {
        self.multi = multi
    }

    /// Wakes the transfer's `curl_multi_poll`, unless the transfer has ended.
    func wake() {
        lock.withLock {
            guard let multi else { return }
            _ = curl_multi_wakeup(multi)
        }
    }

    /// Ends the wakes: after this returns, ``wake()`` does nothing.
    func retire() {
        lock.withLock { multi = nil }
    }
}
