/// One way a camera spoils a picture, as ImageMagick operators between `convert INPUT` and the
/// output file. Parameters and noise seeds are fixed, so every run makes the same pictures.
package struct PhotoDistortion: Sendable {
    /// The kinds the table sums over.
    package enum Category: String, Sendable, CaseIterable {
        case none, rotation, perspective, blur, noise, downscaling = "down-scaling", contrast = "low contrast",
             compression = "JPEG compression", combined = "combinations"
    }

    /// A short name for the table.
    package let name: String
    package let category: Category
    /// `png` or `jpg`: what the camera would have saved.
    package let fileExtension: String
    /// The operators, for a square picture `side` pixels wide.
    package let operators: @Sendable (_ side: Int) -> [String]

    init(_ name: String, _ category: Category, _ fileExtension: String = "png", _ operators: @escaping @Sendable (_ side: Int) -> [String]) {
        self.name = name
        self.category = category
        self.fileExtension = fileExtension
        self.operators = operators
    }
}

// MARK: The operators the set is made of

/// Building blocks; `side` is the picture's width and height in pixels.
enum Camera {
    static func rotate(_ degrees: Double) -> [String] { ["-background", "white", "-rotate", "\(degrees)"] }
    static func blur(_ sigma: Double) -> [String] { ["-blur", "0x\(sigma)"] }
    static func noise(_ kind: String, _ amount: Double, seed: Int) -> [String] {
        ["-seed", "\(seed)", "-attenuate", "\(amount)", "+noise", kind]
    }
    static func resize(_ percent: Int) -> [String] { ["-resize", "\(percent)%"] }
    /// Compresses the grey range into `low`...`high` percent.
    static func contrast(_ low: Int, _ high: Int) -> [String] { ["+level", "\(low)%,\(high)%"] }
    /// Moves the four corners (top left, top right, bottom right, bottom left) inwards by the
    /// given fractions of the side, in x and y.
    static func perspective(_ side: Int, _ corners: [(Double, Double)]) -> [String] {
        let s = Double(side)
        let source = [(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)]
        let signs = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        let pairs = (0..<4).map { index -> String in
            let (x, y) = source[index]
            let (dx, dy) = corners[index]
            let (sx, sy) = signs[index]
            return "\(Int(x)),\(Int(y)) \(Int(x + sx * dx * s)),\(Int(y + sy * dy * s))"
        }
        return ["-virtual-pixel", "white", "-distort", "Perspective", pairs.joined(separator: "  ")]
    }
    /// A screen seen from above: the top edge narrower by `fraction` of the side.
    static func keystoneTop(_ side: Int, _ fraction: Double) -> [String] {
        perspective(side, [(fraction / 2, 0), (fraction / 2, 0), (0, 0), (0, 0)])
    }
    /// A screen seen from the left: the right edge shorter by `fraction` of the side.
    static func keystoneSide(_ side: Int, _ fraction: Double) -> [String] {
        perspective(side, [(0, 0), (0, fraction / 2), (0, fraction / 2), (0, 0)])
    }
    /// Light falling off from the top left corner to `darkest` percent grey at the bottom right.
    static func unevenLight(_ side: Int, darkest: Int) -> [String] {
        ["(", "+clone", "-sparse-color", "Barycentric", "0,0 white \(side),\(side) gray\(darkest)", ")",
         "-compose", "multiply", "-composite"]
    }
    /// The code on a larger grey scene, `factor` times its side.
    static func framed(_ side: Int, factor: Double) -> [String] {
        let outer = Int(Double(side) * factor)
        return ["-background", "gray55", "-gravity", "center", "-extent", "\(outer)x\(outer)", "+gravity"]
    }
    static let colour = ["-colorspace", "sRGB", "-type", "TrueColor", "-fill", "#2050a0", "-colorize", "35%"]
    static func jpeg(_ quality: Int) -> [String] { ["-quality", "\(quality)"] }
}

extension PhotoDistortion {
    /// The fixed set: 48 distortions in 8 kinds, each applied to every code of ``PhotoCode/all``.
    package static let all: [PhotoDistortion] = rotations + perspectives + blurs + noises + downscalings + contrasts
        + compressions + combinations

    /// The code as `handoff qr --png` drew it, for reference (not counted in the set).
    package static let untouched = PhotoDistortion("untouched", .none) { _ in [] }

    static let rotations: [PhotoDistortion] = [3.0, 10, 20, 30, 45, 90, 180].map { degrees in
        PhotoDistortion("rotated \(Int(degrees)) degrees", .rotation) { _ in Camera.rotate(degrees) }
    }

    static let perspectives: [PhotoDistortion] = [
        PhotoDistortion("seen from below, top 10% narrower", .perspective) { Camera.keystoneTop($0, 0.10) },
        PhotoDistortion("seen from below, top 25% narrower", .perspective) { Camera.keystoneTop($0, 0.25) },
        PhotoDistortion("seen from the left, right 15% shorter", .perspective) { Camera.keystoneSide($0, 0.15) },
        PhotoDistortion("seen from the left, right 30% shorter", .perspective) { Camera.keystoneSide($0, 0.30) },
        PhotoDistortion("oblique, four corners moved", .perspective) {
            Camera.perspective($0, [(0.05, 0.02), (0.12, 0.08), (0.03, 0.10), (0.08, 0.04)])
        },
        PhotoDistortion("sheared 15 x 5 degrees", .perspective) { _ in ["-background", "white", "-shear", "15x5"] },
    ]

