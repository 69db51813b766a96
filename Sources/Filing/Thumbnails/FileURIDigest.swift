import CCrypto

/// The freedesktop thumbnail cache names a file's thumbnail by the MD5 of its URI
/// (lowercase hex). MD5 is the spec's choice, not a security property.
enum FileURIDigest {
    static func md5(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        let status = digest.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer {
                EVP_Digest($0.baseAddress, $0.count, out.baseAddress, &length, EVP_md5(), nil)
            }
        }
        // Fails only when libcrypto itself is broken: nothing sensible can go on.
        guard status == 1 else { fatalError("libcrypto: EVP_Digest(MD5) failed") }
        return LowercaseHex.encode(digest.prefix(Int(length)))
    }
}
