/// RFC 9285 base45, only to measure what an alphanumeric-mode QR of the payload would need.
enum Base45 {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

    static func encode(_ bytes: [UInt8]) -> String {
        var output = ""
        var index = 0
        while index + 1 < bytes.count {
            let value = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            output.append(alphabet[value % 45])
            output.append(alphabet[value / 45 % 45])
            output.append(alphabet[value / 2025])
            index += 2
        }
        if index < bytes.count {
            let value = Int(bytes[index])
            output.append(alphabet[value % 45])
            output.append(alphabet[value / 45])
        }
        return output
    }
}
