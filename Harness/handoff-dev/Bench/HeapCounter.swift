import HandoffCLI
import CHeapCounter

/// The heap allocations of the calling thread (calls to `malloc`, `calloc`, `realloc`,
/// `memalign`, `posix_memalign` and `aligned_alloc`) while ``measure(_:)`` runs: on Linux with
/// glibc, the bench's process allocates through counting forwarders to glibc's allocator (the
/// `CHeapCounter` target); elsewhere there is no count. Scripts/allocations.sh counts the same
/// calls under callgrind, with the sites they come from.
enum HeapCounter {
    /// Runs `body` on this thread and returns it with the heap allocations it made, or `nil`
    /// where they cannot be counted. Measurements do not nest, nor run on two threads at once.
    static func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> (Result, Int?) {
        guard handoff_heap_counter_start() == 1 else { return (try body(), nil) }
        let result: Result
        do {
            result = try body()
        } catch {
            _ = handoff_heap_counter_stop()
            throw error
        }
        return (result, Int(handoff_heap_counter_stop()))
    }
}
