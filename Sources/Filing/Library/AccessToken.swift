import PhotoFilerSystem

/// Secret tokens of the gallery (`serve --token`, the per-run write token, `share` links).
public enum AccessToken {
    /// 32 random bytes as URL-safe base64 without padding (43 characters).
    public static func generate() throws(SystemError) -> String {
        let bytes = try Sys.randomBytes(32)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var text: [UInt8] = []
        var bits = 0
        var pending: UInt32 = 0
        for byte in bytes {
            pending = pending << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(alphabet[Int(pending >> UInt32(bits) & 0x3F)])
            }
        }
        if bits > 0 { text.append(alphabet[Int(pending << UInt32(6 - bits) & 0x3F)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// What the catalog keeps of a share token: its SHA-256, lowercase hex.
    public static func hash(_ token: String) -> String {
        Array(token.utf8).withUnsafeBytes { ContentHasher.hash($0) }
    }

    /// Compares two tokens in time that depends on their lengths only.
    public static func matches(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
