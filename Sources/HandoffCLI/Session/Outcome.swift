import AccountHandoff
import Foundation

extension ExitCode {
    /// The exit code of a sender's outcome.
    init(_ outcome: SenderOutcome) {
        switch outcome {
        case .completed(let status): self.init(status)
        case .deliveredUnconfirmed: self = .deliveredUnconfirmed
        case .ended(let end): self.init(end)
        }
    }

    /// The exit code of a receiver's outcome.
    init(_ outcome: ReceiverOutcome) {
        switch outcome {
        case .completed(let status): self.init(status)
        case .ended(let end): self.init(end)
        }
    }

    private init(_ status: ReceiptStatus) {
        switch status {
        case .imported: self = .success
        case .declined: self = .rejected
        case .cancelled: self = .cancelled
        case .validationFailed, .storeFailed: self = .failure
        }
    }

    private init(_ end: SessionEnd) {
        switch end {
        case .cancelled: self = .cancelled
        case .rejected: self = .rejected
        case .contested: self = .contested
        case .storeUnavailable: self = .failure
        case .notAuthenticated: self = .notAuthenticated
        case .expired: self = .expired
        case .failed: self = .failure
        }
    }
}

/// Durations for people.
enum Durations {
    /// `the code expires in 2 min 5 s`, or `the code has expired` (in the CLI's language).
    static func left(until expiry: Date, now: Date = Date()) -> String {
        let seconds = Int(expiry.timeIntervalSince(now).rounded(.up))
        return seconds > 0
            ? sentenceCatalog.sentence("time.expiresIn", .text(text(seconds)), in: .cli) : sentenceCatalog.sentence("time.expired", in: .cli)
    }

    /// `2 min 5 s`, `45 s`, for time left or passed.
    static func text(_ seconds: Int) -> String {
        let value = abs(seconds)
        if value >= 60 { return "\(value / 60) min \(value % 60) s" }
        return "\(value) s"
    }
}
