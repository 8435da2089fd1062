import AccountHandoff

/// A random source that hands out chosen byte blocks, one whole block per `fill`, for tests
/// and vectors that pin what a draw does with given bytes (a rejected draw, a zero scalar, a
/// side that must be drawn again). It records the size of every request, so a test can check
/// the order of the draws too.
///
/// - Warning: Test support only; never use it in an app.
package final class ScriptedRandom: RandomSource {
    private var blocks: [[UInt8]]
    private let repeating: [UInt8]?
    /// The byte count of every `fill`, in order.
    package private(set) var requestedCounts: [Int] = []

    /// Hands out `blocks` in order, then `repeating` for every later request (when given).
    package init(_ blocks: [[UInt8]], thenRepeating repeating: [UInt8]? = nil) {
        self.blocks = blocks
        self.repeating = repeating
    }

    /// Fills `buffer` with the next block, which must have exactly its size.
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        requestedCounts.append(buffer.count)
        let block: [UInt8]
        if !blocks.isEmpty {
            block = blocks.removeFirst()
        } else if let repeating {
            block = repeating
        } else {
            preconditionFailure("the script has no block left for a draw of \(buffer.count) bytes")
        }
        precondition(block.count == buffer.count, "a scripted block of \(block.count) bytes for a draw of \(buffer.count)")
        buffer.copyBytes(from: block)
    }
}
