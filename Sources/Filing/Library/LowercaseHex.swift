/// Bytes written as lowercase hex, two digits a byte: how an asset's SHA-256 is
/// stored and shown, and how the freedesktop cache names a thumbnail (the MD5 of
/// its URI). One table look-up a digit; `String(_:radix:)` a byte cost the
/// thumbnail cache's name 13,000 instructions of its 21,000 (callgrind).
enum LowercaseHex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var position = 0
            for byte in bytes {
                text[position] = digits[Int(byte >> 4)]
                text[position + 1] = digits[Int(byte & 0x0F)]
                position += 2
            }
            return position
        }
    }
}
