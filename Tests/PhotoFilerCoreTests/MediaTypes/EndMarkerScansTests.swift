import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The scans the daemon runs while a helper has not said yet what the file is: every
/// format's side by side, the type's own chosen afterwards, as if it had run alone.
@Suite struct EndMarkerScansTests {
    static func scanned(_ file: String, with scans: EndMarkerScans) throws -> EndMarkerScans {
        let path = Fixtures.corpus(file)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        var scans = scans
        _ = try ContentCopier(bufferSize: 4096).hash(fd, path: path, scanning: &scans)
        return scans
    }

    @Test(arguments: [
        ("Landscape_1.jpg", "image/jpeg"), ("IMG_2908.PNG", "image/png"), ("throbber.gif", "image/gif"),
        ("IMG_3539.MOV", "video/quicktime"),
    ])
    func aWholeFilePassesByItsType(file: String, mimeType: String) throws {
        let scans = try Self.scanned(file, with: .anyType)
        try scans.verify(mimeType: mimeType, path: BytePath(file))
    }

    @Test func aCutJPEGFailsSideBySideAsAlone() throws {
        let path = BytePath("truncated_half.jpg")
        for start in [EndMarkerScans.anyType, EndMarkerScans(mimeType: "image/jpeg")] {
            let scans = try Self.scanned("bad/truncated_half.jpg", with: start)
            #expect(throws: MediaError.truncated(path: path, format: "JPEG")) {
                try scans.verify(mimeType: "image/jpeg", path: path)
            }
        }
    }

    /// The JPEG's bytes with the last stuffed 0xFF 0x00 of its scan turned into 0xFF
    /// `code`, and the two bytes after it into 0x7F 0xFF: read as a segment's length,
    /// they would send a walk 32 KB on, past the EOI.
    static func damaged(_ code: UInt8, trailer: [UInt8] = []) throws -> [UInt8] {
        var bytes = try readFile(Fixtures.corpus("Landscape_1.jpg"))
        let stuffed = try #require(
            (0..<(bytes.count - 4)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0x00 })
        #expect(bytes.count - stuffed < 32_000, "the EOI lies within the bogus length")
        bytes.replaceSubrange(stuffed..<(stuffed + 4), with: [0xFF, code, 0x7F, 0xFF])
        return bytes + trailer
    }

    static func verify(_ bytes: [UInt8]) throws {
        var scans = EndMarkerScans.anyType
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            bytes[start..<min(start + 4096, bytes.count)].withUnsafeBytes { scans.consume($0) }
        }
        try scans.verify(mimeType: "image/jpeg", path: "damaged.jpg")
    }

    /// One bad byte in the picture's data is damage, not a cut: the file is whole, and
    /// filed (photofiler(1) "Complete files only": "save it again" only of a file that really is cut).
    @Test(arguments: [UInt8(0x12), 0xD8, 0x01, 0xF3])
    func aDamagedByteInTheDataIsNoCut(code: UInt8) throws {
        try Self.verify(try Self.damaged(code))
        try Self.verify(try Self.damaged(code, trailer: Array(repeating: 0x55, count: 300)))
    }

    /// A damaged byte that reads as a segment's marker sends the walk astray; the EOI
    /// at the file's end still says it is whole.
    @Test func aDamagedByteThatLooksLikeASegmentStillEndsAtTheEOI() throws {
        try Self.verify(try Self.damaged(0xC4))
    }

    /// Another format's scan never vouches for a file: a JPEG is not a whole PNG.
    @Test func onlyTheTypesOwnScanCounts() throws {
        let scans = try Self.scanned("Landscape_1.jpg", with: .anyType)
        let path = BytePath("Landscape_1.jpg")
        #expect(throws: MediaError.truncated(path: path, format: "PNG")) {
            try scans.verify(mimeType: "image/png", path: path)
        }
    }

    /// Whether the JPEG scan finds the end of `bytes` fed in chunks of `size`.
    static func ends(_ bytes: [UInt8], inChunksOf size: Int) -> Bool {
        var scans = EndMarkerScans(mimeType: "image/jpeg")
        for start in stride(from: 0, to: bytes.count, by: size) {
            bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { scans.consume($0) }
        }
        return (try? scans.verify(mimeType: "image/jpeg", path: "cut.jpg")) != nil
    }

    /// Fed one byte at a time the scan takes every 0xFF through its state machine;
    /// in larger chunks it passes over stuffed bytes and restart markers in place.
    /// Both give the same answer for a whole photo, with a trailer or without, for
    /// cuts of it, and for damaged copies.
    @Test func chunksOfAnySizeGiveTheSameAnswer() throws {
        let small = try readFile(Fixtures.corpus("polemonium_reptans.jpg"))  // 36 KB, a bench-sized photo
        var files = [small]
        for cut in stride(from: 1, to: small.count, by: 1_499) + [small.count - 2, small.count - 1] {
            files.append(Array(small[..<cut]))
        }
        // A trailer after the EOI (a motion photo's video, an app's data): only the walk finds that end.
        let trailer = [UInt8](repeating: 0x55, count: 300)
        files += [small + trailer, try Self.damaged(0x12, trailer: trailer), try Self.damaged(0xC4)]
        #expect(Self.ends(small, inChunksOf: 1) && Self.ends(small + trailer, inChunksOf: 1))
        #expect(!Self.ends(Array(small[..<(small.count - 1)]), inChunksOf: 1))
        for bytes in files {
            let byteByByte = Self.ends(bytes, inChunksOf: 1)
            for size in [3, 4096, bytes.count] {
                #expect(
                    Self.ends(bytes, inChunksOf: size) == byteByByte,
                    "\(bytes.count) bytes in chunks of \(size)")
            }
        }
    }
}
