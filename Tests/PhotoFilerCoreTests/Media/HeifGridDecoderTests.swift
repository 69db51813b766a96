import CVips
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// Grid HEICs decoded tile by tile give the picture libvips' whole-image decode
/// gives: the same size, the same pixels within the noise of two scalings.
@Suite
struct HeifGridDecoderTests {
    /// The tile-by-tile and the whole-image thumbnails of `path`, read back.
    static func both(_ path: BytePath, edge: Int) throws -> (tiled: DecodedPicture, whole: DecodedPicture) {
        let (decoded, whole) = try DecodedPicture.bothWays(path, edge: edge, decoder: HeifGridDecoder.decode)
        return (decoded, whole)
    }

    @Test(arguments: [1024, 256])
    func theIPhoneGridIsTheWholeImagesPicture(edge: Int) throws {
        // 4032 × 3024 in 8 × 6 tiles of 512, the last ones cropped, a Display P3 profile.
        let (tiled, whole) = try Self.both(Corpus.path("IMG_2682.heic"), edge: edge)
        #expect((tiled.width, tiled.height) == (edge, edge * 3 / 4))
        #expect((tiled.width, tiled.height) == (whole.width, whole.height))
        #expect(tiled.difference(from: whole) < 2, "mean difference per sample")
        #expect(tiled.contrast > 20)
    }

    /// A grid stored turned, with `irot` (made for this test:
    /// `Tests/Fixtures/heif-orientation/README.md`): libheif turns each tile and
    /// gives its place in the upright picture.
    @Test
    func aTurnedGridComesOutUpright() throws {
        let folder = Fixtures.root.appending("heif-orientation")
        let (tiled, whole) = try Self.both(folder.appending("grid-turned.heic"), edge: 256)
        let upright = try DecodedPicture(try Self.bytes(folder.appending("upright-256.jpg")))
        #expect((tiled.width, tiled.height) == (256, 192))
        // Measured: 2.9 from the whole decode (another chain of scalings over a picture
        // with lettering), 4.3 from the upright original (and the HEVC tiles' loss).
        // Tiles out of place, or not turned, were 60 to 90 (libheif's own decode of
        // grids written wrongly, see the README).
        #expect(tiled.difference(from: whole) < 4, "mean difference per sample")
        #expect(tiled.difference(from: upright) < 8)
    }

    /// Grids in the shapes phones write: the last column and row partly outside the
    /// picture, a clean aperture off the centre, every turn and mirror, with the EXIF
    /// orientation Apple writes beside `irot` (which a HEIF reader leaves alone), with
    /// an HDR gain map or a depth map beside the picture.
    @Test(arguments: [
        "iphone15pro-grid-irot270-exif6.heic", "iphone15pro-half-grid-irot270-exif6.heic",
        "iphone15pro-grid-gainmap.heic", "iphone15pro-grid-depth.heic", "iphonexr-grid-irot270-exif6.heic",
        "samsung-grid-stored-turned.heic", "grid-clap.heic", "grid-clap-irot90-exif8.heic",
        "grid-irot180-exif3.heic", "grid-imir0.heic", "grid-imir1.heic", "grid-irot270-imir0.heic",
        "grid-irot90-imir1.heic", "grid-clap-irot270-imir1.heic",
    ])
    func aPhonesGridIsTheWholeImagesPicture(file: String) throws {
        let (tiled, whole) = try Self.both(Fixtures.phones(file), edge: 256)
        #expect((tiled.width, tiled.height) == (whole.width, whole.height))
        #expect(tiled.difference(from: whole) < 4, "mean difference per sample")
    }

    /// Turned and mirrored (libheif 1.19 misplaces such tiles when it places them in
    /// the upright picture): decoded as stored and turned and mirrored small, it is
    /// upright.
    @Test
    func aTurnedMirroredGridComesOutUpright() throws {
        let folder = Fixtures.root.appending("heif-orientation")
        let (tiled, whole) = try Self.both(folder.appending("grid-turned-mirrored.heic"), edge: 256)
        let upright = try DecodedPicture(try Self.bytes(folder.appending("upright-256.jpg")))
        #expect((tiled.width, tiled.height) == (256, 192))
        #expect(tiled.difference(from: whole) < 4, "mean difference per sample")
        #expect(tiled.difference(from: upright) < 8)
    }

    /// A file whose every `ispe` claims 200,000 × 200,000 is refused by libheif's
    /// limits; the reason is libheif's own words, read before its context is freed
    /// (read after, it was whatever the freed memory then held).
    @Test
    func aRefusedFilesReasonIsLibheifsOwnWords() throws {
        var bytes = try Self.bytes(Corpus.path("IMG_2682.heic"))
        let ispe = Array("ispe".utf8)
        var index = 0
        while index + 16 <= bytes.count {
            if Array(bytes[index..<index + 4]) == ispe {
                // "ispe", version and flags (4), then the width and height, big-endian.
                for offset in [index + 8, index + 12] {
                    bytes.replaceSubrange(offset..<offset + 4, with: [0x00, 0x03, 0x0D, 0x40])
                }
            }
            index += 1
        }
        let folder = try TemporaryFolder()
        let path = folder.file("huge.heic")
        try writeFile(path, bytes)
        var reasons: [String] = []
        for _ in 0..<2 {
            let fd = try Sys.openForReading(path)
            defer { fd.close() }
            do {
                _ = try HeifPrimaryImage.open(fd, size: Int64(bytes.count))
                Issue.record("libheif opened an image of 200,000 × 200,000")
            } catch {
                reasons.append(error.reason)
            }
        }
        #expect(reasons.count == 2 && reasons[0] == reasons[1], "\(reasons)")
        #expect(
            reasons.allSatisfy { $0.hasPrefix("libheif: ") && $0.unicodeScalars.allSatisfy(\.isASCII) },
            "\(reasons)")
    }

    static func bytes(_ path: BytePath) throws -> [UInt8] {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: Int(try fd.status().size))
        let count = try bytes.withUnsafeMutableBytes { try fd.read(into: $0, at: 0) }
        bytes.removeSubrange(count...)
        return bytes
    }
}