    static let blurs: [PhotoDistortion] = [1.0, 2, 3, 4, 6].map { sigma in
        PhotoDistortion("out of focus, blur sigma \(sigma.formatted1)", .blur) { _ in Camera.blur(sigma) }
    } + [PhotoDistortion("shaken, motion blur 8 px at 30 degrees", .blur) { _ in ["-motion-blur", "0x8+30"] }]

    static let noises: [PhotoDistortion] = [
        PhotoDistortion("sensor noise, Gaussian 0.5", .noise) { _ in Camera.noise("Gaussian", 0.5, seed: 11) },
        PhotoDistortion("sensor noise, Gaussian 1", .noise) { _ in Camera.noise("Gaussian", 1, seed: 12) },
        PhotoDistortion("sensor noise, Gaussian 2", .noise) { _ in Camera.noise("Gaussian", 2, seed: 13) },
        PhotoDistortion("sensor noise, Gaussian 4", .noise) { _ in Camera.noise("Gaussian", 4, seed: 14) },
        PhotoDistortion("salt and pepper, impulse 0.5", .noise) { _ in Camera.noise("Impulse", 0.5, seed: 15) },
        PhotoDistortion("salt and pepper, impulse 1.5", .noise) { _ in Camera.noise("Impulse", 1.5, seed: 16) },
    ]

    static let downscalings: [PhotoDistortion] = [75, 50, 35, 25, 18].map { percent in
        PhotoDistortion("scaled down to \(percent)%", .downscaling) { _ in Camera.resize(percent) }
    }

    static let contrasts: [PhotoDistortion] = [
        PhotoDistortion("grey range 25-75%", .contrast) { _ in Camera.contrast(25, 75) },
        PhotoDistortion("grey range 40-60%", .contrast) { _ in Camera.contrast(40, 60) },
        PhotoDistortion("grey range 45-55%", .contrast) { _ in Camera.contrast(45, 55) },
        PhotoDistortion("dark, grey range 0-20%", .contrast) { _ in Camera.contrast(0, 20) },
        PhotoDistortion("washed out, grey range 80-100%", .contrast) { _ in Camera.contrast(80, 100) },
        PhotoDistortion("uneven light, corner at 25%", .contrast) { Camera.unevenLight($0, darkest: 25) },
        PhotoDistortion("inverted (a dark terminal theme)", .contrast) { _ in ["-negate"] },
    ]

    static let compressions: [PhotoDistortion] = [60, 20, 5].map { quality in
        PhotoDistortion("JPEG quality \(quality)", .compression, "jpg") { _ in Camera.jpeg(quality) }
    }

    static let combinations: [PhotoDistortion] = [
        PhotoDistortion("hand-held: rotated 6, blur 1, noise 1, JPEG 75", .combined, "jpg") { _ in
            Camera.rotate(6) + Camera.blur(1) + Camera.noise("Gaussian", 1, seed: 21) + Camera.jpeg(75)
        },
        PhotoDistortion("tilted: top 15% narrower, blur 1.5, range 30-70%", .combined) {
            Camera.keystoneTop($0, 0.15) + Camera.blur(1.5) + Camera.contrast(30, 70)
        },
        PhotoDistortion("small and soft: 45%, blur 0.8, JPEG 40", .combined, "jpg") { _ in
            Camera.resize(45) + Camera.blur(0.8) + Camera.jpeg(40)
        },
        PhotoDistortion("angled: rotated 20, right 15% shorter, noise 2", .combined) {
            Camera.rotate(20) + Camera.keystoneSide($0, 0.15) + Camera.noise("Gaussian", 2, seed: 22)
        },
        PhotoDistortion("colour screen: blue tint, range 20-80%, JPEG 70", .combined, "jpg") { _ in
            Camera.colour + Camera.contrast(20, 80) + Camera.jpeg(70)
        },
        PhotoDistortion("in the room: framed, oblique, blur 1, uneven light, JPEG 80", .combined, "jpg") { side in
            let outer = Int(Double(side) * 1.8)
            return Camera.framed(side, factor: 1.8) + Camera.perspective(outer, [(0.04, 0.02), (0.10, 0.06), (0.02, 0.08), (0.06, 0.03)])
                + Camera.blur(1) + Camera.unevenLight(outer, darkest: 40) + Camera.jpeg(80)
        },
        PhotoDistortion("dark and grainy: range 0-35%, noise 2, blur 1", .combined) { _ in
            Camera.contrast(0, 35) + Camera.noise("Gaussian", 2, seed: 23) + Camera.blur(1)
        },
        PhotoDistortion("everything: rotated 12, oblique, blur 2, noise 2, range 35-65%, 60%, JPEG 30", .combined, "jpg") {
            Camera.rotate(12) + Camera.perspective($0, [(0.03, 0.02), (0.08, 0.05), (0.02, 0.06), (0.05, 0.02)]) + Camera.blur(2)
                + Camera.noise("Gaussian", 2, seed: 24) + Camera.contrast(35, 65) + Camera.resize(60) + Camera.jpeg(30)
        },
    ]
}

extension Double {
    /// `1`, `1.5`: at most one decimal, none when whole.
    var formatted1: String { self == rounded() ? "\(Int(self))" : "\((self * 10).rounded() / 10)" }
}
