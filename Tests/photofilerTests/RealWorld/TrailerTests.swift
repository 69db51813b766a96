import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Complete files only": a file is complete whatever follows its format's end
/// (a JPEG trailer of any size is whole), and "save it again" is said only of a
/// file that really is cut.
@Suite struct TrailerTests {
    /// Bytes that look like a motion photo's video or an app's appended data: no
    /// end marker near the end (where the old check looked), a few stray ones early
    /// on (a trailer may hold anything).
    static func trailer(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...0xFE, using: &generator) }
        for index in stride(from: 1000, to: min(count - 1, 100_000), by: 20_000) {
            bytes[index] = 0xFF
            bytes[index + 1] = 0xD9
        }
        return bytes
    }

    /// A JPEG followed by 3 MiB (no XMP announces it) is filed byte for byte.
    @Test func jpegWithALargeTrailerIsFiled() throws {
        let library = try TestLibrary()
        let picture = Pictures.uniqueJPEG(1, tag: "trailer") + Self.trailer(3 << 20)
        let input = try library.input(bytes: picture, name: "motion.jpg")
        let ids = try library.save([input], album: "Samsung")
        #expect(ids.count == 1)
        let listed = try library.list()
        #expect(listed.first?["hash"] as? String == Pictures.sha256(picture))
        #expect((listed.first?["size"] as? NSNumber)?.intValue == picture.count)
    }

    /// A trailer larger than any image a helper maps (a long motion photo's video):
    /// the JPEG's head holds its metadata, so the file is filed. A TIFF that large
    /// is said to be too large, not damaged. (The trailers are holes but for their
    /// last bytes, which are written: a file ending in a hole is one still being written.)
    @Test func aTrailerLargerThanAHelperMapsIsFiledAndABigTIFFIsTooLarge() throws {
        let library = try TestLibrary()
        func grow(_ path: BytePath, to size: Int64) throws {
            #expect(truncate(path.display, off_t(size - 4096)) == 0)
            try appendFile(path, Self.trailer(4096)[...])
        }
        let size: Int64 = 260 << 20
        let jpeg = try library.input(bytes: Pictures.uniqueJPEG(5, tag: "long video"), name: "long.jpg")
        try grow(jpeg, to: size)
        let filed = try library.run(bytes: [BytePath("save"), BytePath("--move"), jpeg])
        #expect(filed.status == 0, "\(filed.stderr)")
        #expect((try library.list().first?["size"] as? NSNumber)?.int64Value == size)

        let tiff = try library.input(bytes: try readFile(Fixtures.corpus("DNG.dng")), name: "scan.tif")
        try grow(tiff, to: 300 << 20)
        let refused = try library.run(bytes: [BytePath("save"), tiff])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("of 300 MiB, larger than the 256 MiB photofiler reads an image of"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("damaged"), "\(refused.stderr)")
    }

    /// Cut inside its scan, with or without bytes after the cut that contain no end
    /// marker of the scan: still refused as incomplete, with the advice to save it again.
    @Test func jpegCutInsideItsScanIsRefusedAsIncomplete() throws {
        let library = try TestLibrary()
        let whole = Pictures.uniqueJPEG(2, tag: "cut")
        let cut = Array(whole[..<(whole.count * 2 / 3)])
        let input = try library.input(bytes: cut, name: "cut.jpg")
        let result = try library.run(bytes: [BytePath("save"), input])
        #expect(result.status == 1)
        #expect(result.stderr.contains("incomplete JPEG"), "\(result.stderr)")
        #expect(result.stderr.contains("save it again"), "\(result.stderr)")
        #expect(try library.rollFiles().isEmpty)
    }

    /// A PNG with appended data after IEND (more than a few KiB) is whole too.
    @Test func pngWithATrailerIsFiled() throws {
        let library = try TestLibrary()
        let png = try readFile(Fixtures.corpus("IMG_2908.PNG")) + Self.trailer(200_000)
        let input = try library.input(bytes: png, name: "appended.png")
        #expect(try library.save([input]).count == 1)
    }

    /// A GIF with appended data after its trailer byte is whole; one cut in its
    /// frames is still refused as incomplete.
    @Test func gifWithATrailerIsFiledAndACutOneRefused() throws {
        let library = try TestLibrary()
        let gif = try readFile(Fixtures.corpus("throbber.gif"))
        let input = try library.input(bytes: gif + Self.trailer(100_000), name: "appended.gif")
        #expect(try library.save([input]).count == 1)
        let cut = try library.input(bytes: Array(gif[..<(gif.count / 2)]), name: "cut.gif")
        let result = try library.run(bytes: [BytePath("save"), cut])
        #expect(result.status == 1)
        #expect(result.stderr.contains("incomplete GIF"), "\(result.stderr)")
    }
}
