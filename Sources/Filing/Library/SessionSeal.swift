import CCrypto
import PhotoFilerSystem

extension AccessToken {
    /// HMAC-SHA256 of `message` under `key`, lowercase hex: what a gallery cookie
    /// carries instead of a token (a session a browser was given, worthless as the
    /// token itself and to any other gallery).
    public static func authenticator(_ message: String, key: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let keyBytes = Array(key.utf8)
        let messageBytes = Array(message.utf8)
        let made = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                digest.withUnsafeMutableBufferPointer {
                    HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                        messageBuffer.baseAddress,
                        messageBuffer.count, $0.baseAddress, &length)
                }
            }
        }
        guard made != nil else { fatalError("libcrypto: HMAC(SHA-256) failed") }
        return LowercaseHex.encode(digest.prefix(Int(length)))
    }
}

/// A number sealed with a key of this run (AES-128 of the number and a context):
/// 32 hex digits that say nothing of the number, and open only with the same
/// context. A shared album's event stream numbers its events so: the library's own
/// sequence numbers would show, through their gaps, how much changed elsewhere.
public struct NumberSeal: Sendable {
    private let key: [UInt8]

    public init() throws(SystemError) {
        key = try Sys.randomBytes(16)
    }

    public func seal(_ number: Int64, context: UInt64) -> String {
        var block = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: UInt64(bitPattern: number).bigEndian) { block.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: context.bigEndian) { block.replaceSubrange(8..<16, with: $0) }
        return LowercaseHex.encode(cipher(block, encrypt: true))
    }

    /// The number sealed in `text` for `context`; nil for anything else.
    public func open(_ text: String, context: UInt64) -> Int64? {
        let digits = Array(text.utf8)
        guard digits.count == 32 else { return nil }
        var block: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
            else { return nil }
            block.append(byte)
        }
        let plain = cipher(block, encrypt: false)
        let sealedContext = plain[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard sealedContext == context else { return nil }
        return Int64(bitPattern: plain[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// One AES-128 block, without padding.
    private func cipher(_ block: [UInt8], encrypt: Bool) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("libcrypto: EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: 32)
        var written: Int32 = 0
        let done = key.withUnsafeBufferPointer { keyBuffer in
            block.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    EVP_CipherInit_ex(
                        context, EVP_aes_128_ecb(), nil, keyBuffer.baseAddress, nil, encrypt ? 1 : 0)
                        == 1 && EVP_CIPHER_CTX_set_padding(context, 0) == 1
                        && EVP_CipherUpdate(context, out.baseAddress, &written, input.baseAddress, 16) == 1
                }
            }
        }
        guard done, written == 16 else { fatalError("libcrypto: AES-128 of one block failed") }
        return Array(output.prefix(16))
    }
}
