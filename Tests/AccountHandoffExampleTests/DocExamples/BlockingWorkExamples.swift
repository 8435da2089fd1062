import AccountHandoff
import AccountHandoffImport

// The examples about blocking work: the I/O pool's doc comment and the DocC article. Each is
// the body of a function whose parameters are the example's free names.

// example: Sources/AccountHandoff/BlockingIO/BlockingIOPool.swift#1
func blockingIOPoolExample(path: String) async throws -> ReceiverRegistry {
    let registry = try await BlockingIOPool.shared.run { _ in
        try ReceiverRegistry(storage: FileRegistryStorage(path: path))
    }
    return registry
}

// example: Sources/AccountHandoff/AccountHandoff.docc/BlockingWork.md#1
func blockingWorkRegistryExample(path: String) async throws -> ReceiverRegistry {
    let registry = try await BlockingIOPool.shared.run { _ in
        try ReceiverRegistry(storage: FileRegistryStorage(path: path))
    }
    return registry
}

// example: Sources/AccountHandoff/AccountHandoff.docc/BlockingWork.md#2
func blockingWorkCancellationExample(coordinator: ImportCoordinator) async throws -> RecoveryReport? {
    let report = try await BlockingIOPool.shared.run { cancellation in
        cancellation.isCancelled ? nil : try coordinator.recover()
    }
    return report
}
