internal import CZbar
import AccountHandoff

/// zbar's video processor without a window (the only file that calls it): frames from the
/// camera until one holds a transfer code or the time is up.
enum ZBarCamera {
    static func transferCode(device: String, timeoutSeconds: Int, watching: () -> Void) throws(QRScanError) -> SessionPayload {
        guard let processor = zbar_processor_create(0) else { throw .camera(.unavailable(device: device, .outOfMemory)) }
        defer { zbar_processor_destroy(processor) }
        func failure() -> QRScanError { .camera(.unavailable(device: device, kind(zbar_processor_get_error_code(processor)))) }
        guard zbar_processor_set_config(processor, ZBAR_NONE, ZBAR_CFG_ENABLE, 0) == 0,
              zbar_processor_set_config(processor, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1) == 0,
              zbar_processor_set_config(processor, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1) == 0 else { throw failure() }
        guard zbar_processor_init(processor, device, 0) == 0 else { throw failure() }
        guard zbar_processor_set_active(processor, 1) == 0 else { throw failure() }
        defer { zbar_processor_set_active(processor, 0) }
        watching()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeoutSeconds)
        var lastRefusal: ScannedCodeRefusal?
        while clock.now < deadline {
            let left = clock.now.duration(to: deadline).components
            let milliseconds = Int32(clamping: left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000 + 1)
            let found = zbar_process_one(processor, milliseconds)
            guard found >= 0 else { throw failure() }
            guard found > 0, let results = zbar_processor_get_results(processor) else { continue }
            let codes = ZBarQRScanner.symbols(from: zbar_symbol_set_first_symbol(results))
            zbar_symbol_set_ref(results, -1)
            do { return try TransferCodeChoice.transferCode(among: codes) } catch { lastRefusal = error }
        }
        if let lastRefusal { throw .refused(lastRefusal) }
        throw .camera(.noCodeSeen(device: device, seconds: timeoutSeconds))
    }

    private static func kind(_ code: zbar_error_t) -> ZBarErrorKind {
        switch code {
        case ZBAR_ERR_NOMEM: .outOfMemory
        case ZBAR_ERR_INTERNAL: .internalError
        case ZBAR_ERR_UNSUPPORTED: .unsupported
        case ZBAR_ERR_INVALID: .invalidRequest
        case ZBAR_ERR_SYSTEM: .systemError
        case ZBAR_ERR_LOCKING: .lockingError
        case ZBAR_ERR_BUSY: .busy
        case ZBAR_ERR_XDISPLAY, ZBAR_ERR_XPROTO, ZBAR_ERR_WINAPI: .displayError
        case ZBAR_ERR_CLOSED: .closed
        default: .other
        }
    }
}
