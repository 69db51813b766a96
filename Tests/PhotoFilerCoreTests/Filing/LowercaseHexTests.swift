import Testing

@testable import PhotoFilerFiling

/// The digests photofiler writes: SHA-256 (an asset's identity) and the
/// freedesktop thumbnail cache's MD5 of a URI, as lowercase hex.
@Suite struct LowercaseHexTests {
    @Test func everyByteIsTwoLowercaseDigits() {
        #expect(LowercaseHex.encode([0x00, 0x0F, 0xA0, 0xFF, 0x5C]) == "000fa0ff5c")
        #expect(LowercaseHex.encode([UInt8]()) == "")
    }

    @Test func theDigestsMatchTheirKnownAnswers() {
        // The thumbnail specification's own example.
        #expect(FileURIDigest.md5("file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697")
        let empty = [UInt8]().withUnsafeBytes { ContentHasher.hash($0) }
        #expect(empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
