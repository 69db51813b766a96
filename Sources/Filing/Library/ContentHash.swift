import CCrypto
import PhotoFilerSystem

/// Streaming SHA-256 (libcrypto's EVP interface): the asset's identity.
///
/// `~Copyable` because it owns an `EVP_MD_CTX`: a copy would share (and free
/// twice) the one context. The EVP calls are the ones OpenSSL 3 keeps; the old
/// `SHA256_*` ones are deprecated, and EVP picks the SHA-NI code path.
public struct ContentHasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        // Both calls fail only when memory is exhausted or libcrypto is broken;
        // nothing sensible can go on without a hash, so stop loudly.
        guard let context = EVP_MD_CTX_new() else {
            fatalError("libcrypto: EVP_MD_CTX_new failed (out of memory)")
        }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            fatalError("libcrypto: EVP_DigestInit_ex(SHA-256) failed")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else {
            fatalError("libcrypto: EVP_DigestUpdate failed")
        }
    }

    /// The digest as 64 lowercase hex digits.
    public consuming func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer {
            EVP_DigestFinal_ex(context, $0.baseAddress, &length)
        }
        guard status == 1 else { fatalError("libcrypto: EVP_DigestFinal_ex failed") }
        return LowercaseHex.encode(digest.prefix(Int(length)))
    }

    /// SHA-256 of a whole buffer, for small inputs and tests.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = ContentHasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Reads the file from offset 0 to its end with `pread` (the file position is
    /// left alone, so the caller's own reads are not disturbed). For one-off hashes;
    /// filing reuses one `ContentCopier` and its buffer.
    public static func hash(_ fd: FileDescriptor) throws(SystemError) -> String {
        try ContentCopier(bufferSize: 1 << 20).hash(fd, path: "").hash
    }
}
