/// Streaming SHA-256 (libcrypto's EVP interface): the asset's identity.
public struct ContentHasher: ~Copyable {
    public init() {
        fatalError("ContentHasher: to be written")
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        fatalError("ContentHasher.update: to be written")
    }

    /// The digest as 64 lowercase hex digits.
    public consuming func finalize() -> String {
        fatalError("ContentHasher.finalize: to be written")
    }
}
