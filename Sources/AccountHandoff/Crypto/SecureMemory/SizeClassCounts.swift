/// One count per size class of the pool (``SlotLayout/sizeClasses``), stored inline: a
/// reservation's books change on every allocation it serves, and counts in an `Array` would
/// be copied onto the heap whenever a record is read out of the pool's table and written back.
struct SizeClassCounts: Sendable {
    /// As many as ``SlotLayout/sizeClasses`` has entries (checked by ``init(_:)``).
    static let count = 8
    private var storage: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// All zero.
    init() {
        assert(SlotLayout.sizeClasses.count == Self.count, "one count per size class")
    }

    /// The counts of `array`, one per size class.
    init(_ array: [Int]) {
        precondition(array.count == Self.count, "one count per size class")
        for index in array.indices { self[index] = array[index] }
    }

    subscript(sizeClass: Int) -> Int {
        get {
            precondition(sizeClass >= 0 && sizeClass < Self.count, "no such size class")
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: sizeClass * MemoryLayout<Int>.stride, as: Int.self) }
        }
        set {
            precondition(sizeClass >= 0 && sizeClass < Self.count, "no such size class")
            withUnsafeMutableBytes(of: &storage) {
                $0.storeBytes(of: newValue, toByteOffset: sizeClass * MemoryLayout<Int>.stride, as: Int.self)
            }
        }
    }

    /// The first size class from `sizeClass` on whose count is above zero.
    func firstPositive(from sizeClass: Int) -> Int? {
        (sizeClass..<Self.count).first { self[$0] > 0 }
    }

    /// The counts as an array, for ``SecureMemoryReservationUsage``.
    var array: [Int] { (0..<Self.count).map { self[$0] } }
}
